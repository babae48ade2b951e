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

// TestShuffleResult: random_shuffle's result is computed when the object
// is created, so a plan has it unknown whatever the input, an empty one
// too; an apply gives the permutation, empty for an empty input or a
// result_count of 0, which no drawing decides.
func TestShuffleResult(t *testing.T) {
	shuffle := func(input cty.Value, count cty.Value) *lang.PlannedInstance {
		a := map[string]cty.Value{"input": input, "result_count": count, "keepers": cty.NullVal(cty.Map(cty.String)), "seed": cty.NullVal(cty.String)}
		p := map[string]cty.Value{"input": input, "result_count": count, "keepers": a["keepers"], "seed": a["seed"], "result": cty.UnknownVal(cty.List(cty.String)), "id": cty.UnknownVal(cty.String)}
		return &lang.PlannedInstance{Addr: "random_shuffle.s", Resource: &config.Resource{Mode: config.ManagedResourceMode, Type: "random_shuffle", Name: "s"}, Arguments: cty.ObjectVal(a), Planned: cty.ObjectVal(p)}
	}
	empty := cty.ListValEmpty(cty.String)
	two := cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})
	noCount := cty.NullVal(cty.Number)
	for _, tc := range []struct {
		name        string
		input, n    cty.Value
		planning    bool
		wantKnown   bool
		wantLen     int
		wantDrawing bool
	}{
		{"plan, empty input", empty, noCount, true, false, 0, false},
		{"plan, two items", two, noCount, true, false, 0, false},
		{"plan, none asked for", two, cty.Zero, true, false, 0, false},
		{"apply, empty input", empty, noCount, false, true, 0, false},
		{"apply, none asked for", two, cty.Zero, false, true, 0, false},
		{"apply, two items", two, noCount, false, true, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := randomObject(shuffle(tc.input, tc.n), 3, 0, tc.planning)
			if !ok {
				t.Fatal("not planned")
			}
			r := v.GetAttr("result")
			if marks.Has(r, marks.Drawn) != tc.wantDrawing {
				t.Errorf("result %#v: drawn mark %v, want %v", r, !tc.wantDrawing, tc.wantDrawing)
			}
			r, _ = r.Unmark()
			if r.IsKnown() != tc.wantKnown {
				t.Fatalf("result %#v, want known %v", r, tc.wantKnown)
			}
			if tc.wantKnown && r.LengthInt() != tc.wantLen {
				t.Errorf("result %#v, want %d elements", r, tc.wantLen)
			}
		})
	}
}
