package lang

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// TestTableSensitive: without a schema, the attributes the aws provider's
// schema makes sensitive (as its table has them) are marked sensitive in
// the planned objects of its resources and data sources, top-level and
// in nested blocks, whether set from a literal or left to the provider:
// a root output holding one without sensitive = true is Terraform's error
// (each case's verdict as terraform plan v1.11.4 with the aws provider
// v5.100.0 gave it, or follows from one that did), while a provider that
// is not hashicorp/aws, an attribute that is not sensitive and validate
// (which Terraform does without planning) mark nothing.
func TestTableSensitive(t *testing.T) {
	const db = `
resource "aws_db_instance" "x" {
  engine            = "mysql"
  instance_class    = "db.t3.micro"
  allocated_storage = 10
  username          = "u"
  password          = "literal-pw"
}
`
	const user = `
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
`
	for _, tc := range []struct {
		name  string
		files map[string]string
		// errs are the outputs "Output refers to sensitive values"
		// is reported for; sensitive and plain expressions evaluated
		// in the root module that are and are not marked sensitive.
		errs      []string
		sensitive []string
		plain     []string
		validate  bool
	}{
		{name: "a literal in a sensitive argument", files: map[string]string{"main.tf": db + `output "p" { value = aws_db_instance.x.password }
output "u" { value = aws_db_instance.x.username }`},
			errs: []string{"p"}, sensitive: []string{"aws_db_instance.x.password", "aws_db_instance.x"}, plain: []string{"aws_db_instance.x.username"}},
		{name: "the output declared sensitive", files: map[string]string{"main.tf": db + `output "p" {
  value     = aws_db_instance.x.password
  sensitive = true
}`}, sensitive: []string{"aws_db_instance.x.password"}},
		{name: "through a local", files: map[string]string{"main.tf": db + `locals { p = "pw: ${aws_db_instance.x.password}" }
output "p" { value = local.p }`}, errs: []string{"p"}, sensitive: []string{"local.p"}},
		{name: "a computed attribute, unknown", files: map[string]string{"main.tf": `
resource "aws_iam_user" "u" { name = "u" }
resource "aws_iam_access_key" "k" { user = aws_iam_user.u.name }
locals { s = aws_iam_access_key.k.secret }
output "s" { value = local.s }
output "user" { value = aws_iam_access_key.k.user }`}, errs: []string{"s"}, sensitive: []string{"aws_iam_access_key.k.secret"}, plain: []string{"aws_iam_access_key.k.user"}},
		{name: "read only by an expression evaluated afterwards", files: map[string]string{"main.tf": `
resource "aws_iam_access_key" "k" { user = "u" }`}, sensitive: []string{"aws_iam_access_key.k.secret", "aws_iam_access_key.k.ses_smtp_password_v4"}, plain: []string{"aws_iam_access_key.k.user", "aws_iam_access_key.k.id"}},
		{name: "in a nested block", files: map[string]string{"main.tf": user + `output "np" { value = aws_elasticache_user.e.authentication_mode[0].passwords }
output "ty" { value = aws_elasticache_user.e.authentication_mode[0].type }
output "id" { value = aws_elasticache_user.e.user_id }`}, errs: []string{"np"}, sensitive: []string{"aws_elasticache_user.e.authentication_mode[0].passwords"}, plain: []string{"aws_elasticache_user.e.authentication_mode[0].type"}},
		{name: "the whole nested block", files: map[string]string{"main.tf": user + `output "blk" { value = aws_elasticache_user.e.authentication_mode }`}, errs: []string{"blk"}},
		{name: "instances by count and for_each", files: map[string]string{"main.tf": `
resource "aws_iam_access_key" "c" {
  count = 2
  user  = "u${count.index}"
}
resource "aws_iam_access_key" "f" {
  for_each = toset(["a"])
  user     = each.key
}
output "c" { value = aws_iam_access_key.c[*].secret }
output "f" { value = aws_iam_access_key.f["a"].secret }
output "users" { value = aws_iam_access_key.c[*].user }`}, errs: []string{"c", "f"}, sensitive: []string{"aws_iam_access_key.c[1].secret", `aws_iam_access_key.f["a"].ses_smtp_password_v4`}, plain: []string{"aws_iam_access_key.c[0].user"}},
		{name: "a data source", files: map[string]string{"main.tf": `
data "aws_secretsmanager_secret_version" "v" { secret_id = "abc" }
output "ds" { value = data.aws_secretsmanager_secret_version.v.secret_string }
output "id" { value = data.aws_secretsmanager_secret_version.v.secret_id }`}, errs: []string{"ds"}, plain: []string{"data.aws_secretsmanager_secret_version.v.secret_id"}},
		{name: "the provider by another local name and a full source", files: map[string]string{"main.tf": `
terraform {
  required_providers {
    amazon = { source = "registry.terraform.io/HashiCorp/aws" }
  }
}
resource "aws_db_instance" "x" {
  provider = amazon
  password = "pw"
}
output "p" { value = aws_db_instance.x.password }`}, errs: []string{"p"}},
		{name: "another provider's aws", files: map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = { source = "example/aws" }
  }
}
` + db + `output "p" { value = aws_db_instance.x.password }`}, plain: []string{"aws_db_instance.x.password"}},
		{name: "a child module's output", files: map[string]string{
			"main.tf":   `module "m" { source = "./m" }` + "\n" + `output "p" { value = module.m.p }`,
			"m/main.tf": db + `output "p" { value = aws_db_instance.x.password }`,
		}, errs: []string{"p"}, sensitive: []string{"module.m.p"}},
		// Terraform's object has every attribute of the schema, the
		// sensitive ones marked, set or not.
		{name: "whole objects", files: map[string]string{
			"main.tf": `
variable "c" { default = true }
resource "aws_iam_access_key" "k" {
  count = 2
  user  = "u${count.index}"
}
resource "aws_iam_access_key" "one" { user = "x" }
resource "aws_iam_user" "u" { name = "u" }
module "m" { source = "./m" }
output "all" { value = aws_iam_access_key.k }
output "cond" { value = var.c ? aws_iam_access_key.one : null }
output "users" { value = [for k in aws_iam_access_key.k : k.user] }
output "mod" { value = module.m.k }
output "wrapped" { value = { k = aws_iam_access_key.one } }
output "user" { value = aws_iam_user.u }
data "aws_ssm_parameter" "p" { name = "x" }
output "data" { value = data.aws_ssm_parameter.p }
output "declared" {
  value     = aws_iam_access_key.one
  sensitive = true
}`,
			"m/main.tf": `
resource "aws_iam_access_key" "k" { user = "m" }
output "k" { value = aws_iam_access_key.k }`,
		}, errs: []string{"all", "cond", "data", "mod", "wrapped"}},
		{name: "validate", validate: true, files: map[string]string{"main.tf": db + `output "p" { value = aws_db_instance.x.password }`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, diags := evalFiles(t, tc.files, Options{Validate: tc.validate})
			var errs []string
			for _, d := range diags {
				if d.Summary != "Output refers to sensitive values" {
					t.Errorf("diagnostic: %s", d.Error())
					continue
				}
				src, err := os.ReadFile(d.Subject.Filename)
				if err != nil {
					t.Fatal(err)
				}
				name, _, _ := strings.Cut(strings.TrimPrefix(string(d.Subject.SliceBytes(src)), `output "`), `"`)
				errs = append(errs, name)
			}
			slices.Sort(errs)
			if !slices.Equal(errs, tc.errs) {
				t.Errorf("errors for outputs %v, want %v", errs, tc.errs)
			}
			for _, src := range tc.sensitive {
				if v := evalRoot(t, res, src); !marks.Contains(v, marks.Sensitive) {
					t.Errorf("%s: %#v, not sensitive", src, v)
				}
			}
			for _, src := range tc.plain {
				if v := evalRoot(t, res, src); marks.Contains(v, marks.Sensitive) {
					t.Errorf("%s: %#v, sensitive", src, v)
				}
			}
		})
	}
}

// evalRoot is expression src evaluated in the root module.
func evalRoot(t *testing.T, res *Result, src string) cty.Value {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	val, diags := res.EvalExpr(expr, nil)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	return val
}
