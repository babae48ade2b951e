package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// bucketSchema is a small schema of aws_s3_bucket, for the evaluations
// with a schema of TestOpenObjectOutputs.
func bucketSchema(t *testing.T) *ProviderSchemas {
	t.Helper()
	s, err := ParseProviderSchemas([]byte(`{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
 "resource_schemas":{
  "aws_s3_bucket":{"block":{"attributes":{
   "id":{"type":"string","computed":true},
   "arn":{"type":"string","computed":true},
   "bucket":{"type":"string","optional":true,"computed":true},
   "tags":{"type":["map","string"],"optional":true}}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// openRootOutputs evaluates files, with the bucket schema when schema is
// set, and returns the root module's outputs as reported.
func openRootOutputs(t *testing.T, files map[string]string, schema bool) map[string]cty.Value {
	t.Helper()
	res, _ := openEval(t, files, schema)
	return res.Root().Outputs
}

// openEval evaluates files, with the bucket schema when schema is set,
// and fails the test on an error.
func openEval(t *testing.T, files map[string]string, schema bool) (*Result, hcl.Diagnostics) {
	t.Helper()
	opts := Options{}
	if schema {
		opts.Schemas = bucketSchema(t)
	}
	res, diags := evalFiles(t, files, opts)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return res, diags
}

// openKind is what TestOpenObjectOutputs wants of an output.
type openKind int

const (
	// openUnknown: unknown without a schema, marked Unread NoSchema with
	// the address, and not unknown at the top with the schema.
	openUnknown openKind = iota
	// openKnown: known, without and with the schema.
	openKnown
	// openAttrUnknown: an attribute tfeval does not know, unknown both
	// ways, as before.
	openAttrUnknown
	// openPartly: known at the top without a schema, with the given
	// parts (want) unknown and marked with the address.
	openPartly
)

// TestOpenObjectOutputs: without a provider schema, an output whose value
// is, or holds, a whole object of a managed resource is unknown there
// (tfeval does not know all of the object's attributes), marked Unread
// NoSchema with the resource's address; with the schema it is the object.
// Attributes read from such an object, through every way of reaching it,
// and what is built from a resource's instances (not their attributes)
// stay as they were.
func TestOpenObjectOutputs(t *testing.T) {
	type want struct {
		kind openKind
		addr string
		// paths, for openPartly, are the parts that are unknown.
		paths []cty.Path
		// value, for openKnown, is the value wanted without schema.
		value cty.Value
	}
	files := map[string]string{"main.tf": `
variable "create" {
  default = false
}
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
resource "aws_s3_bucket" "c" {
  count  = 2
  bucket = "c${count.index}"
}
resource "aws_s3_bucket" "e" {
  for_each = toset(["p", "q"])
  bucket   = each.key
}
resource "aws_s3_bucket" "maybe" {
  count  = var.create ? 1 : 0
  bucket = "m"
}
module "m" {
  source = "./m"
  bucket = aws_s3_bucket.b
}
locals {
  b    = aws_s3_bucket.b
  both = { b = aws_s3_bucket.b, name = "n" }
}
output "whole" { value = aws_s3_bucket.b }
output "local" { value = local.b }
output "in_object" { value = local.both }
output "count" { value = aws_s3_bucket.c }
output "count_one" { value = aws_s3_bucket.c[1] }
output "for_each" { value = aws_s3_bucket.e }
output "splat" { value = aws_s3_bucket.b[*] }
output "values" { value = values(aws_s3_bucket.e) }
output "for_instances" { value = [for b in aws_s3_bucket.c : b] }
output "absent" { value = var.create ? aws_s3_bucket.maybe[0] : null }
output "try_absent" { value = try(aws_s3_bucket.maybe[0], null) }
output "module_whole" { value = module.m.bucket }
output "module_var" { value = module.m.given }
output "module_all" { value = module.m }

output "arn" { value = aws_s3_bucket.b.arn }
output "name" { value = aws_s3_bucket.b.bucket }
output "local_name" { value = local.b.bucket }
output "module_arn" { value = module.m.bucket.arn }
output "module_name" { value = module.m.bucket.bucket }
output "module_var_name" { value = module.m.given.bucket }
output "names" { value = [for b in aws_s3_bucket.c : b.bucket] }
output "splat_names" { value = aws_s3_bucket.c[*].bucket }
output "values_names" { value = values(aws_s3_bucket.e)[*].bucket }
output "instances" { value = length(aws_s3_bucket.c) }
output "instance_keys" { value = keys(aws_s3_bucket.e) }
output "both_name" { value = local.both.name }
`,
		"m/main.tf": `
variable "bucket" {}
resource "aws_s3_bucket" "m" {
  bucket = "m"
}
output "bucket" { value = aws_s3_bucket.m }
output "given" { value = var.bucket }
`}
	part := func(steps ...any) cty.Path {
		var p cty.Path
		for _, s := range steps {
			switch s := s.(type) {
			case string:
				p = p.GetAttr(s)
			case int:
				p = p.IndexInt(s)
			}
		}
		return p
	}
	wants := map[string]want{
		"whole":         {kind: openUnknown, addr: "aws_s3_bucket.b"},
		"local":         {kind: openUnknown, addr: "aws_s3_bucket.b"},
		"in_object":     {kind: openPartly, addr: "aws_s3_bucket.b", paths: []cty.Path{part("b")}},
		"count":         {kind: openPartly, addr: "aws_s3_bucket.c", paths: []cty.Path{part(0), part(1)}},
		"count_one":     {kind: openUnknown, addr: "aws_s3_bucket.c"},
		"for_each":      {kind: openPartly, addr: "aws_s3_bucket.e", paths: []cty.Path{part("p"), part("q")}},
		"splat":         {kind: openPartly, addr: "aws_s3_bucket.b", paths: []cty.Path{part(0)}},
		"values":        {kind: openPartly, addr: "aws_s3_bucket.e", paths: []cty.Path{part(0), part(1)}},
		"for_instances": {kind: openPartly, addr: "aws_s3_bucket.c", paths: []cty.Path{part(0), part(1)}},
		"absent":        {kind: openKnown, value: cty.NullVal(cty.DynamicPseudoType)},
		"try_absent":    {kind: openKnown, value: cty.NullVal(cty.DynamicPseudoType)},
		"module_whole":  {kind: openUnknown, addr: "module.m.aws_s3_bucket.m"},
		"module_var":    {kind: openUnknown, addr: "aws_s3_bucket.b"},
		"module_all":    {kind: openPartly, addr: "module.m.aws_s3_bucket.m", paths: []cty.Path{part("bucket")}},

		"arn":             {kind: openAttrUnknown},
		"name":            {kind: openKnown, value: cty.StringVal("x")},
		"local_name":      {kind: openKnown, value: cty.StringVal("x")},
		"module_arn":      {kind: openAttrUnknown},
		"module_name":     {kind: openKnown, value: cty.StringVal("m")},
		"module_var_name": {kind: openKnown, value: cty.StringVal("x")},
		"names":           {kind: openKnown, value: cty.TupleVal([]cty.Value{cty.StringVal("c0"), cty.StringVal("c1")})},
		"splat_names":     {kind: openKnown, value: cty.TupleVal([]cty.Value{cty.StringVal("c0"), cty.StringVal("c1")})},
		"values_names":    {kind: openKnown, value: cty.TupleVal([]cty.Value{cty.StringVal("p"), cty.StringVal("q")})},
		"instances":       {kind: openKnown, value: cty.NumberIntVal(2)},
		"instance_keys":   {kind: openKnown, value: cty.TupleVal([]cty.Value{cty.StringVal("p"), cty.StringVal("q")})},
		"both_name":       {kind: openKnown, value: cty.StringVal("n")},
	}
	for _, schema := range []bool{false, true} {
		outs := openRootOutputs(t, files, schema)
		for name, w := range wants {
			got, ok := outs[name]
			if !ok {
				t.Errorf("schema %v: output %s missing", schema, name)
				continue
			}
			switch {
			case w.kind == openKnown && !schema:
				if g, _ := got.UnmarkDeep(); !g.RawEquals(w.value) {
					t.Errorf("output %s = %#v, want %#v", name, got, w.value)
				}
			case w.kind == openKnown && schema:
				if !got.IsWhollyKnown() && !got.Type().IsTupleType() && !got.Type().IsListType() && !got.Type().IsPrimitiveType() && !got.IsNull() {
					t.Errorf("schema: output %s = %#v, want known", name, got)
				}
			case w.kind == openAttrUnknown:
				if got.IsKnown() {
					t.Errorf("schema %v: output %s = %#v, want unknown", schema, name, got)
				}
			case schema:
				// With the schema the object is the object: known at
				// the top, and nothing in it marked unread.
				if !got.IsKnown() || marks.HasUnread(got) {
					t.Errorf("schema: output %s = %#v, want the object", name, got)
				}
			case w.kind == openUnknown:
				checkOpen(t, name, got, w.addr)
			case w.kind == openPartly:
				if !got.IsKnown() {
					t.Errorf("output %s = %#v, want known at the top", name, got)
					continue
				}
				for _, p := range w.paths {
					part, err := p.Apply(got)
					if err != nil {
						t.Errorf("output %s: %s", name, err)
						continue
					}
					checkOpen(t, name, part, w.addr)
				}
			}
		}
	}
}

// checkOpen checks that v is a whole object of resource addr made unknown.
func checkOpen(t *testing.T, name string, v cty.Value, addr string) {
	t.Helper()
	if v.IsKnown() {
		t.Errorf("output %s = %#v, want unknown", name, v)
		return
	}
	want := marks.Unread{Cause: marks.NoSchema, Addr: addr}
	if !v.HasMark(want) {
		t.Errorf("output %s = %#v, want marked %#v", name, v, want)
	}
}

// TestOpenObjectReadOutputs: the value read from an output holding a
// whole object (a test run's output.NAME, run.NAME) is still the object.
func TestOpenObjectReadOutputs(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
output "whole" { value = aws_s3_bucket.b }
output "name" { value = "n" }`}, Options{Reads: []hcl.Expression{mustExpr(t, "output.whole.arn")}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	root := res.Root()
	if root.Outputs["whole"].IsKnown() {
		t.Errorf("Outputs[whole] = %#v, want unknown", root.Outputs["whole"])
	}
	read := root.ReadOutputs()
	w := read["whole"]
	if !w.IsKnown() || !w.Type().IsObjectType() || !w.Type().HasAttribute("arn") {
		t.Fatalf("ReadOutputs()[whole] = %#v, want the object with arn", w)
	}
	if g, _ := w.GetAttr("bucket").Unmark(); !g.RawEquals(cty.StringVal("x")) {
		t.Errorf("ReadOutputs()[whole].bucket = %#v", g)
	}
	if !read["name"].RawEquals(cty.StringVal("n")) {
		t.Errorf("ReadOutputs()[name] = %#v", read["name"])
	}
}

func mustExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return e
}

// TestOpenObjectSinks: without a provider schema, an operation that
// observes the attributes of a whole object of a managed resource (keys,
// length, values, merge, tomap, jsonencode, a for expression over it, ==)
// gives an unknown marked Unread NoSchema with the resource's address;
// with the schema nothing is unread. The same operations on what tfeval
// knows (a resource's instances, an attribute's value, null) stay known.
func TestOpenObjectSinks(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "aws_s3_bucket" "b" {
  bucket = "x"
  tags   = { a = "1" }
}
resource "aws_s3_bucket" "c" {
  count  = 2
  bucket = "c${count.index}"
}
resource "aws_s3_bucket" "e" {
  for_each = toset(["p", "q"])
  bucket   = each.key
}
module "m" {
  source = "./m"
}
locals {
  b     = aws_s3_bucket.b
  key   = "arn"
  name  = "bucket"
  ekey  = "p"
  tag   = "a"
}
output "keys" { value = keys(aws_s3_bucket.b) }
output "index_key" { value = aws_s3_bucket.b[local.key] }
output "index_name" { value = aws_s3_bucket.b[local.name] }
output "lookup_key" { value = lookup(aws_s3_bucket.b, local.key, "none") }
output "try_index" { value = try(local.b[local.key], "none") }
output "filtered" { value = { for k, v in aws_s3_bucket.b : k => v if k != "tags" } }
output "coalesce" { value = coalesce(local.b, aws_s3_bucket.b) }
output "template" { value = templatefile("${path.module}/keys.tpl", { b = aws_s3_bucket.b }) }
output "length" { value = length(local.b) }
output "values" { value = values(aws_s3_bucket.b) }
output "merge" { value = merge(aws_s3_bucket.b, { extra = 1 }) }
output "jsonencode" { value = jsonencode({ b = aws_s3_bucket.b }) }
output "yamlencode" { value = yamlencode([aws_s3_bucket.b]) }
output "for" { value = [for k, v in aws_s3_bucket.b : k] }
output "for_module" { value = { for k, v in module.m.bucket : k => v } }
output "equal" { value = aws_s3_bucket.b == aws_s3_bucket.c[0] }
output "contains" { value = contains(aws_s3_bucket.c, aws_s3_bucket.c[0]) }
output "each_json" { value = [for b in aws_s3_bucket.c : jsonencode(b)] }

output "not_null" { value = aws_s3_bucket.b != null }
output "instances" { value = length(aws_s3_bucket.c) }
output "instance_keys" { value = keys(aws_s3_bucket.e) }
output "instance_ids" { value = [for b in aws_s3_bucket.c : b.bucket] }
output "tag_keys" { value = keys(aws_s3_bucket.b.tags) }
output "name_equal" { value = aws_s3_bucket.b.bucket == "x" }
output "literal_keys" { value = keys({ bucket = "x", tags = {} }) }
output "instance_index" { value = aws_s3_bucket.e[local.ekey].bucket }
output "tag_index" { value = aws_s3_bucket.b.tags[local.tag] }
output "tag_lookup" { value = lookup(aws_s3_bucket.b.tags, local.tag, "") }
output "name_coalesce" { value = coalesce(aws_s3_bucket.b.bucket, "d") }
output "template_attr" { value = templatefile("${path.module}/attr.tpl", { b = aws_s3_bucket.b }) }
output "copied" { value = { for k, v in aws_s3_bucket.e : k => v.bucket if k != "q" } }
`,
		"keys.tpl": "%{ for k, v in b }${k},%{ endfor }",
		"attr.tpl": "name=${b.bucket}",
		"m/main.tf": `
resource "aws_s3_bucket" "m" {
  bucket = "m"
}
output "bucket" { value = aws_s3_bucket.m }
`}
	unknown := map[string]string{
		"keys":       "aws_s3_bucket.b",
		"length":     "aws_s3_bucket.b",
		"values":     "aws_s3_bucket.b",
		"merge":      "aws_s3_bucket.b",
		"jsonencode": "aws_s3_bucket.b",
		"yamlencode": "aws_s3_bucket.b",
		"for":        "aws_s3_bucket.b",
		"for_module": "module.m.aws_s3_bucket.m",
		"equal":      "aws_s3_bucket.b",
		"contains":   "aws_s3_bucket.c",
		// An index or lookup by a key known only when evaluated may
		// name an attribute tfeval's object does not have: an error
		// Terraform does not make, or a default it does not take.
		"index_key":  "aws_s3_bucket.b",
		"index_name": "aws_s3_bucket.b",
		"lookup_key": "aws_s3_bucket.b",
		"try_index":  "aws_s3_bucket.b",
		"filtered":   "aws_s3_bucket.b",
		"coalesce":   "aws_s3_bucket.b",
		// A template that goes over the object's attributes.
		"template": "aws_s3_bucket.b",
	}
	known := map[string]cty.Value{
		"not_null":       cty.True,
		"instances":      cty.NumberIntVal(2),
		"instance_keys":  cty.TupleVal([]cty.Value{cty.StringVal("p"), cty.StringVal("q")}),
		"instance_ids":   cty.TupleVal([]cty.Value{cty.StringVal("c0"), cty.StringVal("c1")}),
		"tag_keys":       cty.TupleVal([]cty.Value{cty.StringVal("a")}),
		"name_equal":     cty.True,
		"literal_keys":   cty.TupleVal([]cty.Value{cty.StringVal("bucket"), cty.StringVal("tags")}),
		"instance_index": cty.StringVal("p"),
		"tag_index":      cty.StringVal("1"),
		"tag_lookup":     cty.StringVal("1"),
		"name_coalesce":  cty.StringVal("x"),
		"template_attr":  cty.StringVal("name=x"),
		"copied":         cty.ObjectVal(map[string]cty.Value{"p": cty.StringVal("p")}),
	}
	for _, schema := range []bool{false, true} {
		outs := openRootOutputs(t, files, schema)
		for name, addr := range unknown {
			got := outs[name]
			if schema {
				if marks.HasUnread(got) {
					t.Errorf("schema: output %s = %#v, want nothing unread", name, got)
				}
				continue
			}
			checkOpen(t, name, got, addr)
		}
		each := outs["each_json"]
		if schema {
			if marks.HasUnread(each) {
				t.Errorf("schema: output each_json = %#v, want nothing unread", each)
			}
		} else if !each.IsKnown() || each.LengthInt() != 2 {
			t.Errorf("output each_json = %#v, want a tuple of two", each)
		} else {
			for i := range 2 {
				checkOpen(t, "each_json", each.Index(cty.NumberIntVal(int64(i))), "aws_s3_bucket.c")
			}
		}
		for name, want := range known {
			// A tuple wanted is a tuple or a list.
			checkNoSchemaValue(t, name, outs[name], want)
		}
	}
}

// TestOpenObjectNestedSinks: an operation both observing and observed
// (jsonencode of tomap of an object holding a whole object) has the
// object unknown and its result marked.
func TestOpenObjectNestedSinks(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
output "nested" { value = jsonencode(tomap({ a = aws_s3_bucket.b })) }
output "length_of_for" { value = length([for k, v in aws_s3_bucket.b : k]) }`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, name := range []string{"nested", "length_of_for"} {
		checkOpen(t, name, res.Root().Outputs[name], "aws_s3_bucket.b")
	}
}

// TestOpenObjectForEach: for_each set to a whole object of a managed
// resource without schema iterates its attributes, which tfeval does not
// know all of: the instances are not known (one placeholder, with
// Terraform's planning warning); with the schema they are its attributes.
// A for_each over a resource's instances stays known.
func TestOpenObjectForEach(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
resource "aws_s3_bucket" "e" {
  for_each = toset(["p", "q"])
  bucket   = each.key
}
resource "null_resource" "attrs" {
  for_each = aws_s3_bucket.b
}
resource "null_resource" "instances" {
  for_each = aws_s3_bucket.e
}
module "m" {
  source   = "./m"
  for_each = aws_s3_bucket.b
}
output "attrs" { value = keys(null_resource.attrs) }
output "calls" { value = keys(module.m) }
output "instances" { value = keys(null_resource.instances) }
`, "m/main.tf": `
output "k" { value = "k" }
`}
	for _, schema := range []bool{false, true} {
		res, diags := openEval(t, files, schema)
		var notKnown int
		for _, d := range diags {
			if d.Summary == "Instances not known" {
				notKnown++
			}
		}
		outs := res.Root().Outputs
		checkNoSchemaValue(t, "instances", outs["instances"], cty.TupleVal([]cty.Value{cty.StringVal("p"), cty.StringVal("q")}))
		if schema {
			want := cty.TupleVal([]cty.Value{cty.StringVal("arn"), cty.StringVal("bucket"), cty.StringVal("id"), cty.StringVal("tags")})
			checkNoSchemaValue(t, "attrs", outs["attrs"], want)
			checkNoSchemaValue(t, "calls", outs["calls"], want)
			if notKnown != 0 {
				t.Errorf("schema: %d warnings Instances not known, want none", notKnown)
			}
			continue
		}
		checkOpen(t, "attrs", outs["attrs"], "aws_s3_bucket.b")
		checkOpen(t, "calls", outs["calls"], "aws_s3_bucket.b")
		if notKnown != 2 {
			t.Errorf("%d warnings Instances not known, want 2", notKnown)
		}
	}
}

// TestOpenObjectConsole: console input (Result.EvalExpr,
// EvalExprInModule), which the read analysis does not see, that observes
// a whole object of a resource without schema is unknown, marked with the
// resource; what reads attributes or instances is known; with the schema
// all of it is known.
func TestOpenObjectConsole(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
resource "aws_s3_bucket" "c" {
  count  = 2
  bucket = "c${count.index}"
  tags   = { k = "v" }
}
locals {
  key = "arn"
}
`}
	observes := map[string]string{
		`keys(aws_s3_bucket.b)`:                      "aws_s3_bucket.b",
		`length(aws_s3_bucket.c[0])`:                 "aws_s3_bucket.c",
		`aws_s3_bucket.b == { bucket = "x" }`:        "aws_s3_bucket.b",
		`jsonencode({ b = aws_s3_bucket.b })`:        "aws_s3_bucket.b",
		`[for k, v in aws_s3_bucket.b : k]`:          "aws_s3_bucket.b",
		`lookup(aws_s3_bucket.b, local.key, "none")`: "aws_s3_bucket.b",
	}
	reads := map[string]cty.Value{
		`aws_s3_bucket.b.bucket`:                cty.StringVal("x"),
		`length(aws_s3_bucket.c)`:               cty.NumberIntVal(2),
		`aws_s3_bucket.b != null`:               cty.True,
		`[for b in aws_s3_bucket.c : b.bucket]`: cty.TupleVal([]cty.Value{cty.StringVal("c0"), cty.StringVal("c1")}),
	}
	for _, schema := range []bool{false, true} {
		res, _ := openEval(t, files, schema)
		eval := func(src string) cty.Value {
			v, diags := res.EvalExpr(mustExpr(t, src), nil)
			if diags.HasErrors() {
				t.Fatalf("schema %v, %s: %s", schema, src, diags.Error())
			}
			// EvalExprInModule, the query API, gives the same.
			if in, _ := res.EvalExprInModule(mustExpr(t, src), ""); !in.RawEquals(v) {
				t.Errorf("schema %v, %s: EvalExprInModule %#v, EvalExpr %#v", schema, src, in, v)
			}
			return v
		}
		for src, addr := range observes {
			v := eval(src)
			if schema {
				if marks.HasUnread(v) {
					t.Errorf("schema: %s = %#v, want nothing unread", src, v)
				}
				continue
			}
			checkOpen(t, src, v, addr)
		}
		for src, want := range reads {
			if g, _ := eval(src).UnmarkDeep(); !g.RawEquals(want) {
				t.Errorf("schema %v, %s = %#v, want %#v", schema, src, g, want)
			}
		}
	}
}

