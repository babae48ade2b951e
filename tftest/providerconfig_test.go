package tftest

import (
	"fmt"
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

// TestProviderConfigInvalidRefs: a test file's provider block is given
// var and run alone (Terraform v1.15.9,
// internal/moduletest/graph/eval_context.go HclContext): any other
// reference in an argument the provider's schema has is "Invalid
// reference", the file's error, and the runs that use the provider are
// skipped; a malformed reference, or plan and state (reserved), is the
// parser's error alone (node_provider.go stops there). A block that reads
// nothing is then decoded with the schema: an argument the schema lacks is
// "Unsupported argument", whatever it refers to, as Terraform reads only
// the schema's arguments. Without the schema, or beside var (whose value
// decides whether the provider is configured), the block is left to the
// provider as before.
func TestProviderConfigInvalidRefs(t *testing.T) {
	main := `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
locals { x = "eu-west-1" }
variable "x" {
  type    = string
  default = "d"
}
output "o" { value = var.x }
`
	schema := `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"provider":{"version":0,"block":{"attributes":{
"region":{"type":"string","optional":true},"profile":{"type":"string","optional":true},"access_key":{"type":"string","optional":true}}}},"resource_schemas":{}}}}`
	for _, tc := range []struct {
		name     string
		noSchema bool
		test     string
		want     map[string]string
		file     string
		diags    []string
		subjects []string // line:column-column of each diagnostic
	}{{
		name: "local and path",
		test: `
provider "aws" {
  region  = local.x
  profile = "${path.module}/p"
}
run "first" { command = plan }
run "second" { command = plan }
`,
		want:     map[string]string{"first": "skip", "second": "skip"},
		file:     "error",
		diags:    []string{"error: Invalid reference", "error: Invalid reference"},
		subjects: []string{"3:13-20", "4:16-27"},
	}, {
		name: "a resource instance, an output, a module's output",
		test: `
provider "aws" {
  region     = aws_s3_bucket.b[0].id
  profile    = output.o
  access_key = module.m.out
}
run "first" { command = plan }
`,
		want:     map[string]string{"first": "skip"},
		file:     "error",
		diags:    []string{"error: Invalid reference", "error: Invalid reference", "error: Invalid reference"},
		subjects: []string{"3:16-34", "4:16-24", "5:16-28"},
	}, {
		name: "a reserved name stands alone",
		test: `
provider "aws" {
  region  = plan.x
  profile = local.x
}
run "first" { command = plan }
`,
		want:     map[string]string{"first": "skip"},
		file:     "error",
		diags:    []string{"error: Reserved symbol name"},
		subjects: []string{"3:13-17"},
	}, {
		name: "a provider no run uses",
		test: `
provider "aws" {
  alias  = "other"
  region = local.x
}
run "first" { command = plan }
`,
		want:     map[string]string{"first": "pass"},
		file:     "error",
		diags:    []string{"error: Invalid reference"},
		subjects: []string{"4:12-19"},
	}, {
		name: "an argument the schema lacks, which is not read",
		test: `
provider "aws" {
  bogus = local.x
}
run "first" { command = plan }
`,
		want:     map[string]string{"first": "skip"},
		file:     "error",
		diags:    []string{"error: Unsupported argument"},
		subjects: []string{"3:3-8"},
	}, {
		name: "an argument the schema lacks reading a variable nothing gives",
		test: `
provider "aws" {
  region = "eu-west-1"
  bogus  = var.nope
}
run "first" { command = plan }
`,
		want:     map[string]string{"first": "skip"},
		file:     "error",
		diags:    []string{"error: Unsupported argument"},
		subjects: []string{"4:3-8"},
	}, {
		name: "a value of the wrong type",
		test: `
provider "aws" {
  alias  = "a"
  region = ["eu-west-1"]
}
run "first" {
  command   = plan
  providers = { aws = aws.a }
}
`,
		want:     map[string]string{"first": "skip"},
		file:     "error",
		diags:    []string{"error: Incorrect attribute value type"},
		subjects: []string{"4:12-25"},
	}, {
		name: "a configuration the schema takes",
		test: `
provider "aws" {
  alias  = "a"
  region = lower("EU-WEST-1")
}
run "first" { command = plan }
`,
		want: map[string]string{"first": "pass"},
		file: "pass",
	}, {
		name: "beside var",
		test: `
provider "aws" {
  region  = var.r
  profile = local.x
}
run "first" { command = plan }
`,
		want: map[string]string{"first": "pass"},
		file: "pass",
	}, {
		name:     "without the schema",
		noSchema: true,
		test: `
provider "aws" {
  region = local.x
}
run "first" { command = plan }
`,
		want: map[string]string{"first": "pass"},
		file: "pass",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.tf": main, "main.tftest.hcl": tc.test}
			if !tc.noSchema {
				files["providers-schema.json"] = schema
			}
			rep := runFiles(t, files, dialect.Terraform)
			want := map[string]string{"main.tftest.hcl": tc.file}
			for k, v := range tc.want {
				want["main.tftest.hcl::"+k] = v
			}
			wantStatuses(t, rep, want)
			if got := summaries(rep); !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
			var subjects []string
			for _, d := range rep.Files[0].Diagnostics {
				if d.Subject != nil {
					subjects = append(subjects, fmt.Sprintf("%d:%d-%d", d.Subject.Start.Line, d.Subject.Start.Column, d.Subject.End.Column))
				}
			}
			if !slices.Equal(subjects, tc.subjects) {
				t.Errorf("subjects %q, want %q", subjects, tc.subjects)
			}
		})
	}
}
