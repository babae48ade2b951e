package tftest

import (
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestEphemeralRootOutputs: Terraform's test command (1.14 on,
// hashicorp/terraform#37813) plans, applies and validates the module under
// test admitting ephemeral outputs in its root module, and a run's
// assertions read them (v1.15.9 internal/moduletest/graph, plan.go and
// apply.go with AllowRootEphemeralOutputs; its own test case
// ephemeral_output_referenced passes). OpenTofu's test command still
// rejects them: "Invalid output configuration".
func TestEphemeralRootOutputs(t *testing.T) {
	files := map[string]string{
		"main.tf": `
variable "foo" {
  ephemeral = true
  type      = string
}
output "value" {
  value     = var.foo
  ephemeral = true
}
`,
		"main.tftest.hcl": `
run "plan" {
  command = plan
  variables {
    foo = "bar"
  }
  assert {
    condition     = output.value == "bar"
    error_message = "wrong value"
  }
}
run "apply" {
  variables {
    foo = "bar"
  }
  assert {
    condition     = output.value == "bar"
    error_message = "wrong value"
  }
}
`,
	}
	rep := runFiles(t, files, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"main.tftest.hcl": "pass", "main.tftest.hcl::plan": "pass", "main.tftest.hcl::apply": "pass"})
	if got := summaries(rep); len(got) > 0 {
		t.Errorf("diagnostics %q, want none", got)
	}
	rep = runFiles(t, files, dialect.Tofu)
	if got := summaries(rep); !slices.Contains(got, "error: Invalid output configuration") {
		t.Errorf("tofu: diagnostics %q, want Invalid output configuration", got)
	}
}
