package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestArgumentLeftNullAfterApply: a run after an apply plans an update
// from the state. An argument the configuration writes and now leaves null
// keeps its prior value only where the provider computes it: Terraform
// v1.11.4 with a mocked aws passes this file (aws_iam_role's description
// back to null, aws_sqs_queue's computed name kept). Without a schema
// tfeval kept every prior value, so a condition that the argument is null
// failed; now the aws table decides, and for a provider without one the
// value waits for the schema (the run is skipped).
func TestArgumentLeftNullAfterApply(t *testing.T) {
	main := awsProvider + `
variable "d" {
  type    = string
  default = null
}
resource "aws_iam_role" "r" {
  name               = "r"
  assume_role_policy = "{}"
  description        = var.d
}
resource "aws_sqs_queue" "q" {
  name = var.d
}
resource "other_thing" "t" {
  note = var.d
}
`
	for _, tc := range []struct {
		name, condition, want string
	}{
		{"not computed: null again", `aws_iam_role.r.description == null`, "pass"},
		{"computed: kept", `aws_sqs_queue.q.name == "given"`, "pass"},
		{"written, not null: kept", `aws_iam_role.r.name == "r"`, "pass"},
		{"another provider: needs the schema", `other_thing.t.note == null`, "skip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf": main,
				"tests/a.tftest.hcl": `
mock_provider "aws" {}
mock_provider "other" {}
run "first" {
  variables {
    d = "given"
  }
}
run "second" {
  assert {
    condition     = ` + tc.condition + `
    error_message = "wrong"
  }
}
`,
			}, dialect.Terraform)
			wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::first": "pass", "tests/a.tftest.hcl::second": tc.want})
		})
	}
}
