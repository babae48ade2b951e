package tftest

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/tfvars"
)

// TestFileVariableDefinitions: from Terraform 1.13 on
// (hashicorp/terraform#37195) a test file may declare the global values
// it reads with variable blocks. A declared variable's value is its
// global one (command line, variables files, environment), parsed as its
// type says, or else its default, converted to its type; it is what the
// file's expressions read as var.NAME and what the module's variable of
// the same name gets unless the run sets it. OpenTofu has no such block.
func TestFileVariableDefinitions(t *testing.T) {
	main := `
variable "greeting" { type = string }
variable "count_of" { type = number }
output "msg" { value = "${var.greeting} x${var.count_of}" }
`
	for _, tc := range []struct {
		name  string
		d     dialect.Dialect
		vars  []string // -var NAME=VALUE
		test  string
		want  map[string]string
		diags []string
	}{{
		name: "defaults feed the module's variables",
		test: `
variable "greeting" {
  type    = string
  default = "hi"
}
variable "count_of" {
  type    = number
  default = "3"
}
run "r" {
  command = plan
  assert {
    condition     = output.msg == "hi x3" && var.count_of == 3
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"r": "pass"},
	}, {
		name: "a global value over the default, parsed as the block's type says",
		vars: []string{"count_of=4", "greeting=[1]"},
		test: `
variable "greeting" {
  type    = string
  default = "hi"
}
variable "count_of" {
  type    = number
  default = 3
}
variables {
  twice = var.count_of * 2
}
run "r" {
  command = plan
  variables {
    count_of = var.twice
  }
  assert {
    condition     = output.msg == "[1] x8"
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"r": "pass"},
	}, {
		name: "a declared variable without a value",
		test: `
variable "greeting" {
  type = string
}
run "r" {
  command = plan
  variables {
    count_of = 1
  }
}
`,
		// The file's diagnostic (1.13 on: the file declares the
		// variable, and works it out once); the run that takes it is
		// skipped.
		want:  map[string]string{"r": "skip"},
		diags: []string{"error: No value for required variable"},
	}, {
		name: "a value the block's type does not take",
		vars: []string{"count_of=many"},
		test: `
variable "count_of" {
  type = number
}
run "r" {
  command = plan
  variables {
    greeting = "hi"
  }
}
`,
		want:  map[string]string{"r": "skip"},
		diags: []string{"error: Invalid value for input variable"},
	}, {
		name: "a sensitive declaration marks nothing in the file's expressions",
		test: `
variable "secret" {
  type      = string
  default   = "s"
  sensitive = true
}
run "r" {
  command = plan
  variables {
    greeting = var.secret
    count_of = 1
  }
  assert {
    condition     = !issensitive(var.secret) && output.msg == "s x1"
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"r": "pass"},
	}, {
		name: "OpenTofu has no variable block in test files",
		d:    dialect.Tofu,
		test: `
variable "greeting" {
  default = "hi"
}
run "r" {}
`,
		diags: []string{"error: Unsupported block type"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var args []tfvars.Arg
			for _, v := range tc.vars {
				args = append(args, tfvars.Arg{Kind: tfvars.VarFlag, Text: v})
			}
			rep := runFiles(t, map[string]string{
				"main.tf":            main,
				"tests/a.tftest.hcl": tc.test,
			}, tc.d, func(o *Options) { o.VarArgs = args })
			want := map[string]string{}
			for run, status := range tc.want {
				want["tests/a.tftest.hcl::"+run] = status
			}
			wantStatuses(t, rep, want)
			if got := summaries(rep); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %v, want %v", got, tc.diags)
			}
		})
	}
}

// TestFileVariableDefinitionNames: a name is declared by one variable
// block, and not also given by the file's variables block, in either
// order.
func TestFileVariableDefinitionNames(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // "SUMMARY@LINE: detail prefix"
	}{{
		name: "two blocks",
		src:  "variable \"a\" {}\nvariable \"a\" {}\n",
		want: []string{"Duplicate \"variable\" block names@2: This test file already has a variable named a defined at a.tftest.hcl:1,1-13."},
	}, {
		name: "a block after the variables block",
		src:  "variables {\n  a = 1\n}\nvariable \"a\" {}\n",
		want: []string{"Duplicate \"variable\" block names@4: This test file already has a variable named a defined at a.tftest.hcl:2,7-8."},
	}, {
		name: "the variables block after a block",
		src:  "variable \"a\" {}\nvariables {\n  a = 1\n}\n",
		want: []string{"Duplicate \"variable\" block names@1: This test file already has a variable named a defined at a.tftest.hcl:3,3-8."},
	}, {
		name: "a block as a module's",
		src:  "variable \"a\" {\n  type = string\n  default = 1\n  validation {\n    condition = var.a != \"\"\n    error_message = \"empty\"\n  }\n}\n",
	}, {
		name: "a bad name",
		src:  "variable \"1a\" {}\n",
		want: []string{"Invalid variable name@1: A name must start with a letter or underscore"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, diags := ParseFile([]byte(tc.src), "a.tftest.hcl", dialect.Terraform)
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary+"@"+lineOf(d.Subject)+": "+d.Detail)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("diagnostics %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("diagnostic %q, want %q", got[i], tc.want[i])
				}
			}
			if len(tc.want) == 0 && f.VariableDefs["a"] == nil {
				t.Errorf("variable a not declared: %v", f.VariableDefs)
			}
		})
	}
}

func lineOf(r *hcl.Range) string {
	if r == nil {
		return "?"
	}
	return strconv.Itoa(r.Start.Line)
}

// TestUndefinedGlobalReferences: Terraform (1.13 on) warns where a test
// file reads a global value of a variable it does not declare: each such
// reference of a run's variables block and of the file's variables block
// (once, as the file's own diagnostic: Terraform works the file's values
// out once for the file), and once a name those of a run's assertions and
// variables block to a variable the module does not declare and the run
// does not set. A declared variable, a file value and a variable the
// module declares read by an assertion are not warned about.
func TestUndefinedGlobalReferences(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
variable "greeting" { type = string }
variable "count_of" { type = number }
output "msg" { value = "${var.greeting} x${var.count_of}" }
`,
		"tests/a.tftest.hcl": `
variable "d" {
  default = "dd"
}
variables {
  f = "${var.g}-${var.d}"
}
run "one" {
  command = plan
  variables {
    greeting = var.g
    count_of = 1
  }
  assert {
    condition     = var.h == "hh" && var.f == "gg-dd" && var.greeting == "gg" && var.d == "dd"
    error_message = "wrong"
  }
}
run "two" {
  command = plan
  variables {
    greeting = var.f
    count_of = 2
  }
}
`,
	}, dialect.Terraform, func(o *Options) {
		o.VarArgs = []tfvars.Arg{{Kind: tfvars.VarFlag, Text: `g="gg"`}, {Kind: tfvars.VarFlag, Text: `h="hh"`}}
	})
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::one": "pass", "tests/a.tftest.hcl::two": "pass"})
	var got []string
	for _, f := range rep.Files {
		for _, r := range f.Runs {
			for _, d := range r.Diagnostics {
				got = append(got, r.Name+" "+d.Summary+" "+lineOf(d.Subject))
			}
		}
		for _, d := range f.Diagnostics {
			got = append(got, "file "+d.Summary+" "+lineOf(d.Subject))
		}
	}
	want := []string{
		"one Variable referenced without definition 11",
		"one Variable referenced without definition 15",
		"one Variable referenced without definition 11",
		"file Variable referenced without definition 6",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

// TestUnsetRequiredVariables: a required variable of the module under
// test that nothing gives a value is "No value for required variable",
// worded by each binary's test command: Terraform names the run.
func TestUnsetRequiredVariables(t *testing.T) {
	for _, tc := range []struct {
		d    dialect.Dialect
		want string
	}{
		{dialect.Terraform, `The module under test for run block "r" has a required variable "b" with no set value. Use a -var or -var-file command line argument or add this variable into a "variables" block within the test file or run block.`},
		{dialect.Tofu, `The root module input variable "b" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`},
	} {
		rep := runFiles(t, map[string]string{
			"main.tf":            "variable \"a\" {}\nvariable \"b\" {}\n",
			"tests/a.tftest.hcl": "run \"r\" {\n  command = plan\n  variables {\n    a = 1\n  }\n}\n",
		}, tc.d)
		d := runOf(t, rep, "tests/a.tftest.hcl::r").Diagnostics
		if len(d) != 1 || d[0].Summary != "No value for required variable" || d[0].Detail != tc.want || d[0].Subject.Start.Line != 2 {
			t.Errorf("%s: diagnostics %v", tc.d, d)
		}
	}
}

// TestUndeclaredGlobalParsing: Terraform (1.13 on) reads the global value
// of a variable the test file does not declare through a deprecated path
// (v1.15.9 internal/moduletest/graph/eval_context.go,
// EvaluateUnparsedVariableDeprecated): text from -var or TF_VAR_ is parsed
// as an expression ("gg" a string, 3 a number), and where that fails it is
// the literal string, with the errors of the failed parse kept beside the
// warning. A run's reference with such errors errors the run; a file's
// value that reads one fails, its error the file's, and the run that
// takes it is skipped. A value from a variables file is its expression's;
// a variable block parses the value as it says.
//
// Terraform works out every value of the file's variables block, whether
// a run takes it or not: one no run takes has its warnings and errors
// too, the file's, and one that reads a variable that neither the file
// nor a global value gives is "Reference to unavailable variable" (tfeval
// said "Unsupported attribute").
func TestUndeclaredGlobalParsing(t *testing.T) {
	main := `
variable "greeting" {
  type    = string
  default = "hi"
}
output "msg" { value = var.greeting }
`
	for _, tc := range []struct {
		name, test string
		vars       []string
		files      map[string]string
		want       map[string]string
		diags      []string
	}{{
		name: "a quoted string and a number",
		vars: []string{`g="gg"`, "n=3"},
		test: `
run "one" {
  command = plan
  variables {
    greeting = var.g
  }
  assert {
    condition     = output.msg == "gg" && var.n == 3
    error_message = "wrong"
  }
}
`,
		want:  map[string]string{"one": "pass"},
		diags: []string{"warning: Variable referenced without definition", "warning: Variable referenced without definition", "warning: Variable referenced without definition"},
	}, {
		name: "text that does not parse, in a run's variables",
		vars: []string{"g=gg"},
		test: `
run "one" {
  command = plan
  variables {
    greeting = var.g
  }
}
run "two" { command = plan }
`,
		want:  map[string]string{"one": "error", "two": "skip"},
		diags: []string{"error: Variables not allowed", "error: Variables not allowed", "warning: Variable referenced without definition", "warning: Variable referenced without definition"},
	}, {
		name: "text that does not parse, in the file's values",
		vars: []string{"g=gg"},
		test: `
variables {
  greeting = var.g
}
run "one" { command = plan }
`,
		want:  map[string]string{"one": "skip"},
		diags: []string{"error: Variables not allowed", "warning: Variable referenced without definition"},
	}, {
		name: "text that does not parse, in a file's value no run takes",
		vars: []string{"g=gg"},
		test: `
variables {
  unused = var.g
}
run "one" { command = plan }
`,
		want:  map[string]string{"one": "pass", "file": "error"},
		diags: []string{"error: Variables not allowed", "warning: Variable referenced without definition"},
	}, {
		name: "a file's value no run takes reads a global value",
		vars: []string{`g="gg"`},
		test: `
variables {
  unused = upper(var.g)
}
run "one" { command = plan }
`,
		want:  map[string]string{"one": "pass", "file": "pass"},
		diags: []string{"warning: Variable referenced without definition"},
	}, {
		name: "a file's value reads a variable nothing gives",
		test: `
variables {
  greeting = var.nobody
  unused   = var.nobody
}
run "one" { command = plan }
`,
		want:  map[string]string{"one": "skip", "file": "error"},
		diags: []string{"error: Reference to unavailable variable", "error: Reference to unavailable variable"},
	}, {
		name: "a variable block parses as it says",
		vars: []string{"g=gg"},
		test: `
variable "g" {
  type = string
}
run "one" {
  command = plan
  variables {
    greeting = var.g
  }
  assert {
    condition     = output.msg == "gg"
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"one": "pass"},
	}, {
		name:  "a variables file's value",
		vars:  []string{"-var-file=extra.tfvars"},
		files: map[string]string{"extra.tfvars": "g = \"gg\"\n"},
		test: `
run "one" {
  command = plan
  variables {
    greeting = var.g
  }
  assert {
    condition     = output.msg == "gg"
    error_message = "wrong"
  }
}
`,
		want:  map[string]string{"one": "pass"},
		diags: []string{"warning: Variable referenced without definition", "warning: Variable referenced without definition"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.tf": main, "main.tftest.hcl": tc.test}
			for k, v := range tc.files {
				files[k] = v
			}
			var args []tfvars.Arg
			for _, v := range tc.vars {
				if f, ok := strings.CutPrefix(v, "-var-file="); ok {
					args = append(args, tfvars.Arg{Kind: tfvars.VarFileFlag, Text: f})
				} else {
					args = append(args, tfvars.Arg{Kind: tfvars.VarFlag, Text: v})
				}
			}
			rep := runFiles(t, files, dialect.Terraform, func(o *Options) { o.VarArgs = args })
			want := map[string]string{}
			for k, v := range tc.want {
				if k == "file" {
					want["main.tftest.hcl"] = v
					continue
				}
				want["main.tftest.hcl::"+k] = v
			}
			wantStatuses(t, rep, want)
			if got := summaries(rep); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
		})
	}
}
