package format

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestJUnitXMLAsTerraformWritesIt: the report terraform test -junit-xml
// writes (compared with v1.11.4's on this module, and v1.15.9's for a
// file's own errors): a failed run's failure holds its failed assertions
// (", including:" when more than one), an errored run's error its errors,
// each run's other diagnostics its system-err, a run skipped after an
// error names that run, and a file whose own errors kept its runs from
// running has them as the suite's system-err, its runs as test cases
// without a verdict.
func TestJUnitXMLAsTerraformWritesIt(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"main.tf": `
variable "v" { default = "a" }
resource "terraform_data" "x" { input = var.v }
`,
		"a.tftest.hcl": `
run "fails" {
  command = plan
  variables {
    undeclared = 1
  }
  assert {
    condition     = terraform_data.x.input == "b"
    error_message = "input is ${terraform_data.x.input}"
  }
  assert {
    condition     = var.v == "c"
    error_message = "v is ${var.v}"
  }
  assert {
    condition     = var.v == "a"
    error_message = "ok"
  }
}
run "errors" {
  command = plan
  variables {
    v = tonumber("x")
  }
}
run "after" {
  command = plan
}
`,
		"b.tftest.hcl": `
run "first" {
  command = plan
  variables {
    v = run.second.o
  }
}
run "second" {
  command = plan
}
`,
	})
	rep := runTests(dir, dialect.Terraform)
	var b bytes.Buffer
	if err := WriteJUnitXML(&b, rep, JUnitOptions{WorkDir: dir}); err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(b.String(), "\n") {
		t.Errorf("the report ends in a newline")
	}
	var doc struct {
		Suites []struct {
			Name   string `xml:"name,attr"`
			Stderr string `xml:"system-err"`
			Cases  []struct {
				Name      string `xml:"name,attr"`
				Timestamp string `xml:"timestamp,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Body string `xml:",chardata"`
				} `xml:"error"`
				Skipped *struct {
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"skipped"`
				Stderr string `xml:"system-err"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.Suites) != 2 {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	a, c := doc.Suites[0], doc.Suites[1]
	fails, errs, after := a.Cases[0], a.Cases[1], a.Cases[2]
	switch {
	case fails.Failure == nil || fails.Failure.Message != "2 of 3 assertions failed, including: input is a":
		t.Errorf("failure %+v", fails.Failure)
	case strings.Count(fails.Failure.Body, "Test assertion failed") != 2 || strings.Contains(fails.Failure.Body, "Warning"):
		t.Errorf("failure body %q", fails.Failure.Body)
	case !strings.Contains(fails.Stderr, "Warning: Value for undeclared variable") || !strings.Contains(fails.Stderr, "but it is\ndeclared"):
		t.Errorf("system-err %q (wrapped to 80 columns)", fails.Stderr)
	case fails.Timestamp == "" || after.Timestamp != "":
		t.Errorf("timestamps %q %q", fails.Timestamp, after.Timestamp)
	case errs.Error == nil || !strings.HasPrefix(errs.Error.Body, "\nError: Invalid function argument"):
		t.Errorf("error %+v", errs.Error)
	case after.Skipped == nil || after.Skipped.Message != "Testcase skipped due to a previous testcase error" || !strings.Contains(after.Skipped.Body, `"errors"`):
		t.Errorf("skipped %+v", after.Skipped)
	case len(c.Cases) != 2 || c.Cases[0].Skipped != nil || !strings.Contains(c.Stderr, "Error: "):
		t.Errorf("file-level errors: %+v, system-err %q\n%s", c.Cases, c.Stderr, b.String())
	}
}
