package funcs

import (
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestDirectCalls checks that a function's direct form gives what calling
// the function gives, results, refusals and step charges alike.
func TestDirectCalls(t *testing.T) {
	steps := 0
	direct := &DirectCalls{}
	table := Functions(Options{PureOnly: true, Direct: direct, Limits: Limits{MaxElements: 5, MaxStringLength: 16}, Step: func() error { steps++; return nil }})
	big := cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")})
	tests := []struct {
		name string
		args []cty.Value
	}{
		{"length", []cty.Value{big}},
		{"merge", []cty.Value{cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}), cty.ObjectVal(map[string]cty.Value{"b": cty.True})}},
		{"jsonencode", []cty.Value{cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(42), "s": cty.StringVal("x").Mark("sensitive")})}},
		{"concat", []cty.Value{big, big}},                  // over MaxElements: refused
		{"join", []cty.Value{cty.StringVal("-----"), big}}, // over MaxStringLength before it is built
		{"upper", []cty.Value{cty.UnknownVal(cty.String)}}, // unknown
		{"core::upper", []cty.Value{cty.StringVal("x")}},   // namespaced name, same function
		{"element", []cty.Value{big, cty.NumberIntVal(4)}}, // wraps around
		{"uuid", nil}, // impure in plan mode: unknown
		{"tonumber", []cty.Value{cty.StringVal("nope")}}, // the function's own error
	}
	for _, tt := range tests {
		f := table[tt.name]
		call, ok := direct.Lookup(f)
		if !ok {
			t.Errorf("%s: no direct form", tt.name)
			continue
		}
		steps = 0
		want, wantErr := f.Call(tt.args)
		wantSteps := steps
		steps = 0
		got, gotErr := call(tt.args)
		if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Errorf("%s: error %v, want %v", tt.name, gotErr, wantErr)
		}
		if wantErr == nil && !got.RawEquals(want) {
			t.Errorf("%s: %#v, want %#v", tt.name, got, want)
		}
		if steps != wantSteps || steps != 1 {
			t.Errorf("%s: %d steps, the call charges %d (want 1)", tt.name, steps, wantSteps)
		}
	}
	if _, ok := (&DirectCalls{}).Lookup(table["upper"]); ok {
		t.Error("a DirectCalls that built no table knows a function")
	}
	var none *DirectCalls
	if _, ok := none.Lookup(table["upper"]); ok {
		t.Error("nil DirectCalls knows a function")
	}
}

// TestHugeNumberResults checks that functions cannot create numbers too
// large to write out, whichever way they make them.
func TestHugeNumberResults(t *testing.T) {
	table := Functions(Options{})
	for _, tt := range []struct {
		name string
		args []cty.Value
	}{
		{"tonumber", []cty.Value{cty.StringVal("9e54775807")}},
		{"jsondecode", []cty.Value{cty.StringVal(`{"a": [1, 1e-99999]}`)}},
		{"yamldecode", []cty.Value{cty.StringVal("a: 1e99999")}},
		{"sum", []cty.Value{cty.ListVal([]cty.Value{cty.MustParseNumberVal("1e9864"), cty.MustParseNumberVal("9e9864")})}},
	} {
		_, err := table[tt.name].Call(tt.args)
		if err == nil || !strings.Contains(err.Error(), "1e9864") {
			t.Errorf("%s: error %v, want the number bound", tt.name, err)
		}
	}
	if v, err := table["tonumber"].Call([]cty.Value{cty.StringVal("1e300")}); err != nil || !v.RawEquals(cty.MustParseNumberVal("1e300")) {
		t.Errorf("tonumber(1e300) = %#v, %v", v, err)
	}
}

