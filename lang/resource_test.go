package lang

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// TestPlannedAsIs checks that the nested blocks planNested returns as they
// are would come out of planning every object the same, and that schemas
// where planning changes something are replanned.
func TestPlannedAsIs(t *testing.T) {
	pair := &Block{Attributes: map[string]*Attribute{
		"name":  {Type: cty.String, Optional: true},
		"value": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	nestedAttr := &Attribute{Optional: true, Type: cty.List(cty.Object(map[string]cty.Type{"x": cty.String, "id": cty.String})), NestedType: &NestedAttributes{Nesting: NestingList, Attributes: map[string]*Attribute{"x": {Type: cty.String, Optional: true}, "id": {Type: cty.String, Computed: true}}}}
	// A nested attribute whose objects planning leaves alone; the decoded
	// value has the optional attributes the configuration leaves out.
	plainAttr := &Attribute{Optional: true, Type: cty.List(cty.Object(map[string]cty.Type{"x": cty.String, "y": cty.Number})), NestedType: &NestedAttributes{Nesting: NestingList, Attributes: map[string]*Attribute{"x": {Type: cty.String, Optional: true}, "y": {Type: cty.Number, Optional: true}}}}
	schema := &Block{
		Attributes: map[string]*Attribute{"top": {Type: cty.String, Optional: true}},
		BlockTypes: map[string]*NestedBlock{
			"set":    {Nesting: NestingSet, Block: pair},
			"list":   {Nesting: NestingList, Block: &Block{Attributes: pair.Attributes, BlockTypes: map[string]*NestedBlock{"inner": {Nesting: NestingSet, Block: pair}}}},
			"single": {Nesting: NestingSingle, Block: pair},
			"group":  {Nesting: NestingGroup, Block: pair},
			"map":    {Nesting: NestingMap, Block: pair},
			"computed": {Nesting: NestingList, Block: &Block{Attributes: map[string]*Attribute{
				"name": {Type: cty.String, Optional: true}, "id": {Type: cty.String, Computed: true},
			}}},
			"secret": {Nesting: NestingSet, Block: &Block{Attributes: map[string]*Attribute{"name": {Type: cty.String, Optional: true, Sensitive: true}}}},
			"nested": {Nesting: NestingList, Block: &Block{Attributes: map[string]*Attribute{"n": nestedAttr}}},
			"plain":  {Nesting: NestingList, Block: &Block{Attributes: map[string]*Attribute{"p": plainAttr}}},
		},
	}
	asIs := map[string]bool{"set": true, "list": true, "single": true, "group": true, "map": true}
	src := `
top = "t"
set {
  name  = "a"
  value = 1
}
set {
  name = "b"
}
dynamic "list" {
  for_each = ["x", "y"]
  content {
    name = list.value
    inner {
      value = [list.key]
    }
  }
}
single {
  value = { k = "v" }
}
map "k1" {
  name = "m"
}
computed {
  name = "c"
}
secret {
  name = "s"
}
nested {
  n = [{ x = "1" }, {}]
}
plain {
  p = [{ x = "1" }, { y = 2 }]
}
`
	body := parseBody(t, src)
	spec := schema.decoderSpec()
	v, diags := hcldec.Decode(dynblock.Expand(body, nil), spec, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	// The nested attribute's objects are planned as they are, too.
	p := v.GetAttr("plain").Index(cty.NumberIntVal(0)).GetAttr("p")
	pnb := &NestedBlock{Nesting: plainAttr.NestedType.Nesting, Block: &Block{Attributes: plainAttr.NestedType.Attributes}}
	if got, want := planNested(pnb, p, true), replanNested(pnb, p, true); !got.RawEquals(want) || !got.RawEquals(p) {
		t.Errorf("nested attribute: planned\n%#v\nreplanned\n%#v", got, want)
	}
	for name, nb := range schema.BlockTypes {
		if got := nb.Block.plannedAsIs(true); got != asIs[name] {
			t.Errorf("%s: plannedAsIs %v, want %v", name, got, asIs[name])
		}
		bv := v.GetAttr(name)
		for _, in := range []cty.Value{bv, bv.Mark("m")} {
			got, want := planNested(nb, in, true), replanNested(nb, in, true)
			if !got.RawEquals(want) {
				t.Errorf("%s: planned\n%#v\nreplanned\n%#v", name, got, want)
			}
			if asIs[name] && !got.RawEquals(in) {
				t.Errorf("%s: planned value is not the decoded one", name)
			}
		}
	}
}

// TestEphemeralInResource checks that a resource given a value derived from
// each kind of ephemeral source is refused, including when the mark is
// deep inside the value, and that one without is not.
func TestEphemeralInResource(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  bool
	}{
		"variable": {map[string]string{"main.tf": `
variable "e" {
  ephemeral = true
  default   = "x"
}
resource "terraform_data" "r" {
  input = { deep = [var.e] }
}`}, true},
		"module output": {map[string]string{"main.tf": `
module "m" { source = "./m" }
resource "terraform_data" "r" {
  count = 2
  input = module.m.o
}`, "m/main.tf": `
output "o" {
  value     = "x"
  ephemeral = true
}`}, true},
		"terraform.applying": {map[string]string{"main.tf": `
resource "terraform_data" "r" {
  input = terraform.applying ? 1 : 2
}`}, true},
		// Without a provider schema, an attribute the configuration does
		// not set is added as unknown; that must keep the ephemeral mark
		// (it used to panic on the marked value). A resource without a
		// schema may take it, since the attribute may be write-only; one
		// with a schema may not.
		"ephemeral resource without schema": {map[string]string{"main.tf": `
ephemeral "mock_token" "t" {
  name = "x"
}
resource "terraform_data" "a" {
  input = ephemeral.mock_token.t.token
}`}, true},
		"counted ephemeral resource without schema": {map[string]string{"main.tf": `
ephemeral "mock_token" "t" {
  count = 2
  name  = "x"
}
resource "terraform_data" "a" {
  input = ephemeral.mock_token.t[1].token
}`}, true},
		"into a resource without schema": {map[string]string{"main.tf": `
ephemeral "mock_token" "t" {
  name = "x"
}
resource "mock_thing" "a" {
  password_wo = ephemeral.mock_token.t.token
}`}, false},
		"none": {map[string]string{"main.tf": `
variable "v" { default = "x" }
resource "terraform_data" "r" {
  input = { deep = [var.v] }
}`}, false},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := evalFiles(t, tc.files, Options{})
			found := false
			for _, d := range diags {
				if d.Summary == "Invalid use of ephemeral value" {
					found = true
				} else if d.Severity == hcl.DiagError {
					t.Errorf("unexpected: %s", d.Error())
				}
			}
			if found != tc.want {
				t.Errorf("ephemeral value refused: %v, want %v (%s)", found, tc.want, diags.Error())
			}
		})
	}
}

