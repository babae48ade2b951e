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
	for pos, root := range roots {
		if root {
			got = append(got, g.nodes[pos].id())
		}
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

// TestUnexpandedBodyErrors: the validation of a resource with no instance
// finds, for errors only, what validating the configuration does in its
// body: in its arguments, its nested and dynamic blocks, with and without
// schema, through the direct walk of a plain body (which a label or a
// name that is both an argument and a block type rules out) as through
// decoding.
func TestUnexpandedBodyErrors(t *testing.T) {
	body := func(typ, content string) map[string]string {
		return map[string]string{"versions.tf": mockVersions, "main.tf": `
variable "v" {
  type    = string
  default = "abc"
}
variable "l" {
  type    = list(string)
  default = []
}
locals {
  pair = ["a", "b"]
}
resource "` + typ + `" "x" {
  count = 0
` + content + `
}`}
	}
	cases := []struct {
		name, typ, content string
		want               int // errors
	}{
		{"argument", "other_thing", `  name = local.pair[2]`, 1},
		{"nested block", "other_thing", `  setting {
    name = "ok"
    option {
      key = upper(var.v, 1)
    }
  }
  setting {
    name = local.pair.x
  }`, 2},
		{"dynamic block", "other_thing", `  dynamic "setting" {
    for_each = local.pair
    content {
      name = setting.value.nope
    }
  }`, 2},
		{"unknown dynamic block", "other_thing", `  setting {
    name = local.pair[2]
  }
  dynamic "setting" {
    for_each = var.l
    content {
      name = setting.value.nope
    }
  }
  setting {
    name = local.pair[3]
  }
  option {
    key = local.pair.x
  }`, 2},
		{"dynamic for_each", "other_thing", `  dynamic "setting" {
    for_each = 5
    content {
      name = "a"
    }
  }`, 1},
		{"labelled block", "other_thing", `  named "a" {
    v = local.pair[5]
  }`, 1},
		{"argument and block", "other_thing", `  setting = 1
  setting {
    name = local.pair[3]
  }`, 2},
		{"lifecycle", "other_thing", `  name = "ok"
  lifecycle {
    ignore_changes = [name]
  }
  setting {
    name = local.pair[7]
  }`, 1},
		{"clean", "other_thing", `  name = var.v
  setting {
    name = upper(var.v)
  }`, 0},
		{"schema nested block", "mock_thing", `  setting {
    option {
      key = local.pair[4]
    }
  }`, 1},
		{"schema type", "mock_thing", `  name = local.pair`, 1},
		{"schema dynamic block", "mock_thing", `  dynamic "setting" {
    for_each = local.pair
    content {
      name = upper(setting.value, 2)
    }
  }`, 2},
	}
	schemas := parseMock(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := body(c.typ, c.content)
			res, diags := evalFiles(t, files, Options{ValidateUnexpanded: true, Schemas: schemas})
			if diags.HasErrors() {
				t.Fatalf("plan errors: %s", diags.Error())
			}
			_, vdiags := evalFiles(t, files, Options{Validate: true, Schemas: schemas})
			var got, want []string
			for _, d := range res.UnexpandedErrors() {
				got = append(got, d.Summary+" "+d.Subject.String())
			}
			for _, d := range vdiags {
				if d.Severity == hcl.DiagError {
					want = append(want, d.Summary+" "+d.Subject.String())
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if len(want) != c.want {
				t.Fatalf("validate finds %d errors, want %d: %q", len(want), c.want, want)
			}
			if !slices.Equal(got, want) {
				t.Errorf("unexpanded errors %q, validate's %q", got, want)
			}
		})
	}
}

// TestUnexpandedDynamicContent: a resource with instances whose dynamic
// block the plan's values expanded to none is validated too, as terraform
// validate expands it, its for_each unknown, to one block checked against
// the schema: an argument the schema does not have is then an error the
// plan does not find. Without the schema nothing says the argument is
// unsupported, and a for_each validate knows is as empty there.
func TestUnexpandedDynamicContent(t *testing.T) {
	files := func(typ, forEach, setting string) map[string]string {
		return map[string]string{"versions.tf": mockVersions, "main.tf": `
variable "c" {
  type    = object({ name = string })
  default = null
}
resource "` + typ + `" "x" {
  name = "ok"
  dynamic "setting" {
    for_each = ` + forEach + `
    content {
` + setting + `
    }
  }
}`}
	}
	const unsupported = `      name = setting.value.name
      nope = "x"`
	const nested = `      name = "a"
      dynamic "option" {
        for_each = var.c == null ? [] : [var.c]
        content {
          nope = option.value.name
        }
      }`
	cases := []struct {
		name, typ, forEach, setting string
		want                        []string
	}{
		{"empty for the plan", "mock_thing", `var.c == null ? [] : [var.c]`, unsupported,
			[]string{"Unsupported argument main.tf:12,7-11"}},
		{"nested, empty for the plan", "mock_thing", `["a"]`, nested,
			[]string{"Unsupported argument main.tf:15,11-15"}},
		{"empty for validate too", "mock_thing", `[]`, unsupported, nil},
		{"no schema", "other_thing", `var.c == null ? [] : [var.c]`, unsupported, nil},
	}
	schemas := parseMock(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := files(c.typ, c.forEach, c.setting)
			res, diags := evalFiles(t, f, Options{ValidateUnexpanded: true, Schemas: schemas})
			if diags.HasErrors() {
				t.Fatalf("plan errors: %s", diags.Error())
			}
			var got []string
			for _, d := range res.UnexpandedErrors() {
				got = append(got, d.Summary+" "+d.Subject.String())
				if want := `An argument named "nope" is not expected here.`; d.Detail != want {
					t.Errorf("detail %q, want %q", d.Detail, want)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("unexpanded errors %q, want %q", got, c.want)
			}
			// What validating the configuration reports.
			_, vdiags := evalFiles(t, f, Options{Validate: true, Schemas: schemas})
			var vgot []string
			for _, d := range vdiags {
				if d.Severity == hcl.DiagError {
					vgot = append(vgot, d.Summary+" "+d.Subject.String())
				}
			}
			if !slices.Equal(vgot, c.want) {
				t.Errorf("validate errors %q, want %q", vgot, c.want)
			}
		})
	}
}
