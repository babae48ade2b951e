package elements

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// A large set of strings is walked from its strings, with cty's keys,
// elements and order; sets the fast path does not take (unknown or null
// elements, other element types, small sets) are walked by cty.
func TestStringSetMatchesCty(t *testing.T) {
	strs := func(n int, extra ...cty.Value) []cty.Value {
		var out []cty.Value
		for i := range n {
			// Not in lexical order, some not ASCII, one a prefix of another.
			out = append(out, cty.StringVal(fmt.Sprintf("k%d-é%d", (i*7919)%n, i%3)))
		}
		return append(out, extra...)
	}
	for name, tc := range map[string]struct {
		v    cty.Value
		fast bool
	}{
		"large":                  {cty.SetVal(strs(500, cty.StringVal(""), cty.StringVal("k1"))), true},
		"small":                  {cty.SetVal(strs(10)), false},
		"unknown":                {cty.SetVal(strs(100, cty.UnknownVal(cty.String))), false},
		"null":                   {cty.SetVal(strs(100, cty.NullVal(cty.String))), false},
		"numbers":                {cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(1)}), false},
		"marks moved to the set": {cty.SetVal(strs(100, cty.StringVal("secret").Mark("m"))), true},
	} {
		v, _ := tc.v.Unmark()
		it := Of(v)
		if (it.set != nil) != tc.fast {
			t.Errorf("%s: fast path %v, want %v", name, it.set != nil, tc.fast)
		}
		if walked(&it) != walked(v.ElementIterator()) {
			t.Errorf("%s: order differs from cty's", name)
		}
	}
}
