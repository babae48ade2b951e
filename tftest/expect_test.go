package tftest

import (
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// TestVerboseDiagnostics: `terraform test -verbose` (1.14 on) shows a
// run's diagnostics before its expected failures are taken out: the
// expected failure's own error (a check's warning as a warning), and not
// the error for an expected failure that did not happen, which decides
// the status all the same. Without -verbose, and in OpenTofu, nothing
// changes.
func TestVerboseDiagnostics(t *testing.T) {
	files := map[string]string{
		"main.tf": `
variable "input" {
  type = string
  validation {
    condition     = var.input == "allow"
    error_message = "invalid input value"
  }
}
variable "other" {
  type    = string
  default = "deny"
}
check "c" {
  assert {
    condition     = var.other != "deny"
    error_message = "check failed"
  }
}
`,
		"tests/a.tftest.hcl": `
run "expected" {
  command = plan
  variables {
    input = "deny"
  }
  expect_failures = [var.input, check.c]
}
run "missing" {
  command = plan
  variables {
    input = "allow"
    other = "ok"
  }
  expect_failures = [var.input]
}
`,
	}
	sums := func(r *RunResult, verbose bool) []string {
		ds := r.Diagnostics
		if verbose && r.VerboseDiagnostics != nil {
			ds = r.VerboseDiagnostics
		}
		var out []string
		for _, d := range ds {
			sev := "error"
			if d.Severity != hcl.DiagError {
				sev = "warning"
			}
			out = append(out, sev+": "+d.Summary)
		}
		return out
	}
	rep := runFiles(t, files, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::expected": "pass", "tests/a.tftest.hcl::missing": "error"})
	expected, missing := runOf(t, rep, "tests/a.tftest.hcl::expected"), runOf(t, rep, "tests/a.tftest.hcl::missing")
	for _, tc := range []struct {
		r       *RunResult
		verbose bool
		want    []string
	}{
		{expected, false, nil},
		{expected, true, []string{"error: Invalid value for variable", "warning: Check block assertion failed"}},
		{missing, false, []string{"error: Missing expected failure"}},
		{missing, true, nil},
	} {
		if got := sums(tc.r, tc.verbose); !slices.Equal(got, tc.want) {
			t.Errorf("%s (verbose %v): %v, want %v", tc.r.Name, tc.verbose, got, tc.want)
		}
	}
	rep = runFiles(t, files, dialect.Tofu)
	for _, f := range rep.Files {
		for _, r := range f.Runs {
			if r.VerboseDiagnostics != nil {
				t.Errorf("OpenTofu %s: %v", r.Name, r.VerboseDiagnostics)
			}
		}
	}
}

// TestExpectedFailureAfterInvalidValue: a run's value that the variable's
// type does not take fails the plan before the variable's validation, or
// anything reading the variable, is evaluated: every failure the run
// expects of them is missing ("Missing expected failure", as
// `terraform test` v1.11.4 reports, and Terraform v1.15.9's and OpenTofu
// v1.12.6's runners add the missing failures to a plan's errors whatever
// they are). An apply run stops at its plan's errors without that check.
func TestExpectedFailureAfterInvalidValue(t *testing.T) {
	main := `
variable "env" {
  type = object({
    name  = string
    fleet = optional(object({ arn = string }))
  })
  validation {
    condition     = var.env.fleet == null || var.env.fleet.arn != ""
    error_message = "bad fleet"
  }
}
output "o" {
  value = var.env.name
  precondition {
    condition     = var.env.name != "bad"
    error_message = "bad name"
  }
}
`
	for _, tc := range []struct {
		name, run string
		want      []string
	}{{
		name: "plan, the variable",
		run:  `command = plan` + "\n" + `expect_failures = [var.env]`,
		want: []string{"error: Invalid value for input variable", "error: Missing expected failure"},
	}, {
		name: "plan, the variable and an output reading it",
		run:  `command = plan` + "\n" + `expect_failures = [var.env, output.o]`,
		want: []string{"error: Invalid value for input variable", "error: Missing expected failure", "error: Missing expected failure"},
	}, {
		name: "apply",
		run:  `expect_failures = [var.env]`,
		want: []string{"error: Invalid value for input variable"},
	}} {
		for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
			rep := runFiles(t, map[string]string{
				"main.tf": main,
				"tests/a.tftest.hcl": `
run "r" {
  variables {
    env = { name = "x", fleet = {} }
  }
  ` + tc.run + `
}
`,
			}, d)
			wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": "error"})
			if got := summaries(rep); !slices.Equal(got, tc.want) {
				t.Errorf("%s (%s): %v, want %v", tc.name, d, got, tc.want)
			}
		}
	}
}
