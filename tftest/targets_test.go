package tftest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

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

// TestReferencesAfterExpectedFailuresInApply: an expected failure that
// happens while applying (a postcondition on what only the apply knows)
// stops Terraform's apply walk as it stops a plan: its dependents are
// neither applied nor evaluated. An assertion reading one is "Reference
// to uninitialized ..." (1.14 on), one reading an output not evaluated
// "Unknown condition value" (1.15 reads it as unknown), and the run is an
// error. A later run's variable reading that output is "Reference to
// unknown value", and a later plan finds the dependents still to create.
func TestReferencesAfterExpectedFailuresInApply(t *testing.T) {
	main := `
variable "strict" {
  type    = bool
  default = true
}
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    postcondition {
      condition     = !var.strict || self.id == "never"
      error_message = "id mismatch"
    }
  }
}
resource "terraform_data" "b" { input = terraform_data.a.id }
locals { l = terraform_data.a.id }
output "o" { value = terraform_data.a.id }
output "p" { value = "plain" }
variable "w" {
  type    = string
  default = ""
}
`
	for _, tc := range []struct {
		name, runs string
		want       map[string]string
		diags      []string
	}{
		{name: "assertions", runs: `
run "ap" {
  expect_failures = [terraform_data.a]
  assert {
    condition     = terraform_data.b.input != ""
    error_message = "b"
  }
  assert {
    condition     = local.l != ""
    error_message = "l"
  }
  assert {
    condition     = output.o != ""
    error_message = "o"
  }
  assert {
    condition     = terraform_data.a.input == "x" && output.p == "plain"
    error_message = "a"
  }
}
`, want: map[string]string{"tests/a.tftest.hcl::ap": "error"}, diags: []string{
			"Reference to uninitialized resource: The resource terraform_data.b was not processed by the most recent operation, this likely means the previous operation either failed or was incomplete due to targeting.",
			"Reference to uninitialized local value: The local value local.l was not processed by the most recent operation, this likely means the previous operation either failed or was incomplete due to targeting.",
			"Unknown condition value",
		}},
		{name: "a later run's variable", runs: `
run "ap" {
  expect_failures = [terraform_data.a]
}
run "next" {
  variables { w = run.ap.o }
}
`, want: map[string]string{"tests/a.tftest.hcl::ap": "pass", "tests/a.tftest.hcl::next": "error"}, diags: []string{"Reference to unknown value"}},
		{name: "a later plan", runs: `
run "ap" {
  expect_failures = [terraform_data.a]
}
run "next" {
  command = plan
  variables { strict = false }
  assert {
    condition     = terraform_data.a.id != "" && run.ap.p == "plain"
    error_message = "a"
  }
  assert {
    condition     = terraform_data.b.id != ""
    error_message = "b"
  }
}
`, want: map[string]string{"tests/a.tftest.hcl::ap": "pass", "tests/a.tftest.hcl::next": "error"}, diags: []string{"Unknown condition value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": main, "tests/a.tftest.hcl": tc.runs}, dialect.Terraform)
			wantStatuses(t, rep, tc.want)
			var got []string
			for _, f := range rep.Files {
				for _, r := range f.Runs {
					for _, d := range r.Diagnostics {
						s := d.Summary
						if strings.HasPrefix(s, "Reference to uninitialized") {
							s += ": " + d.Detail
						}
						got = append(got, s)
					}
				}
			}
			if !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
		})
	}
}

// TestOutputsAfterExpectedFailures: an output that depends on an expected
// failure that stopped a plan is not evaluated: Terraform 1.15 reads it as
// unknown (v1.11.4: run.NAME.o is null), so an assertion on it is
// "Unknown condition value", where tfeval read the value it would have had.
func TestOutputsAfterExpectedFailures(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
variable "v" {
  type = string
  validation {
    condition     = var.v == "ok"
    error_message = "bad v"
  }
}
output "o" { value = var.v }
output "p" { value = "plain" }
`,
		"tests/a.tftest.hcl": `
run "pl" {
  command = plan
  variables { v = "no" }
  expect_failures = [var.v]
  assert {
    condition     = output.p == "plain"
    error_message = "p"
  }
  assert {
    condition     = output.o != ""
    error_message = "o"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::pl": "error"})
	if got := summaries(rep); !slices.Equal(got, []string{"error: Unknown condition value"}) {
		t.Errorf("diagnostics %q, want the unknown output's", got)
	}
}

// TestRunModuleNotInstalled: terraform test loads the modules of every
// run block with the configuration, before it runs anything: a registry
// module that init has not installed fails the whole command with the
// loader's "Module not installed" at the module block, and no file runs
// (terraform test v1.11.4 writes only that diagnostic).
func TestRunModuleNotInstalled(t *testing.T) {
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		t.Run(d.String(), func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf":            `output "p" { value = "plain" }`,
				"tests/a.tftest.hcl": "run \"one\" {\n  command = plan\n}\n",
				"tests/b.tftest.hcl": "run \"reg\" {\n  command = plan\n  module {\n    source  = \"hashicorp/consul/aws\"\n    version = \"0.1.0\"\n  }\n}\n",
			}, d)
			if rep.Status != Error || len(rep.Files) != 0 || len(rep.Diagnostics) != 1 {
				t.Fatalf("status %v, %d files, diagnostics %v; want an error and no file run", rep.Status, len(rep.Files), rep.Diagnostics)
			}
			got := rep.Diagnostics[0]
			want := "This module is not yet installed. Run \"" + d.String() + " init\" to install all modules required by this configuration."
			if got.Summary != "Module not installed" || got.Detail != want || got.Subject == nil || got.Subject.Start.Line != 3 || got.Subject.End.Column-got.Subject.Start.Column != len("module") {
				t.Errorf("diagnostic %q: %q at %v", got.Summary, got.Detail, got.Subject)
			}
		})
	}
}

