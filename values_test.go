package tfeval

import (
	"slices"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

func TestUnknownAndSensitivePaths(t *testing.T) {
	tests := []struct {
		name                string
		v                   cty.Value
		unknown, sensitives []string
	}{
		{"known", cty.StringVal("a"), nil, nil},
		{"whole unknown", cty.UnknownVal(cty.String), []string{""}, nil},
		{"whole sensitive", cty.StringVal("a").Mark(marks.Sensitive), nil, []string{""}},
		{"sensitive unknown", cty.UnknownVal(cty.String).Mark(marks.Sensitive), []string{""}, []string{""}},
		{"null", cty.NullVal(cty.Map(cty.String)), nil, nil},
		{"nested", cty.ObjectVal(map[string]cty.Value{
			"a": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.UnknownVal(cty.String)}),
			"b": cty.ObjectVal(map[string]cty.Value{"c d": cty.UnknownVal(cty.Bool)}),
			"s": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v").Mark(marks.Sensitive)}),
		}), []string{"a[1]", `b["c d"]`}, []string{`s["k"]`}},
		{"set", cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), []string{"[1]"}, nil},
	}
	for _, tt := range tests {
		if got := UnknownPaths(tt.v); !slices.Equal(got, tt.unknown) {
			t.Errorf("%s: UnknownPaths = %q, want %q", tt.name, got, tt.unknown)
		}
		if got := SensitivePaths(tt.v); !slices.Equal(got, tt.sensitives) {
			t.Errorf("%s: SensitivePaths = %q, want %q", tt.name, got, tt.sensitives)
		}
	}
}