// TestWriteOnlyWithoutSchema: without a provider schema, an argument of a
// managed resource that holds an ephemeral value can only be write-only,
// which Terraform plans as null; the resource's object is then not
// ephemeral, so a (root) output of the whole object is allowed. The
// argument is unknown (the schema would say whether it or an attribute
// nested in it is the write-only one), and the arguments beside it keep
// their values.
func TestWriteOnlyWithoutSchema(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "secret" {
  ephemeral = true
  default   = "s"
}
resource "mock_thing" "a" {
  name = "alpha"
  body = { props = { key = var.secret, plain = "p" } }
  settings {
    mode        = "m"
    password_wo = var.secret
  }
}
output "whole" {
  value = mock_thing.a
}`}
	res, diags := evalFiles(t, files, Options{})
	if diags.HasErrors() {
		t.Fatalf("diagnostics: %s", diags.Error())
	}
	for src, want := range map[string]cty.Value{
		"mock_thing.a.name":             cty.StringVal("alpha"),
		"mock_thing.a.settings[0].mode": cty.StringVal("m"),
	} {
		if got, _ := mustEval(t, res, src, nil).UnmarkDeep(); !got.RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", src, got, want)
		}
	}
	for _, src := range []string{"mock_thing.a.body", "mock_thing.a.settings[0].password_wo"} {
		if got := mustEval(t, res, src, nil); got.IsKnown() || got.HasMark(marks.Ephemeral) {
			t.Errorf("%s = %#v, want unknown and not ephemeral", src, got)
		}
	}
}

// TestAugmentEveryReference: without a provider schema, every attribute
// that references in one expression read from a resource and its
// configuration does not set is added as unknown, not only the one whose
// reference came last (which varied with map order from run to run).
func TestAugmentEveryReference(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "mock_thing" "a" {
  name = "alpha"
}
resource "mock_thing" "counted" {
  count = 2
  name  = "c${count.index}"
}
resource "mock_thing" "b" {
  name = mock_thing.a.name
  tags = { id = mock_thing.a.id, arn = mock_thing.a.arn, zone = mock_thing.a.zone }
  list = [mock_thing.counted[0].id, mock_thing.counted[1].arn]
}
output "o" {
  value = [mock_thing.a.id, mock_thing.a.arn, mock_thing.a.name]
}`}
	for range 5 {
		res, diags := evalFiles(t, files, Options{})
		if diags.HasErrors() {
			t.Fatalf("diagnostics: %s", diags.Error())
		}
		var b *ResourceInstance
		for _, r := range res.Resources {
			if r.Addr == "mock_thing.b" {
				b = r
			}
		}
		if b == nil {
			t.Fatal("mock_thing.b not planned")
		}
		tags := b.Value.GetAttr("tags")
		for _, name := range []string{"id", "arn", "zone"} {
			if v := tags.GetAttr(name); v.IsKnown() {
				t.Errorf("tags.%s = %#v, want unknown", name, v)
			}
		}
	}
}

