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
