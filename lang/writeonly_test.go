package lang

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// writeOnlySchema has a write-only argument (as aws_db_instance's
// password_wo, Terraform 1.11 on) beside an ordinary one.
const writeOnlySchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{
 "resource_schemas":{"mock_db":{"block":{
  "attributes":{
   "id":{"type":"string","optional":true,"computed":true},
   "password":{"type":"string","optional":true,"sensitive":true},
   "password_wo":{"type":"string","optional":true,"sensitive":true,"write_only":true}}}}},
 "ephemeral_resource_schemas":{"mock_secret":{"block":{
  "attributes":{"value":{"type":"string","computed":true,"sensitive":true}}}}}}}}`

// TestWriteOnlyAttributes: a write-only argument is handed to the provider
// and never planned or stored, so the resource's object has null there
// whatever the configuration gives, an ephemeral value included (which no
// other argument takes).
func TestWriteOnlyAttributes(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(writeOnlySchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body string
		err        bool
	}{
		{name: "a literal", body: `password_wo = "secret"`},
		{name: "an ephemeral value", body: `password_wo = ephemeral.mock_secret.s.value`},
		{name: "an ephemeral value elsewhere", body: `password = ephemeral.mock_secret.s.value`, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": `
ephemeral "mock_secret" "s" {}
resource "mock_db" "d" {
  ` + tc.body + `
}
output "wo" {
  value     = mock_db.d.password_wo
  sensitive = true
}
`}, Options{Schemas: schemas})
			if tc.err {
				if !diags.HasErrors() {
					t.Fatal("no error")
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got, _ := resourceValue(t, res, "mock_db.d").GetAttr("password_wo").Unmark()
			if !got.RawEquals(cty.NullVal(cty.String)) {
				t.Errorf("password_wo = %#v, want null", got)
			}
		})
	}
}

// TestWriteOnlyByTable: without the schema, the provider's table says
// which arguments are write-only (aws_db_instance's password_wo), and the
// object has null there as with the schema; other arguments keep their
// values.
func TestWriteOnlyByTable(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}
resource "aws_db_instance" "d" {
  instance_class      = "db.t3.micro"
  username            = "u"
  password            = "plain"
  password_wo         = "secret"
  password_wo_version = 1
}
`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v := resourceValue(t, res, "aws_db_instance.d")
	if got, _ := v.GetAttr("password_wo").Unmark(); !got.IsNull() {
		t.Errorf("password_wo = %#v, want null", got)
	}
	if got, _ := v.GetAttr("password").Unmark(); !got.RawEquals(cty.StringVal("plain")) {
		t.Errorf("password = %#v", got)
	}
}