// TestResourceTypeNamedLikeMode: a managed resource whose type is "data" or
// "ephemeral" has an address (data.a) that starts like a data or ephemeral
// resource's; it is still found and planned (building the graph used to
// dereference nil for it).
func TestResourceTypeNamedLikeMode(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "data" "a" {
  x = 1
}
resource "ephemeral" "b" {
  y = 2
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var addrs []string
	for _, r := range res.Resources {
		addrs = append(addrs, r.Addr)
	}
	if got := strings.Join(addrs, " "); got != "data.a ephemeral.b" {
		t.Errorf("planned %q, want data.a and ephemeral.b", got)
	}
}

// TestResourceRootPrefix: a managed resource can be referred to as
// TYPE.NAME or resource.TYPE.NAME (the only way for a type named like a
// reserved word); a context gets each form only where references use it,
// and either form, alone or together, gives the same value.
func TestResourceRootPrefix(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  input = "a"
}
resource "terraform_data" "b" {
  input = "b"
}
resource "template" "t" {
  x = 3
}
output "both" {
  value = [resource.terraform_data.a.input, terraform_data.b.input, terraform_data.a.input]
}
output "prefixed" {
  value = resource.terraform_data.b.input
}
output "direct" {
  value = terraform_data.a.input
}
output "reserved" {
  value = resource.template.t.x
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := map[string]cty.Value{
		"both":     cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("a")}),
		"prefixed": cty.StringVal("b"),
		"direct":   cty.StringVal("a"),
		"reserved": cty.NumberIntVal(3),
	}
	for name, w := range want {
		if got := res.Root().Outputs[name]; !got.RawEquals(w) {
			t.Errorf("output %s = %#v, want %#v", name, got, w)
		}
	}
	for src, w := range map[string]cty.Value{
		`resource.terraform_data.a.input`:                           cty.StringVal("a"),
		`terraform_data.b.input`:                                    cty.StringVal("b"),
		`[resource.terraform_data.a.input, terraform_data.a.input]`: cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("a")}),
	} {
		if got := mustEval(t, res, src, nil); !got.RawEquals(w) {
			t.Errorf("%s = %#v, want %#v", src, got, w)
		}
	}
}

// TestReplaceTriggerUndeclared: terraform plan reports, for each instance,
// a replace_triggered_by entry naming a resource the module does not
// declare (with the instance's key); validate does not.
func TestReplaceTriggerUndeclared(t *testing.T) {
	files := map[string]string{
		"main.tf": `module "m" { source = "./m" }`,
		"m/main.tf": `resource "terraform_data" "o" {}
resource "terraform_data" "r" {
  count = 2
  lifecycle {
    replace_triggered_by = [terraform_data.nope[count.index].id, terraform_data.o]
  }
}
`,
	}
	_, diags := evalFiles(t, files, Options{})
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary+": "+d.Detail)
	}
	want := []string{
		"Reference to undeclared resource: A resource terraform_data.nope[0] has not been declared in module.m",
		"Reference to undeclared resource: A resource terraform_data.nope[1] has not been declared in module.m",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, diags := evalFiles(t, files, Options{Validate: true}); len(diags) > 0 {
		t.Errorf("validate: %s", diags.Error())
	}
}

