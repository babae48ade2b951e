package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestHasAndContains(t *testing.T) {
	secret := cty.StringVal("s").Mark(Sensitive)
	tests := []struct {
		name          string
		v             cty.Value
		has, contains bool
	}{
		{"plain", cty.StringVal("x"), false, false},
		{"top level", secret, true, true},
		{"nested in a list", cty.ListVal([]cty.Value{cty.StringVal("a"), secret}), false, true},
		{"nested in an object", cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{secret})}), false, true},
		{"other mark only", cty.StringVal("e").Mark(Ephemeral), false, false},
		{"unknown sensitive", cty.UnknownVal(cty.String).Mark(Sensitive), true, true},
	}
	for _, tt := range tests {
		if got := Has(tt.v, Sensitive); got != tt.has {
			t.Errorf("%s: Has = %v, want %v", tt.name, got, tt.has)
		}
		if got := Contains(tt.v, Sensitive); got != tt.contains {
			t.Errorf("%s: Contains = %v, want %v", tt.name, got, tt.contains)
		}
	}
}
