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
	if ev.anyUnexpanded() {
		t.Fatal("unexpanded objects found in a plan where all have instances")
	}
	if n := testing.AllocsPerRun(10, func() { ev.anyUnexpanded() }); n != 0 {
		t.Errorf("the walk made %.0f allocations, want none", n)
	}
}

// TestUnexpandedRoots: an object is validated once, and only where no
// configuration of the same module has an instance of it; a call's
// arguments are its own.
func TestUnexpandedRoots(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
module "on" {
  source = "./child"
  n      = 1
}
module "off" {
  source = "./child"
  count  = 0
  n      = 1
}
module "off2" {
  source = "./child"
  count  = 0
  n      = 2
}
module "other" {
  source = "./other"
  count  = 0
}`, "child/main.tf": `
variable "n" {}
resource "terraform_data" "some" {
  count = var.n
}
resource "terraform_data" "none" {
  count = 0
}`, "other/main.tf": `
locals {
  x = 1
}
resource "terraform_data" "o" {}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	ev := res.ev
	g := ev.buildGraph()
	roots, counts := ev.unexpandedRoots(g)
	var got []string
	for n := range roots {
		got = append(got, n.id)
	}
	slices.Sort(got)
	// The module's resource once, in the first call by address.
	want := []string{
		"module.off.terraform_data.none",
		"module.off.var.n",
		"module.off2.var.n",
		"module.other.local.x",
		"module.other.terraform_data.o",
	}
	if !slices.Equal(got, want) {
		t.Errorf("roots %q, want %q", got, want)
	}
	if len(counts) != 1 {
		t.Errorf("%d resources with their count evaluated by the plan, want 1 (none)", len(counts))
	}
}
