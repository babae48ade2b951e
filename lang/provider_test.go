package lang

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// providerSchema is a small schema of the aws provider's own configuration
// and one resource, for TestProviderConfig.
const providerSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
 "provider":{"version":0,"block":{"attributes":{
  "region":{"type":"string","optional":true},
  "max_retries":{"type":"number","optional":true}},
  "block_types":{"assume_role":{"nesting_mode":"list","block":{"attributes":{
   "role_arn":{"type":"string","optional":true}}}}}}},
 "resource_schemas":{"aws_s3_bucket":{"block":{"attributes":{
  "id":{"type":"string","computed":true},
  "bucket":{"type":"string","optional":true}}}}}}}}`

// TestProviderConfig: the configuration of a provider block that a
// resource uses is evaluated, as Terraform evaluates it before it
// validates or plans the resource (checked with terraform validate v1.11.4
// and the aws provider v5.100.0): its errors are reported, the resources
// using it report nothing of their own, and a block no resource uses is
// not evaluated. With the provider's schema, arguments the provider does
// not have and values of the wrong type are errors too.
func TestProviderConfig(t *testing.T) {
	bucket := `
resource "aws_s3_bucket" "b" {
  bucket = local.missing
}
`
	tests := []struct {
		name     string
		files    map[string]string
		schema   bool
		validate bool
		given    map[string]bool
		// want are the errors' summaries and lines, in order.
		want []string
	}{
		{
			name: "undeclared variable; the resource using it is not evaluated",
			files: map[string]string{"main.tf": `provider "aws" {
  region = var.nope
}` + bucket},
			want: []string{"Reference to undeclared input variable@2"},
		},
		{
			name: "a function called wrongly",
			files: map[string]string{"main.tf": `provider "aws" {
  region = upper(1, 2)
}` + bucket},
			want: []string{"Too many function arguments@2"},
		},
		{
			name: "no resource uses the block",
			files: map[string]string{"main.tf": `provider "aws" {
  alias  = "unused"
  region = var.nope
}
output "o" {
  value = 1
}`},
		},
		{
			name: "an aliased block only a resource naming it uses",
			files: map[string]string{"main.tf": `provider "aws" {
  region = "eu-west-1"
}
provider "aws" {
  alias  = "west"
  region = var.nope
}
resource "aws_s3_bucket" "b" {
  provider = aws.west
}`},
			want: []string{"Reference to undeclared input variable@6"},
		},
		{
			name: "the resources of a called module inherit the default block",
			files: map[string]string{
				"main.tf": `provider "aws" {
  region = var.nope
}
module "m" {
  source = "./m"
}`,
				"m/main.tf": bucket,
			},
			want: []string{"Reference to undeclared input variable@2"},
		},
		{
			name: "a block passed to a module call",
			files: map[string]string{
				"main.tf": `provider "aws" {
  region = "eu-west-1"
}
provider "aws" {
  alias  = "west"
  region = var.nope
}
module "m" {
  source    = "./m"
  providers = { aws = aws.west }
}`,
				"m/main.tf": `resource "aws_s3_bucket" "b" {}`,
			},
			want: []string{"Reference to undeclared input variable@6"},
		},
		{
			name: "a data source read only in the block has what it reads",
			files: map[string]string{"main.tf": `data "aws_caller_identity" "me" {}
