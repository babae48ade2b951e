package tftest

import (
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestEphemeralAssertions: an assertion that reads an ephemeral resource
// errors in Terraform (1.11 on), the resource being closed by then: "cannot
// be asserted" for each reference and "has expired" for each instance.
func TestEphemeralAssertions(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
ephemeral "aws_secretsmanager_secret_version" "p" {
  secret_id = "x"
}
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "r" {
  command = plan
  assert {
    condition     = ephemeral.aws_secretsmanager_secret_version.p.secret_id == "x"
    error_message = "got ${ephemeral.aws_secretsmanager_secret_version.p.secret_id}"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": "error"})
	var got []string
	for _, d := range runOf(t, rep, "tests/a.tftest.hcl::r").Diagnostics {
		got = append(got, d.Summary+" "+d.Subject.String())
	}
	want := []string{
		"Ephemeral resources cannot be asserted tests/a.tftest.hcl:6,21-66",
		"Ephemeral resources cannot be asserted tests/a.tftest.hcl:7,28-73",
		"Ephemeral resource instance has expired tests/a.tftest.hcl:6,21-66",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}
