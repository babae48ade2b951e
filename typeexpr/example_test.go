package typeexpr_test

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/typeexpr"
)

// A type constraint with optional attributes, read as a variable's type
// argument and applied to a value the way Terraform applies it.
func ExampleConvert() {
	expr, _ := hclsyntax.ParseExpression([]byte(`object({
  name     = string
  replicas = optional(number, 1)
  tags     = optional(map(string), {})
})`), "variables.tf", hcl.InitialPos)
	ty, defaults, _, diags := typeexpr.TypeConstraint(expr)
	if diags.HasErrors() {
		fmt.Println(diags.Error())
		return
	}
	v, err := typeexpr.Convert(cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("api")}), ty, defaults)
	if err != nil {
		fmt.Println(typeexpr.FormatError(err))
		return
	}
	fmt.Println(render.Value(v))
	_, err = typeexpr.Convert(cty.ObjectVal(map[string]cty.Value{"replicas": cty.NumberIntVal(2)}), ty, defaults)
	fmt.Println(typeexpr.FormatError(err))
	// Output:
	// {
	//   "name" = "api"
	//   "replicas" = 1
	//   "tags" = tomap({})
	// }
	// attribute "name" is required
}

// Several elements of a map cannot become objects of the wanted type: the
// message names the first by name, every time (go-cty names whichever it
// meets first in Go's map order).
func ExampleMismatchMessage() {
	tier := cty.Object(map[string]cty.Type{"newbits": cty.Number})
	got := cty.Object(map[string]cty.Type{
		"public":  cty.Object(map[string]cty.Type{"newbats": cty.Number}),
		"private": cty.Object(map[string]cty.Type{"newbats": cty.Number}),
		"data":    cty.Object(map[string]cty.Type{"newbats": cty.Number}),
	})
	fmt.Println(typeexpr.MismatchMessage(got, cty.Map(tier)))
	// Output:
	// element "data": attribute "newbits" is required
}
