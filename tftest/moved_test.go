package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

func TestMovedBlocksMoveTheState(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `output "ok" { value = true }`,
		"v1/main.tf": `
resource "terraform_data" "old" { input = "x" }
output "id" { value = terraform_data.old.id }
`,
		"v2/main.tf": `
module "inner" {
  source = "./inner"
}
moved {
  from = terraform_data.old
  to   = module.inner.terraform_data.new["k"]
}
output "id" { value = module.inner.id }
`,
		"v2/inner/main.tf": `
resource "terraform_data" "new" {
  for_each = toset(["k"])
  input    = "x"
}
output "id" { value = terraform_data.new["k"].id }
`,
		"tests/a.tftest.hcl": `
run "v1" {
  state_key = "s"
  module {
    source = "./v1"
  }
}
run "v2" {
  state_key = "s"
  module {
    source = "./v2"
  }
  assert {
    condition     = output.id == run.v1.id
    error_message = "the object was created anew: ${output.id}, was ${run.v1.id}"
  }
}
`}, dialect.Terraform)
	if got := statuses(rep); got["tests/a.tftest.hcl::v2"] != "pass" {
		t.Errorf("statuses %v, diagnostics %v", got, summaries(rep))
	}
}
