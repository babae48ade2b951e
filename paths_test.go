package tfeval_test

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/marks"
)

func TestLookup(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"id":          cty.UnknownVal(cty.String),
		"name":        cty.StringVal("web").Mark(marks.Sensitive),
		"tags":        cty.MapVal(map[string]cty.Value{"k8s.io/role": cty.StringVal("node")}),
		"list":        cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)})}),
		"null":        cty.NullVal(cty.String),
		"dyn":         cty.DynamicVal,
		"set":         cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}),
		"secret_set":  cty.SetVal([]cty.Value{cty.StringVal("s")}).Mark(marks.Sensitive),
		"unknown_set": cty.UnknownVal(cty.Set(cty.String)),
		"null_set":    cty.NullVal(cty.Set(cty.String)),
	})
	tests := []struct {
		path    string
		want    cty.Value
		wantErr bool
	}{
		{"", v, false},
		{"id", cty.UnknownVal(cty.String), false},
		{"name", cty.StringVal("web").Mark(marks.Sensitive), false},
		{`tags["k8s.io/role"]`, cty.StringVal("node"), false},
		{"list[0].x", cty.NumberIntVal(1), false},
		{`list[0]["x"]`, cty.NumberIntVal(1), false},
		{"null", cty.NullVal(cty.String), false},
		{"dyn.anything[3]", cty.DynamicVal, false},
		// A set's elements by position, in the order render.Value prints.
		{"set[0]", cty.StringVal("a"), false},
		{"set[1]", cty.StringVal("b"), false},
		{"secret_set[0]", cty.StringVal("s").Mark(marks.Sensitive), false},
		{"unknown_set[4]", cty.UnknownVal(cty.String), false},
		{"set[2]", cty.NilVal, true},
		{`set["a"]`, cty.NilVal, true},
		{"null_set[0]", cty.NilVal, true},
		{"missing", cty.NilVal, true},
		{"list[5]", cty.NilVal, true},
		{"list[", cty.NilVal, true},
		{"list[*]", cty.NilVal, true},
		{"name.more", cty.NilVal, true},
	}
	for _, tt := range tests {
		got, err := tfeval.Lookup(v, tt.path)
		if (err != nil) != tt.wantErr {
			t.Errorf("Lookup(%q) error = %v, want error %v", tt.path, err, tt.wantErr)
			continue
		}
		if !got.RawEquals(tt.want) {
			t.Errorf("Lookup(%q) = %#v, want %#v", tt.path, got, tt.want)
		}
	}
	if got, err := tfeval.Lookup(cty.TupleVal([]cty.Value{cty.True}), "[0]"); err != nil || !got.RawEquals(cty.True) {
		t.Errorf("Lookup([0]) = %#v, %v", got, err)
	}
	// No value at all (what a failed lookup returns) is an error, not a panic.
	if _, err := tfeval.Lookup(cty.NilVal, "a.b"); err == nil {
		t.Error("Lookup(cty.NilVal, a.b) should fail")
	}
	if got, err := tfeval.Lookup(cty.NilVal, ""); err != nil || got.Type() != cty.NilType {
		t.Errorf("Lookup(cty.NilVal, \"\") = %#v, %v", got, err)
	}
}

