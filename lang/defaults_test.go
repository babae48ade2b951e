package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// defaultsSchema has a resource type of the older plugin SDK with
// attributes and nested blocks the table below covers, or not.
const defaultsSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/%s":{
"resource_schemas":{
 "aws_old":{"version":0,"block":{"attributes":{
  "id":{"type":"string","optional":true,"computed":true},
  "name":{"type":"string","optional":true,"computed":true},
  "path":{"type":"string","optional":true},
  "force":{"type":"bool","optional":true},
  "note":{"type":"string","optional":true},
  "size":{"type":"number","optional":true},
  "tags":{"type":["map","string"],"optional":true}},
  "block_types":{
   "setting":{"nesting_mode":"list","block":{"attributes":{"size":{"type":"number","optional":true},"mode":{"type":"string","optional":true}}}},
   "managed":{"nesting_mode":"list","block":{"attributes":{"on":{"type":"bool","optional":true}}}},
   "disk":{"nesting_mode":"set","block":{"attributes":{"dev":{"type":"string","required":true},"iops":{"type":"number","optional":true},
     "kind":{"type":"string","optional":true},"extra":{"type":["set","string"],"optional":true}}}}}}}%s}}}}`

// defaultsText is a table of defaults of aws_old: what a provider planned
// for its unset arguments. "name" is computed, so its entry is not used.
const defaultsText = `=aws_old
force false
name "computed"
note
path "/"
setting []
setting.size 5
disk []
disk.extra []
disk.kind ""
=aws_other
path "/x"
`

// TestSDKDefaults checks that an unset argument of an aws resource type of
// the older plugin SDK is planned as the table of defaults says (as
// terraform plan v1.11.4 with hashicorp/aws v5.100.0 planned aws_iam_role's
// path "/", force_detach_policies false and description null, an unwritten
// aws_dynamodb_table import_table block [], and in a global_secondary_index, a set
// block, range_key "" and non_key_attributes []), and that what the table
// does not have, or a schema of another version or provider, stays unknown.
func TestSDKDefaults(t *testing.T) {
	src := `resource "aws_old" "a" {}
