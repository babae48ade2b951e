package tftest

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestInconsistentFinalPlan: an apply run plans each object again before
// applying it (Terraform v1.15.9's node_resource_apply_instance.go,
// checkPlannedChange). A created object whose computed attributes a
// mock_resource or an override_resource filled while planning
// (override_during = plan) is filled again, each string the values given
// do not hold drawn at random again (internal/moduletest/mocking), so the
// apply fails with one "Provider produced inconsistent final plan" for
// each (a sensitive one without its values; an element of a set block
// as a whole); numbers, booleans and collections are generated alike
// both times. The run errors and the file's later runs are skipped. An
// object replaced is created again; one that exists is updated without
// filling, and a plan run has no second plan. The paths listed are what terraform test v1.11.4 printed
// for the same cases (aws 5.100.0 mocked), sorted: Terraform lists them
// in no fixed order. OpenTofu draws its values from a seed of the
// resource type, the same in both plans.
func TestInconsistentFinalPlan(t *testing.T) {
	aws := `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}
`
	cases := []struct {
		name    string
		main    string
		test    string
		tofu    bool
		want    map[string]string
		paths   []string // of the run "a"
		needs   string
		details []string
	}{
		{
			name: "terraform_data overridden without id",
			main: `resource "terraform_data" "a" {
  input = "x"
}
`,
			test: `override_resource {
  target          = terraform_data.a
  override_during = plan
  values          = { output = "o" }
}
run "a" {}
run "b" {
  command = plan
}
`,
			want:  map[string]string{"tests/a.tftest.hcl::a": "error", "tests/a.tftest.hcl::b": "skip"},
			paths: []string{".id"},
			details: []string{"When expanding the plan for terraform_data.a to include new values learned so far during apply, provider \"terraform.io/builtin/terraform\" produced an invalid new value for .id: was S, but now S.\n\n" +
				"This is a bug in the provider, which should be reported in the provider's own issue tracker."},
		},
		{
			name: "an s3 bucket's mock_resource gives only arn",
			main: aws + `resource "aws_s3_bucket" "b" {
  bucket = "bkt"
}
`,
			test: `mock_provider "aws" {
  override_during = plan
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:aws:s3:::bkt" }
  }
}
run "a" {}
`,
			want: map[string]string{"tests/a.tftest.hcl::a": "error"},
			paths: []string{".acceleration_status", ".acl", ".bucket_domain_name", ".bucket_prefix", ".bucket_regional_domain_name",
				".hosted_zone_id", ".id", ".policy", ".region", ".request_payer", ".website_domain", ".website_endpoint"},
		},
		{
			name: "sensitive attributes keep their values",
			main: aws + `resource "aws_iam_access_key" "k" {
  user = "u"
}
`,
			test: `mock_provider "aws" {
  mock_resource "aws_iam_access_key" {
    override_during = plan
    defaults        = { id = "AKIA" }
  }
}
run "p" {
  command = plan
}
run "a" {}
`,
			want: map[string]string{"tests/a.tftest.hcl::p": "pass", "tests/a.tftest.hcl::a": "error"},
			paths: []string{".create_date", ".encrypted_secret", ".encrypted_ses_smtp_password_v4", ".key_fingerprint",
				".secret: inconsistent values for sensitive attribute", ".ses_smtp_password_v4: inconsistent values for sensitive attribute"},
		},
		{
			name: "nested blocks",
			main: aws + `resource "aws_instance" "i" {
  ami           = "ami-1"
  instance_type = "t3.micro"
  root_block_device {
    volume_size = 8
  }
  ebs_block_device {
    device_name = "/dev/sdb"
  }
}
`,
			test: `mock_provider "aws" {}
override_resource {
  target          = aws_instance.i
  override_during = plan
  values          = { id = "i-1" }
}
run "a" {}
`,
			want: map[string]string{"tests/a.tftest.hcl::a": "error"},
			paths: []string{".arn", ".availability_zone",
				`.ebs_block_device: planned set element cty.ObjectVal(map[string]cty.Value{"delete_on_termination":cty.NullVal(cty.Bool), "device_name":cty.StringVal("/dev/sdb"), "encrypted":cty.False, "iops":cty.NumberIntVal(0), "kms_key_id":S, "snapshot_id":S, "tags":cty.NullVal(cty.Map(cty.String)), "tags_all":cty.MapValEmpty(cty.String), "throughput":cty.NumberIntVal(0), "volume_id":S, "volume_size":cty.NumberIntVal(0), "volume_type":S}) does not correlate with any element in actual`,
				".host_id", ".host_resource_group_arn", ".iam_instance_profile", ".instance_initiated_shutdown_behavior",
				".instance_lifecycle", ".instance_state", ".key_name", ".outpost_arn", ".password_data", ".placement_group",
				".primary_network_interface_id", ".private_dns", ".private_ip", ".public_dns", ".public_ip",
				".root_block_device[0].device_name", ".root_block_device[0].kms_key_id", ".root_block_device[0].volume_id",
				".root_block_device[0].volume_type", ".spot_instance_request_id", ".subnet_id", ".tenancy", ".user_data",
				".user_data_base64"},
		},
		{
			name: "an object that exists is updated",
			main: `resource "terraform_data" "a" {
  input = "x"
}
`,
			test: `run "create" {}
run "a" {
  override_resource {
    target          = terraform_data.a
    override_during = plan
  }
}
`,
			want: map[string]string{"tests/a.tftest.hcl::create": "pass", "tests/a.tftest.hcl::a": "pass"},
		},
		{
			name: "an object replaced is created again",
			main: `resource "terraform_data" "a" {
  input = "x"
}
`,
			test: `run "create" {}
run "a" {
  plan_options {
    replace = [terraform_data.a]
  }
  override_resource {
    target          = terraform_data.a
    override_during = plan
  }
}
`,
			want:  map[string]string{"tests/a.tftest.hcl::create": "pass", "tests/a.tftest.hcl::a": "error"},
			paths: []string{".id"},
		},
		{
			name: "filled at apply",
			main: aws + `resource "aws_s3_bucket" "b" {
  bucket = "bkt"
}
`,
			test: `mock_provider "aws" {
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:aws:s3:::bkt" }
  }
}
run "a" {}
`,
			want: map[string]string{"tests/a.tftest.hcl::a": "pass"},
		},
		{
			name: "a provider whose schema tfeval lacks",
			main: `resource "null_resource" "n" {}
`,
			test: `mock_provider "null" {
  override_during = plan
  mock_resource "null_resource" {}
}
run "a" {}
`,
			want:  map[string]string{"tests/a.tftest.hcl::a": "skip"},
			needs: "hashicorp/null",
		},
		{
			name: "OpenTofu draws the same values again",
			main: `resource "terraform_data" "a" {
  input = "x"
}
`,
			test: `override_resource {
  target = terraform_data.a
  values = { output = "o" }
}
run "a" {}
`,
			tofu: true,
			want: map[string]string{"tests/a.tftest.hcl::a": "pass"},
		},
	}
	drawn := regexp.MustCompile(`cty\.StringVal\("[A-Za-z0-9]{8}"\)`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := dialect.Terraform
			if c.tofu {
				d = dialect.Tofu
			}
			rep := runFiles(t, map[string]string{"main.tf": c.main, "tests/a.tftest.hcl": c.test}, d)
			got := statuses(rep)
			for k, want := range c.want {
				if got[k] != want {
					t.Errorf("%s: %s, want %s (%v)", k, got[k], want, runOf(t, rep, k).Diagnostics)
				}
			}
			if c.needs != "" {
				wantNeeds(t, rep, c.needs, "tests/a.tftest.hcl::a")
			}
			var paths, details []string
			for _, diag := range runOf(t, rep, "tests/a.tftest.hcl::a").Diagnostics {
				if diag.Summary != "Provider produced inconsistent final plan" {
					t.Errorf("diagnostic %s: %s", diag.Summary, diag.Detail)
					continue
				}
				if diag.Subject != nil {
					t.Errorf("range %v", diag.Subject)
				}
				det := drawn.ReplaceAllString(diag.Detail, "S")
				details = append(details, det)
				_, p, _ := strings.Cut(det, "produced an invalid new value for ")
				p, _, _ = strings.Cut(p, ".\n\n")
				p = strings.TrimSuffix(p, ": was S, but now S")
				paths = append(paths, p)
			}
			sort.Strings(paths)
			if !reflect.DeepEqual(paths, c.paths) && len(paths)+len(c.paths) > 0 {
				t.Errorf("paths\n%q\nwant\n%q", paths, c.paths)
			}
			if c.details != nil && !reflect.DeepEqual(details, c.details) {
				t.Errorf("details\n%q\nwant\n%q", details, c.details)
			}
		})
	}
}
