package tftest

import (
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestProviderConfigFails: Terraform (1.13 on) configures each provider
// block of a test file once for the file, before the runs that use it: a
// configuration that cannot be worked out is the file's error, and the
// first run that uses the provider is skipped, with the file's later
// runs; a run that does not use it runs. A configuration reads the file's
// values as Terraform v1.15.9's test graph gives them
// (internal/moduletest/graph/eval_context.go HclContext): a value of the
// file's variables block (one that fails skips the provider, its error
// the file's), a variable block's, and a global value of a variable the
// file does not declare, parsed as an expression with the warning, the
// errors of that parse making the configuration fail; a variable neither
// the file nor a global value gives (the module's, with its default) is
// unavailable to it. (1.11.4, without that graph, configured such a
// provider only for a plan that needs it.)
func TestProviderConfigFails(t *testing.T) {
	main := `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
variable "x" {
  type    = string
  default = "d"
}
output "o" { value = var.x }
`
	for _, tc := range []struct {
		name  string
		env   []string
		test  string
		want  map[string]string
		file  string
		diags []string
	}{{
		name: "a function's error",
		test: `
provider "aws" {
  region = tonumber("eu-west-1")
}
run "first" { command = plan }
run "second" { command = plan }
`,
		want:  map[string]string{"first": "skip", "second": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "in a nested block",
		test: `
provider "aws" {
  region = "eu-west-1"
  assume_role {
    role_arn = file("missing.txt")
  }
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "a provider no run uses",
		test: `
provider "aws" {
  alias  = "other"
  region = tonumber("eu-west-1")
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "pass"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "a value of the file's variables block",
		test: `
variables {
  r = "eu-west-1"
}
provider "aws" {
  region = tonumber(var.r)
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "the module's variable, which the provider does not see",
		test: `
provider "aws" {
  region = var.x
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Reference to unavailable variable"},
	}, {
		name: "a global value is the provider's",
		env:  []string{`TF_VAR_x="eu-west-1"`},
		test: `
provider "aws" {
  region = var.x
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "pass"},
		file:  "pass",
		diags: []string{"warning: Variable referenced without definition"},
	}, {
		name: "a global value parsed as an expression",
		env:  []string{"TF_VAR_n=3"},
		test: `
provider "aws" {
  max_retries = var.n + 1
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "pass"},
		file:  "pass",
		diags: []string{"warning: Variable referenced without definition"},
	}, {
		name: "a global value that does not parse",
		env:  []string{"TF_VAR_x=euwest"},
		test: `
provider "aws" {
  region = var.x
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Variables not allowed", "warning: Variable referenced without definition"},
	}, {
		name: "a global value's function error",
		env:  []string{`TF_VAR_r="eu-west-1"`},
		test: `
provider "aws" {
  region = tonumber(var.r)
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument", "warning: Variable referenced without definition"},
	}, {
		name: "a variable block's value",
		env:  []string{"TF_VAR_r=eu-west-1"},
		test: `
variable "r" {
  type = string
}
provider "aws" {
  region = tonumber(var.r)
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "a variable block's default",
		test: `
variable "r" {
  default = "eu-west-1"
}
provider "aws" {
  region = upper(var.r)
}
run "first" { command = plan }
`,
		want: map[string]string{"first": "pass"},
		file: "pass",
	}, {
		name: "a file's value that reads a global value",
		env:  []string{`TF_VAR_g="eu"`},
		test: `
variables {
  r = "${var.g}-west-1"
}
provider "aws" {
  region = tonumber(var.r)
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "a file's value that fails, which no run takes",
		test: `
variables {
  r = tonumber("x")
}
provider "aws" {
  region = var.r
}
run "first" { command = plan }
`,
		want:  map[string]string{"first": "skip"},
		file:  "error",
		diags: []string{"error: Invalid function argument"},
	}, {
		name: "a configuration that works",
		test: `
provider "aws" {
  region = lower("EU-WEST-1")
}
run "first" { command = plan }
`,
		want: map[string]string{"first": "pass"},
		file: "pass",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": main, "main.tftest.hcl": tc.test}, dialect.Terraform, func(o *Options) { o.Env = tc.env })
			want := map[string]string{"main.tftest.hcl": tc.file}
			for k, v := range tc.want {
				want["main.tftest.hcl::"+k] = v
			}
			wantStatuses(t, rep, want)
			if got := summaries(rep); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
			for _, r := range rep.Files[0].Runs {
				if len(r.Diagnostics) > 0 {
					t.Errorf("run %s: diagnostics %v, want none (the file's)", r.Name, r.Diagnostics)
				}
			}
		})
	}
}
