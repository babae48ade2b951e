package lang

import (
	"fmt"
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
