package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
)

// TestEphemeralModuleArgument checks that a module argument holding an
// ephemeral value, however deep, is refused by a variable that does not
// accept one and taken by one that does, and that arguments are taken
// where no value is ephemeral (there Prepare is told so, and does not
// search them).
func TestEphemeralModuleArgument(t *testing.T) {
	const child = `
variable "v" {}
variable "e" {
  ephemeral = true
  default   = null
}`
	const root = `
variable "e" {
  ephemeral = true
  default   = "x"
}
variable "p" { default = "x" }
`
	for name, tc := range map[string]struct {
		main string
		want bool
	}{
		"deep, into a variable that does not accept it": {root + `module "m" {
  source = "./m"
  v      = { a = [var.e] }
}`, true},
		"into an ephemeral variable": {root + `module "m" {
  source = "./m"
  v      = 1
  e      = { a = [var.e] }
}`, false},
		"none": {root + `module "m" {
  source = "./m"
  v      = { a = [var.p] }
}`, false},
		"none anywhere": {`module "m" {
  source = "./m"
  v      = { a = ["x"] }
}`, false},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := evalFiles(t, map[string]string{"main.tf": tc.main, "m/main.tf": child}, Options{})
			found := false
			for _, d := range diags {
				if d.Summary == "Ephemeral value not allowed" {
					found = true
				} else if d.Severity == hcl.DiagError {
					t.Errorf("unexpected: %s", d.Error())
				}
			}
			if found != tc.want {
				t.Errorf("ephemeral argument refused: %v, want %v (%s)", found, tc.want, diags.Error())
			}
		})
	}
}

// TestAppliedOutputKeepsPlannedValue: in an apply, an output whose value
// the plan knew keeps it (Terraform does not evaluate it again), in the
// root and in a module, and what reads a module's output reads the kept
// value; an output the plan did not know is evaluated anew.
func TestAppliedOutputKeepsPlannedValue(t *testing.T) {
	files := map[string]string{
		"main.tf": `
module "m" { source = "./m" }
output "known"   { value = uuid() == "" ? "x" : "y" }
output "unknown" { value = uuid() }
output "through" { value = module.m.provided }
`,
		"m/main.tf": `
variable "input" {
  default  = "d"
  nullable = false
}
output "provided" { value = var.input != "d" }
output "fresh" {
  value     = uuid() == "" ? "x" : "y"
  ephemeral = true
}
`}
	planned := map[string]cty.Value{
		"|known":            cty.StringVal("planned"),
		"module.m|provided": cty.True,
		"module.m|fresh":    cty.StringVal("planned"),
	}
	res, diags := evalFiles(t, files, Options{Applied: true, PlannedOutputs: func(module, name string) (cty.Value, bool) {
		if name == "unknown" {
			return cty.UnknownVal(cty.String), true
		}
		v, ok := planned[module+"|"+name]
		return v, ok
	}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := res.Root().Outputs
	if got := out["known"]; !got.RawEquals(cty.StringVal("planned")) {
		t.Errorf("known = %#v, want the planned value", got)
	}
	if got := out["through"]; !got.RawEquals(cty.True) {
		t.Errorf("through = %#v, want the module output's planned value", got)
	}
	if got, _ := res.Module("module.m").Outputs["fresh"].Unmark(); !got.RawEquals(cty.StringVal("y")) {
		t.Errorf("fresh = %#v, want the ephemeral output evaluated in the apply", got)
	}
	if got := out["unknown"]; !got.IsKnown() {
		t.Errorf("unknown = %#v, want it evaluated in the apply", got)
	}
	res, _ = evalFiles(t, files, Options{Applied: true})
	if got := res.Root().Outputs["through"]; !got.RawEquals(cty.False) {
		t.Errorf("without planned values through = %#v, want false", got)
	}
}

// terraform validate expands no module call, so a called module's variable
// is named by the calls alone; a plan names the instances (v1.11.4).
func TestUnsuitableArgumentAddressInValidate(t *testing.T) {
	files := map[string]string{
		"main.tf": `module "m" {
  source   = "./m"
  for_each = toset(["a"])
}
`,
		"m/main.tf": `module "n" {
  source = "./n"
  count  = 1
  x      = { a = 1 }
}
`,
		"m/n/main.tf": `variable "x" {
  type = list(string)
}
`,
	}
	for _, tc := range []struct {
		validate bool
		dialect  dialect.Dialect
		want     string
	}{
		{true, dialect.Terraform, "module.m.module.n.var.x"},
		{false, dialect.Terraform, `module.m["a"].module.n[0].var.x`},
	} {
		_, diags := evalFiles(t, files, Options{Validate: tc.validate, Dialect: tc.dialect})
		if len(diags) != 1 || !strings.Contains(diags[0].Detail, "not suitable for "+tc.want+" declared at") {
			t.Errorf("validate=%v: %v, want one naming %s", tc.validate, diags, tc.want)
		}
	}
}
