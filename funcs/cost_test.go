package funcs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestCallCosts: a call whose work grows with its input is charged by that
// work, before it does it; small calls cost nothing beyond their step.
func TestCallCosts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	mb := cty.StringVal(strings.Repeat("a b ", 1<<18)) // 1 MiB
	list := make([]cty.Value, 10_000)
	for i := range list {
		list[i] = cty.StringVal(fmt.Sprint(i))
	}
	nested := cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal(list)})
	for _, tt := range []struct {
		name     string
		args     []cty.Value
		min, max int64 // steps charged, besides the call's own
	}{
		{"length", []cty.Value{mb}, 1 << 18, 1 << 19},
		{"strrev", []cty.Value{mb}, 1 << 18, 1 << 20},
		{"substr", []cty.Value{mb, cty.NumberIntVal(1), cty.NumberIntVal(2)}, 1 << 19, 1 << 20},
		{"sha256", []cty.Value{mb}, 1 << 13, 1 << 14},
		{"filesha512", []cty.Value{cty.StringVal("big.bin")}, 1 << 13, 1 << 14},
		{"regex", []cty.Value{cty.StringVal("a b a"), mb}, 1 << 18, 1 << 20},
		{"regexall", []cty.Value{cty.StringVal("z+"), mb}, 1 << 19, 1 << 21},
		{"replace", []cty.Value{mb, cty.StringVal("/b/"), cty.StringVal("")}, 1 << 19, 1 << 21},
		{"contains", []cty.Value{cty.ListVal(list), cty.StringVal("none")}, 10_000, 40_000},
		{"index", []cty.Value{cty.ListVal(list), cty.StringVal("9999")}, 10_000, 40_000},
		{"contains", []cty.Value{cty.TupleVal([]cty.Value{nested, nested}), nested}, 20_000, 200_000},
		{"bcrypt", []cty.Value{cty.StringVal("x"), cty.NumberIntVal(5)}, bcryptStepsPerRound << 5, bcryptStepsPerRound << 5},
		// Small calls.
		{"length", []cty.Value{cty.StringVal("abc")}, 0, 0},
		{"regex", []cty.Value{cty.StringVal("^[a-z]+$"), cty.StringVal("abc")}, 0, 2},
		{"contains", []cty.Value{cty.ListVal(list[:3]), cty.StringVal("2")}, 6, 6},
		{"sha256", []cty.Value{cty.StringVal("abc")}, 0, 0},
	} {
		var charged int64
		table := Functions(Options{BaseDir: dir, ConsoleMode: true, Charge: func(n int64) error { charged += n; return nil }})
		v, err := table[tt.name].Call(tt.args)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if work := charged - resultSteps(v); work < tt.min || work > tt.max {
			t.Errorf("%s: %d steps charged for its work, want %d to %d", tt.name, work, tt.min, tt.max)
		}
	}
}

// resultSteps is what chargeResult charges for a result.
func resultSteps(v cty.Value) int64 {
	var n int64
	env := &env{opts: Options{Charge: func(c int64) error { n = c; return nil }}}
	env.chargeResult(v)
	return n
}

// TestCallRefusedBeforeWork: a call the budget cannot pay for fails at
// once, without doing its work: a budget of a thousand steps refuses
// length() of 32 MiB without counting its characters.
func TestCallRefusedBeforeWork(t *testing.T) {
	errBudget := errors.New("budget spent")
	table := Functions(Options{Charge: func(n int64) error {
		if n > 1000 {
			return errBudget
		}
		return nil
	}})
	huge := cty.StringVal(strings.Repeat("é", 16<<20))
	for _, name := range []string{"length", "substr", "strrev", "sha512", "regex"} {
		args := []cty.Value{huge}
		switch name {
		case "substr":
			args = append(args, cty.NumberIntVal(0), cty.NumberIntVal(1))
		case "regex":
			args = []cty.Value{cty.StringVal("x"), huge}
		}
		allocs := testing.AllocsPerRun(1, func() {
			if _, err := table[name].Call(args); !errors.Is(err, errBudget) {
				t.Errorf("%s: %v, want the budget's error", name, err)
			}
		})
		if allocs > 100 {
			t.Errorf("%s: %.0f allocations before it was refused", name, allocs)
		}
	}
}

// TestReplacedLength: the bound replace checks before building its result
// is the result's length for literal patterns, and never below it for
// regular expressions.
func TestReplacedLength(t *testing.T) {
	for _, tt := range []struct{ s, pattern, repl string }{
		{strings.Repeat(" ", 1000), " ", "a"},
		{strings.Repeat(" ", 1000), " ", ""},
		{strings.Repeat(" ", 1000), " ", "ab"},
		{"abc", "", "-"},
		{"héllo", "", "--"},
		{strings.Repeat("ab", 100), "/(a)(b)/", "$2$1$2"},
		{strings.Repeat("ab", 100), "/b*/", "x"},
		{"aaa", "/a/", ""},
	} {
		got := replacedLength(tt.s, tt.pattern, tt.repl, regexp.Compile)
		v, err := replaceFunc.Call([]cty.Value{cty.StringVal(tt.s), cty.StringVal(tt.pattern), cty.StringVal(tt.repl)})
		if err != nil {
			t.Fatal(err)
		}
		want := int64(len(v.AsString()))
		regex := strings.HasPrefix(tt.pattern, "/")
		if got < want || !regex && got != want {
			t.Errorf("replace(%.20q, %q, %q): bound %d, result %d bytes", tt.s, tt.pattern, tt.repl, got, want)
		}
	}
}

// TestLargeResultsRefusedFirst: split and regexall refuse a result of more
// elements than the limit before making it, and replace one longer than
// the limit; replace whose result fits is not refused, however many
// matches it has.
func TestLargeResultsRefusedFirst(t *testing.T) {
	table := Functions(Options{Limits: Limits{MaxElements: 1000, MaxStringLength: 64 << 10}})
	spaces := cty.StringVal(strings.Repeat(" ", 64<<10))
	for _, tt := range []struct {
		name string
		args []cty.Value
		want string // "" for success
	}{
		{"split", []cty.Value{cty.StringVal(" "), spaces}, "Limits.MaxElements"},
		{"regexall", []cty.Value{cty.StringVal(" "), spaces}, "Limits.MaxElements"},
		{"replace", []cty.Value{spaces, cty.StringVal(" "), cty.StringVal("ab")}, "Limits.MaxStringLength"},
		{"replace", []cty.Value{spaces, cty.StringVal("/ /"), cty.StringVal("$0$0")}, "Limits.MaxStringLength"},
		{"replace", []cty.Value{spaces, cty.StringVal(" "), cty.StringVal("a")}, ""},
		{"replace", []cty.Value{spaces, cty.StringVal("/ /"), cty.StringVal("a")}, ""},
		{"split", []cty.Value{cty.StringVal(","), cty.StringVal(strings.Repeat("a,", 999))}, ""},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := table[tt.name].Call(tt.args)
		runtime.ReadMemStats(&after)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		}
		// Refused before the result is made: what the check allocates
		// is about the size of the input, not of the 64 Ki parts the
		// call would make.
		if n := after.TotalAlloc - before.TotalAlloc; tt.want != "" && !raceDetector && n > 1<<20 {
			t.Errorf("%s: %d bytes allocated before it was refused", tt.name, n)
		}
	}
}
