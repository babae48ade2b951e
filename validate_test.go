package tfeval_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// validate is exactly as strict as terraform validate (v1.11.4 checked):
// a module call's argument of a known wrong type is an error, resource and
// data source conditions and check assertions are the plan's to decide
// (what fails to evaluate in them is reported), an output's precondition
// is decided; and the plan, which validates first, reports that alone.
func TestValidateStrictness(t *testing.T) {
	for name, tc := range map[string]struct {
		files          map[string]string
		validate, plan []string
	}{
		"module argument of a wrong type": {
			files: map[string]string{
				"main.tf":   "module \"m\" {\n  source = \"./m\"\n  n      = \"not a number\"\n  l      = { a = 1 }\n}\n",
				"m/main.tf": "variable \"n\" { type = number }\nvariable \"l\" { type = list(string) }\n",
			},
			validate: []string{"Invalid value for input variable@3", "Invalid value for input variable@4"},
			plan:     []string{"Invalid value for input variable@3", "Invalid value for input variable@4"},
		},
		"conditions": {
			files: map[string]string{"main.tf": `locals { want = "s3" }
resource "terraform_data" "r" {
  input = "a"
  lifecycle {
    postcondition {
      condition     = self.input == local.want
      error_message = "resource post fails"
    }
    precondition {
      condition     = local.want == "y"
      error_message = "resource pre fails"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = local.want == "z"
    error_message = "output pre"
  }
}
check "c" {
  assert {
    condition     = local.want == "w"
    error_message = "check fails"
  }
}
`},
			validate: []string{"Module output value precondition failed@18"},
			plan:     []string{"Module output value precondition failed@18"},
		},
		"a bad reference in a resource condition": {
			files: map[string]string{"main.tf": `resource "terraform_data" "r" {
  lifecycle {
    precondition {
      condition     = local.nope == 1
      error_message = "x"
    }
  }
}
`},
			validate: []string{"Reference to undeclared local value@4"},
			plan:     []string{"Reference to undeclared local value@4"},
		},
		// A reference to an undeclared resource or module call, a wrong
		// instance key or attribute of a resource, or self out of place is
		// found before any value is resolved: the expression's other
		// reference problems are then not reported (terraform validate and
		// plan v1.11.4).
		"a failed resource reference hides the others": {
			files: map[string]string{"main.tf": `locals {
  a = "${module.nomod.x} ${var.u1}"
  b = "${self.x} ${var.u2}"
  c = "${count.index} ${nosuch.q.id}"
  d = "${terraform_data.t.nope} ${local.u3}"
  e = "${terraform_data.t[0].id} ${local.u4}"
  g = "${each.key} ${local.u6}"
}
resource "terraform_data" "t" {}
output "o" {
  value = [local.a, local.b, local.c, local.d, local.e, local.g]
}
`},
			validate: []string{"Invalid \"self\" reference@3", "Reference to \"each\" in context without for_each@7", "Reference to undeclared local value@7", "Reference to undeclared module@2", "Reference to undeclared resource@4", "Unexpected resource instance key@6", "Unsupported attribute@5"},
			plan:     []string{"Invalid \"self\" reference@3", "Reference to \"each\" in context without for_each@7", "Reference to undeclared local value@7", "Reference to undeclared module@2", "Reference to undeclared resource@4", "Unexpected resource instance key@6", "Unsupported attribute@5"},
		},
		// Terraform evaluates a resource's or an output's condition whose
		// resource references fail with no named value, each reference an
		// "Unknown variable"; a check block's assertion not. The plan
		// validates first: a postcondition's references are checked though
		// the precondition failed, an error message's though the condition
		// held (terraform validate and plan v1.11.4).
		"failed references in conditions": {
			files: map[string]string{"main.tf": `variable "n" {
  default = 1
}
resource "terraform_data" "t" {
  lifecycle {
    precondition {
      condition     = nosuch.x.id == var.n
      error_message = "a"
    }
    postcondition {
      condition     = nosuch.y.id == self.id
      error_message = "b"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = nosuch.z.id == var.n
    error_message = "c"
  }
}
check "k" {
  assert {
    condition     = nosuch.w.id == var.n
    error_message = "d"
  }
}
output "p" {
  value = 2
  precondition {
    condition     = var.n == 1
    error_message = "${local.nope}"
  }
}
`},
			validate: []string{"Reference to undeclared local value@33", "Reference to undeclared resource@11", "Reference to undeclared resource@19", "Reference to undeclared resource@25", "Reference to undeclared resource@7", "Unknown variable@11", "Unknown variable@11", "Unknown variable@19", "Unknown variable@19", "Unknown variable@7", "Unknown variable@7"},
			plan:     []string{"Reference to undeclared local value@33", "Reference to undeclared resource@11", "Reference to undeclared resource@19", "Reference to undeclared resource@25", "Reference to undeclared resource@7", "Unknown variable@11", "Unknown variable@11", "Unknown variable@19", "Unknown variable@19", "Unknown variable@7", "Unknown variable@7"},
		},
		// What fails to evaluate in a check block's assertion is an error
		// (its failure only a warning), in validate and so in the plan,
		// which validates first (terraform v1.11.4).
		"bad references in a check block": {
			files: map[string]string{"main.tf": `resource "terraform_data" "t" {}
check "k" {
  assert {
    condition     = var.nope == 1
    error_message = "d ${local.nope2}"
  }
}
check "k2" {
  assert {
    condition     = terraform_data.t.nope == 1 && var.nope3 == 1
    error_message = "d"
  }
}
`},
			validate: []string{"Reference to undeclared input variable@4", "Reference to undeclared local value@5", "Unsupported attribute@10"},
			plan:     []string{"Reference to undeclared input variable@4", "Reference to undeclared local value@5", "Unsupported attribute@10"},
		},
		// The plan validates first: an error message calling a function
		// wrongly is an error though its condition holds, while an index
		// past a variable's value, which the validation walk does not
		// know, is not (terraform validate and plan v1.11.4).
		"an error message whose condition holds": {
			files: map[string]string{"main.tf": `variable "l" {
  default = [1]
}
output "o" {
  value = 1
  precondition {
    condition     = length(var.l) == 1
    error_message = "${var.l[5]} ${upper(1, 2)}"
  }
}
resource "terraform_data" "r" {
  lifecycle {
    postcondition {
      condition     = self.input == null
      error_message = "${var.l[7]}"
    }
  }
}
`},
			validate: []string{"Too many function arguments@8"},
			plan:     []string{"Too many function arguments@8"},
		},
		// The validation walk knows a local computed from constants: a
		// message interpolating a null one is an error whatever the
		// condition (a variable's rule, an output's, a resource's, a check
		// block's), in validate and in the plan; a local read from a
		// variable is unknown there, and a template with an unknown part
		// is not checked further (terraform validate and plan v1.11.4).
		"an error message reading a local the validation walk knows": {
			files: map[string]string{"main.tf": `locals {
  n = null
  v = var.v
}
variable "v" {
  type    = string
  default = "a"
  validation {
    condition     = var.v == "a"
    error_message = "w ${local.n}"
  }
}
output "o" {
  value = 1
  precondition {
    condition     = local.n == null
    error_message = "y ${local.n}"
  }
}
output "o2" {
  value = 1
  precondition {
    condition     = local.n == null
    error_message = "y ${local.n} ${local.v == null ? local.v : ""}"
  }
}
check "c" {
  assert {
    condition     = local.n == null
    error_message = "z ${local.n}"
  }
}
`},
			validate: []string{"Invalid template interpolation value@10", "Invalid template interpolation value@17", "Invalid template interpolation value@30"},
			plan:     []string{"Invalid template interpolation value@10", "Invalid template interpolation value@17", "Invalid template interpolation value@30"},
		},
		// terraform init installs the modules before it finds these, so
		// validate evaluates the call rather than report it not installed.
		"a destroy provisioner's bad references beside a module call": {
			files: map[string]string{
				"main.tf": `variable "ns" { default = "a" }
locals { l = "b" }
module "m" { source = "./m" }
resource "terraform_data" "x" {
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${var.ns} ${local.l} ${path.module} ${self.id}"
  }
}
`,
				"m/main.tf":                       "output \"o\" { value = 1 }\n",
				".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"./m","Dir":"m"}]}`,
			},
			validate: []string{"Invalid reference from destroy provisioner@7", "Invalid reference from destroy provisioner@7"},
			plan:     []string{"Invalid reference from destroy provisioner@7", "Invalid reference from destroy provisioner@7"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := testfiles.Dir(t, tc.files)
			list := func(diags hcl.Diagnostics) []string {
				var out []string
				for _, d := range diags {
					if d.Severity == hcl.DiagError || d.Severity == hcl.DiagWarning {
						out = append(out, fmt.Sprintf("%s@%d", d.Summary, d.Subject.Start.Line))
					}
				}
				sort.Strings(out)
				return out
			}
			if got := list(tfeval.Validate(tfeval.Options{WorkDir: dir})); fmt.Sprint(got) != fmt.Sprint(tc.validate) {
				t.Errorf("validate: %v, want %v", got, tc.validate)
			}
			if got := list(tfeval.Evaluate(tfeval.Options{WorkDir: dir}).Diagnostics); fmt.Sprint(got) != fmt.Sprint(tc.plan) {
				t.Errorf("plan: %v, want %v", got, tc.plan)
			}
		})
	}
}
