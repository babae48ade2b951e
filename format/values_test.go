package format

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// A wholly known value has a type and a value as cty writes them, null of
// type "dynamic", marks dropped; a value with unknown parts has neither.
func TestTypedJSON(t *testing.T) {
	for _, tc := range []struct {
		v        cty.Value
		ok       bool
		typ, val string
	}{
		{cty.StringVal("a"), true, `"string"`, `"a"`},
		{cty.NullVal(cty.String), true, `"dynamic"`, `null`},
		{cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.True}).Mark(marks.Sensitive), true, `["tuple",["number","bool"]]`, `[1,true]`},
		{cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)}), false, ``, ``},
	} {
		typ, val, ok := typedJSON(tc.v)
		if ok != tc.ok || string(typ) != tc.typ || string(val) != tc.val {
			t.Errorf("%#v: %s %s %v, want %s %s %v", tc.v, typ, val, ok, tc.typ, tc.val, tc.ok)
		}
	}
}
