package tftest

import (
	"fmt"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

func TestParseFile(t *testing.T) {
	src := `
variables {
  region = "eu"
}

mock_provider "aws" {
  alias = "fake"
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:x" }
  }
  override_data {
    target = data.aws_region.r
    values = { name = "eu" }
  }
}

provider "google" {
  project = "p"
}

override_module {
  target  = module.net
  outputs = { id = "n" }
}

run "setup" {
  command = plan
  module {
    source = "./testing/setup"
  }
  providers = {
    aws = aws.fake
  }
  plan_options {
    mode    = refresh-only
    refresh = false
    target  = [aws_s3_bucket.b]
  }
  expect_failures = [var.region, check.health]
  assert {
    condition     = output.id == "n"
    error_message = "wrong"
  }
}
`
	f, diags := ParseFile([]byte(src), "tests/a.tftest.hcl", dialect.Terraform)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(f.Variables) != 1 || len(f.Providers) != 2 || len(f.Overrides) != 1 || len(f.Runs) != 1 {
		t.Fatalf("decoded %d variables, %d providers, %d overrides, %d runs", len(f.Variables), len(f.Providers), len(f.Overrides), len(f.Runs))
	}
	mock := f.Providers[0]
	if !mock.Mock || mock.Key() != "aws.fake" || mock.Resources["aws_s3_bucket"] == nil || len(mock.Overrides) != 1 {
		t.Errorf("mock provider decoded as %+v", mock)
	}
	if f.Providers[1].Mock || f.Providers[1].Key() != "google" {
		t.Errorf("provider decoded as %+v", f.Providers[1])
	}
	r := f.Runs[0]
	if r.Command != Plan || r.Module == nil || r.Module.Source != "./testing/setup" || len(r.ExpectFailures) != 2 || len(r.Asserts) != 1 {
		t.Errorf("run decoded as %+v", r)
	}
	if len(r.Providers) != 1 || r.Providers[0].InModule != "aws" || r.Providers[0].InTest != "aws.fake" {
		t.Errorf("providers decoded as %+v", r.Providers)
	}
	if !r.PlanOptions.RefreshOnly || !r.PlanOptions.NoRefresh || len(r.PlanOptions.Target) != 1 {
		t.Errorf("plan_options decoded as %+v", r.PlanOptions)
	}
}

func TestParseFileDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		d       dialect.Dialect
		path    string
		src     string
		want    string // "Summary@line", "" for none
		wantRun int
	}{
		{"unknown argument", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  command = plan\n  timeout = \"5m\"\n}\n", "Unsupported argument@3", 1},
		{"unknown block", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  expect {\n  }\n}\n", "Unsupported block type@2", 1},
		{"state_key in terraform", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  state_key = \"x\"\n}\n", "", 1},
		{"state_key in tofu", dialect.Tofu, "a.tftest.hcl", "run \"a\" {\n  state_key = \"x\"\n}\n", "Unsupported argument@2", 1},
		{"override_during in tofu", dialect.Tofu, "a.tftest.hcl", "mock_provider \"aws\" {\n  override_during = plan\n}\n", "Unsupported argument@2", 0},
		{"override_during in terraform", dialect.Terraform, "a.tftest.hcl", "mock_provider \"aws\" {\n  override_during = plan\n}\n", "", 0},
		{"override_during in a tofu mock_resource", dialect.Tofu, "a.tftest.hcl", "mock_provider \"aws\" {\n  mock_resource \"aws_s3_bucket\" {\n    override_during = plan\n  }\n}\n", "Unsupported argument@3", 0},
		{"override_during in a tofu override_resource", dialect.Tofu, "a.tftest.hcl", "override_resource {\n  target          = aws_s3_bucket.b\n  override_during = plan\n}\n", "Unsupported argument@3", 0},
		{"override_during in a terraform override_resource", dialect.Terraform, "a.tftest.hcl", "override_resource {\n  target          = aws_s3_bucket.b\n  override_during = plan\n}\n", "", 0},
		{"test block in tofu", dialect.Tofu, "a.tftest.hcl", "test {\n}\n", "Unsupported block type@1", 0},
		{"duplicate runs", dialect.Terraform, "a.tftest.hcl", "run \"a\" {}\nrun \"a\" {}\n", "Duplicate \"run\" block names@2", 1},
		{"bad command", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  command = destroy\n}\n", "Invalid \"command\" keyword@2", 1},
		{"override of the wrong kind", dialect.Terraform, "a.tftest.hcl", "override_data {\n  target = aws_s3_bucket.b\n}\n", "Invalid override target@2", 0},
		{"json", dialect.Terraform, "a.tftest.json", `{"run": {"a": {"command": "plan", "assert": [{"condition": "${var.v}", "error_message": "x"}]}}}`, "", 1},
		{"constant assertion", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  assert {\n    condition     = 1 == 1\n    error_message = \"x\"\n  }\n}\n", "Invalid assert expression@3", 1},
		{"malformed json", dialect.Terraform, "a.tftest.json", `{"run": `, "Missing value@1", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, diags := ParseFile([]byte(tc.src), tc.path, tc.d)
			got := ""
			if len(diags) > 0 {
				got = diags[0].Summary
				if diags[0].Subject != nil {
					got += fmt.Sprintf("@%d", diags[0].Subject.Start.Line)
				}
			}
			if got != tc.want {
				t.Fatalf("diagnostic %q, want %q (all: %v)", got, tc.want, diags)
			}
			if f != nil && len(f.Runs) != tc.wantRun {
				t.Errorf("%d runs, want %d", len(f.Runs), tc.wantRun)
			}
		})
	}
}

// TestParseFileDiagnosticsInOrder: the arguments a block does not take are
// reported in source order, the same on every parse (hcl's own order is a
// map's); the last is the condition that refers to nothing.
func TestParseFileDiagnosticsInOrder(t *testing.T) {
	src := "run \"a\" {\n  assert {\n    b1 = 1\n    a2 = 2\n    c3 = 3\n    condition     = true\n    error_message = \"x\"\n  }\n}\n"
	for range 16 {
		_, diags := ParseFile([]byte(src), "a.tftest.hcl", dialect.Terraform)
		var lines []int
		for _, d := range diags {
			lines = append(lines, d.Subject.Start.Line)
		}
		if fmt.Sprint(lines) != "[3 4 5 6]" {
			t.Fatalf("diagnostics at lines %v: %v", lines, diags)
		}
	}
}
