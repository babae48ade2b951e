package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// An error is reported once per block when Terraform's validate walk
// finds it (what it reads is known before any instance is expanded), and
// once per instance when it depends on what an instance knows. The
// counts are those terraform plan -json reports for the same modules.
func TestErrorsPerInstance(t *testing.T) {
	const head = `
variable "s" { default = "a" }
locals { obj = { a = 1 } }
`
	cases := []struct {
		name  string
		files map[string]string
		want  int
	}{
		{"a constant's error, count = 2", map[string]string{"main.tf": head + `resource "terraform_data" "x" {
  count = 2
  input = tonumber("a")
}`}, 1},
		{"a local's missing attribute, count = 2", map[string]string{"main.tf": head + `resource "terraform_data" "x" {
  count = 2
  input = local.obj.nope
}`}, 1},
		{"a root variable's value, count = 2", map[string]string{"main.tf": head + `resource "terraform_data" "x" {
  count = 2
  input = tonumber(var.s)
}`}, 2},
		{"count.index, count = 2", map[string]string{"main.tf": head + `resource "terraform_data" "x" {
  count = 2
  input = tonumber("a${count.index}")
}`}, 2},
		{"each.value, two keys", map[string]string{"main.tf": head + `resource "terraform_data" "x" {
  for_each = { a = 1, b = 2 }
  input    = each.value.nope
}`}, 2},
		{"an undeclared variable, count = 2", map[string]string{"main.tf": head + `resource "terraform_data" "x" {
  count = 2
  input = var.nope
}`}, 1},
		{"a module called twice, its variable's value", map[string]string{
			"main.tf": head + `
module "a" {
  source = "./m"
  s      = var.s
}
module "b" {
  source = "./m"
  s      = var.s
}`,
			"m/main.tf": `
variable "s" {}
resource "terraform_data" "x" { input = tonumber(var.s) }`,
		}, 2},
		{"a module with count = 2, a rule of its variable alone, the same value", map[string]string{
			"main.tf": `
module "n" {
  source = "./m"
  count  = 2
  min    = 5
  max    = 1
}`,
			"m/main.tf": `
variable "min" {}
variable "max" {
  validation {
    condition     = var.max > 3
    error_message = "max too small"
  }
}`,
		}, 1},
		{"a module with count = 2, a rule of its variable alone, values by instance", map[string]string{
			"main.tf": `
module "n" {
  source = "./m"
  count  = 2
  min    = 5
  max    = count.index
}`,
			"m/main.tf": `
variable "min" {}
variable "max" {
  validation {
    condition     = var.max > 3
    error_message = "max too small"
  }
}`,
		}, 2},
		{"a module with count = 2, a rule that reads another variable", map[string]string{
			"main.tf": `
module "n" {
  source = "./m"
  count  = 2
  min    = 5
  max    = 1
}`,
			"m/main.tf": `
variable "min" {}
variable "max" {
  validation {
    condition     = var.max > var.min
    error_message = "max must exceed min"
  }
}`,
		}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := evalFiles(t, c.files, Options{})
			n := 0
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					n++
				}
			}
			if n != c.want {
				t.Errorf("%d errors, want %d:\n%s", n, c.want, diags.Error())
			}
		})
	}
}

// The validate walk goes through each module call, not each instance:
// an error it finds in a module called twice is reported twice; it knows
// no child module's variables, so an error that reads one is reported by
// every instance.
func TestValidatePhaseErrorsPerCall(t *testing.T) {
	calls := `
module "a" {
  source = "./m"
  s      = "a"
}
module "b" {
  source = "./m"
  count  = 3
  s      = "a"
}`
	for _, c := range []struct {
		module string
		want   int
	}{
		{"variable \"s\" {}\nresource \"terraform_data\" \"x\" {\n  count = 2\n  input = tonumber(\"a\")\n}", 2},
		{"variable \"s\" {}\nresource \"terraform_data\" \"x\" { input = tonumber(var.s) }", 4},
	} {
		_, diags := evalFiles(t, map[string]string{"main.tf": calls, "m/main.tf": c.module}, Options{})
		if n := len(diags.Errs()); n != c.want {
			t.Errorf("%s\n%d errors, want %d:\n%s", c.module, n, c.want, diags.Error())
		}
	}
}

