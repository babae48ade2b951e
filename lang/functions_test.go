package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/funcs"
)

// TestOrderedSuggestion: for an unknown function with several close names
// ("abs" and "map" for "ba"), the suggestion is the first in name order
// however hcl happened to pick; a call with no close name and other
// diagnostics are left alone.
func TestOrderedSuggestion(t *testing.T) {
	ctx := &hcl.EvalContext{Functions: map[string]function.Function(funcs.Functions(funcs.Options{PureOnly: true}))}
	for _, tc := range []struct{ src, want string }{
		{`ba("")`, `There is no function named "ba". Did you mean "abs"?`},
		{`lenght([])`, `There is no function named "lenght". Did you mean "length"?`},
		{`zzzzzz(1)`, `There is no function named "zzzzzz".`},
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(tc.src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		for range 10 {
			_, diags := expr.Value(ctx)
			if len(diags) != 1 {
				t.Fatalf("%s: %s", tc.src, diags.Error())
			}
			if got := orderedSuggestion(diags[0]).Detail; got != tc.want {
				t.Fatalf("%s: %q, want %q", tc.src, got, tc.want)
			}
		}
	}
	other := &hcl.Diagnostic{Summary: "Other", Detail: "Did you mean x?"}
	if orderedSuggestion(other) != other {
		t.Error("a diagnostic of another kind was rewritten")
	}
}
