package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// attrBlocksSchema has attributes of a legacy SDK provider that are lists
// and sets of objects (rule, grant, and inner inside the block wrap), and a
// nested attribute of the plugin framework (nested), which blocks may not
// set.
const attrBlocksSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{
 "resource_schemas":{"mock_sg":{"block":{
  "attributes":{
   "id":{"type":"string","computed":true},
   "rule":{"type":["list",["object",{"port":"number","cidrs":["list","string"]}]],"optional":true,"computed":true},
   "grant":{"type":["set",["object",{"who":"string","perm":["list",["object",{"name":"string"}]]}]],"optional":true},
   "nested":{"nested_type":{"nesting_mode":"list","attributes":{"k":{"type":"string","optional":true}}},"optional":true}},
  "block_types":{
   "wrap":{"nesting_mode":"list","block":{"attributes":{
     "inner":{"type":["list",["object",{"k":"string"}]],"optional":true}}}}}}}}}}}`

// TestAttributesAsBlocks: an attribute whose type is a list or set of
// objects may be written as blocks of its name, as Terraform allows for a
// legacy SDK provider's schema (aws_security_group's ingress and egress):
// each block is one element, its unset attributes null; dynamic blocks of
// that name too (null when they leave no block, as terraform v1.11.4 plans
// it), and inside those blocks and inside real nested blocks.
// The argument syntax still works, and a nested attribute takes no blocks.
func TestAttributesAsBlocks(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(attrBlocksSchema))
	if err != nil {
		t.Fatal(err)
	}
	rule := func(port int64, cidrs ...string) cty.Value {
		c := cty.NullVal(cty.List(cty.String))
		if len(cidrs) > 0 {
			vs := make([]cty.Value, len(cidrs))
			for i, s := range cidrs {
				vs[i] = cty.StringVal(s)
			}
			c = cty.ListVal(vs)
		}
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "cidrs": c})
	}
	permTy := cty.List(cty.Object(map[string]cty.Type{"name": cty.String}))
	for _, tc := range []struct {
		name, body string
		attr       string
		want       cty.Value
		err        string
	}{
		{name: "blocks", attr: "rule", body: `
  rule {
    port  = 22
    cidrs = ["10.0.0.0/8"]
  }
  rule {
    port = 443
  }`, want: cty.ListVal([]cty.Value{rule(22, "10.0.0.0/8"), rule(443)})},
		{name: "argument", attr: "rule", body: `
  rule = [{ port = 80, cidrs = null }]`, want: cty.ListVal([]cty.Value{rule(80)})},
		{name: "dynamic blocks", attr: "rule", body: `
  dynamic "rule" {
    for_each = [1, 2]
    content {
      port = rule.value
    }
  }`, want: cty.ListVal([]cty.Value{rule(1), rule(2)})},
		{name: "dynamic blocks leaving none", attr: "grant", body: `
  dynamic "grant" {
    for_each = []
    content {
      who = grant.value
    }
  }`, want: cty.NullVal(cty.Set(cty.Object(map[string]cty.Type{"who": cty.String, "perm": permTy})))},
		{name: "set with nested blocks", attr: "grant", body: `
  grant {
    who = "a"
    perm {
      name = "read"
    }
  }`, want: cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"who":  cty.StringVal("a"),
			"perm": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("read")})}),
		})})},
		{name: "set without perm", attr: "grant", body: `
  grant {
    who = "b"
  }`, want: cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"who": cty.StringVal("b"), "perm": cty.NullVal(permTy)})})},
		{name: "inside a block", attr: "wrap", body: `
  wrap {
    inner {
      k = "x"
    }
  }`, want: cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"inner": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("x")})}),
		})})},
		{name: "nested attribute", body: `
  nested {
    k = "x"
  }`, err: `Unsupported block type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": "resource \"mock_sg\" \"s\" {" + tc.body + "\n}\n"}, Options{Schemas: schemas})
			if tc.err != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.err) {
					t.Fatalf("diagnostics %v, want an error %q", diags, tc.err)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got := resourceValue(t, res, "mock_sg.s").GetAttr(tc.attr); !got.RawEquals(tc.want) {
				t.Errorf("%s = %#v, want %#v", tc.attr, got, tc.want)
			}
		})
	}
}