// visibleImpliedSpec is impliedSpec as it reads every body, nested ones
// included: through config.VisibleContent.
func visibleImpliedSpec(body hcl.Body) hcldec.ObjectSpec {
	spec := hcldec.ObjectSpec{}
	content := config.VisibleContent(body)
	for name := range content.Attributes {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: cty.DynamicPseudoType}
	}
	blocks := map[string][]*hclsyntax.Body{}
	labelled := map[string]bool{} // by type, whether its first block has one label
	var order []string
	for _, b := range content.Blocks {
		blk, ok := b.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		typ, nested, labels := b.Type, blk, len(b.Labels)
		if typ == "dynamic" {
			if len(b.Labels) == 0 {
				continue
			}
			typ, nested, labels = b.Labels[0], nil, 0
			for _, inner := range blk.Blocks {
				if inner.Type == "content" {
					nested = inner.Body
				}
			}
			if nested == nil {
				continue
			}
			if _, ok := blk.Attributes["labels"]; ok {
				labels = 1
			}
		}
		if _, seen := blocks[typ]; !seen {
			order = append(order, typ)
			labelled[typ] = labels == 1
		}
		blocks[typ] = append(blocks[typ], nested)
	}
	for _, typ := range order {
		nested := hcldec.ObjectSpec{}
		for _, b := range blocks[typ] {
			mergeImpliedSpec(nested, visibleImpliedSpec(b))
		}
		if labelled[typ] {
			spec[typ] = &hcldec.BlockObjectSpec{TypeName: typ, Nested: nested, LabelNames: []string{"key"}}
		} else {
			spec[typ] = &hcldec.BlockTupleSpec{TypeName: typ, Nested: nested}
		}
	}
	return spec
}

// TestImpliedSpecNested: impliedSpec reads nested native-syntax bodies
// directly, and implies what reading them through VisibleContent does,
// on blocks whose label counts differ and on every fixture block.
func TestImpliedSpecNested(t *testing.T) {
	check := func(what string, body hcl.Body) {
		t.Helper()
		if got, want := impliedSpec(body), visibleImpliedSpec(body); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
		}
	}
	forEachParsed(t, []string{
		"a = 1\nb {\n c = 2\n d {\n e = 3\n }\n}\n",
		"b {\n x \"l\" {\n y = 1\n }\n x {\n z = 2\n }\n x \"m\" {\n w = 3\n }\n}\n",
		"b {\n dynamic {\n for_each = []\n }\n dynamic \"d\" {\n content {\n q = 1\n }\n }\n}\n",
		"b {\n dynamic \"d\" {\n content {\n q = 1\n }\n }\n dynamic {\n content {\n r = 1\n }\n }\n dynamic \"d\" \"e\" {\n content {\n s = 1\n }\n }\n}\n",
		"b {\n c = 1\n c {\n d = 2\n }\n}\nb {\n e = 1\n f {}\n}\n",
		"b {\n dynamic \"d\" {\n for_each = x\n }\n d {\n n = 1\n }\n}\n",
		"b {\n dynamic \"d\" {\n for_each = x\n labels = [d.key]\n content {\n n = 1\n }\n }\n d \"k\" {\n m {\n o = 2\n }\n }\n}\n",
	}, check)
	bodies := 0
	parsedFixtures(t, func(path string, body *hclsyntax.Body) {
		for _, b := range body.Blocks {
			bodies++
			check(fmt.Sprintf("%s: %s block", path, b.Type), b.Body)
		}
	})
	if bodies < 200 {
		t.Errorf("only %d fixture blocks compared", bodies)
	}
}

