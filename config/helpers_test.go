package config

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// loadFiles writes files (name -> content, names may contain directories)
// into a fresh directory and loads it as the working directory's module ".".
func loadFiles(t *testing.T, d dialect.Dialect, files map[string]string) (*Config, hcl.Diagnostics) {
	t.Helper()
	return Load(".", Options{Dialect: d, WorkDir: testfiles.Dir(t, files)})
}

// wantDiag describes one expected diagnostic; an empty Detail or Range is not checked.
type wantDiag struct {
	Summary, Detail, Range string
}

func checkDiags(t *testing.T, diags hcl.Diagnostics, want []wantDiag) {
	t.Helper()
	var errs hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d)
		}
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(want), errs)
	}
	for i, w := range want {
		d := errs[i]
		if d.Summary != w.Summary {
			t.Errorf("error %d summary = %q, want %q", i, d.Summary, w.Summary)
		}
		if w.Detail != "" && d.Detail != w.Detail {
			t.Errorf("error %d detail = %q, want %q", i, d.Detail, w.Detail)
		}
		if d.Subject == nil {
			t.Errorf("error %d (%s) has no source range", i, d.Summary)
		} else if w.Range != "" && d.Subject.String() != w.Range {
			t.Errorf("error %d range = %s, want %s", i, d.Subject, w.Range)
		}
	}
}

// severityLines are diags as "error SUMMARY@LINE:COLUMN" (or "warning ..."),
// for tests that compare the diagnostics of a load.
func severityLines(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity != hcl.DiagError {
			sev = "warning"
		}
		out = append(out, fmt.Sprintf("%s %s@%d:%d", sev, d.Summary, d.Subject.Start.Line, d.Subject.Start.Column))
	}
	return out
}