provider "aws" {
  region = data.aws_caller_identity.me.account_id
}
resource "aws_s3_bucket" "b" {}`},
		},
		{
			name: "dynamic blocks",
			files: map[string]string{"main.tf": `provider "aws" {
  dynamic "assume_role" {
    for_each = ["a", "b"]
    content {
      role_arn = assume_role.value
    }
  }
}
resource "aws_s3_bucket" "b" {}`},
			schema: true,
		},
		{
			name: "without the schema, arguments are not checked",
			files: map[string]string{"main.tf": `provider "aws" {
  max_retries = "x"
  bogus       = 1
}
resource "aws_s3_bucket" "b" {}`},
		},
		{
			name: "with the schema, arguments are checked",
			files: map[string]string{"main.tf": `provider "aws" {
  max_retries = "x"
  bogus       = 1
  assume_role {
    nope = 2
  }
}
resource "aws_s3_bucket" "b" {}`},
			schema: true,
			want:   []string{"Incorrect attribute value type@2", "Unsupported argument@3", "Unsupported argument@5"},
		},
		{
			name: "validate",
			files: map[string]string{"main.tf": `variable "r" {
  type = number
}
provider "aws" {
  region      = var.r
  max_retries = var.r + "x"
}` + bucket},
			validate: true,
			want:     []string{"Invalid operand@6"},
		},
		{
			name: "a block a test file gives in its place",
			files: map[string]string{"main.tf": `provider "aws" {
  region = var.nope
}
resource "aws_s3_bucket" "b" {
  bucket = "x"
}`},
			given: map[string]bool{"aws": true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Validate: tt.validate, ProvidersGiven: tt.given}
			if tt.schema {
				s, err := ParseProviderSchemas([]byte(providerSchema))
				if err != nil {
					t.Fatal(err)
				}
				opts.Schemas = s
			}
			_, diags := evalFiles(t, tt.files, opts)
			var got []string
			for _, d := range diags {
				if d.Severity != hcl.DiagError || d.Subject == nil {
					continue
				}
				got = append(got, fmt.Sprintf("%s@%d", d.Summary, d.Subject.Start.Line))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s\n(all: %s)", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), diags.Error())
			}
		})
	}
}

// TestProviderConfigInConsole: a console session configures no provider.
func TestProviderConfigInConsole(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"main.tf": `provider "aws" {
  region = upper(1, 2)
}
resource "aws_s3_bucket" "b" {}`}, Options{Console: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
}

// TestUnconfiguredProviders: a resource whose aliased provider
// configuration no provider block gives (one the root module declares in
// configuration_aliases, as when a module is validated on its own, or one
// it does not declare) is Terraform's "Provider configuration not present",
// and is not evaluated (a check block's data source too); the root module passing a module call an alias it
// does not configure fails the graph, so nothing else is reported. A test
// file's provider blocks (ProvidersGiven) configure the root module's
// aliases (terraform validate v1.11.4).
func TestUnconfiguredProviders(t *testing.T) {
	resources := map[string]string{
		"main.tf": `terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.x]
    }
  }
}
module "m" {
  source = "./m"
}
resource "aws_s3_bucket" "r" {
  provider = aws.x
  count    = 2
  bucket   = local.nope
}
data "aws_region" "d" {
  provider = aws.q
}
resource "aws_s3_bucket" "ok" {}
check "c" {
  data "aws_region" "k" {
    provider = aws.x
  }
  assert {
    condition     = data.aws_region.k.name != ""
    error_message = "no region"
  }
}
`,
		"m/main.tf": `resource "aws_s3_bucket" "a" {
  provider = aws.foo
}
`,
	}
	notPresent := func(obj, provider string) string {
		return "Provider configuration not present: To work with " + obj + " its original provider configuration at " + provider + " is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy " + obj + ", after which you can remove the provider configuration again."
	}
	want := []string{
		notPresent("aws_s3_bucket.r", `provider["registry.terraform.io/hashicorp/aws"].x`),
		notPresent("data.aws_region.d", `provider["registry.terraform.io/hashicorp/aws"].q`),
		notPresent("data.aws_region.k", `provider["registry.terraform.io/hashicorp/aws"].x`),
		notPresent("module.m.aws_s3_bucket.a", `module.m.provider["registry.terraform.io/hashicorp/aws"].foo`),
	}
	list := func(diags hcl.Diagnostics) []string {
		var got []string
		for _, d := range diags {
			got = append(got, d.Summary+": "+d.Detail)
		}
		slices.Sort(got)
		return got
	}
	for _, validate := range []bool{true, false} {
		_, diags := evalFiles(t, resources, Options{Validate: validate})
		if got := list(diags); !slices.Equal(got, want) {
			t.Errorf("validate=%v:\n%s\nwant:\n%s", validate, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	_, diags := evalFiles(t, resources, Options{Validate: true, ProvidersGiven: map[string]bool{"aws.x": true, "aws.q": true}})
	if got := list(diags); !slices.Equal(got, []string{want[3], `Reference to undeclared local value: A local value with the name "nope" has not been declared.`}) {
		t.Errorf("with the aliases given:\n%s", strings.Join(got, "\n"))
	}
	calls := map[string]string{
		"main.tf": `module "m" {
  source = "./m"
  providers = {
    aws = aws.nope
  }
}
output "o" {
  value = local.missing
}
`,
		"m/main.tf": "resource \"aws_s3_bucket\" \"q\" {}\n",
	}
	_, diags = evalFiles(t, calls, Options{Validate: true})
	if got := list(diags); !slices.Equal(got, []string{`missing provider provider["registry.terraform.io/hashicorp/aws"].nope: `}) {
		t.Errorf("a call passing an alias not configured: %v", got)
	}
	if _, diags = evalFiles(t, calls, Options{Validate: true, ProvidersGiven: map[string]bool{"aws.nope": true}}); len(diags) != 1 || diags[0].Summary != "Reference to undeclared local value" {
		t.Errorf("with the alias given: %v", list(diags))
	}
	// The root module's default configuration exists where its
	// required_providers names the provider (or a block configures it),
	// not for a resource's use alone.
	calls["main.tf"] = strings.Replace(calls["main.tf"], "aws.nope", "aws", 1) + "resource \"aws_s3_bucket\" \"r\" {}\n"
	_, diags = evalFiles(t, calls, Options{Validate: true})
	if got := list(diags); !slices.Equal(got, []string{`missing provider provider["registry.terraform.io/hashicorp/aws"]: `}) {
		t.Errorf("a call passing the default configuration not declared: %v", got)
	}
	calls["versions.tf"] = "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n"
	if _, diags = evalFiles(t, calls, Options{Validate: true}); len(diags) != 1 || diags[0].Summary != "Reference to undeclared local value" {
		t.Errorf("with the provider required: %v", list(diags))
	}
}
