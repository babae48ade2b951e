package lang

import (
	"reflect"
	"sort"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/marks"
)

// Checks evaluates the rules once; later calls return the same results
// without spending evaluation steps, and callers cannot change them.
func TestChecksRemembered(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "n" {
  default = 3
  validation {
    condition     = var.n > 1
    error_message = "n too small"
  }
}
check "health" {
  assert {
    condition     = var.n == 4
    error_message = "n is ${var.n}"
  }
}
`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	first := res.Checks()
	if len(first) != 2 || first[0].Status != CheckFail || first[0].ErrorMessage != "n is 3" || first[1].Status != CheckPass {
		t.Fatalf("checks = %+v", first)
	}
	steps := res.ev.limits.steps.Load()
	first[0].Status = CheckPass
	second := res.Checks()
	if res.ev.limits.steps.Load() != steps {
		t.Errorf("the second call evaluated again (%d steps, then %d)", steps, res.ev.limits.steps.Load())
	}
	if second[0].Status != CheckFail {
		t.Error("a caller's change to the results reached the next call")
	}
	second[0].Status = CheckPass
	if !reflect.DeepEqual(first, second) {
		t.Errorf("second call = %+v, first = %+v", second, first)
	}
}

// A failed custom condition's diagnostic names the checkable object it
// belongs to, whatever range it points at.
func TestFailedConditionExtra(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{
		"main.tf": `
variable "n" {
  default = 3
  validation {
    condition     = var.n > 5
    error_message = "n too small"
  }
}
# What depends on var.n is not evaluated once its validation fails, as in
# Terraform: the other conditions read a variable of their own.
variable "k" { default = 3 }
resource "terraform_data" "x" {
  lifecycle {
    precondition {
      condition     = var.k > 4
      error_message = "x needs more"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = var.k > 10
    error_message = "never"
  }
}
check "health" {
  assert {
    condition     = var.k == 4
    error_message = "k is ${var.k}"
  }
}
module "m" {
  source = "./m"
  count  = 1
  v      = "bad"
}
`,
		"m/main.tf": `
variable "v" {
  validation {
    condition     = var.v == "good"
    error_message = "v must be good"
  }
}
`}, Options{})
	var got []FailedCondition
	for _, d := range diags {
		if fc, ok := hcl.DiagnosticExtra[FailedCondition](d); ok {
			got = append(got, fc)
		}
	}
	want := []FailedCondition{
		{Object: "var.n"}, {Module: "module.m[0]", Object: "var.v"},
		{Object: "terraform_data.x"}, {Object: "output.o"}, {Object: "check.health"},
	}
	sortFC := func(fcs []FailedCondition) {
		sort.Slice(fcs, func(i, j int) bool { return fcs[i].Module+fcs[i].Object < fcs[j].Module+fcs[j].Object })
	}
	sortFC(got)
	sortFC(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("failed conditions = %+v, want %+v\n%s", got, want, diags.Error())
	}
}

// ConditionMarks are the marks of the rules' conditions that read a
// marked value: a precondition over a sensitive variable, and a variable
// validation; none where no rule reads one.
func TestConditionMarks(t *testing.T) {
	for name, tc := range map[string]struct {
		src  string
		want bool
	}{
		"precondition": {`
variable "s" {
  default   = "x"
  sensitive = true
}
resource "terraform_data" "t" {
  lifecycle {
    precondition {
      condition     = var.s != ""
      error_message = "empty"
    }
  }
}`, true},
		"validation": {`
variable "s" {
  default   = "x"
  sensitive = true
  validation {
    condition     = length(var.s) == 1
    error_message = "long"
  }
}`, true},
		"not read": {`
variable "s" {
  default   = "x"
  sensitive = true
}
variable "n" {
  default = 1
  validation {
    condition     = var.n > 0
    error_message = "small"
  }
}
output "s" {
  value     = var.s
  sensitive = true
}`, false},
	} {
		res, diags := evalFiles(t, map[string]string{"main.tf": tc.src}, Options{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", name, diags.Error())
		}
		if got := res.ConditionMarks().Has(marks.Sensitive); got != tc.want {
			t.Errorf("%s: sensitive among %#v, want %v", name, res.ConditionMarks(), tc.want)
		}
	}
}
