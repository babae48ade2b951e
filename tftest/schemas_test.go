package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestMockedExternalHasItsSchema: a mock_data's defaults give the external
// data source's computed result (a map of strings, from the provider's
// documentation), read while planning; the file's conditions over it are
// decided, true or false, rather than skipped for want of the schema.
func TestMockedExternalHasItsSchema(t *testing.T) {
	main := `
terraform {
  required_providers {
    external = { source = "hashicorp/external" }
  }
}
data "external" "q" {
  program = ["bash", "q.sh"]
  query   = { name = "n" }
}
output "url" { value = "https://example.com/q/${data.external.q.result["id"]}" }
`
	for _, tc := range []struct {
		name, condition, want string
	}{
		{"result", `output.url == "https://example.com/q/42"`, "pass"},
		{"result differs", `output.url == "https://example.com/q/7"`, "fail"},
		{"arguments", `data.external.q.query["name"] == "n" && data.external.q.working_dir == null`, "pass"},
		{"result is a map", `length(data.external.q.result) == 2 && data.external.q.result["n"] == "3"`, "pass"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf": main,
				"tests/a.tftest.hcl": `
mock_provider "external" {
  mock_data "external" {
    defaults = {
      result = { id = "42", n = 3 }
    }
  }
}
run "plan" {
  command = plan
  assert {
    condition     = ` + tc.condition + `
    error_message = "no"
  }
}
`}, dialect.Terraform)
			if got := statuses(rep); got["tests/a.tftest.hcl::plan"] != tc.want {
				t.Errorf("statuses %v, want %s; diagnostics %v", got, tc.want, summaries(rep))
			}
		})
	}
}

// TestBuiltinSchemaIsPartial: tfeval's own random schema, written from the
// provider's documentation, may lack types a newer provider has (the
// ephemeral random_password); such a type is evaluated without a schema,
// not reported as unsupported.
func TestBuiltinSchemaIsPartial(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
ephemeral "random_password" "p" {
  length = 8
}
resource "random_nonexistent" "n" {}
output "ok" { value = true }
`,
		"tests/a.tftest.hcl": `
mock_provider "random" {}
run "plan" {
  command = plan
  assert {
    condition     = output.ok
    error_message = "no"
  }
}
`}, dialect.Terraform)
	if got := statuses(rep); got["tests/a.tftest.hcl::plan"] != "pass" {
		t.Errorf("statuses %v, diagnostics %v", got, summaries(rep))
	}
}
