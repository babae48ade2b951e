package tftest

import (
	"fmt"
	"slices"
	"strings"
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
    mode   = refresh-only
    target = [aws_s3_bucket.b]
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
	if !r.PlanOptions.RefreshOnly || r.PlanOptions.NoRefresh || len(r.PlanOptions.Target) != 1 {
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
		{"refresh-only without refresh", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  plan_options {\n    mode    = refresh-only\n    refresh = false\n  }\n}\n", "Incompatible plan options@4", 1},
		{"refresh-only without refresh in tofu", dialect.Tofu, "a.tftest.hcl", "run \"a\" {\n  plan_options {\n    mode    = refresh-only\n    refresh = false\n  }\n}\n", "Incompatible plan options@4", 1},
		{"no refresh", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  plan_options {\n    refresh = false\n  }\n}\n", "", 1},
		// Terraform 1.14 on takes skip_cleanup and a run's backend block
		// in its experimental builds only.
		{"skip_cleanup in a test block", dialect.Terraform, "a.tftest.hcl", "test {\n  skip_cleanup = true\n}\n", "Invalid attribute@2", 0},
		{"skip_cleanup in a run", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  skip_cleanup = true\n}\n", "Invalid attribute@2", 1},
		{"a run's backend", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  backend \"local\" {\n    path = \"x\"\n  }\n}\n", "Invalid block@2", 1},
		{"a run's module without source", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n  }\n}\n", "Missing \"source\" attribute for module block@2", 1},
		{"a run's module without source in tofu", dialect.Tofu, "a.tftest.hcl", "run \"a\" {\n  module {\n  }\n}\n", "Missing \"source\" attribute for module block@2", 1},
		// Terraform installs a run's module from a local path or a
		// registry only; OpenTofu from any source.
		{"a run's module from git", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source = \"git::https://example.com/m.git\"\n  }\n}\n", "Invalid module source address@3", 1},
		{"a run's module from github", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source = \"github.com/org/repo\"\n  }\n}\n", "Invalid module source address@3", 1},
		{"a run's module from https", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source = \"https://example.com/m.zip\"\n  }\n}\n", "Invalid module source address@3", 1},
		{"a run's module from s3", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source = \"s3::https://s3.amazonaws.com/b/m.zip\"\n  }\n}\n", "Invalid module source address@3", 1},
		{"a run's module from a registry", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source = \"hashicorp/consul/aws//modules/x\"\n  }\n}\n", "", 1},
		{"a run's module from a private registry", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source  = \"app.terraform.io/org/m/aws\"\n    version = \"1.0.0\"\n  }\n}\n", "", 1},
		{"a run's local module", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source = \"../setup\"\n  }\n}\n", "", 1},
		// A version makes the source a registry address, in both tools.
		{"a run's versioned module from git", dialect.Terraform, "a.tftest.hcl", "run \"a\" {\n  module {\n    source  = \"git::https://example.com/m.git\"\n    version = \"1.0.0\"\n  }\n}\n", "Invalid registry module source address@3", 1},
		{"a run's versioned local module in tofu", dialect.Tofu, "a.tftest.hcl", "run \"a\" {\n  module {\n    source  = \"../setup\"\n    version = \"1.0.0\"\n  }\n}\n", "Invalid registry module source address@3", 1},
		{"a run's module from git in tofu", dialect.Tofu, "a.tftest.hcl", "run \"a\" {\n  module {\n    source = \"git::https://example.com/m.git\"\n  }\n}\n", "", 1},
		{"bad override_during", dialect.Terraform, "a.tftest.hcl", "override_resource {\n  target          = aws_s3_bucket.b\n  override_during = sometimes\n}\n", "Invalid override_during value@3", 0},
		{"a run's backend in tofu", dialect.Tofu, "a.tftest.hcl", "run \"a\" {\n  backend \"local\" {\n  }\n}\n", "Unsupported block type@2", 1},
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

