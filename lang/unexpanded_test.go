package lang

import (
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestUnexpandedErrors: a plan evaluated with ValidateUnexpanded validates
// the resources and modules it expanded to no instance, and reports their
// new errors apart from its diagnostics: module.off's output has the
// error the plan reports in module.on, which is not new.
func TestUnexpandedErrors(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "str" {
  default = "abc"
}
locals {
  empty = []
}
resource "terraform_data" "none" {
  count = 0
  input = local.empty[0]
}
resource "terraform_data" "one" {
  count = 1
  input = upper(var.str)
}
module "off" {
  source   = "./child"
  for_each = {}
  x        = each.value
}
module "on" {
  source = "./child"
  x      = "a"
}`, "child/main.tf": `
variable "x" {
  type = string
}
output "o" {
  value = upper(var.x, 2)
}`}
	for _, validate := range []bool{false, true} {
		res, diags := evalFiles(t, files, Options{ValidateUnexpanded: validate})
		var got []string
		for _, d := range res.UnexpandedErrors() {
			got = append(got, d.Summary+" "+d.Subject.String())
		}
		var want []string
		if validate {
			want = []string{"Invalid index main.tf:10,22-25"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("ValidateUnexpanded %v: unexpanded errors %q, want %q", validate, got, want)
		}
		if n := countSummary(diags, "Too many function arguments"); n != 1 {
			t.Errorf("ValidateUnexpanded %v: %d arity errors in the plan's diagnostics, want 1: %s", validate, n, diags.Error())
		}
	}
}

func countSummary(diags hcl.Diagnostics, summary string) int {
	n := 0
	for _, d := range diags {
		if d.Summary == summary {
			n++
		}
	}
	return n
}

// TestUnexpandedWalkAllocates: finding that every object of a plan has an
// instance, as in most evaluations, allocates nothing.
func TestUnexpandedWalkAllocates(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  count = 2
}
module "m" {
  source   = "./child"
  for_each = toset(["x", "y"])
}`, "child/main.tf": `
resource "terraform_data" "b" {}
data "terraform_remote_state" "s" {
  backend = "local"
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	ev := res.ev
	if m, r := ev.unexpanded(); m != nil || r != nil {
		t.Fatalf("unexpanded objects %v %v in a plan where all have instances", m, r)
	}
	if n := testing.AllocsPerRun(10, func() { ev.unexpanded() }); n != 0 {
		t.Errorf("the walk made %.0f allocations, want none", n)
	}
}
