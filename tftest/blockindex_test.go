package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestBlockIndexedWithoutSchema: a nested block read by a number index
// (aws_x.t.rule[0]) is an element of a list block and an error for a set
// block ("Cannot index a set value", as terraform test v1.11.4 reports for
// the set block "rule" of a mocked aws). Without the provider's schema, the
// aws table of attributes and nested blocks (lang.TableSchema) makes the
// block a set, so a mocked object's answer is decided as with the schema;
// before the table knew nested blocks, such a run was skipped. List
// blocks, splats, one(), arguments and instance keys are read as before.
func TestBlockIndexedWithoutSchema(t *testing.T) {
	main := `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
resource "aws_s3_bucket_server_side_encryption_configuration" "t" {
  bucket = "b"
  rule {
    bucket_key_enabled = true
  }
}
resource "aws_s3_bucket_server_side_encryption_configuration" "counted" {
  count  = 2
  bucket = "c${count.index}"
  rule {
    bucket_key_enabled = true
  }
}
resource "aws_s3_bucket_server_side_encryption_configuration" "dyn" {
  bucket = "d"
  dynamic "rule" {
    for_each = [true]
    content {
      bucket_key_enabled = rule.value
    }
  }
}
resource "aws_lb_listener" "l" {
  load_balancer_arn = "arn"
  default_action {
    type = "forward"
  }
}
`
	cases := []struct {
		name, cond     string
		noSchema, with string
	}{
		{"set block", `aws_s3_bucket_server_side_encryption_configuration.t.rule[0].bucket_key_enabled`, "error", "error"},
		{"counted", `aws_s3_bucket_server_side_encryption_configuration.counted[1].rule[0].bucket_key_enabled`, "error", "error"},
		{"dynamic", `aws_s3_bucket_server_side_encryption_configuration.dyn.rule[0].bucket_key_enabled`, "error", "error"},
		{"resource prefix", `resource.aws_s3_bucket_server_side_encryption_configuration.t.rule[0].bucket_key_enabled`, "error", "error"},
		{"list block", `aws_lb_listener.l.default_action[0].type == "forward"`, "pass", "pass"},
		{"splat", `length(aws_s3_bucket_server_side_encryption_configuration.t.rule[*].bucket_key_enabled) == 1`, "pass", "pass"},
		{"one", `one(aws_s3_bucket_server_side_encryption_configuration.t.rule).bucket_key_enabled`, "pass", "pass"},
		{"instance key only", `aws_s3_bucket_server_side_encryption_configuration.counted[0].bucket == "c0"`, "pass", "pass"},
	}
	schema := `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"provider":{"version":0,"block":{}},"resource_schemas":{
  "aws_s3_bucket_server_side_encryption_configuration":{"version":0,"block":{
    "attributes":{"bucket":{"type":"string","required":true},"id":{"type":"string","computed":true}},
    "block_types":{"rule":{"nesting_mode":"set","block":{"attributes":{"bucket_key_enabled":{"type":"bool","optional":true}}}}}}},
  "aws_lb_listener":{"version":0,"block":{
    "attributes":{"load_balancer_arn":{"type":"string","required":true},"id":{"type":"string","computed":true}},
    "block_types":{"default_action":{"nesting_mode":"list","block":{"attributes":{"type":{"type":"string","required":true}}}}}}}}}}}`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tests := "mock_provider \"aws\" {}\nrun \"r\" {\n  command = plan\n  assert {\n    condition     = " + c.cond + "\n    error_message = \"x\"\n  }\n}\n"
			for _, withSchema := range []bool{false, true} {
				files := map[string]string{"main.tf": main, "tests/a.tftest.hcl": tests}
				want := c.noSchema
				if withSchema {
					files["providers-schema.json"] = schema
					want = c.with
				}
				rep := runFiles(t, files, dialect.Terraform)
				if got := statuses(rep)["tests/a.tftest.hcl::r"]; got != want {
					t.Errorf("schema %v: status %q, want %q", withSchema, got, want)
				}
			}
		})
	}
}
