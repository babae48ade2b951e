package tftest

import (
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// An assertion reading an output the module does not declare errors the
// run with "Reference to undeclared output value" at the reference (with a
// close declared name suggested), as both binaries report it, not with the
// "Unsupported attribute" of an object without the attribute; the file's
// other assertions are still evaluated.
func TestUndeclaredOutputReferences(t *testing.T) {
	files := map[string]string{
		"main.tf": `
output "environment" {
  value = "prod"
}
`,
		"tests/a.tftest.hcl": `
run "r" {
  command = plan
  assert {
    condition     = output.environmnt == "prod"
    error_message = "got ${output.region}"
  }
  assert {
    condition     = output.environment == "dev"
    error_message = "not dev"
  }
}
`,
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		rep := runFiles(t, files, d)
		wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": "error"})
		var got []string
		for _, dg := range runOf(t, rep, "tests/a.tftest.hcl::r").Diagnostics {
			got = append(got, dg.Summary+" "+dg.Subject.String()+" "+dg.Detail)
		}
		want := []string{
			`Reference to undeclared output value tests/a.tftest.hcl:5,21-38 An output value with the name "environmnt" has not been declared. Did you mean "environment"?`,
			`Reference to undeclared output value tests/a.tftest.hcl:6,28-41 An output value with the name "region" has not been declared.`,
			`Test assertion failed tests/a.tftest.hcl:9,21-48 not dev`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: diagnostics\n%q\nwant\n%q", d, got, want)
		}
	}
}
