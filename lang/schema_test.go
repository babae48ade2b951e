package lang

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/marks"
)

// A schema with nested attribute types, as plugin-framework providers write.
const nestedSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{
 "resource_schemas":{"mock_net":{"block":{"attributes":{
  "id":{"type":"string","computed":true},
  "endpoint":{"nested_type":{"nesting_mode":"single","attributes":{
    "host":{"type":"string","required":true},
    "port":{"type":"number","optional":true},
    "url":{"type":"string","computed":true},
    "token":{"type":"string","optional":true,"sensitive":true}}},"optional":true},
  "rules":{"nested_type":{"nesting_mode":"list","attributes":{
    "port":{"type":"number","required":true},
    "label":{"type":"string","optional":true,"computed":true}}},"optional":true},
  "zones":{"nested_type":{"nesting_mode":"map","attributes":{
    "size":{"type":"number","optional":true}}},"optional":true}}}}}}}}`

func TestNestedAttributeTypes(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(nestedSchema))
	if err != nil {
		t.Fatal(err)
	}
	res, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": `
resource "mock_net" "n" {
  endpoint = { host = "db", token = "t0ps3cret" }
  rules    = [{ port = 22 }, { port = 443, label = "https" }]
  zones    = { a = {}, b = { size = 3 } }
}
output "host" { value = mock_net.n.endpoint.host }
output "port_unset" { value = mock_net.n.endpoint.port == null }
`}, Options{Schemas: schemas})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v := res.Resources[0].Value
	ep := v.GetAttr("endpoint")
	if got := ep.GetAttr("port"); !got.IsNull() || !got.Type().Equals(cty.Number) {
		t.Errorf("unset optional nested attribute = %#v, want null number", got)
	}
	if got := ep.GetAttr("url"); got.IsKnown() {
		t.Errorf("computed nested attribute = %#v, want unknown", got)
	}
	if !ep.GetAttr("token").HasMark(marks.Sensitive) {
		t.Error("sensitive nested attribute not marked")
	}
	rules := v.GetAttr("rules")
	if !rules.Type().IsListType() || rules.LengthInt() != 2 {
		t.Fatalf("rules = %#v, want a list of two objects", rules)
	}
	if got := rules.Index(cty.NumberIntVal(0)).GetAttr("label"); got.IsKnown() {
		t.Errorf("optional+computed nested attribute left unset = %#v, want unknown", got)
	}
	if got := rules.Index(cty.NumberIntVal(1)).GetAttr("label"); !got.RawEquals(cty.StringVal("https")) {
		t.Errorf("set nested attribute = %#v", got)
	}
	if got := v.GetAttr("zones").Index(cty.StringVal("a")).GetAttr("size"); !got.IsNull() {
		t.Errorf("zones.a.size = %#v, want null", got)
	}
	root := res.Root()
	if got := root.Outputs["host"]; !got.RawEquals(cty.StringVal("db")) {
		t.Errorf("output host = %#v", got)
	}
	if got := root.Outputs["port_unset"]; !got.RawEquals(cty.True) {
		t.Errorf("output port_unset = %#v", got)
	}

	b, err := json.Marshal(newTestDocument(res, nil).Resources[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"after_unknown":{"endpoint":{"url":true},"id":true,"rules":[{"label":true},{}],"zones":{"a":{},"b":{}}}`,
		`"after_sensitive":{"endpoint":{"token":true},"rules":[{},{}],"zones":{"a":{},"b":{}}}`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("resource JSON %s\nlacks %s", b, want)
		}
	}
}

func TestNestedAttributeRequired(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(nestedSchema))
	if err != nil {
		t.Fatal(err)
	}
	_, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": `
resource "mock_net" "n" {
  endpoint = { port = 5432 }
}`}, Options{Schemas: schemas})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), `attribute "host" is required`) {
		t.Errorf("missing required nested attribute: %v", diags)
	}
}

// A computed-only attribute set in configuration is an error, named in the
// detail; computed attributes that are also optional may be set.
func TestReadOnlyAttribute(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(nestedSchema))
	if err != nil {
		t.Fatal(err)
	}
	_, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": `
