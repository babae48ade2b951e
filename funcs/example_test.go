package funcs_test

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
)

// The table plugs into an hcl evaluation context as it is.
func ExampleFunctions() {
	table := funcs.Functions(funcs.Options{Dialect: dialect.Terraform, PureOnly: true})
	expr, _ := hclsyntax.ParseExpression([]byte(`cidrsubnet("10.0.0.0/16", 8, 2)`), "example.tf", hcl.InitialPos)
	v, diags := expr.Value(&hcl.EvalContext{Functions: table})
	fmt.Println(v.AsString(), diags.HasErrors())
	// Output: 10.0.2.0/24 false
}

// DirectCalls gives an evaluator that has already applied hcl's argument
// rules a way to call a function of the table without cty processing its
// arguments a second time.
func ExampleDirectCalls() {
	direct := &funcs.DirectCalls{}
	table := funcs.Functions(funcs.Options{Direct: direct})
	call, ok := direct.Lookup(table["upper"])
	v, err := call([]cty.Value{cty.StringVal("shop")})
	fmt.Println(ok, v.AsString(), err)
	// Output: true SHOP <nil>
}
