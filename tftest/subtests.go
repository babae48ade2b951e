package tftest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// Subtests reports a test command's outcome as Go subtests of t: one per
// test file, one per run inside it, so that `go test` shows and filters
// them by name (-run 'TestModule/tests/a.tftest.hcl/defaults'). A run
// that passed passes; one that failed or errored fails with its
// diagnostics; one that was skipped is skipped, with its reason. Test
// files that did not load fail t itself.
func (r *Report) Subtests(t *testing.T) {
	t.Helper()
	if r.Stopped() {
		t.Fatalf("the test files did not load:\n%s", diagText(r.Diagnostics))
	}
	for _, fr := range r.Files {
		t.Run(fr.Path, func(t *testing.T) {
			if len(fr.Diagnostics) > 0 {
				t.Errorf("%s", diagText(fr.Diagnostics))
			}
			for _, rr := range fr.Runs {
				t.Run(rr.Name, func(t *testing.T) { rr.report(t) })
			}
		})
	}
}

// report is one run as a subtest.
func (rr *RunResult) report(t *testing.T) {
	switch rr.Status {
	case Fail, Error:
		t.Errorf("run %q: %s\n%s", rr.Name, rr.Status, diagText(rr.Diagnostics))
	case Skip:
		switch {
		case rr.NeedsProvider != "":
			t.Skipf("needs provider %s: %s", rr.NeedsProvider, rr.SkipReason)
		case rr.SkipReason != "":
			t.Skip(rr.SkipReason)
		default:
			t.Skip("an earlier run of the file failed with an error")
		}
	case Pending:
		t.Skip("not run: the file's runs refer to each other in a cycle")
	}
}

// diagText writes diagnostics one a line: severity, place, summary and detail.
func diagText(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		sev := "Error"
		if d.Severity == hcl.DiagWarning {
			sev = "Warning"
		}
		fmt.Fprintf(&b, "%s: %s", sev, d.Summary)
		if d.Subject != nil {
			fmt.Fprintf(&b, " (%s)", d.Subject)
		}
		if d.Detail != "" {
			fmt.Fprintf(&b, ": %s", d.Detail)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
