package tftest

import (
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// mockSchema is a schema document for a provider "tfeval/mock" whose
// resource mock_thing computes id (a string) and info (an object).
const mockSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{"provider":{"version":0,"block":{}},"resource_schemas":{"mock_thing":{"version":0,"block":{"attributes":{
  "id":{"type":"string","computed":true},
  "name":{"type":"string","optional":true},
  "info":{"type":["object",{"a":"string","b":"number"}],"computed":true}
}}}}}}}`

const mockMain = `terraform {
  required_providers {
    mock = { source = "tfeval/mock" }
  }
}

resource "mock_thing" "t" {
  name = "n"
}
`

// TestMockValuesOfTheWrongType: a mock or override value that does not
// fit its computed attribute's type is the error of the run whose apply
// (or plan, with override_during = plan) creates the object, in
// Terraform's words ("Failed to compute attribute", at the resource,
// naming where the values were given) or OpenTofu's; the run errors and
// the file's later runs are skipped. An object lacking attributes of an
// object-typed attribute gets them generated, as Terraform's mocks do.
func TestMockValuesOfTheWrongType(t *testing.T) {
	for _, tc := range []struct {
		name   string
		d      dialect.Dialect
		test   string
		want   map[string]string
		detail string
		line   int
	}{{
		name: "mock defaults, at apply",
		d:    dialect.Terraform,
		test: `mock_provider "mock" {
  mock_resource "mock_thing" {
    defaults = {
      id = ["a"]
    }
  }
}
run "plan" {
  command = plan
}
run "apply" {}
run "later" {}
`,
		want:   map[string]string{"plan": "pass", "apply": "error", "later": "skip"},
		detail: `Terraform could not compute a value for the target type string with the mocked data defined at main.tftest.hcl:3,5-5,6 with the attribute ".id": string required, but have tuple.`,
		line:   7,
	}, {
		name: "override during plan, nested attribute",
		d:    dialect.Terraform,
		test: `mock_provider "mock" {}
override_resource {
  target          = mock_thing.t
  override_during = plan
  values = {
    info = { a = "x", b = "not a number" }
  }
}
run "plan" {
  command = plan
}
run "later" {}
`,
		want:   map[string]string{"plan": "error", "later": "skip"},
		detail: `Terraform could not compute a value for the target type object with the mocked data defined at main.tftest.hcl:2,1-18 with the attribute ".info[\"b\"]": a number is required.`,
		line:   7,
	}, {
		name: "an object's missing attribute is generated",
		d:    dialect.Terraform,
		test: `mock_provider "mock" {
  mock_resource "mock_thing" {
    defaults = {
      info = { a = "x" }
    }
  }
}
run "apply" {
  assert {
    condition     = mock_thing.t.info.a == "x" && mock_thing.t.info.b == 0
    error_message = "info"
  }
}
`,
		want: map[string]string{"apply": "pass"},
	}, {
		name: "OpenTofu's words",
		d:    dialect.Tofu,
		test: `mock_provider "mock" {
  mock_resource "mock_thing" {
    defaults = {
      id = ["a"]
    }
  }
}
run "apply" {}
run "later" {}
`,
		want:   map[string]string{"apply": "error", "later": "skip"},
		detail: `mock_thing.t: Values provided for override / mock must match resource fields: id: string required, but have tuple.`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": mockMain, "main.tftest.hcl": tc.test, "providers-schema.json": mockSchema}, tc.d)
			want := map[string]string{}
			for k, v := range tc.want {
				want["main.tftest.hcl::"+k] = v
			}
			wantStatuses(t, rep, want)
			got := runDiagnostics(t, rep)
			if tc.detail == "" {
				if len(got) > 0 {
					t.Fatalf("diagnostics %v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("diagnostics %v, want one", got)
			}
			summary := "Failed to compute attribute"
			if tc.d == dialect.Tofu {
				summary = "Invalid mock/override field"
			}
			if got[0].Summary != summary || got[0].Detail != tc.detail {
				t.Errorf("got %q: %q\nwant %q: %q", got[0].Summary, got[0].Detail, summary, tc.detail)
			}
			if tc.line != 0 && (got[0].Subject == nil || got[0].Subject.Filename != "main.tf" || got[0].Subject.Start.Line != tc.line) {
				t.Errorf("subject %v, want main.tf line %d", got[0].Subject, tc.line)
			}
		})
	}
}

// TestMockValuesOfTheWrongTypeByTable: without a provider schema, what
// tfeval's table of the aws provider's schema says the provider computes
// is checked the same way (checked with terraform test v1.11.4 and aws
// v5.100.0, which writes the attribute without its leading dot and the
// message of an older go-cty); an attribute the configuration sets, or
// an object that already exists, takes nothing from the mock.
func TestMockValuesOfTheWrongTypeByTable(t *testing.T) {
	main := awsProvider + `
resource "aws_vpc" "v" {
  cidr_block = "10.0.0.0/16"
}
output "arn" { value = aws_vpc.v.arn }
`
	for _, tc := range []struct {
		name   string
		test   string
		want   map[string]string
		detail string
	}{{
		name: "a computed attribute",
		test: `mock_provider "aws" {
  mock_resource "aws_vpc" {
    defaults = {
      arn = ["x"]
    }
  }
}
run "plan" {
  command = plan
}
run "apply" {}
run "later" {}
`,
		want:   map[string]string{"plan": "pass", "apply": "error", "later": "skip"},
		detail: `Terraform could not compute a value for the target type string with the mocked data defined at main.tftest.hcl:3,5-5,6 with the attribute ".arn": string required, but have tuple.`,
	}, {
		name: "an attribute the configuration sets",
		test: `mock_provider "aws" {
  mock_resource "aws_vpc" {
    defaults = {
      cidr_block = ["x"]
    }
  }
}
run "apply" {}
`,
		want: map[string]string{"apply": "pass"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{"main.tf": main, "main.tftest.hcl": tc.test}, dialect.Terraform)
			want := map[string]string{}
			for k, v := range tc.want {
				want["main.tftest.hcl::"+k] = v
			}
			wantStatuses(t, rep, want)
			var got []*hcl.Diagnostic
			for _, r := range rep.Files[0].Runs {
				got = append(got, r.Diagnostics...)
			}
			if tc.detail == "" {
				if len(got) > 0 {
					t.Fatalf("diagnostics %v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Summary != "Failed to compute attribute" || got[0].Detail != tc.detail || got[0].Subject == nil || got[0].Subject.Filename != "main.tf" {
				t.Fatalf("diagnostics %v, want one: %q", got, tc.detail)
			}
		})
	}
}