// TestResourceImpliedSpec: a resource's implied spec, read from its
// block's syntax without the meta-arguments config took out, is what
// reading its body through VisibleContent implies, for every resource of
// the fixtures' modules, and for one whose body an override file changed.
func TestResourceImpliedSpec(t *testing.T) {
	compared := 0
	eachFixtureResource(t, func(where string, res *config.Resource) {
		if _, _, ok := res.VisibleSyntax(); ok {
			compared++
		}
		if got, want := resourceImpliedSpec(res), impliedSpec(res.Config); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", where, got, want)
		}
	})
	if compared < 50 {
		t.Errorf("only %d resources read from their syntax", compared)
	}
	override := t.TempDir()
	for name, src := range map[string]string{
		"main.tf":          "resource \"x\" \"a\" {\n  count = 1\n  b = 1\n  lifecycle {}\n  c {}\n}\n",
		"main_override.tf": "resource \"x\" \"a\" {\n  d = 2\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(override, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := config.Load(override, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	res := cfg.Module.ManagedResources["x.a"]
	if _, _, ok := res.VisibleSyntax(); ok {
		t.Error("a body an override file changed is read from the block's syntax")
	}
	if got := resourceImpliedSpec(res); got["d"] == nil || got["b"] == nil || got["count"] != nil {
		t.Errorf("overridden body: %#v", got)
	}
}

// eachFixtureResource calls visit with every resource of the modules of
// the fixtures' directories, named by module and address.
func eachFixtureResource(t *testing.T, visit func(where string, res *config.Resource)) {
	t.Helper()
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		for _, rs := range []map[string]*config.Resource{c.Module.ManagedResources, c.Module.DataResources, c.Module.EphemeralResources} {
			for addr, res := range rs {
				visit(c.Module.SourceDir+": "+addr, res)
			}
		}
		for _, child := range c.Children {
			walk(child)
		}
	}
	dirs := map[string]bool{}
	_ = filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tf") {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	})
	for dir := range dirs {
		if cfg, _ := config.Load(dir, config.Options{}); cfg != nil && cfg.Module != nil {
			walk(cfg)
		}
	}
}

