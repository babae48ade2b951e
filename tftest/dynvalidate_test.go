package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestValidateDynamicContent: Terraform validates the module before each
// run, every variable unknown, so a dynamic block whose for_each depends
// on a variable is checked against the schema even in a run whose values
// expand it to none: an argument the schema does not have fails that run,
// and the runs after it are skipped. Without the schema nothing says the
// argument is unsupported, and the runs pass.
func TestValidateDynamicContent(t *testing.T) {
	main := `terraform {
  required_providers {
    mock = { source = "tfeval/mock" }
  }
}
variable "c" {
  type    = string
  default = null
}
resource "mock_nest" "t" {
  dynamic "lst" {
    for_each = var.c == null ? [] : [var.c]
    content {
      name = lst.value
      nope = lst.value
    }
  }
}
`
	test := `mock_provider "mock" {}
run "empty" {
  command = plan
}
run "set" {
  command = plan
  variables {
    c = "x"
  }
}
`
	for _, withSchema := range []bool{true, false} {
		files := map[string]string{"main.tf": main, "main.tftest.hcl": test}
		want := map[string]string{"main.tftest.hcl::empty": "pass", "main.tftest.hcl::set": "pass"}
		if withSchema {
			files["providers-schema.json"] = nestSchema
			want = map[string]string{"main.tftest.hcl::empty": "error", "main.tftest.hcl::set": "skip"}
		}
		rep := runFiles(t, files, dialect.Terraform)
		wantStatuses(t, rep, want)
		if !withSchema {
			continue
		}
		diags := runOf(t, rep, "main.tftest.hcl::empty").Diagnostics
		if len(diags) != 1 {
			t.Fatalf("diagnostics %v, want one", summaries(rep))
		}
		d := diags[0]
		if got, want := d.Summary+": "+d.Detail+" "+d.Subject.String(), `Unsupported argument: An argument named "nope" is not expected here. main.tf:15,7-11`; got != want {
			t.Errorf("diagnostic %q, want %q", got, want)
		}
	}
}
