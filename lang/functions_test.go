package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
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

// TestUnknownNamespacedFunction: a call of an unknown name in a namespace
// the module evaluates has each dialect's diagnostic; Terraform's calls any
// namespace but provider:: invalid for a name it does not know, core::
// included, while the core:: form of a built-in works in both.
func TestUnknownNamespacedFunction(t *testing.T) {
	files := map[string]string{"main.tf": `
output "known" { value = core::upper("a") }
output "x" { value = core::nope(1) }`}
	for d, want := range map[dialect.Dialect][2]string{
		dialect.Terraform: {"Unknown provider function", `The function namespace "core" is not valid. Provider function calls must use the "provider::" namespace prefix.`},
		dialect.Tofu:      {"Call to unknown function", `There is no builtin (core::) function named "nope".`},
	} {
		res, diags := evalFiles(t, files, Options{Dialect: d})
		if len(diags) != 1 || diags[0].Summary != want[0] || diags[0].Detail != want[1] || diags[0].Subject == nil || diags[0].Subject.Start.Line != 3 {
			t.Errorf("%s: %v, want %s: %s on line 3", d, diags, want[0], want[1])
		}
		if got := res.Root().Outputs["known"]; !got.RawEquals(cty.StringVal("A")) {
			t.Errorf("%s: core::upper gave %#v", d, got)
		}
	}
}

// TestBuiltinProviderFunctionCalls: the built-in provider's functions are
// called under whatever local name the module gives terraform.io/builtin/
// terraform, with no schema; a module that does not declare it cannot
// call them, and a name the provider lacks is each dialect's error.
func TestBuiltinProviderFunctionCalls(t *testing.T) {
	declared := map[string]string{"main.tf": `
terraform {
  required_providers {
    tf = { source = "terraform.io/builtin/terraform" }
  }
}
output "vars" { value = provider::tf::encode_tfvars({ b = 2, a = "x" }) }
output "back" { value = provider::tf::decode_tfvars(provider::tf::encode_tfvars({ n = 1 })).n }
output "expr" { value = provider::tf::encode_expr([true, null]) }`}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		res, diags := evalFiles(t, declared, Options{Dialect: d})
		if len(diags) > 0 {
			t.Fatalf("%s: %s", d, diags.Error())
		}
		for name, want := range map[string]cty.Value{
			"vars": cty.StringVal("a = \"x\"\nb = 2\n"),
			"back": cty.NumberIntVal(1),
			"expr": cty.StringVal("[true, null]"),
		} {
			if got := res.Root().Outputs[name]; !got.RawEquals(want) {
				t.Errorf("%s: %s = %#v, want %#v", d, name, got, want)
			}
		}
	}

	for _, tc := range []struct {
		d                   dialect.Dialect
		local, call         string
		summary, wantDetail string
	}{
		{dialect.Terraform, "", "provider::terraform::encode_expr(1)", "Unknown provider function", `There is no function named "provider::terraform::encode_expr". Ensure that provider name "terraform" is declared in this module's required_providers block, and that this provider offers a function named "encode_expr".`},
		{dialect.Tofu, "", "provider::terraform::encode_expr(1)", "Unknown function provider", `Provider "terraform" does not exist within the required_providers of this module`},
		{dialect.Terraform, "terraform", "provider::terraform::nope(1)", "Unknown provider function", `The function "nope" is not available from the provider "terraform".`},
		{dialect.Tofu, "terraform", "provider::terraform::nope(1)", "Function not found in provider", `Function "provider::terraform::nope" was not registered by provider`},
	} {
		src := "output \"x\" { value = " + tc.call + " }\n"
		if tc.local != "" {
			src += `terraform {
  required_providers {
    ` + tc.local + ` = { source = "terraform.io/builtin/terraform" }
  }
}`
		}
		_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{Dialect: tc.d})
		if len(diags) != 1 || diags[0].Summary != tc.summary || diags[0].Detail != tc.wantDetail {
			t.Errorf("%s %s: %v\nwant %s: %s", tc.d, tc.call, diags, tc.summary, tc.wantDetail)
		}
	}
}
