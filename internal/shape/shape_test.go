package shape

import (
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// The three descriptions of a value, as show -json writes after,
// after_unknown and after_sensitive, for values with unknown, null and
// sensitive parts in every kind of collection.
func TestShapes(t *testing.T) {
	secret := func(v cty.Value) cty.Value { return v.Mark(marks.Sensitive) }
	for _, tc := range []struct {
		name                      string
		v                         cty.Value
		known, unknown, sensitive string
	}{
		{"string", cty.StringVal("a"), `"a"`, `false`, `false`},
		{"null", cty.NullVal(cty.String), `null`, `false`, `false`},
		{"unknown", cty.UnknownVal(cty.String), `null`, `true`, `false`},
		{"sensitive", secret(cty.StringVal("s")), `"s"`, `false`, `true`},
		{"number", cty.NumberFloatVal(1.5), `1.5`, `false`, `false`},
		{"object", cty.ObjectVal(map[string]cty.Value{
			"id":   cty.UnknownVal(cty.String),
			"name": cty.StringVal("n"),
			"pw":   secret(cty.StringVal("p")),
			"tags": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}),
		}), `{"name":"n","pw":"p","tags":{"a":"1"}}`, `{"id":true,"tags":{}}`, `{"pw":true,"tags":{}}`},
		{"list", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), `["a",null]`, `[false,true]`, `[false,false]`},
		{"unknown list", cty.UnknownVal(cty.List(cty.String)), `null`, `true`, `[]`},
		{"unknown object", cty.UnknownVal(cty.EmptyObject), `null`, `true`, `{}`},
		{"set of objects", cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"p": cty.NumberIntVal(1)})}), `[{"p":1}]`, `[{}]`, `[{}]`},
	} {
		for _, part := range []struct {
			name string
			got  any
			want string
		}{{"Known", Known(tc.v), tc.known}, {"Unknown", Unknown(tc.v), tc.unknown}, {"Sensitive", Sensitive(tc.v), tc.sensitive}} {
			b, err := json.Marshal(part.got)
			if err != nil {
				t.Fatalf("%s: %s: %v", tc.name, part.name, err)
			}
			if string(b) != part.want {
				t.Errorf("%s: %s = %s, want %s", tc.name, part.name, b, part.want)
			}
		}
	}
}

// EachElement visits every attribute of an object and every element of a
// map, with its key.
func TestEachElement(t *testing.T) {
	seen := map[string]string{}
	EachElement(cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v"), "l": cty.StringVal("w")}), func(name string, e cty.Value) {
		seen[name] = e.AsString()
	})
	EachElement(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("b")}), func(name string, e cty.Value) {
		seen[name] = e.AsString()
	})
	if len(seen) != 3 || seen["k"] != "v" || seen["l"] != "w" || seen["a"] != "b" {
		t.Errorf("visited %v", seen)
	}
}
