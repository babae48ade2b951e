package tftest

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestMockedObjectsByTable: without a schema, the aws table of attributes
// and nested blocks (lang.TableSchema) makes a mocked object what
// Terraform's mock makes of it with the schema. Each case was run with
// terraform test v1.11.4 and the aws provider v5.100.0 (mock_provider
// "aws"), which gives the same status: a computed attribute of a
// collection type is generated empty, of its type (a list of string is
// not tolist([])); a nested block the configuration does not write is an
// empty list or set of the block's objects, known already in the plan, or
// null (nesting single), as is a dynamic block without elements; in a
// block it writes, an attribute not set is unknown in the plan if
// computed and null if not, and once applied takes the mock's value (a
// block's mock value is an object given to each of its objects);
// arguments and mock values are converted to the attribute's type. The
// configuration asks for aws 5, whose table (5.100.0) the cases were
// checked with.
// Before, each of these runs was skipped for want of the schema.
func TestMockedObjectsByTable(t *testing.T) {
	main := `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
resource "aws_instance" "i" {
  ami           = "ami-1"
  instance_type = "t3.micro"
  ebs_block_device {
    device_name = "/dev/sdb"
  }
  ebs_block_device {
    device_name = "/dev/sdc"
    volume_size = 10
  }
}
resource "aws_network_acl_rule" "r" {
  network_acl_id = "acl-1"
  rule_number    = 100
  egress         = false
  protocol       = -1
  rule_action    = "allow"
  cidr_block     = "0.0.0.0/0"
}
resource "aws_cloudwatch_metric_alarm" "a" {
  alarm_name          = "a"
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 1
  alarm_actions       = ["arn:b", "arn:a"]
}
resource "aws_lb" "l" {
  name    = "l"
  subnets = ["s-1", "s-2"]
}
resource "aws_lb" "d" {
  name    = "d"
  subnets = ["s-1", "s-2"]
  dynamic "access_logs" {
    for_each = []
    content {
      bucket = "b"
    }
  }
}
`
	mocks := `mock_resource "aws_instance" {
    defaults = {
      root_block_device = [{ volume_id = "vol-root" }]
      ebs_block_device  = { volume_id = "vol-x" }
      cpu_core_count    = "2"
      arn               = 5
    }
  }`
	for _, tc := range []struct {
		name, command, condition string
		status                   Status
		diag                     string
	}{
		{"block not written, in the plan", "plan", `length(aws_lb.l.access_logs) == 0`, Pass, ""},
		{"set block not written is a set of objects", "plan", `aws_lb.l.subnet_mapping == toset([])`, Fail, ""},
		{"list block not written is a list of objects", "apply", `aws_lb.l.access_logs == tolist([])`, Fail, ""},
		{"dynamic block without elements", "plan", `length(aws_lb.d.access_logs) == 0`, Pass, ""},
		{"dynamic block without elements, its type", "apply", `aws_lb.d.access_logs == tolist([])`, Fail, ""},
		{"single block not written is null", "plan", `aws_instance.i.timeouts == null`, Pass, ""},
		{"number argument of a string attribute", "plan", `aws_network_acl_rule.r.protocol == "-1"`, Pass, ""},
		{"tuple argument of a set attribute", "plan", `aws_cloudwatch_metric_alarm.a.alarm_actions == toset(["arn:a", "arn:b"])`, Pass, ""},
		{"argument in a written block", "plan", `[for b in aws_instance.i.ebs_block_device : b.volume_size if b.device_name == "/dev/sdc"][0] == 10`, Pass, ""},
		{"not computed in a written block", "plan", `[for b in aws_instance.i.ebs_block_device : b.delete_on_termination][0] == null`, Pass, ""},
		{"computed in a written block, in the plan", "plan", `[for b in aws_instance.i.ebs_block_device : b.volume_id][0] == "x"`, Error, "Unknown condition value"},
		{"computed in a written block, mocked", "apply", `[for b in aws_instance.i.ebs_block_device : b.volume_id] == ["vol-x", "vol-x"]`, Pass, ""},
		{"mock value of a block not written", "apply", `length(aws_instance.i.root_block_device) == 0`, Pass, ""},
		{"mock value converted to a number", "apply", `aws_instance.i.cpu_core_count == 2`, Pass, ""},
		{"mock value converted to a string", "apply", `aws_instance.i.arn == "5"`, Pass, ""},
		{"computed collections generated empty", "apply", `length(aws_instance.i.ipv6_addresses) == 0 && length(aws_instance.i.tags_all) == 0`, Pass, ""},
		{"an empty set of string", "apply", `aws_instance.i.security_groups == toset([])`, Fail, ""},
		{"an empty list of string", "apply", `aws_instance.i.ipv6_addresses == tolist([])`, Fail, ""},
		{"computed collection in the plan", "plan", `aws_instance.i.ipv6_addresses == null`, Error, "Unknown condition value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mockedAssertion(t, main, mocks, tc.command, tc.condition)
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), diagnostics %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
			if tc.diag != "" && (len(r.Diagnostics) != 1 || r.Diagnostics[0].Summary != tc.diag) {
				t.Errorf("diagnostics %v, want one %q", r.Diagnostics, tc.diag)
			}
		})
	}
}

