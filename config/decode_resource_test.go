package config

import (
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
			got := severityLines(diags)
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

// TestProvisionerKeywords: a provisioner's when and on_failure, bare or in
// quotes as Terraform 0.11 wrote them, with what is kept and the
// diagnostics (severity, summary and line:column of the subject), as
// Terraform v1.11.4's validate reports them: a quoted keyword is taken
// with the "Quoted keywords are deprecated" warning, and a quoted word
// that is no keyword is warned about and an error.
func TestProvisionerKeywords(t *testing.T) {
	for name, tc := range map[string]struct {
		when, onFailure string // the arguments' source, "" for none
		kept            [2]string
		diags           []string
	}{
		"defaults":               {"", "", [2]string{"create", "fail"}, nil},
		"bare":                   {"destroy", "continue", [2]string{"destroy", "continue"}, nil},
		"quoted when":            {`"destroy"`, "", [2]string{"destroy", "fail"}, []string{"warning Quoted keywords are deprecated@3:12"}},
		"quoted on_failure":      {"", `"continue"`, [2]string{"create", "continue"}, []string{"warning Quoted keywords are deprecated@4:18"}},
		"both quoted":            {`"create"`, `"fail"`, [2]string{"create", "fail"}, []string{"warning Quoted keywords are deprecated@3:12", "warning Quoted keywords are deprecated@4:18"}},
		"quoted, no keyword":     {"", `"bogus"`, [2]string{"create", "fail"}, []string{"warning Quoted keywords are deprecated@4:18", `error Invalid "on_failure" keyword@4:18`}},
		"bare, no keyword":       {"later", "", [2]string{"create", "fail"}, []string{`error Invalid "when" keyword@3:12`}},
		"quoted with a template": {`"${var.x}"`, "", [2]string{"create", "fail"}, []string{`error Invalid "when" keyword@3:12`}},
	} {
		t.Run(name, func(t *testing.T) {
			src := "resource \"x\" \"r\" {\n  provisioner \"local-exec\" {\n"
			if tc.when != "" {
				src += "    when = " + tc.when + "\n"
			} else {
				src += "    # no when\n"
			}
			if tc.onFailure != "" {
				src += "    on_failure = " + tc.onFailure + "\n"
			}
			src += "    command = \"true\"\n  }\n}\n"
			cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{"main.tf": src})
			got := severityLines(diags)
			if !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
			if cfg == nil || cfg.Module == nil {
				return
			}
			ps := cfg.Module.ManagedResources["x.r"].Managed.Provisioners
			if len(ps) != 1 {
				t.Fatalf("%d provisioners, want 1", len(ps))
			}
			if got := [2]string{ps[0].When, ps[0].OnFailure}; got != tc.kept {
				t.Errorf("when, on_failure = %q, want %q", got, tc.kept)
			}
		})
	}
}
