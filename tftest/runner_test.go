package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestLocalRunModuleNotInstalled: terraform test looks every run's module
// up in init's module manifest, a local one too: once init has run (the
// manifest records the root module), a local run module it does not
// record (a run added since) is "Module not installed" and nothing runs.
// Without a manifest tfeval reads the module in place, as init would
// install it; OpenTofu's is left so.
func TestLocalRunModuleNotInstalled(t *testing.T) {
	files := func(records string) map[string]string {
		m := map[string]string{
			"main.tf":            `output "p" { value = "plain" }`,
			"setup/main.tf":      `output "s" { value = "set" }`,
			"tests/a.tftest.hcl": "run \"setup\" {\n  command = plan\n  module {\n    source = \"./setup\"\n  }\n}\nrun \"one\" {\n  command = plan\n}\n",
		}
		if records != "" {
			m[".terraform/modules/modules.json"] = `{"Modules": [{"Key": "", "Source": "", "Dir": "."}` + records + `]}`
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		d       dialect.Dialect
		records string // "" for no manifest
		missing bool
	}{
		{name: "no manifest", d: dialect.Terraform},
		{name: "recorded", d: dialect.Terraform, records: `, {"Key": "test.tests.a.setup", "Source": "./setup", "Dir": "setup"}`},
		{name: "not recorded", d: dialect.Terraform, records: `, {"Key": "test.tests.b.setup", "Source": "./setup", "Dir": "setup"}`, missing: true},
		{name: "OpenTofu, not recorded", d: dialect.Tofu, records: `, {"Key": "test.tests.b.setup", "Source": "./setup", "Dir": "setup"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, files(tc.records), tc.d)
			if !tc.missing {
				wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::setup": "pass", "tests/a.tftest.hcl::one": "pass"})
				return
			}
			if rep.Status != Error || len(rep.Files) != 0 || len(rep.Diagnostics) != 1 {
				t.Fatalf("status %v, %d files, diagnostics %v; want an error and no file run", rep.Status, len(rep.Files), rep.Diagnostics)
			}
			got := rep.Diagnostics[0]
			if got.Summary != "Module not installed" || got.Detail != `This module is not yet installed. Run "terraform init" to install all modules required by this configuration.` || got.Subject == nil || got.Subject.Start.Line != 3 {
				t.Errorf("diagnostic %q: %q at %v", got.Summary, got.Detail, got.Subject)
			}
		})
	}
}

// TestRunKey: the manifest key of a run's module is "test", the test
// file's directories, its name without ".tftest.hcl" (the only suffix
// either binary takes off) and the run's name.
func TestRunKey(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"main.tftest.hcl", "test.main.setup"},
		{"tests/unit/a.tftest.hcl", "test.tests.unit.a.setup"},
		{"tests/a.tftest.json", "test.tests.a.tftest.json.setup"},
		{"a.tofutest.hcl", "test.a.tofutest.hcl.setup"},
	} {
		if got := runKey(tc.file, "setup"); got != tc.want {
			t.Errorf("runKey(%q) = %q, want %q", tc.file, got, tc.want)
		}
	}
}
