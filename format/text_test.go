package format

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/lang"
)

// The text of an evaluation lists resource instances by module, then the
// outputs, rendered as the console renders them.
func TestWriteText(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{
		"main.tf": `
module "m" { source = "./m" }
resource "terraform_data" "r" { input = "x" }
output "o" { value = terraform_data.r.input }
output "s" {
  value     = "secret"
  sensitive = true
}
`,
		"m/main.tf": `resource "terraform_data" "c" { input = 1 }`,
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var b bytes.Buffer
	if err := WriteText(nil, &b, res, 1<<20); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"# Root module\n\nterraform_data.r = {", "# module.m\n\nmodule.m.terraform_data.c = {", "# Outputs\n\no = \"x\"\ns = (sensitive value)\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "# Root module") > strings.Index(got, "# module.m") {
		t.Errorf("the root module's resources come first:\n%s", got)
	}
}

// The text stops at the bound it is given.
func TestWriteTextBound(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "r" {
  count = 10
  input = "0123456789"
}
`})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var b bytes.Buffer
	var tooLarge *lang.OutputTooLarge
	if err := WriteText(nil, &b, res, 100); !errors.As(err, &tooLarge) {
		t.Errorf("error %v, want OutputTooLarge", err)
	}
}