// TestDuplicateBlocks: a second block for one provider configuration,
// mock type or override target, with each binary's text. Terraform reports
// them when it loads the file; OpenTofu reports a second mock_provider and
// a mock provider's second mock or override, while a second provider block
// replaces the first and a provider block wins over a mock_provider.
func TestDuplicateBlocks(t *testing.T) {
	for _, tc := range []struct {
		name      string
		d         dialect.Dialect
		src       string
		want      string // "Summary@line: detail", "" for none
		providers string // the keys in effect, "mock:" for mocks
	}{{
		name:      "two provider blocks",
		src:       "provider \"aws\" {}\nprovider \"aws\" {}\n",
		want:      "Duplicate provider block@2: A provider for aws is already defined at a.tftest.hcl:1,10-15.",
		providers: "aws",
	}, {
		name:      "a provider and a mock_provider",
		src:       "provider \"aws\" {\n  alias = \"x\"\n}\nmock_provider \"aws\" {\n  alias = \"x\"\n}\n",
		want:      "Duplicate provider block@4: A provider for aws.x is already defined at a.tftest.hcl:1,10-15.",
		providers: "aws.x",
	}, {
		name:      "OpenTofu's second provider block replaces the first",
		d:         dialect.Tofu,
		src:       "provider \"aws\" {\n  region = \"a\"\n}\nmock_provider \"aws\" {}\nprovider \"aws\" {\n  region = \"b\"\n}\n",
		providers: "aws@5",
	}, {
		name:      "OpenTofu's second mock_provider",
		d:         dialect.Tofu,
		src:       "mock_provider \"aws\" {}\nmock_provider \"aws\" {}\n",
		want:      "Duplicated `mock_provider` block@2: It is not allowed to have multiple `mock_provider` blocks with the same address: `aws`.",
		providers: "mock:aws@1",
	}, {
		name:      "two mock_resource blocks of a type",
		src:       "mock_provider \"aws\" {\n  mock_resource \"aws_vpc\" {}\n  mock_resource \"aws_vpc\" {}\n}\n",
		want:      "Duplicate mock_resource block@3: A mock_resource block for aws_vpc has already been defined at a.tftest.hcl:2,3-26.",
		providers: "mock:aws@1",
	}, {
		name:      "OpenTofu's two mock_resource blocks of a type",
		d:         dialect.Tofu,
		src:       "mock_provider \"aws\" {\n  mock_resource \"aws_vpc\" {}\n  mock_resource \"aws_vpc\" {}\n}\n",
		want:      "Duplicated `mock_resource` block@1: `mock_resource.aws_vpc` is already defined in `mock_provider` block.",
		providers: "mock:aws@1",
	}, {
		name: "two overrides of one target in the file",
		src:  "override_resource {\n  target = aws_vpc.a\n}\noverride_resource {\n  target = aws_vpc.a\n}\noverride_resource {\n  target = aws_vpc.a[0]\n}\n",
		want: "Duplicate override_resource block@4: An override_resource block targeting aws_vpc.a has already been defined at a.tftest.hcl:1,1-18.",
	}, {
		name: "two overrides of one target in a run",
		src:  "run \"r\" {\n  override_module {\n    target = module.m\n  }\n  override_module {\n    target = module.m\n  }\n}\n",
		want: "Duplicate override_module block@5: An override_module block targeting module.m has already been defined at a.tftest.hcl:2,3-18.",
	}, {
		name:      "two overrides of one target in a mock provider",
		src:       "mock_provider \"aws\" {\n  override_data {\n    target = data.aws_vpc.a\n  }\n  override_data {\n    target = data.aws_vpc.a\n  }\n}\n",
		want:      "Duplicate override_data block@5: An override_data block targeting data.aws_vpc.a has already been defined at a.tftest.hcl:2,3-16.",
		providers: "mock:aws@1",
	}, {
		name: "OpenTofu's overrides of one target are the run's error",
		d:    dialect.Tofu,
		src:  "override_resource {\n  target = aws_vpc.a\n}\noverride_resource {\n  target = aws_vpc.a\n}\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, diags := ParseFile([]byte(tc.src), "a.tftest.hcl", tc.d)
			got := ""
			if len(diags) > 0 {
				got = fmt.Sprintf("%s@%d: %s", diags[0].Summary, diags[0].Subject.Start.Line, diags[0].Detail)
			}
			if got != tc.want || len(diags) > 1 {
				t.Fatalf("diagnostics %v, want %q", diags, tc.want)
			}
			var keys []string
			for _, pr := range f.Providers {
				k := pr.Key()
				if pr.Mock {
					k = "mock:" + k
				}
				if strings.Contains(tc.providers, "@") {
					k += fmt.Sprintf("@%d", pr.DeclRange.Start.Line)
				}
				keys = append(keys, k)
			}
			if strings.Join(keys, " ") != tc.providers {
				t.Errorf("providers %v, want %q", keys, tc.providers)
			}
		})
	}
}

