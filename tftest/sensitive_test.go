package tftest

import (
	"reflect"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestTableSensitive: without the aws provider's schema, the attributes
// its table says are sensitive are sensitive in mocked objects, whatever
// gave their values (the configuration, mock_resource and mock_data
// defaults, override_resource values, the generated ones): a root output
// holding one without sensitive = true fails the run, and an assertion
// message reading one is not shown. Each case's verdicts and diagnostics
// are what terraform test v1.11.4 with the aws provider v5.100.0 gave (a
// run failed by an error, as the output's, is an "error").
func TestTableSensitive(t *testing.T) {
	const keys = awsProvider + `
resource "aws_iam_user" "u" { name = "u" }
resource "aws_iam_access_key" "k" { user = aws_iam_user.u.name }
`
	const db = `
resource "aws_db_instance" "x" {
  engine            = "mysql"
  instance_class    = "db.t3.micro"
  allocated_storage = 10
  username          = "u"
  password          = "literal-pw"
}
`
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  map[string]string
		diags []string
	}{{
		name: "a mock_resource default in an output",
		files: map[string]string{
			"main.tf": keys + `output "s" { value = aws_iam_access_key.k.secret }`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {
  mock_resource "aws_iam_access_key" {
    defaults = { secret = "mocked" }
  }
}
run "apply" {}
`},
		want:  map[string]string{"tests/a.tftest.hcl::apply": "error"},
		diags: []string{"error: Output refers to sensitive values"},
	}, {
		name: "an override_resource value in an output",
		files: map[string]string{
			"main.tf": keys + `output "s" { value = aws_iam_access_key.k.secret }`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
override_resource {
  target = aws_iam_access_key.k
  values = { secret = "ov" }
}
run "r" {}
`},
		want:  map[string]string{"tests/a.tftest.hcl::r": "error"},
		diags: []string{"error: Output refers to sensitive values"},
	}, {
		name: "a mocked data source's generated value, at plan",
		files: map[string]string{
			"main.tf": awsProvider + `
data "aws_secretsmanager_secret_version" "v" { secret_id = "abc" }
output "ds" {
  value = data.aws_secretsmanager_secret_version.v.secret_string
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "r" {
  command = plan
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::r": "error"},
		diags: []string{"error: Output refers to sensitive values"},
	}, {
		name: "in a nested block; its other attribute is not sensitive",
		files: map[string]string{
			"main.tf": awsProvider + `
resource "aws_elasticache_user" "e" {
  user_id       = "u1"
  user_name     = "n"
  engine        = "redis"
  access_string = "on ~* +@all"
  authentication_mode {
    type      = "password"
    passwords = ["password123456789"]
  }
}
output "ty" { value = aws_elasticache_user.e.authentication_mode[0].type }
output "np" { value = aws_elasticache_user.e.authentication_mode[0].passwords }`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "r" {
  command = plan
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::r": "error"},
		diags: []string{"error: Output refers to sensitive values"},
	}, {
		name: "a whole object whose type has a sensitive attribute",
		files: map[string]string{
			"main.tf": keys + `output "k" { value = aws_iam_access_key.k }
output "u" { value = aws_iam_user.u }`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "r" {
  command = plan
}
run "a" {}
`},
		want:  map[string]string{"tests/a.tftest.hcl::r": "error", "tests/a.tftest.hcl::a": "skip"},
		diags: []string{"error: Output refers to sensitive values"},
	}, {
		name: "a whole data source object whose type has a sensitive attribute",
		files: map[string]string{
			"main.tf": awsProvider + `
data "aws_ssm_parameter" "p" { name = "x" }
output "o" { value = data.aws_ssm_parameter.p }`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {}
run "r" {
  command = plan
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::r": "error"},
		diags: []string{"error: Output refers to sensitive values"},
	}, {
		name: "outputs declared sensitive; assertions compare, messages are hidden",
		files: map[string]string{
			"main.tf": keys + db + `
data "aws_secretsmanager_secret_version" "v" { secret_id = "abc" }
output "s" {
  value     = aws_iam_access_key.k.secret
  sensitive = true
}
output "pw" {
  value     = aws_db_instance.x.password
  sensitive = true
}
output "ds" {
  value     = data.aws_secretsmanager_secret_version.v.secret_string
  sensitive = true
}`,
			"tests/a.tftest.hcl": `
mock_provider "aws" {
  mock_resource "aws_iam_access_key" {
    defaults = { secret = "mocked" }
  }
  mock_data "aws_secretsmanager_secret_version" {
    defaults = { secret_string = "dsval" }
  }
}
run "ok" {
  assert {
    condition     = aws_iam_access_key.k.secret == "mocked" && output.s == "mocked"
    error_message = "a"
  }
  assert {
    condition     = output.pw == "literal-pw" && data.aws_secretsmanager_secret_version.v.secret_string == "dsval"
    error_message = "b"
  }
}
run "fail" {
  assert {
    condition     = aws_iam_access_key.k.secret == "other"
    error_message = "secret is ${aws_iam_access_key.k.secret}"
  }
}
`},
		want:  map[string]string{"tests/a.tftest.hcl::ok": "pass", "tests/a.tftest.hcl::fail": "fail"},
		diags: []string{"error: Test assertion failed", "warning: Error message refers to sensitive values"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runFiles(t, tc.files, dialect.Terraform)
			if rep.Stopped() {
				t.Fatalf("stopped: %v", rep.Diagnostics)
			}
			got := statuses(rep)
			for k, want := range tc.want {
				if got[k] != want {
					t.Errorf("%s: %q, want %q", k, got[k], want)
				}
			}
			if g := summaries(rep); !reflect.DeepEqual(g, tc.diags) {
				t.Errorf("diagnostics %q, want %q", g, tc.diags)
			}
		})
	}
}
