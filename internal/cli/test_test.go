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

// test -recursive tests every module of the tree that has test files,
// child modules included, and nothing else; each module's output is under
// its header (or its JSON events carry it), and one JUnit report names
// suites by module and file.
func TestTestRecursive(t *testing.T) {
	passing := `
run "passes" {
  command = plan
  assert {
    condition     = output.double == 4
    error_message = "double is ${output.double}"
  }
}
`
	dir := writeModule(t, map[string]string{
		"envs/prod/main.tf":                 `module "m" { source = "../../modules/double" }`,
		"modules/double/main.tf":            "variable \"n\" { default = 2 }\noutput \"double\" { value = var.n * 2 }\n",
		"modules/double/tests/a.tftest.hcl": passing,
		"modules/half/main.tf":              "variable \"n\" { default = 6 }\noutput \"double\" { value = var.n / 2 }\n",
		"modules/half/b.tftest.hcl":         passing,
		"untested/main.tf":                  `output "x" { value = 1 }`,
	})
	rc, out, errText := run(t, dir, "", nil, "test", "-recursive", "-no-color", "-no-progress", "-parallelism=2")
	if rc != 1 {
		t.Fatalf("exit %d, want 1 (half fails)\n%s%s", rc, out, errText)
	}
	double := strings.Index(out, "==> modules/double <==\ntests/a.tftest.hcl... in progress\n")
	half := strings.Index(out, "==> modules/half <==\nb.tftest.hcl... in progress\n")
	if double < 0 || half < double || strings.Contains(out, "envs/prod") || strings.Contains(out, "untested") {
		t.Errorf("modules tested, in order:\n%s", out)
	}
	if !strings.Contains(errText, "on modules/half/b.tftest.hcl line 5") || !strings.Contains(errText, "double is 3") {
		t.Errorf("a module's diagnostics name its files from the directory scanned:\n%s", errText)
	}

	_, out, _ = run(t, dir, "", nil, "test", "-recursive", "-json", "-no-progress")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], `{"root":"modules/double",`) || !strings.HasPrefix(lines[len(lines)-1], `{"root":"modules/half",`) || !strings.Contains(lines[len(lines)-1], `"type":"test_summary"`) {
		t.Errorf("-json events, one a line with the module first:\n%s", out)
	}

	run(t, dir, "", nil, "test", "-recursive", "-no-progress", "-junit-xml=report.xml")
	b, err := os.ReadFile(filepath.Join(dir, "report.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Classname string `xml:"classname,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Suites) != 2 ||
		doc.Suites[0].Name != "modules/double/tests/a.tftest.hcl" || doc.Suites[1].Name != "modules/half/b.tftest.hcl" ||
		doc.Suites[1].Failures != 1 || doc.Suites[1].Cases[0].Classname != "modules/half/b.tftest.hcl" {
		t.Errorf("-junit-xml wrote %+v (%v):\n%s", doc, err, b)
	}
}

// TestTestTerraformOnlyOptions: terraform test's -run-parallelism (1.12
// on) and -repair (1.13 on) are taken, as a CI script written for
// terraform test passes them, and change nothing offline.
func TestTestTerraformOnlyOptions(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": "output \"o\" { value = 1 }\n",
		"tests/a.tftest.hcl": `
run "passes" {
  command = plan
  assert {
    condition     = output.o == 1
    error_message = "wrong"
  }
}
`,
	})
	_, want, _ := run(t, dir, "", nil, "test", "-no-color")
	for _, args := range [][]string{{"-run-parallelism=4"}, {"-repair"}, {"-run-parallelism", "1", "-repair"}} {
		rc, out, errText := run(t, dir, "", nil, append([]string{"test", "-no-color"}, args...)...)
		if rc != exitOK || out != want {
			t.Errorf("%v: exit %d\n%s%s\nwant\n%s", args, rc, out, errText, want)
		}
	}
}
