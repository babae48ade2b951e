package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/providerfuncs"
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

// TestComputedProviderFunctions: a function of a provider tfeval computes
// (package providerfuncs) gives the provider's value with no schema, under
// whatever local name the module gives the provider; the provider's other
// functions stay unknown stand-ins, marked unread.
func TestComputedProviderFunctions(t *testing.T) {
	const id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1"
	files := map[string]string{"main.tf": `
terraform {
  required_providers {
    az = { source = "Azure/azapi" }
  }
}
variable "parent_id" {
  type    = string
  default = "` + id + `"
}
locals {
  parsed = provider::az::parse_resource_id("Microsoft.Resources/resourceGroups", var.parent_id)
}
output "subscription" { value = local.parsed.parent_id }
output "name" { value = local.parsed.name }
output "not_rg" { value = can(provider::az::parse_resource_id("Microsoft.Resources/resourceGroups", "${var.parent_id}/providers/Microsoft.Network/virtualNetworks/v")) }
output "other" { value = provider::az::unique_string([var.parent_id]) }
output "unknown_arg" { value = provider::az::parse_resource_id("Microsoft.Resources/resourceGroups", terraform_data.x.id) }
resource "terraform_data" "x" {}
`}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		res, diags := evalFiles(t, files, Options{Dialect: d})
		if len(diags) > 0 {
			t.Fatalf("%s: %s", d, diags.Error())
		}
		outs := res.Root().Outputs
		for name, want := range map[string]cty.Value{
			"subscription": cty.StringVal("/subscriptions/00000000-0000-0000-0000-000000000000"),
			"name":         cty.StringVal("rg1"),
			"not_rg":       cty.False,
		} {
			if got := outs[name]; !got.RawEquals(want) {
				t.Errorf("%s: %s = %#v, want %#v", d, name, got, want)
			}
		}
		if got := outs["other"]; got.IsKnown() || len(marks.UnreadMarks(got)) != 1 || marks.UnreadMarks(got)[0].Addr != "provider::az::unique_string" {
			t.Errorf("%s: a function the table lacks gave %#v", d, got)
		}
		if got := outs["unknown_arg"]; got.IsKnown() || marks.HasUnread(got) {
			t.Errorf("%s: an unknown argument gave %#v", d, got)
		}
		// The table's functions the module does not call, as the console
		// would call them.
		if got := mustEval(t, res, `provider::az::tenant_resource_id("Microsoft.Billing/billingAccounts", ["ba1"])`, nil); !got.RawEquals(cty.StringVal("/providers/Microsoft.Billing/billingAccounts/ba1")) {
			t.Errorf("%s: tenant_resource_id gave %#v", d, got)
		}
	}
}

// TestComputedProviderFunctionErrors: a provider function's error is a
// diagnostic as Terraform reports it, "Error in function call" or, where the
// provider blames an argument, "Invalid function argument", and fails a
// variable's validation through can().
func TestComputedProviderFunctionErrors(t *testing.T) {
	providers := `
terraform {
  required_providers {
    azapi  = { source = "azure/azapi" }
    google = { source = "hashicorp/google" }
  }
}
`
	for _, tc := range []struct {
		expr, summary, detail string
	}{
		{`provider::azapi::parse_resource_id("Microsoft.Network/virtualNetworks", "")`, "Error in function call",
			"Call to function \"provider::azapi::parse_resource_id\" failed: failed to parse resource ID(resourceType: Microsoft.Network/virtualNetworks@latest, resourceId: ): `resource_id` and `type` are not matched, expect `type` to be , but got Microsoft.Network/virtualNetworks."},
		{`provider::google::region_from_zone("us")`, "Invalid function argument", `Invalid value for "zone" parameter: The input string "us" is not a valid zone name..`},
		{`provider::azapi::parse_resource_id("Microsoft.Network/virtualNetworks", null)`, "Invalid function argument", `Invalid value for "resource_id" parameter: argument must not be null.`},
	} {
		_, diags := evalFiles(t, map[string]string{"main.tf": providers + "output \"x\" { value = " + tc.expr + " }\n"}, Options{})
		if len(diags) != 1 || diags[0].Summary != tc.summary || diags[0].Detail != tc.detail || diags[0].Subject == nil {
			t.Errorf("%s: %v\nwant %s: %s", tc.expr, diags, tc.summary, tc.detail)
		}
	}

	for _, tc := range []struct {
		parentID string
		wantDiag bool
	}{
		{"/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1", false},
		{"rg1", true},
	} {
		files := map[string]string{"main.tf": providers + `
variable "parent_id" {
  type    = string
  default = "` + tc.parentID + `"
  validation {
    condition     = can(provider::azapi::parse_resource_id("Microsoft.Resources/resourceGroups", var.parent_id))
    error_message = "parent_id must be a resource group ID."
  }
}
`}
		_, diags := evalFiles(t, files, Options{})
		failed := len(diags) == 1 && diags[0].Summary == "Invalid value for variable" && strings.Contains(diags[0].Detail, "parent_id must be a resource group ID.")
		if failed != tc.wantDiag || (!tc.wantDiag && len(diags) > 0) {
			t.Errorf("validation of %q: %v", tc.parentID, diags)
		}
	}
}

