package lang

import (
	"maps"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
)

// An import block brings a terraform_data instance under management: its
// id is the import's, known, and flows into expressions; input set updates
// it (output unknown until apply), nothing set leaves it as read, and
// triggers_replace replaces it (id unknown). Instances the blocks do not
// name, in counted, for_each and child modules alike, are created. Import
// ids and keys may come from variables, locals and for_each.
func TestImportTerraformData(t *testing.T) {
	files := map[string]string{
		"main.tf": `
variable "prefix" { default = "id" }
locals { keys = toset(["k1", "k2"]) }
import {
  to = terraform_data.a
  id = "${var.prefix}-a"
}
resource "terraform_data" "a" { input = "x" }
import {
  to = terraform_data.plain
  id = "id-plain"
}
resource "terraform_data" "plain" {}
import {
  to = terraform_data.c
  id = "id-c"
}
resource "terraform_data" "c" { triggers_replace = "t" }
import {
  for_each = local.keys
  to       = terraform_data.d[each.key]
  id       = "id-${each.value}"
}
resource "terraform_data" "d" {
  for_each = toset(["k1", "k2", "k3"])
  input    = each.key
}
import {
  to = module.m["one"].terraform_data.r
  id = "id-m"
}
module "m" {
  source   = "./m"
  for_each = toset(["one", "two"])
}
resource "terraform_data" "b" { input = terraform_data.a.id }
output "a_id" { value = terraform_data.a.id }
`,
		"m/main.tf": `resource "terraform_data" "r" { input = "m" }`,
	}
	type want struct {
		id     cty.Value
		output cty.Value
		prior  bool // imported
		paths  int  // replace paths
	}
	unknownStr := cty.UnknownVal(cty.String)
	wants := map[string]want{
		"terraform_data.a":                 {cty.StringVal("id-a"), unknownStr, true, 0},
		"terraform_data.plain":             {cty.StringVal("id-plain"), cty.NullVal(cty.DynamicPseudoType), true, 0},
		"terraform_data.c":                 {unknownStr, cty.NullVal(cty.DynamicPseudoType), true, 1},
		`terraform_data.d["k1"]`:           {cty.StringVal("id-k1"), unknownStr, true, 0},
		`terraform_data.d["k2"]`:           {cty.StringVal("id-k2"), unknownStr, true, 0},
		`terraform_data.d["k3"]`:           {unknownStr, unknownStr, false, 0},
		`module.m["one"].terraform_data.r`: {cty.StringVal("id-m"), unknownStr, true, 0},
		`module.m["two"].terraform_data.r`: {unknownStr, unknownStr, false, 0},
		"terraform_data.b":                 {unknownStr, unknownStr, false, 0},
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		res, diags := evalFiles(t, files, Options{Dialect: d})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", d, diags.Error())
		}
		if got := res.Root().Outputs["a_id"]; !got.RawEquals(cty.StringVal("id-a")) {
			t.Errorf("%s: output a_id = %#v", d, got)
		}
		seen := 0
		for _, ri := range res.Resources {
			w, ok := wants[ri.Addr]
			if !ok {
				t.Errorf("%s: unexpected %s", d, ri.Addr)
				continue
			}
			seen++
			attrs := ri.Value.AsValueMap()
			if id := attrs["id"]; id.IsKnown() != w.id.IsKnown() || id.IsKnown() && !id.RawEquals(w.id) {
				t.Errorf("%s: %s id = %#v, want %#v", d, ri.Addr, id, w.id)
			}
			if out := attrs["output"]; out.IsKnown() != w.output.IsKnown() || out.IsKnown() && !out.IsNull() {
				t.Errorf("%s: %s output = %#v, want %#v", d, ri.Addr, out, w.output)
			}
			if (ri.Import != nil) != w.prior {
				t.Errorf("%s: %s imported = %v, want %v", d, ri.Addr, ri.Import != nil, w.prior)
				continue
			}
			if ri.Import != nil {
				if len(ri.Import.ReplacePaths) != w.paths {
					t.Errorf("%s: %s replace paths %v", d, ri.Addr, ri.Import.ReplacePaths)
				}
				if prior := ri.Import.Prior.GetAttr("id"); !prior.RawEquals(cty.StringVal(ri.Import.ID)) {
					t.Errorf("%s: %s prior id %#v, import id %q", d, ri.Addr, prior, ri.Import.ID)
				}
			}
		}
		if seen != len(wants) {
			t.Errorf("%s: %d instances, want %d", d, seen, len(wants))
		}
	}
}

// An import block's for_each may be any collection, unlike a resource's: a
// list or tuple imports by index, a set of numbers by element, a
// conditional's empty list and null import nothing; a value that is not a
// collection is the import's own error.
func TestImportForEachCollections(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "adopt" { default = false }
locals {
  existing = ["a", "b"]
}
import {
  for_each = local.existing
  to       = terraform_data.named[each.value]
  id       = "id-${each.value}-${each.key}"
}
resource "terraform_data" "named" {
  for_each = toset(["a", "b"])
  input    = each.key
}
import {
  for_each = toset([0, 1])
  to       = terraform_data.counted[each.key]
  id       = "id-${each.value}"
}
resource "terraform_data" "counted" {
  count = 2
}
import {
  for_each = var.adopt ? [1] : []
  to       = terraform_data.maybe
  id       = "id-maybe"
}
import {
  for_each = null
  to       = terraform_data.maybe
  id       = "id-never"
}
resource "terraform_data" "maybe" {}
`}
	imported := map[string]string{}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		res, diags := evalFiles(t, files, Options{Dialect: d})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", d, diags.Error())
		}
		clear(imported)
		for _, ri := range res.Resources {
			if ri.Import != nil {
				imported[ri.Addr] = ri.Import.ID
			}
		}
		want := map[string]string{
			`terraform_data.named["a"]`: "id-a-0", `terraform_data.named["b"]`: "id-b-1",
			"terraform_data.counted[0]": "id-0", "terraform_data.counted[1]": "id-1",
		}
		if !maps.Equal(imported, want) {
			t.Errorf("%s: imported %v, want %v", d, imported, want)
		}
	}

	files["main.tf"] = `
import {
  for_each = "abc"
  to       = terraform_data.x
  id       = "id-x"
}
resource "terraform_data" "x" {}
`
	_, diags := evalFiles(t, files, Options{})
	if len(diags) != 1 || diags[0].Summary != "Invalid for_each argument" || diags[0].Detail != `The "for_each" expression must be a collection.` {
		t.Errorf("a string for_each: %v", diags)
	}
}
