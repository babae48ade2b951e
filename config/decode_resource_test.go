package config

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// TestIgnoreChanges: the forms of a resource's ignore_changes, each with
// what is kept and the diagnostics (severity, summary and line:column of
// the subject), as Terraform v1.11.4 reports them: a quoted attribute name
// is taken with the deprecation warning depends_on gives, "*" is an error,
// and an error again, at the "*", when references follow it.
func TestIgnoreChanges(t *testing.T) {
	for name, tc := range map[string]struct {
		list  string // the value of ignore_changes
		kept  []string
		diags []string
	}{
		"references":           {`[a, b["k"]]`, []string{"a", "b"}, nil},
		"quoted name":          {`["a"]`, []string{"a"}, []string{"warning Quoted references are deprecated@3:23"}},
		"quoted and bare":      {`["a", b]`, []string{"a", "b"}, []string{"warning Quoted references are deprecated@3:23"}},
		"quoted with an index": {`["tags[\"k\"]"]`, []string{"tags"}, []string{"warning Quoted references are deprecated@3:23"}},
		"quoted template":      {`["in${"put"}"]`, []string{"input"}, []string{"warning Quoted references are deprecated@3:23"}},
		// Terraform lists the parse error first; a file's load diagnostics
		// are in position order here (diagsort.ByPosition).
		"quoted, not a name":    {`["bad thing"]`, []string{"bad"}, []string{"warning Quoted references are deprecated@3:23", "error Invalid character@3:28"}},
		"wildcard alone":        {`["*"]`, nil, []string{"error Invalid ignore_changes wildcard@3:22"}},
		"wildcard and a name":   {`["*", a]`, []string{"a"}, []string{"error Invalid ignore_changes wildcard@3:22", "error Invalid ignore_changes ruleset@3:23"}},
		"a name, then wildcard": {`[a, "*"]`, []string{"a"}, []string{"error Invalid ignore_changes wildcard@3:22", "error Invalid ignore_changes ruleset@3:26"}},
		"a calculation":         {`[a + 1]`, nil, []string{"error Invalid expression@3:23"}},
	} {
		t.Run(name, func(t *testing.T) {
			src := "resource \"x\" \"r\" {\n  lifecycle {\n    ignore_changes = " + tc.list + "\n  }\n}\n"
			cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{"main.tf": src})
			var got []string
			for _, d := range diags {
				sev := "error"
				if d.Severity != hcl.DiagError {
					sev = "warning"
				}
				got = append(got, fmt.Sprintf("%s %s@%d:%d", sev, d.Summary, d.Subject.Start.Line, d.Subject.Start.Column))
			}
			if !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
			if cfg == nil || cfg.Module == nil {
				return
			}
			var kept []string
			for _, tr := range cfg.Module.ManagedResources["x.r"].Managed.IgnoreChanges {
				if a, ok := tr[0].(hcl.TraverseAttr); ok {
					kept = append(kept, a.Name)
				}
			}
			if !slices.Equal(kept, tc.kept) {
				t.Errorf("ignore_changes kept %q, want %q", kept, tc.kept)
			}
		})
	}
}