// TestComputedProviderFunctionsWithSchema: with a schema that lists the
// function with the table's signature, the function is computed; with
// another signature (another version of the provider) it stays unknown, as
// it does in OpenTofu's validate; a result the table cannot determine is
// unknown and unread.
func TestComputedProviderFunctionsWithSchema(t *testing.T) {
	schema := func(ret string) *ProviderSchemas {
		src := `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"functions":{
  "arn_parse":{"return_type":` + ret + `,"parameters":[{"name":"arn","type":"string"}]}}}}}`
		ps, err := ParseProviderSchemas([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	current := `["object",{"partition":"string","service":"string","region":"string","account_id":"string","resource":"string"}]`
	files := map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
output "account" { value = provider::aws::arn_parse("arn:aws:iam::444455556666:role/example").account_id }
`}
	for _, tc := range []struct {
		d        dialect.Dialect
		validate bool
		ret      string
		want     cty.Value
	}{
		{dialect.Terraform, false, current, cty.StringVal("444455556666")},
		{dialect.Tofu, false, current, cty.StringVal("444455556666")},
		{dialect.Terraform, true, current, cty.StringVal("444455556666")},
		{dialect.Tofu, true, current, cty.UnknownVal(cty.String)},
		{dialect.Terraform, false, `["object",{"account_id":"string"}]`, cty.UnknownVal(cty.String)},
	} {
		res, diags := evalFiles(t, files, Options{Dialect: tc.d, Validate: tc.validate, Schemas: schema(tc.ret)})
		if len(diags) > 0 {
			t.Fatalf("%s: %s", tc.d, diags.Error())
		}
		if got := res.Root().Outputs["account"]; !got.RawEquals(tc.want) {
			t.Errorf("%s validate=%v %s: %#v, want %#v", tc.d, tc.validate, tc.ret, got, tc.want)
		}
	}

	res, diags := evalFiles(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    azapi = { source = "registry.opentofu.org/azure/azapi" }
  }
}
output "x" { value = provider::azapi::parse_resource_id("Microsoft.Network/virtualNetworks@2024-05-01", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v") }
`}, Options{})
	if len(diags) > 0 {
		t.Fatal(diags.Error())
	}
	got := res.Root().Outputs["x"]
	if us := marks.UnreadMarks(got); got.IsKnown() || len(us) != 1 || us[0].Addr != "provider::azapi::parse_resource_id" || got.HasMark(providerfuncs.Undetermined) {
		t.Errorf("undetermined: %#v", got)
	}
}

// TestAdHocProviderFunctionStandIns: an expression evaluated after the
// configuration (a test file's assertion) may call a function of a
// schema-less provider the module requires that the module itself does not
// call; the provider offers it, so the call is a stand-in whose unknown
// result is unread, not "Unknown provider function". A provider the module
// does not require is still an error, and a computed function still
// computes.
func TestAdHocProviderFunctionStandIns(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    cloud = { source = "example/cloud" }
    aws   = { source = "hashicorp/aws" }
  }
}
output "name" { value = "n1" }
`}, Options{})
	if len(diags) > 0 {
		t.Fatal(diags.Error())
	}
	eval := func(src string) (cty.Value, hcl.Diagnostics) {
		expr, d := hclsyntax.ParseExpression([]byte(src), "a.tftest.hcl", hcl.InitialPos)
		if d.HasErrors() {
			t.Fatal(d.Error())
		}
		return res.EvalExprWithNames(expr, "", map[string]cty.Value{"output": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n1")})})
	}
	for _, src := range []string{`provider::cloud::check(output.name) == true`, `provider::aws::iam_policy_split(output.name)`} {
		v, diags := eval(src)
		if len(diags) > 0 {
			t.Fatalf("%s: %s", src, diags.Error())
		}
		if us := marks.UnreadMarks(v); v.IsKnown() || len(us) != 1 || !strings.HasPrefix(us[0].Addr, "provider::") {
			t.Errorf("%s: %#v, want an unknown unread value", src, v)
		}
	}
	if v, diags := eval(`provider::aws::arn_parse("arn:aws:iam::1:role/r").account_id`); len(diags) > 0 || !v.RawEquals(cty.StringVal("1")) {
		t.Errorf("computed function: %#v %s", v, diags.Error())
	}
	if _, diags := eval(`provider::other::check(output.name)`); !diags.HasErrors() || diags[0].Summary != "Unknown provider function" {
		t.Errorf("undeclared provider: %s", diags.Error())
	}
}

// TestUnknownFunctionSuggestionInResourceBody: the function a resource
// body's unknown call is suggested is chosen among the table's names in
// order ("a1" is as near to abs as to can, map, max and sha1), the same on
// every evaluation; hcl's own choice follows a map's order.
func TestUnknownFunctionSuggestionInResourceBody(t *testing.T) {
	for range 8 {
		_, diags := evalFiles(t, map[string]string{"main.tf": "resource \"x\" \"c\" {\n  a = a1([\"0\"])\n}\n"}, Options{})
		if len(diags) != 1 || diags[0].Detail != `There is no function named "a1". Did you mean "abs"?` {
			t.Fatalf("got %v", diags)
		}
	}
}
