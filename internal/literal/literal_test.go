package literal

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
)

// literalExprs are expressions of every outcome: values that convert,
// values that do not, nulls, and references and calls, which evaluate to
// an unknown value after an error of their own.
var literalExprs = []string{
	`true`, `false`, `"true"`, `"false"`, `"yes"`, `1`, `0`, `"x"`, `""`, `"a${1}b"`,
	`null`, `[true]`, `{a = 1}`, `var.x`, `f()`, `"${var.x}"`, `true ? null : true`,
	`1 + 1`, `-1.5`, `"é"`, `tostring(1)`, `[]`, `local.x ? 1 : 2`,
}

// TestAgreesWithGohcl holds Bool and String to gohcl.DecodeExpression:
// the same value and the same diagnostics, in native syntax and JSON.
func TestAgreesWithGohcl(t *testing.T) {
	for _, src := range literalExprs {
		exprs := map[string]hcl.Expression{}
		if e, d := hclsyntax.ParseExpression([]byte(src), "x.tf", hcl.InitialPos); !d.HasErrors() {
			exprs["native"] = e
		} else {
			t.Fatalf("%s: %s", src, d)
		}
		if e, d := json.ParseExpression([]byte(fmt.Sprintf("%q", src)), "x.tf.json"); !d.HasErrors() {
			exprs["json"] = e
		}
		for syntax, expr := range exprs {
			var wantB bool
			wantD := gohcl.DecodeExpression(expr, nil, &wantB)
			gotB, gotD := Bool(expr)
			if gotB != wantB || describe(gotD) != describe(wantD) {
				t.Errorf("Bool(%s) %s = %v, %s; gohcl: %v, %s", src, syntax, gotB, describe(gotD), wantB, describe(wantD))
			}
			var wantS string
			wantD = gohcl.DecodeExpression(expr, nil, &wantS)
			gotS, gotD := String(expr)
			if gotS != wantS || describe(gotD) != describe(wantD) {
				t.Errorf("String(%s) %s = %q, %s; gohcl: %q, %s", src, syntax, gotS, describe(gotD), wantS, describe(wantD))
			}
		}
	}
}

// describe writes every field of each diagnostic, the ranges by value.
func describe(diags hcl.Diagnostics) string {
	s := ""
	for _, d := range diags {
		s += fmt.Sprintf("[%d %q %q %v %v %v %v %v]", d.Severity, d.Summary, d.Detail, d.Subject, d.Context, d.Expression, d.EvalContext, d.Extra)
	}
	return s
}
