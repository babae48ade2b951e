package tftest

import (
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestTestFileFunctions: expressions of a test file's variables blocks (the
// file's and a run's) call Terraform's functions except plantimestamp(),
// which terraform test (v1.11.4) does not offer outside a plan: calling it
// there errors the run with "Call to unknown function", while timestamp()
// works.
func TestTestFileFunctions(t *testing.T) {
	module := "variable \"v\" {\n  type = string\n}\n"
	tests := []struct {
		name, file string
		want       Status
		summary    string
	}{
		{"timestamp in a run", "run \"r\" {\n  command = plan\n  variables {\n    v = timestamp()\n  }\n}\n", Pass, ""},
		{"plantimestamp in a run", "run \"r\" {\n  command = plan\n  variables {\n    v = plantimestamp()\n  }\n}\n", Error, "Call to unknown function"},
		{"plantimestamp in the file", "variables {\n  v = plantimestamp()\n}\nrun \"r\" {\n  command = plan\n}\n", Error, "Call to unknown function"},
		{"upper in the file", "variables {\n  v = upper(\"a\")\n}\nrun \"r\" {\n  command = plan\n}\n", Pass, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": module, "tests/a.tftest.hcl": tt.file}, dialect.Terraform)
			r := runOf(t, rep, "tests/a.tftest.hcl::r")
			if r.Status != tt.want {
				t.Fatalf("status %s, want %s; diagnostics %v", r.Status, tt.want, r.Diagnostics)
			}
			if tt.summary != "" {
				if len(r.Diagnostics) == 0 || r.Diagnostics[0].Summary != tt.summary || !strings.Contains(r.Diagnostics[0].Detail, `no function named "plantimestamp"`) {
					t.Errorf("diagnostics %v", r.Diagnostics)
				}
			}
		})
	}
}
