package lang

import (
	"strings"
	"testing"

	"github.com/tfeval/tfeval/marks"
)

// providerPlannedSchema has aws resource types of the older plugin SDK
// (an optional and computed id) and of the plugin framework (aws_rule)
// with computed attributes the provider fills in while planning (tags_all,
// domain_validation_options) and one it does not (arn).
const providerPlannedSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/%s":{
"resource_schemas":{
 "aws_acm_certificate":{"version":0,"block":{"attributes":{
  "id":{"type":"string","optional":true,"computed":true},
  "arn":{"type":"string","computed":true},
  "domain_name":{"type":"string","optional":true,"computed":true},
  "domain_validation_options":{"type":["set",["object",{"domain_name":"string","resource_record_name":"string"}]],"computed":true},
  "tags":{"type":["map","string"],"optional":true},
  "tags_all":{"type":["map","string"],"optional":true,"computed":true}}}},
 "aws_rule":{"version":0,"block":{"attributes":{
  "id":{"type":"string","computed":true},
  "tags":{"type":["map","string"],"optional":true},
  "tags_all":{"type":["map","string"],"computed":true}}}},
 "aws_thing":{"version":0,"block":{"attributes":{
  "id":{"type":"string","optional":true,"computed":true},
  "name":{"type":"string","optional":true}}}}}}}}`

// TestProviderPlannedAttributes: a for_each over an aws_acm_certificate's
// domain_validation_options, or over a resource's tags_all, is planned by
// Terraform (terraform plan v1.11.4 with hashicorp/aws v5.100.0 plans
// aws_route53_record.v["*.example.com"] and ["example.com"] from a
// certificate with a subject alternative name, and a for_each over
// tags_all has tags' keys): the provider fills them in while planning, so
// tfeval leaves them unknown and marked, with no error. An attribute the
// provider computes at apply (arn), and another provider's types of the
// same names, keep Terraform's error.
func TestProviderPlannedAttributes(t *testing.T) {
	src := `resource "aws_acm_certificate" "c" {
  domain_name = "*.example.com"
  tags        = { a = "1" }
}
resource "aws_thing" "v" {
  for_each = { for o in aws_acm_certificate.c.domain_validation_options : o.domain_name => o.resource_record_name }
  name     = each.value
}
resource "aws_thing" "t" {
  for_each = aws_acm_certificate.c.tags_all
  name     = each.key
}
resource "aws_rule" "r" {
  tags = { b = "2" }
}
resource "aws_thing" "r" {
  for_each = aws_rule.r.tags_all
}
`
	arn := `resource "aws_acm_certificate" "c" {
  domain_name = "example.com"
}
resource "aws_thing" "a" {
  for_each = toset([aws_acm_certificate.c.arn])
}
`
	for _, tc := range []struct {
		name, provider, src string
		validate            bool
		wantErrors          int
	}{
		{"aws", "hashicorp/aws", src, false, 0},
		{"aws validate", "hashicorp/aws", src, true, 0},
		{"aws arn", "hashicorp/aws", arn, false, 1},
		{"other provider", "example/aws", src, false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseProviderSchemas([]byte(strings.Replace(providerPlannedSchema, "%s", tc.provider, 1)))
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{"main.tf": tc.src}
			if tc.provider != "hashicorp/aws" {
				files["versions.tf"] = "terraform {\n  required_providers {\n    aws = { source = \"" + tc.provider + "\" }\n  }\n}\n"
			}
			r, diags := evalFiles(t, files, Options{Schemas: s, Validate: tc.validate})
			n := 0
			for _, d := range diags {
				if d.Severity == 1 { // hcl.DiagError
					n++
					if d.Summary != "Invalid for_each argument" {
						t.Errorf("error %q: %s", d.Summary, d.Detail)
					}
				}
			}
			if n != tc.wantErrors {
				t.Fatalf("%d errors, want %d: %s", n, tc.wantErrors, diags.Error())
			}
			if tc.name != "aws" {
				return
			}
			for _, ri := range r.Resources {
				if ri.Addr == "aws_rule.r" {
					if us := marks.UnreadMarks(ri.Value.GetAttr("tags_all")); len(us) != 1 || us[0].Cause != marks.ProviderPlans {
						t.Errorf("aws_rule.r.tags_all: marks %v, want ProviderPlans", us)
					}
				}
				if ri.Addr != "aws_acm_certificate.c" {
					continue
				}
				for _, name := range []string{"domain_validation_options", "tags_all"} {
					us := marks.UnreadMarks(ri.Value.GetAttr(name))
					if len(us) != 1 || us[0].Cause != marks.ProviderPlans || us[0].Addr != "aws_acm_certificate.c" {
						t.Errorf("%s: marks %v, want ProviderPlans of aws_acm_certificate.c", name, us)
					}
				}
				if us := marks.UnreadMarks(ri.Value.GetAttr("arn")); len(us) != 0 {
					t.Errorf("arn: marks %v, want none (Terraform's unknown)", us)
				}
			}
		})
	}
}
