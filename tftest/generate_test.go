package tftest

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestGeneratedStringCharacters: Terraform's mocks draw a computed string
// from lower-case letters and digits (v1.15.9
// internal/moduletest/mocking/generate.go), OpenTofu's from letters of
// either case and digits (v1.12.6 internal/configs/hcl2shim
// mock_value_composer.go). A module that builds a lower-case name from a
// mocked identifier passes under Terraform whatever string is drawn; with
// upper-case letters drawn, tfeval failed it.
func TestGeneratedStringCharacters(t *testing.T) {
	lower := regexp.MustCompile(`^[a-z0-9]{8}$`)
	mixed := regexp.MustCompile(`^[a-zA-Z0-9]{8}$`)
	upper := false
	for i := range 200 {
		path := fmt.Sprintf(".attr%d", i)
		if s := (generator{seed: 7, addr: "mock_nest.t"}).str(path).AsString(); !lower.MatchString(s) {
			t.Fatalf("Terraform's generated string %q has characters its mocks never draw", s)
		}
		s := (generator{seed: 7, addr: "mock_nest.t", tofu: true}).str(path).AsString()
		if !mixed.MatchString(s) {
			t.Fatalf("OpenTofu's generated string %q", s)
		}
		upper = upper || regexp.MustCompile(`[A-Z]`).MatchString(s)
	}
	if !upper {
		t.Error("OpenTofu's generated strings never have an upper-case letter")
	}

	main := `terraform {
  required_providers {
    mock = { source = "tfeval/mock" }
  }
}
resource "mock_nest" "t" {
  count = 20
}
resource "terraform_data" "name" {
  input = [for o in mock_nest.t : "bucket-${o.id}"]
  lifecycle {
    precondition {
      condition     = alltrue([for n in [for o in mock_nest.t : "bucket-${o.id}"] : n == lower(n)])
      error_message = "A bucket name must be lower-case."
    }
  }
}
`
	test := `mock_provider "mock" {}
run "apply" {}
`
	files := map[string]string{
		"main.tf":               main,
		"main.tftest.hcl":       test,
		"providers-schema.json": nestSchema,
	}
	wantStatuses(t, runFiles(t, files, dialect.Terraform), map[string]string{"main.tftest.hcl::apply": "pass"})
}