resource "mock_net" "n" {
  id    = "fixed"
  rules = [{ port = 22, label = "ssh" }]
}
`}, Options{Schemas: schemas})
	if len(diags) != 1 || diags[0].Summary != "Invalid Configuration for Read-Only Attribute" || !strings.HasSuffix(diags[0].Detail, "Attribute: id") {
		t.Fatalf("diagnostics: %v", diags)
	}
	if diags[0].Subject == nil || diags[0].Subject.Start.Line != 2 {
		t.Errorf("subject %v, want the resource block on line 2", diags[0].Subject)
	}
}

// schemaTypeTexts are attribute types as schema documents write them, some
// differing only in spacing.
var schemaTypeTexts = []string{
	`"string"`, `"number"`, `"bool"`, `"dynamic"`,
	`["list","string"]`, `["list", "string"]`, `["set","number"]`, `["map","bool"]`,
	`["list",["object",{"a":"string","b":["set","number"]}]]`,
	`["object",{"a":"string","b":"number"},["b"]]`,
	`["tuple",["string","number"]]`,
}

// largeSchemaDocument writes a schema document with resources resources
// whose attributes cycle through schemaTypeTexts, each with a nested block.
func largeSchemaDocument(resources int) []byte {
	var b strings.Builder
	b.WriteString(`{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/big":{"resource_schemas":{`)
	for r := range resources {
		if r > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"big_r%d":{"version":0,"block":{"attributes":{`, r)
		for a := range 40 {
			if a > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"attr_%d":{"type":%s,"description":"What attr_%d of big_r%d is for, as providers describe it.","description_kind":"plain","optional":true}`,
				a, schemaTypeTexts[(r+a)%len(schemaTypeTexts)], a, r)
		}
		b.WriteString(`},"block_types":{"nested":{"nesting_mode":"list","block":{"attributes":{`)
		for a := range 8 {
			if a > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"inner_%d":{"type":%s,"computed":true}`, a, schemaTypeTexts[(r*a)%len(schemaTypeTexts)])
		}
		b.WriteString(`}}}}}}`)
	}
	b.WriteString(`}}}}`)
	return []byte(b.String())
}

// TestSchemaTypesDecoded checks every attribute type of a document whose
// type texts repeat (each distinct text is decoded once) against go-cty's
// decoding of the same text.
func TestSchemaTypesDecoded(t *testing.T) {
	const resources = 30
	schemas, err := ParseProviderSchemas(largeSchemaDocument(resources))
	if err != nil {
		t.Fatal(err)
	}
	want := func(text string) cty.Type {
		ty, err := ctyjson.UnmarshalType([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return ty
	}
	ps := schemas.Providers["tfeval/big"]
	if ps == nil || len(ps.Resources) != resources {
		t.Fatalf("parsed %v", schemas.Providers)
	}
	for r := range resources {
		b := ps.Resources[fmt.Sprintf("big_r%d", r)]
		for a := range 40 {
			text := schemaTypeTexts[(r+a)%len(schemaTypeTexts)]
			if got := b.Attributes[fmt.Sprintf("attr_%d", a)].Type; !got.Equals(want(text)) {
				t.Errorf("big_r%d.attr_%d: %s, want %s (%s)", r, a, got.GoString(), want(text).GoString(), text)
			}
		}
		inner := b.BlockTypes["nested"].Block
		for a := range 8 {
			text := schemaTypeTexts[(r*a)%len(schemaTypeTexts)]
			if got := inner.Attributes[fmt.Sprintf("inner_%d", a)].Type; !got.Equals(want(text)) {
				t.Errorf("big_r%d.nested.inner_%d: %s, want %s", r, a, got.GoString(), want(text).GoString())
			}
		}
	}
}

// BenchmarkParseProviderSchemas parses a document of 1,000 resource types
// of 48 attributes each (6.9 MB), about the size of a large cloud
// provider's.
func BenchmarkParseProviderSchemas(b *testing.B) {
	doc := largeSchemaDocument(1000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseProviderSchemas(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzProviderSchemas parses any text as a provider schema document (as
// -schemas gives it) and evaluates a resource of each type it describes:
// a document is refused with an error or used, never a panic.
func FuzzProviderSchemas(f *testing.F) {
	f.Add(nestedSchema)
	f.Add(`{"provider_schemas":{"registry.terraform.io/hashicorp/aws":{"resource_schemas":{"aws_x":{"block":{"attributes":{"a":{"type":["object",{"b":"string"}],"required":true}},"block_types":{"b":{"nesting_mode":"set","block":{"attributes":{"c":{"type":["map","number"]}}},"max_items":1}}}}}}}}`)
	f.Add(`{"provider_schemas":{"registry.terraform.io/hashicorp/aws":{"resource_schemas":{"aws_x":{"block":{"attributes":{"a":{"type":["list",["list",["list","bogus"]]]}}}}}}}}`)
	f.Add(`{"provider_schemas":{"x":{"resource_schemas":{"aws_x":null},"functions":{"f":{"parameters":[{"type":"dynamic"}],"return_type":["tuple",[]]}}}}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		s, err := ParseProviderSchemas([]byte(doc))
		if err != nil {
			return
		}
		var src strings.Builder
		for _, p := range s.Providers {
			for name, b := range p.Resources {
				b.ImpliedType()
				if hclName(name) {
					fmt.Fprintf(&src, "resource %q \"r\" {}\n", name)
				}
			}
		}
		_, diags := evalFiles(t, map[string]string{"main.tf": src.String()}, Options{Schemas: s})
		for _, d := range diags {
			if strings.Contains(d.Summary, "Evaluation failed") {
				t.Fatalf("a panic was caught: %s", d.Detail)
			}
		}
	})
}