// TestEncodedSizeFirst: jsonencode and yamlencode refuse a value whose
// text would pass MaxStringLength before writing it, however little
// memory the value takes.
func TestEncodedSizeFirst(t *testing.T) {
	table := Functions(Options{Limits: Limits{MaxStringLength: 1 << 20}})
	big := cty.StringVal(strings.Repeat("x", 64<<10))
	v := big
	for range 12 {
		v = cty.TupleVal([]cty.Value{v, v}) // 4096 copies of 64 KiB
	}
	for _, name := range []string{"jsonencode", "yamlencode"} {
		allocs := testing.AllocsPerRun(1, func() {
			if _, err := table[name].Call([]cty.Value{v}); err == nil || !strings.Contains(err.Error(), "Limits.MaxStringLength") {
				t.Errorf("%s: %v", name, err)
			}
		})
		if allocs > 50_000 {
			t.Errorf("%s: %v allocations to refuse", name, allocs)
		}
		if _, err := table[name].Call([]cty.Value{cty.TupleVal([]cty.Value{big})}); err != nil {
			t.Errorf("%s of one 64 KiB string: %v", name, err)
		}
	}
	if _, err := table["urlencode"].Call([]cty.Value{cty.StringVal(strings.Repeat("é", 300_000))}); err == nil {
		t.Error("urlencode of 600 KB of two-byte characters was not refused before writing 1.8 MB")
	}
}

// TestJSONEncodeObject holds jsonencode's object form to its direct form
// of the object: the same result, refusal and steps where it answers, and
// no answer (and no step) where the direct form must see the object.
func TestJSONEncodeObject(t *testing.T) {
	steps := 0
	direct := &DirectCalls{}
	table := Functions(Options{PureOnly: true, Direct: direct, Limits: Limits{MaxStringLength: 40}, Step: func() error { steps++; return nil }})
	f := table["jsonencode"]
	call, _ := direct.Lookup(f)
	object, ok := direct.LookupObject(f)
	if !ok {
		t.Fatal("jsonencode has no object form")
	}
	if _, ok := direct.LookupObject(table["merge"]); ok {
		t.Error("merge has an object form")
	}
	for _, tc := range []struct {
		attrs   map[string]cty.Value
		handled bool
	}{
		{map[string]cty.Value{"b": cty.NumberIntVal(2), "a": cty.StringVal("x"), "c": cty.True}, true},
		{map[string]cty.Value{"list": cty.ListVal([]cty.Value{cty.StringVal("<&>")}), "n": cty.NullVal(cty.String)}, true},
		{map[string]cty.Value{}, true},
		{map[string]cty.Value{"long": cty.StringVal(strings.Repeat("x", 41))}, false}, // over the bound: the direct form's error
		{map[string]cty.Value{"s": cty.StringVal("x").Mark("sensitive")}, false},      // marked: go-cty's
		{map[string]cty.Value{"u": cty.UnknownVal(cty.String)}, false},                // unknown: go-cty's
		{map[string]cty.Value{"d": cty.NullVal(cty.DynamicPseudoType)}, false},        // a dynamic type: go-cty's
		{map[string]cty.Value{"t": cty.TupleVal([]cty.Value{cty.NumberFloatVal(0.5)})}, true},
		// longer than the walk counts, past the buffer's slack: it grows
		{map[string]cty.Value{"a": cty.NumberIntVal(1234567890123456), "b": cty.NumberIntVal(1234567890123)}, true},
		{map[string]cty.Value{"e": cty.StringVal("<<>>&&"), "f": cty.False}, true},
	} {
		names := make([]string, 0, len(tc.attrs))
		for name := range tc.attrs {
			names = append(names, name)
		}
		slices.Sort(names)
		vals := make([]cty.Value, len(names))
		for i, name := range names {
			vals[i] = tc.attrs[name]
		}
		steps = 0
		want, wantErr := call([]cty.Value{cty.ObjectVal(tc.attrs)})
		wantSteps := steps
		steps = 0
		got, handled, err := object(names, vals)
		if handled != tc.handled {
			t.Errorf("%#v: handled %v, want %v", tc.attrs, handled, tc.handled)
		}
		if !handled {
			if steps != 0 {
				t.Errorf("%#v: %d steps charged without an answer", tc.attrs, steps)
			}
			continue
		}
		if (err == nil) != (wantErr == nil) || err == nil && !got.RawEquals(want) || steps != wantSteps {
			t.Errorf("%#v: %#v, %v, %d steps; the direct form %#v, %v, %d steps", tc.attrs, got, err, steps, want, wantErr, wantSteps)
		}
	}
}