resource "aws_old" "b" {
  path = null
  note = "n"
  setting {}
  disk {
    dev = "d"
  }
}
resource "aws_old" "c" {
  path  = "/p/"
  force = true
  setting {
    size = 1
  }
}
`
	setting := cty.Object(map[string]cty.Type{"size": cty.Number, "mode": cty.String})
	disk := cty.Object(map[string]cty.Type{"dev": cty.String, "iops": cty.Number, "kind": cty.String, "extra": cty.Set(cty.String)})
	managed := cty.Object(map[string]cty.Type{"on": cty.Bool})
	unknown := func(ty cty.Type) string { return cty.UnknownVal(ty).GoString() }
	tests := []struct {
		addr, attr string
		want       string
	}{
		{"aws_old.a", "path", `cty.StringVal("/")`},
		{"aws_old.a", "force", `cty.False`},
		{"aws_old.a", "note", `cty.NullVal(cty.String)`},
		{"aws_old.a", "size", unknown(cty.Number)},                // not in the table
		{"aws_old.a", "name", unknown(cty.String)},                // computed: the table is not used
		{"aws_old.a", "tags", `cty.NullVal(cty.Map(cty.String))`}, // unset collection: as before
		{"aws_old.a", "setting", cty.ListValEmpty(setting).GoString()},
		{"aws_old.a", "disk", cty.SetValEmpty(disk).GoString()},
		{"aws_old.a", "managed", unknown(cty.List(managed))}, // not in the table: the provider may compute it
		{"aws_old.b", "path", `cty.StringVal("/")`},          // null is unset
		{"aws_old.b", "note", `cty.StringVal("n")`},
		{"aws_old.b", "setting", cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(5), "mode": cty.UnknownVal(cty.String)})}).GoString()},
		{"aws_old.b", "disk", cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"dev": cty.StringVal("d"), "iops": cty.UnknownVal(cty.Number), "kind": cty.StringVal(""), "extra": cty.SetValEmpty(cty.String)})}).GoString()},
		{"aws_old.c", "path", `cty.StringVal("/p/")`},
		{"aws_old.c", "force", `cty.True`},
		{"aws_old.c", "setting", cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(1), "mode": cty.UnknownVal(cty.String)})}).GoString()},
	}
	values := func(t *testing.T, provider, extra string, withTable bool) map[string]cty.Value {
		t.Helper()
		doc := strings.Replace(strings.Replace(defaultsSchema, "%s", provider, 1), "%s", extra, 1)
		s, err := ParseProviderSchemas([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if withTable {
			// The table is made with the schema of aws_old alone.
			base, err := ParseProviderSchemas([]byte(strings.Replace(strings.Replace(defaultsSchema, "%s", "hashicorp/aws", 1), "%s", "", 1)))
			if err != nil {
				t.Fatal(err)
			}
			saved := awsDefaultsTable
			awsDefaultsTable = &defaultsTable{fingerprint: schemaFingerprint(base.Providers["hashicorp/aws"].Resources), text: defaultsText}
			defer func() { awsDefaultsTable = saved }()
		}
		files := map[string]string{"main.tf": src}
		if provider != "hashicorp/aws" {
			files["versions.tf"] = "terraform {\n  required_providers {\n    aws = { source = \"" + provider + "\" }\n  }\n}\n"
		}
		r, diags := evalFiles(t, files, Options{Schemas: s})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		out := map[string]cty.Value{}
		for _, ri := range r.Resources {
			out[ri.Addr] = ri.Value
		}
		return out
	}
	got := values(t, "hashicorp/aws", "", true)
	for _, tt := range tests {
		if g := got[tt.addr].GetAttr(tt.attr); g.GoString() != tt.want {
			t.Errorf("%s.%s = %s, want %s", tt.addr, tt.attr, g.GoString(), tt.want)
		}
	}
	// Another version of the provider (one more resource type), another
	// provider with the same type, or no table: the table is not used.
	other := `,"aws_new":{"version":0,"block":{"attributes":{"id":{"type":"string","computed":true}}}}`
	for _, c := range []struct {
		name, provider, extra string
		table                 bool
	}{{"other version", "hashicorp/aws", other, true}, {"other provider", "example/aws", "", true}, {"built-in table", "hashicorp/aws", "", false}} {
		v := values(t, c.provider, c.extra, c.table)["aws_old.a"]
		if g := v.GetAttr("path"); g.IsKnown() {
			t.Errorf("%s: path = %#v, want unknown", c.name, g)
		}
		if g := v.GetAttr("setting"); g.IsKnown() {
			t.Errorf("%s: setting = %#v, want unknown", c.name, g)
		}
	}
}

// TestSchemaFingerprint: the fingerprint internal/defaultsgen writes from
// a schema document (its TestFingerprint has the same document and value)
// is the one lang computes from the parsed schemas; it changes with an
// attribute's flags.
func TestSchemaFingerprint(t *testing.T) {
	doc := `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{"resource_schemas":{
"aws_b":{"block":{"attributes":{"id":{"type":"string","optional":true,"computed":true},"x":{"type":"number","required":true}},
  "block_types":{"s":{"nesting_mode":"set","block":{"attributes":{"y":{"type":"bool","optional":true}}}}}}},
"aws_a":{"block":{"attributes":{"id":{"type":"string","computed":true}}}}}}}}`
	for _, tc := range []struct {
		doc  string
		want uint64
	}{
		{doc, 0xb8baf4959b42ee7},
		{strings.Replace(doc, `"required":true`, `"optional":true`, 1), 0xec8385f76b7934be},
	} {
		s, err := ParseProviderSchemas([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := schemaFingerprint(s.Providers["hashicorp/aws"].Resources); got != tc.want {
			t.Errorf("fingerprint = %#x, want %#x", got, tc.want)
		}
	}
}

// TestDefaultsAwsTable: the generated table decodes, with values
// terraform plan gave for aws v5.100.0.
func TestDefaultsAwsTable(t *testing.T) {
	tbl := &defaultsTable{fingerprint: defaultsAwsFingerprint, text: defaultsAws}
	for _, tc := range []struct{ typ, path, want string }{
		{"aws_iam_role", "path", `"/"`},
		{"aws_iam_role", "force_detach_policies", "false"},
		{"aws_iam_role", "max_session_duration", "3600"},
		{"aws_iam_role", "description", ""},
		{"aws_dynamodb_table", "import_table", "[]"},
		{"aws_dynamodb_table", "ttl.enabled", "false"},
		{"aws_dynamodb_table", "global_secondary_index.range_key", `""`},
		{"aws_dynamodb_table", "global_secondary_index.non_key_attributes", "[]"},
	} {
		d := tbl.resource(tc.typ)
		parts := strings.Split(tc.path, ".")
		for _, p := range parts[:len(parts)-1] {
			if d != nil {
				d = d.blocks[p]
			}
		}
		if d == nil {
			t.Errorf("%s.%s: not in the table", tc.typ, tc.path)
			continue
		}
		if got, ok := d.values[parts[len(parts)-1]]; !ok || got != tc.want {
			t.Errorf("%s.%s = %q (%v), want %q", tc.typ, tc.path, got, ok, tc.want)
		}
	}
}
