package tftest

import (
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestMockValuesCallFunctions: from Terraform 1.15 on
// (hashicorp/terraform#37883) a mock block's defaults and an override's
// values may call Terraform's functions (and refer to nothing), worked
// out when the tests run: a value that is not an object, or that fails,
// is the error of the runs that use it. OpenTofu's are constant objects,
// checked when the file loads.
func TestMockValuesCallFunctions(t *testing.T) {
	main := awsProvider + `
resource "aws_vpc" "v" {
  cidr_block = "10.0.0.0/16"
}
resource "terraform_data" "d" { input = "x" }
output "arn" { value = aws_vpc.v.arn }
output "out" { value = terraform_data.d.output }
`
	for _, tc := range []struct {
		name  string
		d     dialect.Dialect
		test  string
		want  map[string]string
		diags []string
	}{{
		name: "functions in defaults and values",
		test: `
mock_provider "aws" {
  mock_resource "aws_vpc" {
    defaults = {
      arn = format("arn:%s", lower("VPC"))
    }
  }
}
override_resource {
  target = terraform_data.d
  values = {
    output = upper("y")
  }
}
run "r" {
  assert {
    condition     = output.arn == "arn:vpc" && output.out == "Y"
    error_message = "wrong"
  }
}
`,
		want: map[string]string{"r": "pass"},
	}, {
		name: "values that are not an object",
		test: `
mock_provider "aws" {}
override_resource {
  target = terraform_data.d
  values = tomap({ output = "y" })
}
run "r" {}
run "after" {}
`,
		want:  map[string]string{"r": "error", "after": "skip"},
		diags: []string{"error: Invalid outputs attribute"},
	}, {
		name: "defaults that are not an object",
		test: `
mock_provider "aws" {
  mock_data "aws_vpc" {
    defaults = "x"
  }
}
run "r" {}
`,
		want:  map[string]string{"r": "error"},
		diags: []string{"error: Invalid replacement value"},
	}, {
		name: "a reference",
		test: `
mock_provider "aws" {}
variables {
  v = "y"
}
override_resource {
  target = terraform_data.d
  values = { output = var.v }
}
run "r" {}
`,
		want:  map[string]string{"r": "error"},
		diags: []string{"error: Unsupported attribute"},
	}, {
		name: "OpenTofu's constant objects",
		d:    dialect.Tofu,
		test: `
mock_provider "aws" {
  mock_resource "aws_vpc" {
    defaults = { arn = lower("X") }
  }
}
override_resource {
  target = terraform_data.d
  values = "y"
}
run "r" {}
`,
		diags: []string{"error: Function calls not allowed", "error: Object expected"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": main, "tests/a.tftest.hcl": tc.test}, tc.d)
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

// TestMockDataDirectory: a mock_provider's source names a directory of
// .tfmock.hcl files, whose blocks the provider block's own take
// precedence over; hidden files there are not read (Terraform ignores
// them as it ignores hidden configuration files), and their values may
// call functions too (Terraform 1.15 on).
func TestMockDataDirectory(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
provider "aws" {
  alias = "second"
}
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_vpc" "b" {
  provider   = aws.second
  cidr_block = "10.1.0.0/16"
}
output "a" { value = aws_vpc.a.arn }
output "b" { value = aws_vpc.b.arn }
`,
		"tests/mocks/vpc.tfmock.hcl": `
mock_resource "aws_vpc" {
  defaults = {
    arn = join(":", ["from", "file"])
  }
}
`,
		"tests/mocks/.broken.tfmock.hcl": "mock_resource \"aws_vpc\" {}\nmock_resource \"aws_vpc\" {}\n",
		"tests/a.tftest.hcl": `
mock_provider "aws" {
  source = "./tests/mocks"
  mock_resource "aws_vpc" {
    defaults = {
      arn = "inline"
    }
  }
}
mock_provider "aws" {
  alias  = "second"
  source = "./tests/mocks"
}
run "r" {
  assert {
    condition     = output.a == "inline" && output.b == "from:file"
    error_message = "wrong: ${output.a} ${output.b}"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": "pass"})
	if got := summaries(rep); len(got) != 0 {
		t.Errorf("diagnostics %v", got)
	}
}

// TestMockDefaultsFail: Terraform works a mock provider's defaults out
// when it configures the provider for the file (1.15 on, where they may
// call functions): one that fails is the file's error, a run that uses
// the provider is skipped, and so are the file's later runs, which do not
// start. A run whose module does not use the provider runs.
func TestMockDefaultsFail(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf":       awsProvider + "resource \"aws_vpc\" \"v\" {\n  cidr_block = \"10.0.0.0/16\"\n}\n",
		"other/main.tf": "output \"o\" { value = \"plain\" }\n",
		".terraform/modules/modules.json": `{"Modules": [
  {"Key": "", "Source": "", "Dir": "."},
  {"Key": "test.tests.a.other", "Source": "./other", "Dir": "other"},
  {"Key": "test.tests.a.later", "Source": "./other", "Dir": "other"}
]}`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {
  mock_resource "aws_vpc" {
    defaults = { arn = tonumber("x") }
  }
}
run "other" {
  command = plan
  module { source = "./other" }
}
run "uses" {
  command = plan
}
run "later" {
  command = plan
  module { source = "./other" }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::other": "pass", "tests/a.tftest.hcl::uses": "skip", "tests/a.tftest.hcl::later": "skip"})
	f := rep.Files[0]
	if f.Status != Error || len(f.Diagnostics) != 1 || f.Diagnostics[0].Summary != "Invalid function argument" {
		t.Errorf("file %s, diagnostics %v: want the defaults' error, the file's", f.Status, f.Diagnostics)
	}
	if uses := runOf(t, rep, "tests/a.tftest.hcl::uses"); len(uses.Diagnostics) != 0 || uses.NotStarted {
		t.Errorf("the run using the provider: diagnostics %v, not started %v; want none, started", uses.Diagnostics, uses.NotStarted)
	}
	if !runOf(t, rep, "tests/a.tftest.hcl::later").NotStarted {
		t.Error("the later run started")
	}
}