// TestMockedWriteOnly: a write-only argument of a mocked object is null at
// plan and after apply, as terraform test v1.11.4 with mock_provider "aws"
// plans and applies aws_db_instance's password_wo; without the schema the
// provider's table says which arguments are write-only.
func TestMockedWriteOnly(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": awsProvider + `
resource "aws_db_instance" "d" {
  instance_class      = "db.t3.micro"
  username            = "u"
  password_wo         = "secretpw"
  password_wo_version = 1
}
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "plan" {
  command = plan
  assert {
    condition     = aws_db_instance.d.password_wo == null && aws_db_instance.d.username == "u"
    error_message = "not null at plan"
  }
}
run "apply" {
  assert {
    condition     = aws_db_instance.d.password_wo == null
    error_message = "not null after apply"
  }
}
`,
	}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::plan": "pass", "tests/a.tftest.hcl::apply": "pass"})
}

// TestMockedAttributesByComputedTable: without a schema, the table of the
// aws provider's computed attributes decides what a mock or override
// gives an attribute the configuration leaves unset, as Terraform does
// (each case checked with terraform test v1.11.4 and the aws provider
// v5.100.0): a computed one takes the value given, or a generated one,
// once applied, and is unknown in the plan; one the schema does not
// make computed stays null, whatever the mock names. An attribute the
// schema lacks waits for the schema (Terraform reports it unsupported).
func TestMockedAttributesByComputedTable(t *testing.T) {
	for _, tc := range []struct {
		name, mock, command, condition string
		status                         Status
		diag                           string
	}{
		{"computed, given, applied", `mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:x" }
  }`, "apply", `aws_s3_bucket.b.arn == "arn:x"`, Pass, ""},
		{"computed and optional, given, applied", `mock_resource "aws_s3_bucket" {
    defaults = { object_lock_enabled = true }
  }`, "apply", `aws_s3_bucket.b.object_lock_enabled == true`, Pass, ""},
		{"not computed, given, applied", `mock_resource "aws_s3_bucket" {
    defaults = { force_destroy = true }
  }`, "apply", `aws_s3_bucket.b.force_destroy == null`, Pass, ""},
		{"not computed, overridden, applied", `override_resource {
    target = aws_s3_bucket.b
    values = { force_destroy = true }
  }`, "apply", `aws_s3_bucket.b.force_destroy == null`, Pass, ""},
		{"not computed, given, at plan", `mock_resource "aws_s3_bucket" {
    defaults = { force_destroy = true }
  }`, "plan", `aws_s3_bucket.b.force_destroy == null`, Pass, ""},
		{"computed, given, at plan", `mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:x" }
  }`, "plan", `aws_s3_bucket.b.arn == "arn:x"`, Error, "Unknown condition value"},
		{"computed, given during the plan", `override_during = plan
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:x" }
  }`, "plan", `aws_s3_bucket.b.arn == "arn:x"`, Pass, ""},
		{"nothing given, applied", "", "apply", `length(aws_s3_bucket.b.hosted_zone_id) == 8 && aws_s3_bucket.b.tags == null && aws_s3_bucket.b.force_destroy == null`, Pass, ""},
		{"a data source's result", `mock_data "aws_ssm_parameter" {
    defaults = { value = "v", type = "String" }
  }`, "plan", `data.aws_ssm_parameter.p.value == "v" && data.aws_ssm_parameter.p.type == "String"`, Pass, ""},
		{"not an attribute", `mock_resource "aws_s3_bucket" {
    defaults = { nosuch = "z" }
  }`, "apply", `aws_s3_bucket.b.nosuch == "z"`, Skip, ""},
		{"computed collection, an empty map of string", "", "apply", `aws_s3_bucket.b.tags_all == {}`, Fail, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mockedAssertion(t, `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
data "aws_ssm_parameter" "p" {
  name = "k"
}
`, tc.mock, tc.command, tc.condition)
			if r.Status != tc.status {
				t.Fatalf("%s needing %q (%s), diagnostics %v, want %s", r.Status, r.NeedsProvider, r.SkipReason, r.Diagnostics, tc.status)
			}
			if tc.status == Skip && r.NeedsProvider != "hashicorp/aws" {
				t.Errorf("skipped needing %q, want hashicorp/aws", r.NeedsProvider)
			}
			if tc.diag != "" && (len(r.Diagnostics) != 1 || r.Diagnostics[0].Summary != tc.diag) {
				t.Errorf("diagnostics %v, want one %q", r.Diagnostics, tc.diag)
			}
		})
	}
}