// TestMissingExpectedFailureInApply: from Terraform 1.12 on an apply run
// whose expected failure does not happen fails rather than errors, and
// goes on to its assertions; the file's later runs still run. A plan run
// still errors at it (and its later runs are skipped).
func TestMissingExpectedFailureInApply(t *testing.T) {
	main := `
variable "v" {
  type    = string
  default = "ok"
  validation {
    condition     = var.v == "ok"
    error_message = "bad v"
  }
}
output "o" { value = var.v }
`
	for _, tc := range []struct {
		name, command string
		want          map[string]string
		diags         []string
	}{
		{"apply", "apply", map[string]string{"tests/a.tftest.hcl::ap": "fail", "tests/a.tftest.hcl::later": "pass"}, []string{"error: Missing expected failure", "error: Test assertion failed"}},
		{"plan", "plan", map[string]string{"tests/a.tftest.hcl::ap": "error", "tests/a.tftest.hcl::later": "skip"}, []string{"error: Missing expected failure"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": main, "tests/a.tftest.hcl": `
run "ap" {
  command         = ` + tc.command + `
  expect_failures = [var.v]
  assert {
    condition     = output.o == "nope"
    error_message = "o"
  }
}
run "later" {
  command = plan
}
`}, dialect.Terraform)
			wantStatuses(t, rep, tc.want)
			if got := summaries(rep); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
		})
	}
}

// TestCallArgumentErrorsFailRuns: a module block's argument the called
// module does not declare (or a required one it lacks) is found by
// Terraform when it validates the configuration for a run, not when it
// loads it: the first run errors with it and the later runs are skipped,
// as terraform test v1.11.4 reports it. tfeval failed the whole command.
func TestCallArgumentErrorsFailRuns(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"m/main.tf": "variable \"a\" { default = 1 }\noutput \"o\" { value = var.a }\n",
		"main.tf":   "module \"m\" {\n  source = \"./m\"\n  bogus  = 3\n}\noutput \"o\" { value = module.m.o }\n",
		".terraform/modules/modules.json": `{"Modules": [
  {"Key": "", "Source": "", "Dir": "."},
  {"Key": "m", "Source": "./m", "Dir": "m"}
]}`,
		"tests/a.tftest.hcl": "run \"one\" {\n  command = plan\n}\nrun \"two\" {\n  command = plan\n}\n",
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::one": "error", "tests/a.tftest.hcl::two": "skip"})
	if got := summaries(rep); !slices.Equal(got, []string{"error: Unsupported argument"}) {
		t.Errorf("diagnostics %q, want the run's Unsupported argument", got)
	}
}

// TestRunTargets: plan_options.target plans the targets and what they
// depend on; the root outputs that depend only on those are kept, the
// others keep what the state has (null when nothing); what the targets
// leave out is not created, so a provider it needs is not needed.
func TestRunTargets(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "b" { input = "b" }
resource "terraform_data" "c" {
  count = 2
  input = "${terraform_data.a.output}-${count.index}"
}
resource "aws_thing" "real" { name = "needs the provider" }
module "m" {
  source = "./m"
}
locals { from_a = terraform_data.a.output }
output "a"      { value = local.from_a }
output "b"      { value = terraform_data.b.output }
output "c0"     { value = terraform_data.c[0].output }
output "both"   { value = "${terraform_data.a.output}${terraform_data.b.output}" }
output "static" { value = "s" }
output "m"      { value = module.m.out }
`,
		"m/main.tf": `
resource "terraform_data" "in_module" { input = "m" }
output "out" { value = terraform_data.in_module.output }
`,
		"tests/a.tftest.hcl": `
run "targeted" {
  plan_options {
    target = [terraform_data.c[0], module.m]
  }
  assert {
    condition     = output.a == "a" && output.c0 == "a-0" && output.m == "m" && output.b == null && output.both == null && output.static == null
    error_message = "outputs"
  }
}
run "next" {
  command = plan
  plan_options {
    target = [terraform_data.b]
  }
  assert {
    condition     = run.targeted.c0 == "a-0" && terraform_data.b.input == "b" && output.c0 == "a-0"
    error_message = "the state after the targeted apply"
  }
}
`}, dialect.Terraform)
	for _, r := range rep.Files[0].Runs {
		if r.Status != Pass {
			t.Fatalf("%s: %s %s %q", r.Name, r.Status, r.SkipReason, summaries(rep))
		}
	}
	targeted := rep.Files[0].Runs[0]
	for addr, want := range map[string]bool{"terraform_data.a": false, "terraform_data.b": true, "terraform_data.c[0]": false, "terraform_data.c[1]": true, "aws_thing.real": true, "module.m.terraform_data.in_module": false} {
		if targeted.NotPlanned[addr] != want {
			t.Errorf("%s left out of the plan: %v, want %v", addr, targeted.NotPlanned[addr], want)
		}
	}
	if _, ok := targeted.Outputs["static"]; !ok {
		t.Error("an output the targets leave out is not null to the assertions")
	}
	next := rep.Files[0].Runs[1]
	if _, ok := next.Prior["terraform_data.b"]; ok || next.Prior["terraform_data.c[0]"] == cty.NilVal || next.PriorOutputs["b"] != cty.NilVal {
		t.Errorf("the state after the targeted apply: %v, outputs %v", next.Prior, next.PriorOutputs)
	}
}

// TestTargetsLeaveOutUnknownExpansions: with plan_options.target,
// Terraform plans only the targets and what they depend on; a count or
// for_each of a resource left out that the plan cannot know (over what a
// mocked provider computes) is no error, as terraform test v1.11.4 passes
// such a run with a mocked aws, where tfeval reported "Invalid for_each
// argument" and "Invalid count argument". A target's own still is one.
func TestTargetsLeaveOutUnknownExpansions(t *testing.T) {
	schema := `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"provider":{"version":0,"block":{}},
"resource_schemas":{"aws_thing":{"version":0,"block":{"attributes":{
  "id":{"type":"string","computed":true},
  "name":{"type":"string","required":true},
  "keys":{"type":["set","string"],"computed":true}}}}}}}}`
	main := awsProvider + `
resource "aws_thing" "src" {
  name = "s"
}
resource "aws_thing" "each" {
  for_each = aws_thing.src.keys
  name     = each.key
}
resource "aws_thing" "counted" {
  count = length(aws_thing.src.keys)
  name  = "c"
}
resource "aws_thing" "other" {
  name = "o"
}
`
	for _, tc := range []struct {
		name, command, targets string
		status                 Status
		diags                  []string
	}{
		{"plan of another resource", "plan", "aws_thing.other", Pass, nil},
		{"apply of another resource", "apply", "aws_thing.other, aws_thing.src", Pass, nil},
		{"the for_each's own resource", "plan", "aws_thing.each", Error, []string{"Invalid for_each argument"}},
		{"the count's own resource", "plan", "aws_thing.counted", Error, []string{"Invalid count argument"}},
		{"no targets", "plan", "", Error, []string{"Invalid for_each argument", "Invalid count argument"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := ""
			if tc.targets != "" {
				opts = fmt.Sprintf("plan_options {\n    target = [%s]\n  }", tc.targets)
			}
			rep := runFiles(t, map[string]string{
				"providers-schema.json": schema,
				"main.tf":               main,
				"tests/a.tftest.hcl": fmt.Sprintf(`
mock_provider "aws" {}
run "r" {
  command = %s
  %s
}
`, tc.command, opts)}, dialect.Terraform)
			r := runOf(t, rep, "tests/a.tftest.hcl::r")
			if r.Status != tc.status {
				t.Fatalf("%s (%v), want %s", r.Status, r.Diagnostics, tc.status)
			}
			var errs []string
			for _, d := range r.Diagnostics {
				if d.Severity == hcl.DiagError {
					errs = append(errs, d.Summary)
				}
			}
			slices.Sort(errs)
			want := slices.Clone(tc.diags)
			slices.Sort(want)
			if !slices.Equal(errs, want) {
				t.Errorf("errors %q, want %q", errs, want)
			}
		})
	}
}
