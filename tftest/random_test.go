package tftest

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// randomString is a planned random_string instance with the given
// arguments (the others null), its computed attributes unknown.
func randomString(args map[string]cty.Value) *lang.PlannedInstance {
	names := []string{"length", "lower", "upper", "numeric", "number", "special", "min_lower", "min_upper", "min_numeric", "min_special", "override_special", "keepers"}
	types := map[string]cty.Type{"lower": cty.Bool, "upper": cty.Bool, "numeric": cty.Bool, "number": cty.Bool, "special": cty.Bool, "override_special": cty.String, "keepers": cty.Map(cty.String)}
	a, p := map[string]cty.Value{}, map[string]cty.Value{}
	for _, n := range names {
		ty, ok := types[n]
		if !ok {
			ty = cty.Number
		}
		a[n] = cty.NullVal(ty)
		if v, ok := args[n]; ok {
			a[n] = v
		}
		p[n] = a[n]
		if a[n].IsNull() && n != "override_special" && n != "keepers" {
			p[n] = cty.UnknownVal(ty) // optional and computed
		}
	}
	p["result"], p["id"] = cty.UnknownVal(cty.String), cty.UnknownVal(cty.String)
	return &lang.PlannedInstance{Addr: "random_string.s", Resource: &config.Resource{Mode: config.ManagedResourceMode, Type: "random_string", Name: "s"}, Arguments: cty.ObjectVal(a), Planned: cty.ObjectVal(p)}
}

// TestDrawRandomString: a drawn result has the length and the counts of
// each class asked for, and only the classes turned on; two drawings
// differ; the first drawing's result is marked as drawn, the defaults it
// sets and the second drawing's are not; an argument not known is not
// drawn from.
func TestDrawRandomString(t *testing.T) {
	pi := randomString(map[string]cty.Value{
		"length": cty.NumberIntVal(20), "upper": cty.False, "min_numeric": cty.NumberIntVal(5),
		"min_special": cty.NumberIntVal(4), "override_special": cty.StringVal("#"),
	})
	first, ok := drawRandom(pi, 7, 0)
	if !ok {
		t.Fatal("not drawn")
	}
	if !marks.Has(first.GetAttr("result"), marks.Drawn) || marks.Has(first.GetAttr("lower"), marks.Drawn) {
		t.Errorf("marks %#v", first)
	}
	first, _ = first.UnmarkDeep()
	result := first.GetAttr("result").AsString()
	if len(result) != 20 || strings.Count(result, "#") < 4 || strings.ContainsAny(result, randomUpper) || strings.ContainsAny(result, "!@$") {
		t.Errorf("result %q", result)
	}
	digits := 0
	for _, c := range result {
		if strings.ContainsRune(randomNumeric, c) {
			digits++
		}
	}
	if digits < 5 {
		t.Errorf("result %q has %d digits", result, digits)
	}
	if id := first.GetAttr("id"); !id.RawEquals(first.GetAttr("result")) {
		t.Errorf("id %#v", id)
	}
	if up := first.GetAttr("upper"); !up.RawEquals(cty.False) {
		t.Errorf("upper %#v, want the given false", up)
	}
	if lo := first.GetAttr("lower"); !lo.RawEquals(cty.True) {
		t.Errorf("lower %#v, want the default true", lo)
	}
	again, _ := drawRandom(pi, 7, 0)
	if again, _ = again.UnmarkDeep(); !again.RawEquals(first) {
		t.Error("the same drawing differs")
	}
	second, _ := drawRandom(pi, 7, 1)
	if marks.Contains(second, marks.Drawn) {
		t.Error("the second drawing is marked")
	}
	if second, _ = second.UnmarkDeep(); second.GetAttr("result").RawEquals(first.GetAttr("result")) {
		t.Error("two drawings agree")
	}
	unknown := randomString(map[string]cty.Value{"length": cty.NumberIntVal(8), "override_special": cty.UnknownVal(cty.String)})
	if _, ok := drawRandom(unknown, 7, 0); ok {
		t.Error("drawn with override_special unknown")
	}
}
