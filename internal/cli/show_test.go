package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// show -json writes the plan document on standard output and nothing else;
// a configuration with errors gets its diagnostics on standard error, exit
// status 1 and nothing at all on standard output.
func TestShow(t *testing.T) {
	broken := writeModule(t, map[string]string{"main.tf": `
variable "a" {}
variable "a" {}
`})
	missing := writeModule(t, map[string]string{"main.tf": `
variable "name" { type = string }
resource "terraform_data" "x" { input = var.name }
`})
	for _, tc := range []struct {
		name        string
		dir         string
		args        []string
		rc          int
		errContains string
	}{
		{"plan", quickstart, []string{"show", "-json"}, 0, ""},
		{"tofu", quickstart, []string{"show", "-json", "-dialect=tofu"}, 0, ""},
		{"variables", missing, []string{"show", "-json", "-var", "name=x"}, 0, ""},
		{"invalid configuration", broken, []string{"show", "-json"}, 1, "Error: Duplicate variable declaration"},
		{"missing variable", missing, []string{"show", "-json"}, 1, "Error: No value for required variable"},
		{"without -json", quickstart, []string{"show"}, 2, "only -json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, out, errs := run(t, tc.dir, "", nil, tc.args...)
			if rc != tc.rc || !strings.Contains(errs, tc.errContains) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", rc, errs, tc.rc, tc.errContains)
			}
			if rc != 0 {
				if out != "" {
					t.Errorf("standard output %q, want nothing", out)
				}
				return
			}
			var doc struct {
				FormatVersion string `json:"format_version"`
				Errored       bool   `json:"errored"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.FormatVersion != "1.2" || doc.Errored {
				t.Errorf("document %.200q: %v", out, err)
			}
			if strings.Count(out, "\n") != 1 {
				t.Errorf("the document is not one line, as the binaries write it")
			}
		})
	}
}

// -format=sarif writes the diagnostics of validate and eval as a SARIF log,
// keeping the exit status.
func TestSARIFFormat(t *testing.T) {
	broken := writeModule(t, map[string]string{"main.tf": `
variable "a" {}
variable "a" {}
`})
	for _, cmd := range []string{"validate", "eval"} {
		rc, out, _ := run(t, broken, "", nil, cmd, "-format=sarif")
		if rc != 1 {
			t.Errorf("%s: exit %d, want 1", cmd, rc)
		}
		var log struct {
			Version string `json:"version"`
			Runs    []struct {
				Results []struct {
					RuleID    string `json:"ruleId"`
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
							Region struct {
								StartLine int `json:"startLine"`
							} `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
			t.Fatalf("%s: log %s", cmd, out)
		}
		r := log.Runs[0].Results[0]
		if r.RuleID != "duplicate-variable-declaration" || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "main.tf" || r.Locations[0].PhysicalLocation.Region.StartLine != 3 {
			t.Errorf("%s: result %+v", cmd, r)
		}
	}
	if rc, _, errs := run(t, broken, "", nil, "validate", "-format=xml"); rc != 2 || !strings.Contains(errs, "sarif") {
		t.Errorf("-format=xml: exit %d, %q", rc, errs)
	}
}
