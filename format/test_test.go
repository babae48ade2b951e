package format

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
	"github.com/tfeval/tfeval/tftest"
)

// testReport runs a small module's test file.
func testReport(t *testing.T, d dialect.Dialect) *tftest.Report {
	t.Helper()
	dir := testfiles.Dir(t, map[string]string{
		"main.tf": `
variable "v" { default = "a" }
resource "terraform_data" "x" { input = var.v }
output "o" { value = terraform_data.x.output }
`,
		"tests/a.tftest.hcl": `
run "plan" {
  command = plan
  assert {
    condition     = terraform_data.x.input == "b"
    error_message = "input is ${terraform_data.x.input}"
  }
}
run "apply" {}
`,
	})
	return tftest.Run(tftest.Options{
		WorkDir: dir, Dialect: d, Context: context.Background(),
		Load: func(sub, key string) (*config.Config, hcl.Diagnostics) {
			return config.Load(sub, config.Options{Dialect: d, WorkDir: dir})
		},
	})
}

func TestWriteTestJSON(t *testing.T) {
	for _, tc := range []struct {
		d     dialect.Dialect
		order []string // the types and statuses of the events, in order
	}{
		{dialect.Terraform, []string{"version", "test_abstract", "test_file", "test_run", "test_run:fail", "diagnostic", "test_run", "test_run:pass", "test_file", "test_file:fail", "test_summary:fail"}},
		{dialect.Tofu, []string{"version", "test_abstract", "test_file:fail", "test_run:fail", "diagnostic", "test_run:pass", "test_summary:fail"}},
	} {
		var b bytes.Buffer
		if err := WriteTestJSON(&b, testReport(t, tc.d), tc.d); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			var ev map[string]any
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			k := ev["type"].(string)
			if body, ok := ev[k].(map[string]any); ok {
				if s, ok := body["status"].(string); ok {
					k += ":" + s
				}
			}
			got = append(got, k)
		}
		if strings.Join(got, " ") != strings.Join(tc.order, " ") {
			t.Errorf("%s: events\n%v\nwant\n%v", tc.d, got, tc.order)
		}
	}
}

func TestWriteTestTextVerbose(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTestText(&b, testReport(t, dialect.Terraform), TestTextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  run \"plan\"... fail\n",
		"  # terraform_data.x will be created\n  + resource \"terraform_data\" \"x\" {\n      + id     = (known after apply)\n      + input  = \"a\"\n",
		"Plan: 1 to add, 0 to change, 0 to destroy.\n",
		"# terraform_data.x:\nresource \"terraform_data\" \"x\" {\n",
		"\nFailure! 1 passed, 1 failed.\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
}
