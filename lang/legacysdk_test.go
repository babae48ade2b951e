package lang

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// legacySchema has two resource types alike but for their "id": the older
// plugin SDK's (optional and computed) and the plugin framework's
// (computed only).
const legacySchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
"resource_schemas":{
 "aws_old":{"version":0,"block":{"attributes":{
  "id":{"type":"string","optional":true,"computed":true},
  "name":{"type":"string","optional":true,"computed":true},
  "path":{"type":"string","optional":true},
  "note":{"type":"string","optional":true},
  "tags":{"type":["map","string"],"optional":true},
  "actions":{"type":["set","string"],"optional":true},
  "cidrs":{"type":["list","string"],"optional":true},
  "groups":{"type":["set","string"],"optional":true,"computed":true},
  "refs":{"type":["set","string"],"optional":true},
  "rule":{"type":["set",["object",{"cidrs":["list","string"],"self":"bool","port":"number"}]],"optional":true,"computed":true}},
  "block_types":{"setting":{"nesting_mode":"list","block":{"attributes":{"size":{"type":"number","optional":true}}}},
   "disk":{"nesting_mode":"set","block":{"attributes":{"dev":{"type":"string","required":true},"iops":{"type":"number","optional":true,"computed":true}}}}}}},
 "aws_new":{"version":0,"block":{"attributes":{
  "id":{"type":"string","computed":true},
  "name":{"type":"string","optional":true,"computed":true},
  "path":{"type":"string","optional":true},
  "tags":{"type":["map","string"],"optional":true},
  "actions":{"type":["set","string"],"optional":true}},
  "block_types":{"setting":{"nesting_mode":"list","block":{"attributes":{"size":{"type":"number","optional":true}}}}}}}}}}}`

// TestLegacySDKPlanning checks that a resource type of the older plugin SDK
// is planned as terraform plan v1.11.4 planned the same configurations with
// hashicorp/aws v5.100.0 (aws_vpc tags, aws_cloudwatch_metric_alarm
// alarm_actions, aws_security_group_rule cidr_blocks, aws_sns_topic name,
// aws_iam_role path, aws_instance ebs_block_device, aws_elb
// security_groups, aws_security_group egress): what the SDK decides and
// the schema document does not say is unknown, never a guess.
func TestLegacySDKPlanning(t *testing.T) {
	s, err := ParseProviderSchemas([]byte(legacySchema))
	if err != nil {
		t.Fatal(err)
	}
	src := `resource "terraform_data" "u" {}
resource "aws_old" "a" {
  name    = ""
  note    = "n"
  tags    = {}
  actions = []
  cidrs   = []
  groups  = []
  refs    = [terraform_data.u.id]
  rule    = [{ cidrs = null, self = null, port = 1 }]
  disk {
    dev  = "b"
    iops = 0
  }
}
resource "aws_new" "a" {
  name    = ""
  tags    = {}
  actions = []
}
`
	unknown := func(ty cty.Type) string { return cty.UnknownVal(ty).GoString() }
	tests := []struct {
		addr, attr string
		want       string
	}{
		{"aws_old.a", "name", unknown(cty.String)},                                                       // "" in a computed attribute
		{"aws_old.a", "path", unknown(cty.String)},                                                       // unset: the SDK's default, if any
		{"aws_old.a", "note", `cty.StringVal("n")`},                                                      // as written
		{"aws_old.a", "tags", `cty.NullVal(cty.Map(cty.String))`},                                        // an empty map is null
		{"aws_old.a", "actions", `cty.NullVal(cty.Set(cty.String))`},                                     // an empty set too
		{"aws_old.a", "cidrs", `cty.ListValEmpty(cty.String)`},                                           // an empty list stays
		{"aws_old.a", "groups", unknown(cty.Set(cty.String))},                                            // empty and computed
		{"aws_old.a", "refs", unknown(cty.Set(cty.String))},                                              // a set with an unknown element
		{"aws_old.a", "setting", unknown(cty.List(cty.Object(map[string]cty.Type{"size": cty.Number})))}, // absent block: may be computed
		{"aws_new.a", "name", `cty.StringVal("")`},
		{"aws_new.a", "path", `cty.NullVal(cty.String)`},
		{"aws_new.a", "tags", `cty.MapValEmpty(cty.String)`},
		{"aws_new.a", "actions", `cty.SetValEmpty(cty.String)`},
		{"aws_new.a", "setting", `cty.ListValEmpty(cty.Object(map[string]cty.Type{"size":cty.Number}))`},
	}
	for _, asWritten := range []bool{false, true} {
		r, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{Schemas: s, PlanAsWritten: asWritten})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		values := map[string]cty.Value{}
		for _, ri := range r.Resources {
			values[ri.Addr] = ri.Value
		}
		for _, tt := range tests {
			got := values[tt.addr].GetAttr(tt.attr)
			if asWritten && strings.HasPrefix(tt.addr, "aws_old") {
				continue // mocked providers plan what is written: below
			}
			if got.GoString() != tt.want {
				t.Errorf("PlanAsWritten=%v %s.%s = %s, want %s", asWritten, tt.addr, tt.attr, got.GoString(), tt.want)
			}
		}
		old := values["aws_old.a"]
		rule := old.GetAttr("rule")
		disk := old.GetAttr("disk")
		if asWritten {
			if got := old.GetAttr("tags"); !got.RawEquals(cty.MapValEmpty(cty.String)) {
				t.Errorf("PlanAsWritten: tags = %#v", got)
			}
			continue
		}
		// Objects of a collection attribute have every attribute: an
		// empty collection, or (a primitive) unknown.
		if !rule.IsKnown() || rule.LengthInt() != 1 {
			t.Fatalf("rule = %#v", rule)
		}
		for it := rule.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if got := e.GetAttr("cidrs"); !got.RawEquals(cty.ListValEmpty(cty.String)) {
				t.Errorf("rule.cidrs = %#v, want []", got)
			}
			if got := e.GetAttr("self"); got.IsKnown() {
				t.Errorf("rule.self = %#v, want unknown", got)
			}
		}
		// A computed attribute of a set of blocks set to zero is unknown.
		for it := disk.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if got := e.GetAttr("iops"); got.IsKnown() {
				t.Errorf("disk.iops = %#v, want unknown", got)
			}
		}
	}
}
