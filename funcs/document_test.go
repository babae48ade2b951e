package funcs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// aliasBomb is a YAML document of a few hundred bytes whose aliases repeat
// its first list ten times at each of eight levels: 10^9 strings.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString(`l0: &l0 ["x","x","x","x","x","x","x","x","x","x"]` + "\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 10), ","))
	}
	return b.String()
}

// TestDocumentLimits: jsondecode, yamldecode and DecodeJSON refuse a
// document that nests too deeply, holds too many values (a YAML alias
// counting every value it repeats) or writes a number too long, before
// they decode it.
func TestDocumentLimits(t *testing.T) {
	lim := Limits{MaxElements: 1000, MaxNesting: 50}
	table := Functions(Options{Limits: lim})
	for _, tt := range []struct {
		name, doc, want string
	}{
		{"yamldecode", aliasBomb(), "Limits.MaxElements"},
		{"yamldecode", "a: [" + strings.Repeat("1, ", 1000) + "1]", "Limits.MaxElements"},
		{"yamldecode", strings.Repeat("[", 60) + strings.Repeat("]", 60), "Limits.MaxNesting"},
		{"yamldecode", "a: " + strings.Repeat("9", 30000), "more than"},
		{"jsondecode", "[" + strings.Repeat("1,", 1000) + "1]", "Limits.MaxElements"},
		{"jsondecode", strings.Repeat("[", 60) + strings.Repeat("]", 60), "Limits.MaxNesting"},
		{"jsondecode", "[" + strings.Repeat("9", 30000) + "]", "more than"},
		{"jsondecode", `{"a": [1, 2, {"b": "[[[[,,,,"}]}`, ""},
		{"yamldecode", "a: &a [1, 2]\nb: *a\nc: *a\n", ""},
	} {
		allocs := testing.AllocsPerRun(1, func() {
			_, err := table[tt.name].Call([]cty.Value{cty.StringVal(tt.doc)})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("%s(%.40q): %v", tt.name, tt.doc, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("%s(%.40q): %v, want %s", tt.name, tt.doc, err, tt.want)
			}
		})
		if allocs > 20_000 {
			t.Errorf("%s(%.40q): %.0f allocations", tt.name, tt.doc, allocs)
		}
		if tt.name != "jsondecode" {
			continue
		}
		_, err := DecodeJSON(tt.doc, lim)
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("DecodeJSON(%.40q): %v, want %q", tt.doc, err, tt.want)
		}
	}
}

// TestDocumentChargedOnce: decoding a document is charged by its length
// the first time; the calls that find it decoded cost their step alone.
func TestDocumentChargedOnce(t *testing.T) {
	var charged int64
	table := Functions(Options{Charge: func(n int64) error { charged += n; return nil }})
	for name, doc := range map[string]string{
		"jsondecode": `{"a": "` + strings.Repeat("x", 1600) + `"}`,
		"yamldecode": "a: " + strings.Repeat("x", 1600),
	} {
		charged = 0
		arg := []cty.Value{cty.StringVal(doc)}
		v, err := table[name].Call(arg)
		if err != nil {
			t.Fatal(err)
		}
		first := charged - resultSteps(v)
		if first < 100 {
			t.Errorf("%s: the first decoding charged %d steps", name, first)
		}
		charged = 0
		if _, err := table[name].Call(arg); err != nil {
			t.Fatal(err)
		}
		if charged != resultSteps(v) {
			t.Errorf("%s: decoding again charged %d steps", name, charged)
		}
	}
}