// TestUnsupportedResourceType: with the schema of a resource's provider,
// a type the schema does not have is Terraform's "Invalid resource type"
// (or "Invalid data source") on the type label, and nothing more of the
// block is evaluated, nor what refers to it (terraform validate v1.11.4
// with the aws provider v5.100.0); without that provider's schema, or for
// the built-in terraform_data, there is no such error.
func TestUnsupportedResourceType(t *testing.T) {
	src := `resource "aws_s3_bukcet" "a" {
  name = local.missing
}
data "aws_nope" "d" {}
resource "aws_s3_bucket" "b" {
  bucket = aws_s3_bukcet.a.id
}
resource "terraform_data" "t" {}
resource "google_nope" "g" {}
output "o" {
  value = data.aws_nope.d.y
}
`
	s, err := ParseProviderSchemas([]byte(providerSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, validate := range []bool{false, true} {
		_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{Schemas: s, Validate: validate})
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("%s: %s @%d:%d", d.Summary, d.Detail, d.Subject.Start.Line, d.Subject.Start.Column))
		}
		want := []string{
			`Invalid resource type: The provider hashicorp/aws does not support resource type "aws_s3_bukcet". @1:10`,
			`Invalid data source: The provider hashicorp/aws does not support data source "aws_nope". @4:6`,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("validate=%v:\n%s\nwant:\n%s", validate, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// Terraform finds the types as it builds its graph: a resource that
	// depends on one that failed has its type checked still.
	_, diags := evalFiles(t, map[string]string{"main.tf": `resource "aws_s3_bucket" "a" {
  bucket = local.missing
}
resource "aws_nope" "b" {
  x = aws_s3_bucket.a.id
}
`}, Options{Schemas: s, Validate: true})
	if len(diags) != 2 || diags[0].Summary != "Invalid resource type" || diags[1].Summary != "Reference to undeclared local value" {
		t.Errorf("a dependent of a failed resource: %v", diags)
	}
	// Without a schema, Terraform's graph has only the edges of a block's
	// meta-arguments: a resource whose count, condition or depends_on
	// names an object that failed is not reported (terraform validate
	// v1.11.4), one whose body does still is.
	_, diags = evalFiles(t, map[string]string{"main.tf": `resource "terraform_data" "q" {
  input = lower(7, 8)
}
locals {
  bad = upper(1, 2)
}
resource "aws_nope1" "b1" {
  count = length(terraform_data.q.output)
}
resource "aws_nope2" "b2" {
  lifecycle {
    precondition {
      condition     = terraform_data.q.output == null
      error_message = "x"
    }
  }
}
resource "aws_nope3" "b3" {
  depends_on = [local.bad]
}
resource "aws_nope4" "b4" {
  x = local.bad
}
`}, Options{Schemas: s, Validate: true})
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s@%d", d.Summary, d.Subject.Start.Line))
	}
	if want := "Invalid resource type@21 Too many function arguments@5 Too many function arguments@2"; strings.Join(got, " ") != want {
		t.Errorf("dependents by meta-arguments: %s, want %s", strings.Join(got, " "), want)
	}
	// Nor is what depends on a resource of an unsupported type evaluated
	// (terraform-aws-cloudfront's distribution, which depends on a newer
	// type, reports none of its own errors with the older schema).
	_, diags = evalFiles(t, map[string]string{"main.tf": `resource "aws_nope" "a" {}
resource "aws_s3_bucket" "b" {
  bucket = local.missing
  depends_on = [aws_nope.a]
}
`}, Options{Schemas: s, Validate: true})
	if len(diags) != 1 || diags[0].Summary != "Invalid resource type" {
		t.Errorf("a dependent of an unsupported type: %v", diags)
	}
	if _, diags := evalFiles(t, map[string]string{"main.tf": `resource "aws_s3_bukcet" "a" {}`}, Options{}); diags.HasErrors() {
		t.Errorf("without the schema: %s", diags.Error())
	}
}

// TestUnsupportedTypeConditions: Terraform still checks the conditions of
// a resource, data source or ephemeral resource whose type its provider's
// schema lacks (with unknown count.index and each); a reference to self
// there is "Invalid resource type", after which the condition is evaluated
// with no named value at all. An ephemeral resource of a type the schema
// lacks is "Invalid ephemeral resource", and what refers to it is not
// evaluated (terraform validate v1.11.4 with the aws provider v5.100.0).
func TestUnsupportedTypeConditions(t *testing.T) {
	src := `resource "aws_bogus" "y" {
  count = 2
  lifecycle {
    precondition {
      condition     = count.index == 1 && local.nope
      error_message = "x ${var.undefined_a}"
    }
    postcondition {
      condition     = self.foo == var.undefined_b
      error_message = "y"
    }
  }
}
data "aws_bogus_ds" "d" {
  lifecycle {
    postcondition {
      condition     = self.foo == 1
      error_message = "z"
    }
  }
}
ephemeral "aws_bogus_eph" "e" {}
output "o" {
  value     = ephemeral.aws_bogus_eph.e.name
  ephemeral = false
}
`
	s, err := ParseProviderSchemas([]byte(providerSchema))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`Invalid data source: The provider hashicorp/aws does not support data source "aws_bogus_ds". @14:6`,
		`Invalid ephemeral resource: The provider hashicorp/aws does not support ephemeral resource "aws_bogus_eph". @22:11`,
		`Invalid resource type: A data resource type "aws_bogus_ds" is not supported by provider "registry.terraform.io/hashicorp/aws". @17:23`,
		`Invalid resource type: A managed resource type "aws_bogus" is not supported by provider "registry.terraform.io/hashicorp/aws". @9:23`,
		`Invalid resource type: The provider hashicorp/aws does not support resource type "aws_bogus". @1:10`,
		`Reference to undeclared input variable: An input variable with the name "undefined_a" has not been declared. This variable can be declared with a variable "undefined_a" {} block. @6:28`,
		`Reference to undeclared local value: A local value with the name "nope" has not been declared. @5:43`,
		`Unknown variable: There is no variable named "self". @17:23`,
		`Unknown variable: There is no variable named "self". @9:23`,
		`Unknown variable: There is no variable named "var". @9:35`,
	}
	for _, validate := range []bool{false, true} {
		_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{Schemas: s, Validate: validate})
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("%s: %s @%d:%d", d.Summary, d.Detail, d.Subject.Start.Line, d.Subject.Start.Column))
		}
		slices.Sort(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("validate=%v:\n%s\nwant:\n%s", validate, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
