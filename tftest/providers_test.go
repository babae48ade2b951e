package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestModuleProviderBlocks: the module's own provider block is evaluated
// in a run, as terraform test (v1.11.4) evaluates it, unless the test file
// gives one of the same name in its place, mocked or not: an undeclared
// variable in the module's block fails the run only when the file leaves
// the block in place.
func TestModuleProviderBlocks(t *testing.T) {
	module := `provider "aws" {
  region = var.nope
}
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
`
	run := `run "one" {
  command = plan
  assert {
    condition     = aws_s3_bucket.b.bucket == "x"
    error_message = "no"
  }
}
`
	tests := []struct {
		name, file string
		want       Status
	}{
		{"mocked", "mock_provider \"aws\" {}\n" + run, Pass},
		{"given", "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n" + run, Pass},
		{"mapped by the run", "provider \"aws\" {\n  alias  = \"test\"\n  region = \"eu-west-1\"\n}\n" + `run "one" {
  command   = plan
  providers = { aws = aws.test }
}
`, Pass},
		{"the module's own", run, Error},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": module, "tests/a.tftest.hcl": tt.file}, dialect.Terraform)
			r := runOf(t, rep, "tests/a.tftest.hcl::one")
			if r.Status != tt.want {
				t.Errorf("status %s, want %s; diagnostics %v", r.Status, tt.want, r.Diagnostics)
			}
			if tt.want == Error && (len(r.Diagnostics) == 0 || r.Diagnostics[0].Summary != "Reference to undeclared input variable") {
				t.Errorf("diagnostics %v", r.Diagnostics)
			}
		})
	}
}