// terraform validate checks a child module variable's own validation
// rules against its call's argument or its default, where what that reads
// is known in the validate walk; everything else reads the variable as
// unknown. The expectations are terraform validate v1.11.4's on the same
// modules.
func TestValidateWalkVariableRules(t *testing.T) {
	const rule = `variable "v" {
  type = string
  validation {
    condition     = var.v == "good"
    error_message = "v must be good"
  }
}
`
	cases := []struct {
		name string
		main string
		// want are the subjects of the "Invalid value for variable" errors.
		want []string
	}{
		{"a constant argument", `module "m" {
  source = "./c"
  v      = "bad"
}`, []string{"main.tf:3,12-17"}},
		{"a root variable's value is unknown", `variable "r" { default = "bad" }
module "m" {
  source = "./c"
  v      = var.r
}`, nil},
		{"for_each instances: once", `module "m" {
  for_each = toset(["a", "b"])
  source   = "./c"
  v        = "bad"
}`, []string{"main.tf:4,14-19"}},
		{"a refined unknown the rule refuses", `module "m" {
  count  = 2
  source = "./c"
  v      = "bad${count.index}"
}`, []string{"main.tf:4,12-31"}},
		{"a good constant", `module "m" {
  source = "./c"
  v      = "good"
}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := evalFiles(t, map[string]string{"main.tf": c.main, "c/main.tf": rule}, Options{Validate: true})
			var got []string
			for _, d := range diags {
				if d.Summary != "Invalid value for variable" {
					t.Errorf("unexpected %s: %s", d.Summary, d.Detail)
					continue
				}
				got = append(got, d.Subject.String())
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}

	// A default its own rule refuses fails; a rule reading another
	// variable reads it unknown; a message only the plan can give leaves
	// the rule to the plan; a root variable's default is unknown.
	child := `variable "lo" {
  type    = number
  default = 5
}
variable "hi" {
  type    = number
  default = 1
  validation {
    condition     = var.hi > var.lo
    error_message = "hi must exceed lo"
  }
}
variable "self" {
  type    = number
  default = 1
  validation {
    condition     = var.self > 3
    error_message = "self too small"
  }
}
variable "msg" {
  type    = string
  default = "bad"
  validation {
    condition     = var.msg == "good"
    error_message = "got ${var.msg}${var.lo}"
  }
}
`
	_, diags := evalFiles(t, map[string]string{"main.tf": child + `module "m" {
  source = "./c"
}`, "c/main.tf": child}, Options{Validate: true})
	if len(diags) != 1 || diags[0].Detail != "self too small\n\nThis was checked by the validation rule at c/main.tf:16,3-13." {
		t.Errorf("got %v", diags)
	}
	// A child's default was written nowhere the call can show: Terraform
	// (validate and plan) gives the failure no source range ("on  line
	// 0"), not the declaration's, which a root variable's default gets.
	for _, opts := range []Options{{Validate: true}, {}} {
		_, diags := evalFiles(t, map[string]string{"main.tf": `module "m" {
  source = "./c"
}`, "c/main.tf": child}, opts)
		for _, d := range diags {
			if d.Summary == "Invalid value for variable" && strings.HasPrefix(d.Detail, "self too small") && (d.Subject == nil || *d.Subject != (hcl.Range{})) {
				t.Errorf("validate %v: the child default's failure is at %v, want an empty range", opts.Validate, d.Subject)
			}
		}
	}
}

// terraform validate reads a module call's outputs as unknown (v1.11.4:
// `module.a.o * 2` of a constant string output passes, as does a call's
// argument from it that the variable's type or rule refuses), while the
// call's value is still an object of its outputs.
func TestValidateWalkModuleOutputsUnknown(t *testing.T) {
	files := map[string]string{
		"main.tf": `module "a" {
  source = "./a"
}
module "m" {
  source = "./c"
  v      = module.a.o
  n      = module.a.o
}
locals {
  doubled = module.a.o * 2
}
`,
		"a/main.tf": `output "o" {
  value = "bad"
}
`,
		"c/main.tf": `variable "n" {
  type = number
}
variable "v" {
  type = string
  validation {
    condition     = var.v == "good"
    error_message = "v must be good"
  }
}
`,
	}
	_, diags := evalFiles(t, files, Options{Validate: true})
	for _, d := range diags {
		t.Errorf("validate: unexpected %s: %s (%v)", d.Summary, d.Detail, d.Subject)
	}
	// The plan knows the output and reports all three.
	_, diags = evalFiles(t, files, Options{})
	if !diags.HasErrors() {
		t.Error("the plan reported no error for the output's constant")
	}
	files["main.tf"] += "locals {\n  listed = tolist(module.a)\n}\n"
	_, diags = evalFiles(t, files, Options{Validate: true})
	if len(diags) != 1 || diags[0].Summary != "Invalid function argument" {
		t.Errorf("validate of tolist(module.a): %v, want one Invalid function argument (the call is an object)", diags)
	}
}

// terraform validate's module call outputs are unknowns made afresh,
// without the output's sensitive or ephemeral mark (v1.15.9's GetModule in
// the validate walk; v1.11.4 reports nothing here): a root output of a
// child's sensitive output is "Output refers to sensitive values" at plan
// time only.
func TestValidateWalkModuleOutputsUnmarked(t *testing.T) {
	files := map[string]string{
		"main.tf": `module "a" {
  source = "./a"
}
output "o" {
  value = module.a.s
}
`,
		"a/main.tf": `output "s" {
  value     = "x"
  sensitive = true
}
`,
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		_, diags := evalFiles(t, files, Options{Validate: true, Dialect: d})
		for _, diag := range diags {
			t.Errorf("%v validate: unexpected %s: %s (%v)", d, diag.Summary, diag.Detail, diag.Subject)
		}
		_, diags = evalFiles(t, files, Options{Dialect: d})
		if len(diags) != 1 || diags[0].Summary != "Output refers to sensitive values" {
			t.Errorf("%v plan: %v, want Output refers to sensitive values", d, diags)
		}
	}
}
