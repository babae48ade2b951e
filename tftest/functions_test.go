package tftest

import (
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestTestFileFunctions: expressions of a test file's variables blocks (the
// file's and a run's) call Terraform's functions except plantimestamp(),
// which terraform test (v1.11.4) does not offer outside a plan: calling it
// there is "Call to unknown function", while timestamp() works. In a run's
// variables it errors the run; in the file's, it is the file's error and
// the run that takes the value is skipped (1.13 on).
func TestTestFileFunctions(t *testing.T) {
	module := "variable \"v\" {\n  type = string\n}\n"
	tests := []struct {
		name, file string
		want       Status
		summary    string
	}{
		{"timestamp in a run", "run \"r\" {\n  command = plan\n  variables {\n    v = timestamp()\n  }\n}\n", Pass, ""},
		{"plantimestamp in a run", "run \"r\" {\n  command = plan\n  variables {\n    v = plantimestamp()\n  }\n}\n", Error, "Call to unknown function"},
		// The file's values are worked out once for the file (1.13 on):
		// the error is the file's, and the run that takes it is skipped.
		{"plantimestamp in the file", "variables {\n  v = plantimestamp()\n}\nrun \"r\" {\n  command = plan\n}\n", Skip, "Call to unknown function"},
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
				diags := r.Diagnostics
				if tt.want == Skip {
					diags = rep.Files[0].Diagnostics
				}
				if len(diags) == 0 || diags[0].Summary != tt.summary || !strings.Contains(diags[0].Detail, `no function named "plantimestamp"`) {
					t.Errorf("diagnostics %v", diags)
				}
			}
		})
	}
}
