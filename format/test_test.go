package format

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	return runTests(dir, d)
}

// runTests runs the test files of the module in dir.
func runTests(dir string, d dialect.Dialect) *tftest.Report {
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

// verboseReport runs an apply, then a plan that changes nothing and one
// that changes the resource and the output.
func verboseReport(t *testing.T) *tftest.Report {
	t.Helper()
	dir := testfiles.Dir(t, map[string]string{
		"main.tf": `
variable "v" { default = "a" }
resource "terraform_data" "x" { input = var.v }
output "o" { value = terraform_data.x.output }
`,
		"m/main.tf": `
variable "in" {}
resource "terraform_data" "y" { input = var.in }
`,
		"m.tf": `
module "m" {
  source = "./m"
  in     = var.v
  depends_on = [terraform_data.x]
}
`,
		"tests/a.tftest.hcl": `
run "apply" {}
run "same" {
  command = plan
}
run "changed" {
  command = plan
  variables { v = "b" }
}
`,
	})
	return tftest.Run(tftest.Options{
		WorkDir: dir, Context: context.Background(),
		Load: func(sub, key string) (*config.Config, hcl.Diagnostics) {
			return config.Load(sub, config.Options{WorkDir: dir})
		},
	})
}

func TestWriteTestJSONVerbose(t *testing.T) {
	rep := verboseReport(t)
	var b bytes.Buffer
	if err := WriteTestJSONVerbose(&b, rep, dialect.Terraform); err != nil {
		t.Fatal(err)
	}
	type change struct {
		Actions []string        `json:"actions"`
		Before  json.RawMessage `json:"before"`
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var ev struct {
			Type  string `json:"type"`
			Run   string `json:"@testrun"`
			State *struct {
				Root struct {
					Resources []struct {
						Address string         `json:"address"`
						Values  map[string]any `json:"values"`
					} `json:"resources"`
					Children []struct {
						Resources []struct {
							Address   string   `json:"address"`
							DependsOn []string `json:"depends_on"`
						} `json:"resources"`
					} `json:"child_modules"`
				} `json:"root_module"`
				Outputs map[string]struct {
					Value any `json:"value"`
				} `json:"outputs"`
			} `json:"test_state"`
			Plan *struct {
				Outputs   map[string]change `json:"output_changes"`
				Resources []struct {
					Address string `json:"address"`
					Change  change `json:"change"`
				} `json:"resource_changes"`
				Relevant []any `json:"relevant_attributes"`
			} `json:"test_plan"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		switch {
		case ev.State != nil:
			r, c := ev.State.Root.Resources, ev.State.Root.Children
			if len(r) != 1 || r[0].Address != "terraform_data.x" || r[0].Values["output"] != "a" || ev.State.Outputs["o"].Value != "a" {
				t.Errorf("%s: state %s", ev.Run, line)
			}
			if len(c) != 1 || len(c[0].Resources) != 1 || fmt.Sprint(c[0].Resources[0].DependsOn) != "[terraform_data.x]" {
				t.Errorf("%s: the module's resource, and what it depends on: %s", ev.Run, line)
			}
			got = append(got, ev.Type+":"+ev.Run)
		case ev.Plan != nil:
			r := ev.Plan.Resources
			if len(r) != 2 || string(r[0].Change.Before) == "null" || string(ev.Plan.Outputs["o"].Before) != `"a"` {
				t.Fatalf("%s: plan %s", ev.Run, line)
			}
			got = append(got, fmt.Sprintf("%s:%s:%s/%s:%d", ev.Type, ev.Run, r[0].Change.Actions[0], ev.Plan.Outputs["o"].Actions[0], len(ev.Plan.Relevant)))
		default:
			got = append(got, ev.Type)
		}
	}
	want := "version test_abstract test_file test_run test_run test_state:apply test_run test_run test_plan:same:no-op/no-op:0 test_run test_run test_plan:changed:update/update:1 test_file test_file test_summary"
	if strings.Join(got, " ") != want {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

func TestWriteTestTextVerbosePlanChanges(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTestText(&b, verboseReport(t), TestTextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  run \"same\"... pass\n\nNo changes. Your infrastructure matches the configuration.\n\nTerraform has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed.\n",
		"  ~ resource \"terraform_data\" \"x\" {\n        id     = \"",
		"      ~ input  = \"a\" -> \"b\"\n      ~ output = \"a\" -> (known after apply)\n    }\n",
		"Changes to Outputs:\n  ~ o = \"a\" -> (known after apply)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestFileDiagnosticsOrder: Terraform writes a test file's own
// diagnostics (here the warning for an override of no object) once the
// file is done, after its status, in the event stream as on the terminal;
// OpenTofu, which has no such warning, writes a file's diagnostics after
// its status line too, before its runs.
func TestFileDiagnosticsOrder(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"main.tf": "resource \"terraform_data\" \"x\" { input = 1 }\n",
		"tests/a.tftest.hcl": `
override_resource {
  target = terraform_data.nowhere
}
run "r" {
  command = plan
}
`,
	})
	rep := runTests(dir, dialect.Terraform)
	var b bytes.Buffer
	if err := WriteTestJSON(&b, rep, dialect.Terraform); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		got = append(got, ev["type"].(string))
	}
	want := "version test_abstract test_file test_run test_run test_file test_file diagnostic test_summary"
	if strings.Join(got, " ") != want {
		t.Errorf("events %v, want %s", got, want)
	}
	b.Reset()
	if err := WriteTestText(&b, rep, TestTextOptions{Dialect: dialect.Terraform, Diagnostics: NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: dir})}); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if i, j := strings.Index(text, "a.tftest.hcl... pass"), strings.Index(text, "Invalid override target"); i < 0 || j < i {
		t.Errorf("the warning is not after the file's status:\n%s", text)
	}
}

// TestVerboseStoppedRun: terraform test -verbose shows a run's plan or
// state only when the run got past its plan's (and apply's) errors to its
// assertions: a plan run whose expected failure did not happen shows
// neither plan nor diagnostic (1.14 on; v1.11.4 shows no plan either),
// while one that got to its assertions shows its plan.
func TestVerboseStoppedRun(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"main.tf": `
variable "v" {
  default = "a"
  validation {
    condition     = var.v == "a"
    error_message = "bad"
  }
}
resource "terraform_data" "x" { input = var.v }
`,
		"tests/a.tftest.hcl": `
run "fine" {
  command = plan
}
run "missing" {
  command         = plan
  expect_failures = [var.v]
}
`,
	})
	rep := runTests(dir, dialect.Terraform)
	var text, events bytes.Buffer
	if err := WriteTestText(&text, rep, TestTextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTestJSONVerbose(&events, rep, dialect.Terraform); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(text.String(), "Terraform will perform the following actions"); got != 1 {
		t.Errorf("%d plans shown, want the first run's only:\n%s", got, text.String())
	}
	if strings.Contains(text.String(), "Missing expected failure") {
		t.Errorf("-verbose shows the missing expected failure:\n%s", text.String())
	}
	if got := strings.Count(events.String(), `"type":"test_plan"`); got != 1 {
		t.Errorf("%d test_plan events, want 1:\n%s", got, events.String())
	}
}

// TestTestAbstractRuns: test_abstract lists each file's run names, and
// null for a file without run blocks (an empty file): `terraform test
// -json` v1.11.4 writes "tests/empty.tftest.hcl":null, and Terraform
// v1.15.9 and OpenTofu v1.12.6 build the list from nil alike.
func TestTestAbstractRuns(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"main.tf":                `output "o" { value = "x" }`,
		"tests/empty.tftest.hcl": ``,
		"tests/one.tftest.hcl":   `run "r" { command = plan }`,
	})
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		var b bytes.Buffer
		if err := WriteTestJSON(&b, runTests(dir, d), d); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, line := range strings.Split(b.String(), "\n") {
			if !strings.Contains(line, `"type":"test_abstract"`) {
				continue
			}
			found = true
			for _, want := range []string{`"tests/empty.tftest.hcl":null`, `"tests/one.tftest.hcl":["r"]`} {
				if !strings.Contains(line, want) {
					t.Errorf("%s: %s lacks %s", d, line, want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no test_abstract event", d)
		}
	}
}
