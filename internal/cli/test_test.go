package cli

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTestCommand(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `
variable "n" { default = 2 }
output "double" { value = var.n * 2 }
`,
		"tests/a.tftest.hcl": `
run "passes" {
  command = plan
  assert {
    condition     = output.double == 4
    error_message = "double is ${output.double}"
  }
}
`,
		"tests/b.tftest.hcl": `
run "fails" {
  command = plan
  variables { n = 3 }
  assert {
    condition     = output.double == 4
    error_message = "double is ${output.double}"
  }
}
`,
	})
	rc, out, errText := run(t, dir, "", nil, "test", "-no-color")
	if rc != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", rc, out, errText)
	}
	for _, want := range []string{"tests/a.tftest.hcl... in progress\n", "  run \"passes\"... pass\n", "  run \"fails\"... fail\n", "tests/b.tftest.hcl... fail\n", "Failure! 1 passed, 1 failed.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errText, "Error: Test assertion failed") || !strings.Contains(errText, "double is 6") {
		t.Errorf("diagnostics:\n%s", errText)
	}

	rc, out, _ = run(t, dir, "", nil, "test", "-json", "-filter=tests/a.tftest.hcl")
	if rc != 0 || !strings.Contains(out, `"test_abstract":{"tests/a.tftest.hcl":["passes"]}`) || !strings.Contains(out, `"test_summary":{"errored":0,"failed":0,"passed":1,"skipped":0,"status":"pass"}`) {
		t.Errorf("-json -filter: exit %d\n%s", rc, out)
	}

	if _, out, _ = run(t, dir, "", nil, "test", "-json", "-verbose", "-filter=tests/a.tftest.hcl"); !strings.Contains(out, `"type":"test_plan"`) && !strings.Contains(out, `"type":"test_state"`) {
		t.Errorf("-json -verbose prints no plan or state:\n%s", out)
	}

	report := filepath.Join(dir, "report.xml")
	run(t, dir, "", nil, "test", "-junit-xml=report.xml")
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Suites) != 2 || doc.Suites[1].Failures != 1 {
		t.Errorf("-junit-xml wrote %v (%v):\n%s", doc, err, b)
	}

	if rc, _, errText := run(t, dir, "", nil, "test", "-test-directory"); rc != 2 {
		t.Errorf("a missing option value: exit %d, want 2\n%s", rc, errText)
	}
}