// hclName reports whether a resource type can be written in a block label
// that names a provider by its prefix.
func hclName(s string) bool {
	if s == "" || !strings.Contains(s, "_") {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// TestSetBlockIndex: with a schema, a reference that indexes a nested
// block the schema nests as a set, at the top or inside list and single
// blocks, is Terraform's "Cannot index a set value" on the index; the set
// read whole, by a for expression, and list blocks indexed are not.
func TestSetBlockIndex(t *testing.T) {
	schemas, err := ParseProviderSchemas([]byte(`{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{
 "resource_schemas":{"mock_thing":{"block":{
  "attributes":{"id":{"type":"string","computed":true}},
  "block_types":{
   "rule":{"nesting_mode":"set","block":{"attributes":{"v":{"type":"string","optional":true}}}},
   "item":{"nesting_mode":"list","block":{"block_types":{
     "inner":{"nesting_mode":"set","block":{"attributes":{"v":{"type":"string","optional":true}}}}}}},
   "conf":{"nesting_mode":"single","block":{"block_types":{
     "deep":{"nesting_mode":"set","block":{"attributes":{"v":{"type":"string","optional":true}}}}}}}}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	main := `
resource "mock_thing" "t" {
  rule {
    v = "a"
  }
  item {
    inner {
      v = "b"
    }
  }
  conf {
    deep {
      v = "c"
    }
  }
}
output "o" { value = %s }
`
	for _, c := range []struct {
		ref   string
		block string // the block type refused, "" for none
		col   int    // the column the index starts at
	}{
		{`mock_thing.t.rule[0].v`, "rule", 39},
		{`mock_thing.t.item[0].inner[0].v`, "inner", 48},
		{`mock_thing.t.conf.deep[0]`, "deep", 44},
		{`mock_thing.t.rule`, "", 0},
		{`[for r in mock_thing.t.rule : r.v]`, "", 0},
		{`mock_thing.t.item[0].inner`, "", 0},
	} {
		_, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": fmt.Sprintf(main, c.ref)}, Options{Schemas: schemas})
		if c.block == "" {
			if diags.HasErrors() {
				t.Errorf("%s: %s", c.ref, diags.Error())
			}
			continue
		}
		if len(diags) != 1 || diags[0].Summary != "Cannot index a set value" || !strings.HasPrefix(diags[0].Detail, fmt.Sprintf("Block type %q is represented by a set of objects", c.block)) {
			t.Errorf("%s: diagnostics %v", c.ref, diags)
			continue
		}
		if s := diags[0].Subject; s == nil || s.Start.Line != 17 || s.Start.Column != c.col || s.End.Column != c.col+3 {
			t.Errorf("%s: subject %v, want line 17 columns %d-%d", c.ref, diags[0].Subject, c.col, c.col+3)
		}
	}
}
