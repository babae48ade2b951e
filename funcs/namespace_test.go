package funcs

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
)

func TestUnknownFunctionDiags(t *testing.T) {
	fn := function.New(&function.Spec{Type: function.StaticReturnType(cty.String)})
	provided := map[string]map[string]function.Function{"mock": {"upper": fn}}
	declared := func(local string) bool { return local == "mock" }
	cases := []struct {
		d               dialect.Dialect
		expr            string
		summary, detail string
	}{
		{dialect.Terraform, `provider::mock::lower("A")`, "Unknown provider function", `The function "lower" is not available from the provider "mock".`},
		{dialect.Terraform, `provider::nope::upper("a")`, "Unknown provider function", `There is no function named "provider::nope::upper". Ensure that provider name "nope" is declared in this module's required_providers block, and that this provider offers a function named "upper".`},
		{dialect.Terraform, `nope::upper("x")`, "Unknown provider function", `The function namespace "nope" is not valid. Provider function calls must use the "provider::" namespace prefix.`},
		// Terraform accepts no namespace but provider:: for a name it does
		// not know, core:: included.
		{dialect.Terraform, `core::nope("x")`, "Unknown provider function", `The function namespace "core" is not valid. Provider function calls must use the "provider::" namespace prefix.`},
		{dialect.Terraform, `provider::upper("x")`, "Unknown provider function", `The function call must include the provider name after the "provider::" prefix.`},
		{dialect.Terraform, `upper2("x")`, "Call to unknown function", `There is no function named "upper2". Did you mean "upper"?`},
		{dialect.Terraform, `nosuch("x")`, "Call to unknown function", `There is no function named "nosuch".`},
		{dialect.Tofu, `provider::mock::lower("A")`, "Function not found in provider", `Function "provider::mock::lower" was not registered by provider`},
		{dialect.Tofu, `provider::nope::upper("a")`, "Unknown function provider", `Provider "nope" does not exist within the required_providers of this module`},
		{dialect.Tofu, `nope::upper("x")`, "Unknown function namespace", `Function "nope::upper" does not exist within a valid namespace (provider,core)`},
		{dialect.Tofu, `core::nope("x")`, "Call to unknown function", `There is no builtin (core::) function named "nope".`},
		{dialect.Tofu, `provider::a::b::c::d("x")`, "Invalid function format", `invalid provider function "provider::a::b::c::d": expected provider::<name>::<function> or provider::<name>::<alias>::<function>`},
	}
	for _, c := range cases {
		fns := Functions(Options{Dialect: c.d, ProviderFunctions: provided})
		expr, diags := hclsyntax.ParseExpression([]byte(c.expr), "t.tf", hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		_, diags = expr.Value(&hcl.EvalContext{Functions: fns})
		diags = UnknownFunctionDiags(c.d, fns, declared, diags)
		if len(diags) != 1 || diags[0].Summary != c.summary || diags[0].Detail != c.detail {
			t.Errorf("%s %s:\nwant %s: %s\n got %v", c.d, c.expr, c.summary, c.detail, diags)
		}
	}
	plain := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Other"}}
	if got := UnknownFunctionDiags(dialect.Terraform, nil, nil, plain); got[0] != plain[0] {
		t.Error("unrelated diagnostics must pass through unchanged")
	}
}