// TestRunChecks: both binaries fail a run whose expect_failures names no
// checkable object before it runs, or whose plan_options replace a data
// source, and OpenTofu a run of a file (or run) with two overrides of one
// target; the runs after it are skipped.
func TestRunChecks(t *testing.T) {
	main := `
locals { l = 1 }
resource "terraform_data" "a" { input = "x" }
module "m" { source = "./m" }
data "terraform_remote_state" "s" {
  backend  = "local"
  config   = { path = "none.tfstate" }
  defaults = { a = 1 }
}
`
	for _, tc := range []struct {
		name  string
		d     dialect.Dialect
		test  string
		diags []string // "SUMMARY: DETAIL"
	}{{
		name:  "a local value",
		test:  "run \"r\" {\n  command = plan\n  expect_failures = [local.l]\n}\nrun \"after\" {\n  command = plan\n}\n",
		diags: []string{"Invalid `expect_failures` reference: You cannot expect failures from local.l. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources."},
	}, {
		name:  "a module output, in OpenTofu",
		d:     dialect.Tofu,
		test:  "run \"r\" {\n  command = plan\n  expect_failures = [module.m.o, terraform_data.a]\n}\nrun \"after\" {\n  command = plan\n}\n",
		diags: []string{"Invalid `expect_failures` reference: You cannot expect failures from module.m.o. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources."},
	}, {
		name:  "OpenTofu's overrides of one target",
		d:     dialect.Tofu,
		test:  "override_resource {\n  target = terraform_data.a\n}\nrun \"r\" {\n  command = plan\n}\nrun \"after\" {\n  command = plan\n}\noverride_resource {\n  target = terraform_data.a\n}\n",
		diags: []string{"Duplicated `override_resource` block: It is not allowed to have multiple `override_resource` blocks with the same target: `terraform_data.a`."},
	}, {
		name:  "a data source to replace",
		test:  "run \"r\" {\n  command = plan\n  plan_options {\n    replace = [data.terraform_remote_state.s]\n  }\n}\nrun \"after\" {\n  command = plan\n}\n",
		diags: []string{"Can only target managed resources for forced replacements.: data.terraform_remote_state.s"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf":            main,
				"m/main.tf":          "output \"o\" { value = 1 }\n",
				"tests/a.tftest.hcl": tc.test,
			}, tc.d)
			wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::r": "error", "tests/a.tftest.hcl::after": "skip"})
			var got []string
			for _, f := range rep.Files {
				for _, r := range f.Runs {
					for _, d := range r.Diagnostics {
						got = append(got, d.Summary+": "+d.Detail)
					}
				}
			}
			if !slices.Equal(got, tc.diags) {
				t.Errorf("diagnostics %q, want %q", got, tc.diags)
			}
		})
	}
}
