package tfeval_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/config"
)

// TestTerraformConfigFixtures holds tfeval to Terraform's own
// configuration fixtures, which cannot be copied into this repository:
// set TFEVAL_TERRAFORM_FIXTURES to the internal/configs/testdata directory
// of a checkout of hashicorp/terraform to run it. Every file and module of
// valid-files and valid-modules loads without an error (they are fixtures
// of the loader: some do not evaluate, and some call modules that are not
// there), every one of invalid-files and invalid-modules validates with at
// least one error, and every "# ERROR: summary" marker of error-files is
// matched by an error with that summary on that line.
func TestTerraformConfigFixtures(t *testing.T) {
	root := os.Getenv("TFEVAL_TERRAFORM_FIXTURES")
	if root == "" {
		t.Skip("TFEVAL_TERRAFORM_FIXTURES not set")
	}
	marker := regexp.MustCompile(`#\s*ERROR:\s*(.*)$`)
	for _, kind := range []string{"valid-files", "invalid-files", "error-files", "valid-modules", "invalid-modules"} {
		entries, err := os.ReadDir(filepath.Join(root, kind))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Run(kind+"/"+e.Name(), func(t *testing.T) {
				src := filepath.Join(root, kind, e.Name())
				dir := src
				if !e.IsDir() {
					dir = t.TempDir()
					b, err := os.ReadFile(src)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				switch {
				case strings.HasPrefix(kind, "valid"):
					_, diags := config.Load(".", config.Options{WorkDir: dir, MissingModules: config.MissingModulesUnknown})
					for _, d := range diags {
						if d.Severity == hcl.DiagError && d.Summary != "Unreadable module directory" {
							t.Errorf("%s", d.Error())
						}
					}
				case strings.HasPrefix(kind, "invalid"):
					if diags := tfeval.Validate(tfeval.Options{WorkDir: dir, MissingModules: tfeval.MissingModulesUnknown}); !diags.HasErrors() {
						t.Error("validates without an error")
					}
				default:
					diags := tfeval.Validate(tfeval.Options{WorkDir: dir, MissingModules: tfeval.MissingModulesUnknown})
					b, _ := os.ReadFile(src)
					for i, line := range strings.Split(string(b), "\n") {
						m := marker.FindStringSubmatch(line)
						if m == nil {
							continue
						}
						want := strings.TrimSpace(m[1])
						found := false
						for _, d := range diags {
							if d.Severity == hcl.DiagError && d.Summary == want && d.Subject != nil && d.Subject.Start.Line == i+1 {
								found = true
							}
						}
						if !found {
							t.Errorf("line %d: no error %q; got %s", i+1, want, diags.Error())
						}
					}
				}
			})
		}
	}
}
