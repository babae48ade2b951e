package tftest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// TestExplainPlanFailures: an apply run whose plan fails on a condition
// it expects to fail. Terraform v1.15.9 (internal/moduletest/run.go
// ExplainExpectedFailures) puts a warning before each such error, placed at
// the expect_failures reference for an output value only, and keeps the
// plan's check block warnings, as the apply they were left to never runs;
// OpenTofu v1.12.6 (internal/command/test.go checkProblematicPlanErrors)
// adds a sourceless warning after the plan's diagnostics for each error of
// an expected input variable, and none for other objects. terraform test
// v1.11.4 writes the same diagnostics, in this order, for the Terraform
// cases.
func TestExplainPlanFailures(t *testing.T) {
	main := `
variable "v" {
  type    = string
  default = "okay"
  validation {
    condition     = var.v != "b"
    error_message = "first"
  }
  validation {
    condition     = length(var.v) > 2
    error_message = "second"
  }
}
resource "terraform_data" "a" {
  input = var.v
  lifecycle {
    precondition {
      condition     = var.v != "pre"
      error_message = "pre failed"
    }
  }
}
check "c" {
  assert {
    condition     = terraform_data.a.output == "zzz"
    error_message = "check"
  }
}
output "o" {
  value = terraform_data.a.output
  precondition {
    condition     = var.v != "out"
    error_message = "out failed"
  }
}
`
	const explained = "warning: Expected failure while planning"
	const tofuVar = "warning: Invalid Variable in test file"
	const checkUnknownW = "warning: Check block assertion known after apply"
	cases := []struct {
		name, value, expect string
		d                   dialect.Dialect
		want                []string
		// subjectLine is the line of the explaining warning's subject, 0
		// for none.
		subjectLine int
	}{
		{"variable, two rules", "b", "var.v", dialect.Terraform,
			[]string{explained, "error: Invalid value for variable", explained, "error: Invalid value for variable"}, 0},
		{"resource", "pre", "terraform_data.a", dialect.Terraform,
			[]string{explained, "error: Resource precondition failed"}, 0},
		{"output", "out", "output.o", dialect.Terraform,
			[]string{explained, "error: Module output value precondition failed", checkUnknownW}, 6},
		{"tofu variable, two rules", "b", "var.v", dialect.Tofu,
			[]string{"error: Invalid value for variable", "error: Invalid value for variable", tofuVar, tofuVar}, 0},
		{"tofu output", "out", "output.o", dialect.Tofu,
			[]string{"error: Module output value precondition failed", checkUnknownW}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			test := fmt.Sprintf("run \"r\" {\n  variables {\n    v = %q\n  }\n  expect_failures = [\n    %s,\n  ]\n}\n", c.value, c.expect)
			rep := runFiles(t, map[string]string{"main.tf": main, "tests/a.tftest.hcl": test}, c.d)
			r := runOf(t, rep, "tests/a.tftest.hcl::r")
			if r.Status != Error {
				t.Errorf("status %v, want error", r.Status)
			}
			var got []string
			for _, d := range r.Diagnostics {
				sev := "error"
				if d.Severity == hcl.DiagWarning {
					sev = "warning"
				}
				got = append(got, sev+": "+d.Summary)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("diagnostics\n%q\nwant\n%q", got, c.want)
			}
			for _, d := range r.Diagnostics {
				if d.Summary != "Expected failure while planning" {
					continue
				}
				line := 0
				if d.Subject != nil {
					line = d.Subject.Start.Line
					if d.Subject.Filename != "tests/a.tftest.hcl" {
						t.Errorf("subject in %s", d.Subject.Filename)
					}
				}
				if line != c.subjectLine {
					t.Errorf("subject line %d, want %d", line, c.subjectLine)
				}
			}
		})
	}
}
