package elements

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestSetMatchesCty(t *testing.T) {
	obj := func(a string, n int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal(a), "n": cty.NumberIntVal(n)})
	}
	for name, vals := range map[string][]cty.Value{
		"strings":        {cty.StringVal("b"), cty.StringVal("a"), cty.StringVal("b")},
		"objects":        {obj("x", 1), obj("y", 2), obj("x", 1)},
		"unknown":        {cty.StringVal("a"), cty.UnknownVal(cty.String)},
		"refined":        {cty.UnknownVal(cty.String).RefineNotNull(), cty.StringVal("a")},
		"null":           {cty.NullVal(cty.String), cty.StringVal("a")},
		"nested":         {cty.ListVal([]cty.Value{obj("x", 1)}), cty.ListValEmpty(obj("", 0).Type())},
		"marked element": {cty.StringVal("a").Mark("m"), cty.StringVal("b")},
		"nested mark":    {cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s").Mark("m")}), cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("t")})},
		"dynamic first":  {cty.DynamicVal, cty.StringVal("a")},
		"one":            {obj("x", 1)},
	} {
		want := cty.SetVal(vals)
		got := Set(vals)
		if !got.RawEquals(want) || got.GoString() != want.GoString() {
			t.Errorf("%s: Set = %#v, want %#v", name, got, want)
		}
	}
}

func TestSetAllocations(t *testing.T) {
	vals := make([]cty.Value, 4)
	for i := range vals {
		vals[i] = cty.ObjectVal(map[string]cty.Value{
			"port":  cty.NumberIntVal(int64(80 + i)),
			"proto": cty.StringVal("tcp"),
		})
	}
	ours := testing.AllocsPerRun(20, func() { Set(vals) })
	ctys := testing.AllocsPerRun(20, func() { cty.SetVal(vals) })
	if ours >= ctys {
		t.Errorf("Set made %v allocations, cty.SetVal %v", ours, ctys)
	}
}

func TestFind(t *testing.T) {
	deep := cty.ObjectVal(map[string]cty.Value{
		"l": cty.ListVal([]cty.Value{cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v").Mark("m")})}),
	})
	if !Find(deep, cty.Value.IsMarked) {
		t.Error("a mark three levels down was not found")
	}
	plain, _ := deep.UnmarkDeep()
	if Find(plain, cty.Value.IsMarked) {
		t.Error("a mark was found in an unmarked value")
	}
	if Find(cty.UnknownVal(deep.Type()), cty.Value.IsMarked) || Find(cty.NullVal(deep.Type()), cty.Value.IsMarked) {
		t.Error("a mark was found in an unknown or null value")
	}
}