// TestParsePathRoundTrips checks that ParsePath and FormatPath are each
// other's inverse on the canonical syntax, in both directions.
func TestParsePathRoundTrips(t *testing.T) {
	tests := []struct {
		text string
		path cty.Path
	}{
		{"", cty.Path{}},
		{"tags", cty.GetAttrPath("tags")},
		{"tags.Name", cty.GetAttrPath("tags").GetAttr("Name")},
		{`tags["kubernetes.io/role"]`, cty.GetAttrPath("tags").Index(cty.StringVal("kubernetes.io/role"))},
		{"ingress[0].cidr_blocks[12]", cty.GetAttrPath("ingress").Index(cty.NumberIntVal(0)).GetAttr("cidr_blocks").Index(cty.NumberIntVal(12))},
		{`[0].id`, cty.Path{cty.IndexStep{Key: cty.NumberIntVal(0)}}.GetAttr("id")},
		{`["a"]["b"]`, cty.IndexPath(cty.StringVal("a")).Index(cty.StringVal("b"))},
		{`m["quote\"and\\backslash"]`, cty.GetAttrPath("m").Index(cty.StringVal(`quote"and\backslash`))},
		{`m["line\nbreak"]`, cty.GetAttrPath("m").Index(cty.StringVal("line\nbreak"))},
		{`m["é ü"].x-y`, cty.GetAttrPath("m").Index(cty.StringVal("é ü")).GetAttr("x-y")},
		{"big[123456789012]", cty.GetAttrPath("big").Index(cty.NumberIntVal(123456789012))},
	}
	for _, tt := range tests {
		got, err := tfeval.ParsePath(tt.text)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", tt.text, err)
			continue
		}
		if !got.Equals(tt.path) {
			t.Errorf("ParsePath(%q) = %#v, want %#v", tt.text, got, tt.path)
		}
		if back := tfeval.FormatPath(got); back != tt.text {
			t.Errorf("FormatPath(ParsePath(%q)) = %q", tt.text, back)
		}
		if text := tfeval.FormatPath(tt.path); text != tt.text {
			t.Errorf("FormatPath(%#v) = %q, want %q", tt.path, text, tt.text)
		}
	}
}

func TestFormatPath(t *testing.T) {
	tests := []struct {
		path cty.Path
		want string
	}{
		{cty.GetAttrPath("a").Index(cty.NumberIntVal(2)).Index(cty.StringVal(`x"y`)).GetAttr("b c").GetAttr("d"), `a[2]["x\"y"]["b c"].d`},
		// An attribute that is not an identifier reads back as an index,
		// which Lookup treats the same.
		{cty.GetAttrPath("b c"), `["b c"]`},
		{cty.GetAttrPath("s").Index(cty.UnknownVal(cty.String)), "s[?]"},
		{cty.GetAttrPath("s").Index(cty.ObjectVal(map[string]cty.Value{"a": cty.True})), "s[?]"},
		{cty.GetAttrPath("s").Index(cty.StringVal("k").Mark(marks.Sensitive)), `s["k"]`},
		{cty.GetAttrPath("s").Index(cty.NilVal), "s[?]"},
	}
	for _, tt := range tests {
		if got := tfeval.FormatPath(tt.path); got != tt.want {
			t.Errorf("FormatPath(%#v) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

func TestParsePathErrors(t *testing.T) {
	for _, text := range []string{"a[", "a[?]", "a[*]", "a.", "[x]", "a b", `a["x"`, "a(1)"} {
		if p, err := tfeval.ParsePath(text); err == nil {
			t.Errorf("ParsePath(%q) = %#v, want an error", text, p)
		}
	}
}

// TestPathsReadBack checks that every path UnknownPaths and SensitivePaths
// write is one Lookup reads, reaching the unknown or sensitive value.
func TestPathsReadBack(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"set": cty.SetVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "id": cty.UnknownVal(cty.String)}),
			cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("y"), "id": cty.StringVal("k").Mark(marks.Sensitive)}),
		}),
		"odd key": cty.MapVal(map[string]cty.Value{"k.8": cty.UnknownVal(cty.Number)}),
		"secret":  cty.StringVal("s").Mark(marks.Sensitive),
	})
	for _, p := range tfeval.UnknownPaths(v) {
		got, err := tfeval.Lookup(v, p)
		if err != nil || got.IsKnown() {
			t.Errorf("unknown path %q: Lookup = %#v, %v", p, got, err)
		}
	}
	for _, p := range tfeval.SensitivePaths(v) {
		got, err := tfeval.Lookup(v, p)
		if err != nil || !got.HasMark(marks.Sensitive) {
			t.Errorf("sensitive path %q: Lookup = %#v, %v", p, got, err)
		}
	}
	if got := len(tfeval.UnknownPaths(v)) + len(tfeval.SensitivePaths(v)); got != 4 {
		t.Errorf("found %d paths, want 4: %q %q", got, tfeval.UnknownPaths(v), tfeval.SensitivePaths(v))
	}
}