// TestOpenObjectSameShape: objects of two resources without schema with
// the same attribute names cannot be told apart by them: where a whole
// object of that shape may come from either (an output choosing between
// them, console input), its stand-in is marked with both, not with
// whichever was found last; where the analysis knows which reaches the
// value, with that one.
func TestOpenObjectSameShape(t *testing.T) {
	res, _ := openEval(t, map[string]string{"main.tf": `
variable "pick" {
  default = true
}
resource "aws_s3_bucket" "a" {
  bucket = "a"
}
resource "aws_s3_bucket" "b" {
  bucket = "b"
}
output "a" { value = aws_s3_bucket.a }
output "either" { value = var.pick ? aws_s3_bucket.a : aws_s3_bucket.b }
`}, false)
	a := marks.Unread{Cause: marks.NoSchema, Addr: "aws_s3_bucket.a"}
	b := marks.Unread{Cause: marks.NoSchema, Addr: "aws_s3_bucket.b"}
	outs := res.Root().Outputs
	if v := outs["a"]; v.IsKnown() || !v.HasMark(a) || v.HasMark(b) {
		t.Errorf("output a = %#v, want unknown marked for aws_s3_bucket.a alone", v)
	}
	console, _ := res.EvalExpr(mustExpr(t, "keys(aws_s3_bucket.b)"), nil)
	for name, v := range map[string]cty.Value{"either": outs["either"], "console": console} {
		if v.IsKnown() || !v.HasMark(a) || !v.HasMark(b) {
			t.Errorf("%s = %#v, want unknown marked for both", name, v)
		}
	}
	v, _ := res.EvalExpr(mustExpr(t, "aws_s3_bucket.b"), nil)
	if addr, ok := res.WholeObjectWithoutSchema(v, false); !ok || addr != "aws_s3_bucket.a" {
		t.Errorf("WholeObjectWithoutSchema = %q, %v; want the first address, aws_s3_bucket.a", addr, ok)
	}
}
