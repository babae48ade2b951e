package tftest

import (
	"slices"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestFileVariablesReferToRuns: from Terraform 1.13 on
// (hashicorp/terraform#37205) the file's variables block may refer to the
// outputs of the file's runs and to its own other values. Terraform works
// such a value out once the runs it refers to have run, and a run takes
// the values its module declares and its own expressions refer to: a
// setup run whose module declares none of them does not wait for itself.
// OpenTofu still knows no run there.
func TestFileVariablesReferToRuns(t *testing.T) {
	main := `
variable "x" { type = string }
resource "terraform_data" "a" { input = var.x }
output "y" { value = terraform_data.a.input }
`
	setup := `
variable "prefix" {
  type    = string
  default = "none"
}
resource "terraform_data" "s" { input = "${var.prefix}-setup" }
output "v" { value = terraform_data.s.input }
`
	for _, tc := range []struct {
		name  string
		d     dialect.Dialect
		env   []string
		main  string // in place of main
		test  string
		want  map[string]string
		diags []string
	}{{
		name: "a value from a run the setup does not take",
		test: `
run "setup" {
  module { source = "./setup" }
}
variables {
  x = run.setup.v
}
run "main" {
  assert {
    condition     = output.y == "none-setup"
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"setup": "pass", "main": "pass"},
	}, {
		name: "a value from another value that reads a run",
		test: `
run "setup" {
  module { source = "./setup" }
}
variables {
  prefix = "p"
  from   = run.setup.v
  x      = "${var.from}/${var.prefix}"
}
run "main" {
  command = plan
  assert {
    condition     = var.x == "p-setup/p" && output.y == "p-setup/p"
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"setup": "pass", "main": "pass"},
	}, {
		name: "the file's values over the global ones of their names",
		env:  []string{"TF_VAR_from=global", "TF_VAR_prefix=global"},
		main: main + `
variable "from" { type = string }
variable "prefix" { type = string }
`,
		test: `
run "setup" {
  module { source = "./setup" }
}
variables {
  prefix = "p"
  from   = run.setup.v
  x      = "${var.from}/${var.prefix}"
}
run "main" {
  command = plan
  assert {
    condition     = output.y == "p-setup/p"
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"setup": "pass", "main": "pass"},
	}, {
		name: "a value the setup takes reads a later run",
		test: `
run "setup" {
  module { source = "./setup" }
}
variables {
  prefix = run.main.y
}
run "main" {
  variables {
    x = "given"
  }
}
`,
		want:  map[string]string{"setup": "error", "main": "skip"},
		diags: []string{"error: Unsupported attribute"},
	}, {
		// The file's value fails for the file; the run that takes it is
		// skipped.
		name: "a run the file does not have",
		test: `
variables {
  x = run.nowhere.v
}
run "main" {}
`,
		want:  map[string]string{"main": "skip"},
		diags: []string{"error: Reference to unknown run block"},
	}, {
		name: "OpenTofu has no run there",
		d:    dialect.Tofu,
		test: `
run "setup" {
  module { source = "./setup" }
}
variables {
  x = run.setup.v
}
run "main" {}
`,
		want:  map[string]string{"setup": "error", "main": "skip"},
		diags: []string{"error: Unknown variable"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			m := main
			if tc.main != "" {
				m = tc.main
			}
			rep := runFiles(t, map[string]string{
				"main.tf":            m,
				"setup/main.tf":      setup,
				"tests/a.tftest.hcl": tc.test,
			}, tc.d, func(o *Options) { o.Env = tc.env })
			want := map[string]string{}
			for run, status := range tc.want {
				want["tests/a.tftest.hcl::"+run] = status
			}
			wantStatuses(t, rep, want)
			got := summaries(rep)
			if len(got) != len(tc.diags) {
				t.Fatalf("diagnostics %v, want %v", got, tc.diags)
			}
			for i := range got {
				if got[i] != tc.diags[i] {
					t.Errorf("diagnostics %v, want %v", got, tc.diags)
				}
			}
		})
	}
}

// TestFileVariableOfAnObjectWithoutSchema: a file value set from an
// earlier run's whole resource object reaches the later run's module as
// the run's own value would: what that module reads of it is planned by
// the earlier run (aws computes arn: the mock gave it, as in Terraform),
// not an attribute the object lacks ("Unsupported attribute").
func TestFileVariableOfAnObjectWithoutSchema(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
variable "vpc" {}
output "arn" { value = var.vpc.arn }
output "cidr" { value = var.vpc.cidr_block }
`,
		"setup/main.tf": awsProvider + `
resource "aws_vpc" "v" {
  cidr_block = "10.0.0.0/16"
}
output "vpc" { value = aws_vpc.v }
`,
		".terraform/modules/modules.json": `{"Modules": [
  {"Key": "", "Source": "", "Dir": "."},
  {"Key": "test.tests.a.setup", "Source": "./setup", "Dir": "setup"}
]}`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "setup" {
  module {
    source = "./setup"
  }
}
variables {
  vpc = run.setup.vpc
}
run "set" {
  command = plan
  assert {
    condition     = output.cidr == "10.0.0.0/16"
    error_message = "wrong"
  }
}
run "unset" {
  command = plan
  assert {
    condition     = output.arn != ""
    error_message = "wrong"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::setup": "pass", "tests/a.tftest.hcl::set": "pass", "tests/a.tftest.hcl::unset": "pass"})
}

// TestUnknownRunValues: from Terraform 1.13 on, a test file's expression
// (a run's variables, the file's) that reads a value of an earlier run's
// outputs that is unknown (a plan run's computed value) is "Reference to
// unknown value", whether or not the module declares the variable it sets;
// `terraform test` v1.11.4 fails the run the same way. What a plan run's
// output holds unknown inside a known value reads as null, and a value
// tfeval could not work out (a run skipped for want of a provider) is not
// such an error: the run that reads it is skipped.
func TestUnknownRunValues(t *testing.T) {
	main := `
variable "x" {
  type    = string
  default = "d"
}
resource "terraform_data" "a" { input = "x" }
output "id" { value = terraform_data.a.id }
output "obj" { value = { id = terraform_data.a.id, name = "n" } }
`
	for _, tc := range []struct {
		name  string
		main  string
		test  string
		want  map[string]string
		diags []string
	}{{
		name:  "a run's variable",
		test:  "run \"a\" {\n  command = plan\n}\nrun \"b\" {\n  command = plan\n  variables {\n    x = run.a.id\n  }\n}\n",
		want:  map[string]string{"a": "pass", "b": "error"},
		diags: []string{"error: Reference to unknown value"},
	}, {
		name:  "a variable the module does not declare",
		test:  "run \"a\" {\n  command = plan\n}\nrun \"b\" {\n  command = plan\n  variables {\n    other = run.a.id\n  }\n}\n",
		want:  map[string]string{"a": "pass", "b": "error"},
		diags: []string{"error: Reference to unknown value"},
	}, {
		name: "the file's value",
		// The file's value is worked out once, for the file (1.13 on):
		// its error is the file's, and the run that takes it is skipped.
		test:  "run \"a\" {\n  command = plan\n}\nvariables {\n  y = run.a.id\n}\nrun \"b\" {\n  command = plan\n  variables {\n    x = var.y\n  }\n}\n",
		want:  map[string]string{"a": "pass", "b": "skip"},
		diags: []string{"error: Reference to unknown value"},
	}, {
		name: "an applied run's value",
		test: "run \"a\" {}\nrun \"b\" {\n  command = plan\n  variables {\n    x = run.a.id\n  }\n}\n",
		want: map[string]string{"a": "pass", "b": "pass"},
	}, {
		name: "an unknown inside a known output",
		test: "run \"a\" {\n  command = plan\n}\nrun \"b\" {\n  command = plan\n  variables {\n    x = coalesce(run.a.obj.id, run.a.obj.name)\n  }\n  assert {\n    condition     = var.x == \"n\"\n    error_message = \"wrong\"\n  }\n}\n",
		want: map[string]string{"a": "pass", "b": "pass"},
	}, {
		name: "a run tfeval skips",
		main: main + "resource \"other_thing\" \"t\" {}\noutput \"t\" { value = other_thing.t.id }\n",
		test: "run \"a\" {}\nrun \"b\" {\n  command = plan\n  variables {\n    x = run.a.t\n  }\n}\n",
		want: map[string]string{"a": "skip", "b": "skip"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			m := main
			if tc.main != "" {
				m = tc.main
			}
			rep := runFiles(t, map[string]string{"main.tf": m, "tests/a.tftest.hcl": tc.test}, dialect.Terraform)
			want := map[string]string{}
			for run, status := range tc.want {
				want["tests/a.tftest.hcl::"+run] = status
			}
			wantStatuses(t, rep, want)
			var got []string
			for _, s := range summaries(rep) {
				if !strings.HasPrefix(s, "warning: Value for undeclared variable") {
					got = append(got, s)
				}
			}
			if !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %v, want %v", got, tc.diags)
			}
		})
	}
}

// TestUndefinedRunReferences: a reference to a run block the file does
// not have is, in an assertion, Terraform's "Reference to undeclared run
// block" (terraform test v1.11.4 and v1.15.9's evaluator alike), and in a
// variables block (the run's, the file's) v1.15.9's "Reference to unknown
// run block".
func TestUndefinedRunReferences(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": "variable \"x\" {\n  default = 1\n}\noutput \"o\" { value = \"x\" }\n",
		"tests/a.tftest.hcl": `
run "a" {
  command = plan
  assert {
    condition     = run.nope.o == "x"
    error_message = "e"
  }
}
`,
	}, dialect.Terraform)
	var got []string
	for _, f := range rep.Files {
		for _, r := range f.Runs {
			for _, d := range r.Diagnostics {
				got = append(got, r.Name+": "+d.Summary+": "+d.Detail)
			}
		}
	}
	want := []string{
		`a: Reference to undeclared run block: There is no run "nope" declared in this test suite.`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	rep = runFiles(t, map[string]string{
		"main.tf":            "variable \"x\" {\n  default = 1\n}\n",
		"tests/a.tftest.hcl": "run \"b\" {\n  command = plan\n  variables {\n    x = run.gone.o\n  }\n}\n",
	}, dialect.Terraform)
	d := runOf(t, rep, "tests/a.tftest.hcl::b").Diagnostics
	if len(d) != 1 || d[0].Summary != "Reference to unknown run block" || d[0].Detail != `The run block "gone" does not exist within this test file.` {
		t.Errorf("diagnostics %v", d)
	}
}

// TestFileValueErrors: Terraform (1.13 on) works the file's values out
// once, as the file's: a value that fails is the file's error, reported
// once after the file's status, and a run that takes it (its module
// declares the variable and the run does not set it) is skipped, with the
// file's later runs; a run that sets the variable itself runs.
// (terraform test v1.11.4 worked the values out for each run and errored
// the first run that took it.)
func TestFileValueErrors(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
variable "a" {
  type    = string
  default = "x"
}
output "o" { value = var.a }
`,
		"tests/a.tftest.hcl": `
variables {
  a = tonumber("nope")
}
run "first" {
  command = plan
  variables {
    a = "set"
  }
}
run "second" {
  command = plan
}
run "third" {
  command = plan
  variables {
    a = "set"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::first": "pass", "tests/a.tftest.hcl::second": "skip", "tests/a.tftest.hcl::third": "skip"})
	f := rep.Files[0]
	if f.Status != Error || rep.Status != Error || len(f.Diagnostics) != 1 || f.Diagnostics[0].Summary != "Invalid function argument" {
		t.Errorf("file %s, report %s, file diagnostics %v; want one error, the file's", f.Status, rep.Status, f.Diagnostics)
	}
	for _, r := range f.Runs {
		if len(r.Diagnostics) != 0 || r.SkipReason != "" {
			t.Errorf("run %s: diagnostics %v, skip reason %q", r.Name, r.Diagnostics, r.SkipReason)
		}
	}
}
