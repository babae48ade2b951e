package tftest

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// TestUninitializedReferences: from Terraform 1.14 on (v1.11.4 crashes on
// it) an assertion of a targeted run that reads a root variable, local
// value or resource the targets leave out of the plan is an error: the
// plan never evaluated it. What the targets depend on, a kept output's
// references and the test file's own values are not. OpenTofu unchanged.
func TestUninitializedReferences(t *testing.T) {
	main := `
variable "input" { type = string }
variable "used" { type = string }
locals {
  from_input = var.input
  for_output = "${var.used}!"
}
resource "terraform_data" "one" { input = local.from_input }
resource "terraform_data" "two" { input = var.used }
output "o" { value = "${terraform_data.two.input}${local.for_output}" }
`
	for _, tc := range []struct {
		name, condition string
		d               dialect.Dialect
		want            []string
	}{
		{name: "a variable outside", condition: `var.input == "hello"`, want: []string{"Reference to uninitialized variable: The variable var.input was not processed by the most recent operation, this likely means the previous operation either failed or was incomplete due to targeting."}},
		{name: "a local value outside", condition: `local.from_input == "hello"`, want: []string{"Reference to uninitialized local value: The local value local.from_input was not processed by the most recent operation, this likely means the previous operation either failed or was incomplete due to targeting."}},
		{name: "a resource outside", condition: `terraform_data.one.input == "hello"`, want: []string{"Reference to uninitialized resource: The resource terraform_data.one was not processed by the most recent operation, this likely means the previous operation either failed or was incomplete due to targeting."}},
		{name: "what the target reads", condition: `var.used == "u" && terraform_data.two.input == "u" && local.for_output == "u!" && output.o == "uu!"`},
		{name: "the test file's value", condition: `var.extra == "e"`},
		{name: "OpenTofu", d: dialect.Tofu, condition: `var.input == "hello"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf": main,
				"tests/a.tftest.hcl": `
run "r" {
  command = plan
  plan_options {
    target = [terraform_data.two]
  }
  variables {
    input = "hello"
    used  = "u"
    extra = "e"
  }
  assert {
    condition     = ` + tc.condition + `
    error_message = "wrong"
  }
}
`,
			}, tc.d)
			var got []string
			for _, d := range runOf(t, rep, "tests/a.tftest.hcl::r").Diagnostics {
				if d.Severity == hcl.DiagError {
					got = append(got, d.Summary+": "+d.Detail)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReferencesAfterExpectedFailures: an expected failure that is an
// error stops Terraform's plan at the failed object, whose dependents its
// graph walk does not visit: from 1.14 on an assertion reading one of them
// is "Reference to uninitialized ..." (v1.11.4 crashes). The failed
// object itself, and what does not depend on it, read as before.
func TestReferencesAfterExpectedFailures(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
variable "input" {
  type = string
  validation {
    condition     = var.input == "allow"
    error_message = "invalid input value"
  }
}
variable "followup" {
  type    = string
  default = "allow"
  validation {
    condition     = var.followup == var.input
    error_message = "followup must match input"
  }
}
variable "apart" {
  type    = string
  default = "a"
}
locals {
  input = var.followup
}
resource "terraform_data" "resource" {
  input = local.input
}
`,
		"tests/a.tftest.hcl": `
run "fail" {
  command = plan
  variables {
    input = "deny"
  }
  expect_failures = [var.input]
  assert {
    condition     = local.input == "allow"
    error_message = "bad local"
  }
  assert {
    condition     = terraform_data.resource.input == "allow" && var.followup == "allow"
    error_message = "bad resource value"
  }
  assert {
    condition     = var.input == "deny" && var.apart == "a"
    error_message = "bad input"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::fail": "error"})
	var got []string
	for _, d := range runOf(t, rep, "tests/a.tftest.hcl::fail").Diagnostics {
		got = append(got, d.Summary+" "+d.Detail[:strings.Index(d.Detail, " was")])
	}
	want := []string{
		"Reference to uninitialized local value The local value local.input",
		"Reference to uninitialized resource The resource terraform_data.resource",
		"Reference to uninitialized variable The variable var.followup",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}
