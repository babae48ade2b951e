package lang

import (
	"maps"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestDeepMarks checks that deepMarks reports the marks UnmarkDeep does.
func TestDeepMarks(t *testing.T) {
	tests := []struct {
		name string
		v    cty.Value
	}{
		{"unmarked", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})},
		{"top", cty.StringVal("x").Mark("a")},
		{"nested", cty.ObjectVal(map[string]cty.Value{
			"a": cty.StringVal("x").Mark("a"),
			"b": cty.TupleVal([]cty.Value{cty.UnknownVal(cty.String).Mark("b"), cty.NullVal(cty.Number).Mark("c")}),
		}).Mark("d")},
		{"list", cty.ListVal([]cty.Value{cty.StringVal("x").Mark("a"), cty.StringVal("y")})},
		{"map", cty.MapVal(map[string]cty.Value{"k": cty.StringVal("x").Mark("a")})},
		{"unknown", cty.DynamicVal.Mark("a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, want := tt.v.UnmarkDeep()
			got := deepMarks(tt.v, nil)
			if len(want) == 0 && len(got) == 0 {
				return
			}
			if !maps.Equal(got, want) {
				t.Errorf("deepMarks = %v, want %v", got, want)
			}
		})
	}
}
