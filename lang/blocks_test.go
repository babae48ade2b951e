package lang

import (
	"context"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// blockTestSchemas are the schemas the block decoder is compared with
// dynblock and hcldec on: every nesting mode, a nested block inside a
// block, attributes of any type (which make a list a tuple, and can make
// a set's elements differ), bounds on block counts and required blocks.
func blockTestSchemas() map[string]hcldec.ObjectSpec {
	leaf := &Block{Attributes: map[string]*Attribute{
		"port":  {Type: cty.Number, Optional: true},
		"proto": {Type: cty.String, Optional: true},
		"any":   {Type: cty.DynamicPseudoType, Optional: true},
	}}
	pair := &Block{Attributes: map[string]*Attribute{
		"name":  {Type: cty.String, Optional: true},
		"value": {Type: cty.String, Optional: true},
	}}
	loose := &Block{
		Attributes: map[string]*Attribute{
			"name": {Type: cty.String, Optional: true},
			"tags": {Type: cty.Map(cty.String), Optional: true},
			"obj":  {Type: cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.Number}, []string{"b"}), Optional: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"rule": {Nesting: NestingSet, Block: leaf},
			"setting": {Nesting: NestingList, MaxItems: 3, Block: &Block{
				Attributes: pair.Attributes,
				BlockTypes: map[string]*NestedBlock{"sub": {Nesting: NestingList, Block: pair}},
			}},
			"single": {Nesting: NestingSingle, Block: pair},
			"group":  {Nesting: NestingGroup, Block: pair},
			"dyn":    {Nesting: NestingList, Block: leaf},
			"pairs":  {Nesting: NestingSet, Block: pair},
		},
	}
	strict := &Block{
		Attributes: map[string]*Attribute{"name": {Type: cty.String, Required: true}},
		BlockTypes: map[string]*NestedBlock{
			"single":  {Nesting: NestingSingle, MinItems: 1, MaxItems: 1, Block: pair},
			"setting": {Nesting: NestingList, MinItems: 1, MaxItems: 2, Block: pair},
		},
	}
	return map[string]hcldec.ObjectSpec{"loose": loose.decoderSpec(), "strict": strict.decoderSpec()}
}

func blockTestContext() *hcl.EvalContext {
	rules := cty.ListVal([]cty.Value{
		cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "proto": cty.StringVal("tcp")}),
		cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443), "proto": cty.StringVal("https")}),
	})
	return &hcl.EvalContext{Variables: map[string]cty.Value{
		"rules": rules,
		"m":     cty.MapVal(map[string]cty.Value{"b": cty.StringVal("y"), "a": cty.StringVal("x")}),
		"o":     cty.ObjectVal(map[string]cty.Value{"z": cty.NumberIntVal(1), "a": cty.StringVal("two")}),
		"s":     cty.SetVal([]cty.Value{cty.StringVal("q"), cty.StringVal("p")}),
		"t":     cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x"), cty.True}),
		"e":     cty.ListValEmpty(cty.String),
		"u":     cty.UnknownVal(cty.List(cty.String)),
		"uel":   cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
		"sec":   cty.ListVal([]cty.Value{cty.StringVal("p")}).Mark("sensitive"),
		"secel": cty.ListVal([]cty.Value{cty.StringVal("p").Mark("sensitive"), cty.StringVal("q")}),
		"n":     cty.NullVal(cty.List(cty.String)),
		"str":   cty.StringVal("abc"),
		"each":  cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("k"), "value": cty.ObjectVal(map[string]cty.Value{"labels": cty.MapVal(map[string]cty.Value{"x": cty.StringVal("1")})})}),
	}}
}

// blockTestCases are bodies with what the block decoder should do with
// them: take them (fast) or leave them to dynblock and hcldec.
var blockTestCases = []struct {
	src  string
	fast map[string]bool // schema name → fast path expected
}{
	{`name = "a"`, map[string]bool{"loose": true}},
	{"name = \"a\"\nrule {\n  port = 1\n}\nrule {\n  port = 2\n  proto = \"x\"\n}\nsingle {\n  name = \"s\"\n}", map[string]bool{"loose": true}},
	{"name = \"a\"\nsingle {\n  name = \"s\"\n}\nsetting {\n  name = \"x\"\n}", map[string]bool{"loose": true, "strict": true}},
	{"dynamic \"rule\" {\n  for_each = [for r in rules : r if r.port > 100]\n  content {\n    port  = rule.value.port\n    proto = rule.value.proto\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = each.value.labels\n  iterator = label\n  content {\n    name  = label.key\n    value = label.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = m\n  content {\n    name  = setting.key\n    value = setting.value\n  }\n}\nsetting {\n  name = \"static\"\n}", map[string]bool{"loose": true}},
	{"setting {\n  name = \"first\"\n}\ndynamic \"setting\" {\n  for_each = o\n  content {\n    name = setting.key\n    value = setting.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"pairs\" {\n  for_each = s\n  content {\n    name = pairs.key\n    value = pairs.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"dyn\" {\n  for_each = t\n  content {\n    any = dyn.value\n    port = dyn.key\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"rule\" {\n  for_each = t\n  content {\n    any = rule.value\n  }\n}", nil},
	{"dynamic \"rule\" {\n  for_each = [1, 2]\n  content {\n    any = rule.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = e\n  content {\n    name = setting.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = rules\n  content {\n    name = setting.value.proto\n    dynamic \"sub\" {\n      for_each = [1, 2]\n      content {\n        name  = \"${setting.key}-${sub.value}\"\n        value = setting.value.proto\n      }\n    }\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = [\"x\"]\n  iterator = it\n  content {\n    name = it.value\n    dynamic \"sub\" {\n      for_each = [\"y\"]\n      iterator = it\n      content {\n        name = it.value\n      }\n    }\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"single\" {\n  for_each = [\"x\"]\n  content {\n    name = single.value\n  }\n}\ndynamic \"group\" {\n  for_each = []\n  content {\n    name = group.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = uel\n  content {\n    name = setting.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = m\n  content {\n    name  = str\n    value = setting.value\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = rules\n  content {\n    name  = \"${setting.value.proto}-x\"\n    value = setting.value.proto\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"rule\" {\n  for_each = rules\n  content {\n    port  = rule.value[\"port\"]\n    proto = rule.value.proto\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"setting\" {\n  for_each = secel\n  content {\n    name  = setting.value\n    value = setting.key\n  }\n}", map[string]bool{"loose": true}},
	{"dynamic \"rule\" {\n  for_each = rules\n  content {\n    port  = rule.value.nope\n  }\n}", nil},
	{"dynamic \"rule\" {\n  for_each = rules\n  content {\n    port  = rule.other\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = secel\n  content {\n    name = setting.value\n  }\n}", map[string]bool{"loose": true}},
	{"name = \"a\"\nsingle {\n  name = \"s\"\n}\ndynamic \"setting\" {\n  for_each = [\"x\", \"y\"]\n  content {\n    name = setting.value\n  }\n}", map[string]bool{"strict": true, "loose": true}},
	// Everything below is left to dynblock and hcldec.
	{"dynamic \"setting\" {\n  for_each = u\n  content {\n    name = setting.value\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = sec\n  content {\n    name = setting.value\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = n\n  content {\n    name = setting.value\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = str\n  content {\n    name = setting.value\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = missing\n  content {\n    name = setting.value\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = [1]\n  labels = [\"x\"]\n  content {\n    name = setting.value\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = [1]\n}", nil},
	{"dynamic \"setting\" {\n  for_each = [1]\n  content {}\n  content {}\n}", nil},
	{"dynamic \"setting\" {\n  for_each = [1]\n  iterator = a.b\n  content {}\n}", nil},
	{"dynamic \"nope\" {\n  for_each = [1]\n  content {}\n}", nil},
	{"dynamic \"setting\" \"extra\" {\n  for_each = [1]\n  content {}\n}", nil},
	{"dynamic \"setting\" {\n  for_each = [1, 2, 3, 4]\n  content {\n    name = setting.value\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = [1]\n  content {\n    name = [setting.value]\n  }\n}", nil},
	{"dynamic \"setting\" {\n  for_each = [1]\n  content {\n    nope = 1\n  }\n}", nil},
	{"dynamic \"single\" {\n  for_each = [\"x\", \"y\"]\n  content {\n    name = single.value\n  }\n}", nil},
	{"dynamic \"rule\" {\n  for_each = [1, \"x\"]\n  content {\n    any = rule.value\n  }\n}", nil},
	{"single {}\nsingle {}", nil},
	{"name = [1]", nil},
	{"unknown {}", nil},
	{"name = missing", nil},
}

// TestBlockDecoderMatchesDynblock decodes bodies with the block decoder
// and with dynblock and hcldec: where the decoder takes a body, hcldec
// must give the same value and no diagnostics.
func TestBlockDecoderMatchesDynblock(t *testing.T) {
	specs := blockTestSchemas()
	ctx := blockTestContext()
	lim := newLimiter(context.Background(), Limits{})
	for name, spec := range specs {
		dec := newBlockDecoder(spec)
		if dec == nil {
			t.Fatalf("%s: no decoder", name)
		}
		for _, tc := range blockTestCases {
			body := parseBody(t, tc.src)
			guarded := newGuardedBody(body, lim)
			// The guarded body remembers its contents; the second round
			// reads them back.
			for round, b := range []hcl.Body{body, guarded, guarded} {
				fast := checkBlockDecoder(t, dec, spec, b, ctx, tc.src)
				if fast != tc.fast[name] {
					t.Errorf("%s, %q (round %d): fast path %v, want %v", name, tc.src, round, fast, tc.fast[name])
				}
			}
		}
	}
}

// checkBlockDecoder compares the block decoder with dynblock and hcldec on
// one body and reports whether the decoder took it.
func checkBlockDecoder(t *testing.T, dec *blockDecoder, spec hcldec.Spec, body hcl.Body, ctx *hcl.EvalContext, src string) bool {
	t.Helper()
	attrs, ok := dec.decode(body, ctx, nil)
	want, diags := hcldec.Decode(dynblock.Expand(body, ctx), spec, ctx)
	if !ok {
		return false
	}
	if len(diags) != 0 {
		t.Errorf("%q: decoded, but hcldec reports %s", src, diags.Error())
		return true
	}
	if got := cty.ObjectVal(attrs); !got.RawEquals(want) {
		t.Errorf("%q:\n got %#v\nwant %#v", src, got, want)
	}
	return true
}

func TestNewBlockDecoderRefuses(t *testing.T) {
	for name, spec := range map[string]hcldec.Spec{
		"labels":  hcldec.ObjectSpec{"b": &hcldec.BlockMapSpec{TypeName: "b", LabelNames: []string{"key"}, Nested: hcldec.ObjectSpec{}}},
		"dynamic": hcldec.ObjectSpec{"b": &hcldec.BlockListSpec{TypeName: "dynamic", Nested: hcldec.ObjectSpec{}}},
		"nested":  hcldec.ObjectSpec{"b": &hcldec.BlockListSpec{TypeName: "b", Nested: &hcldec.AttrSpec{Name: "x", Type: cty.String}}},
		"expr":    hcldec.ObjectSpec{"x": &hcldec.ExprSpec{}},
		"tuple":   hcldec.TupleSpec{},
	} {
		if newBlockDecoder(spec) != nil {
			t.Errorf("%s: a decoder for a spec it cannot decode", name)
		}
	}
}

// FuzzBlockDecoder compares the block decoder with dynblock and hcldec on
// arbitrary bodies.
func FuzzBlockDecoder(f *testing.F) {
	for _, tc := range blockTestCases {
		f.Add(tc.src)
	}
	specs := blockTestSchemas()
	ctx := blockTestContext()
	decoders := map[string]*blockDecoder{}
	for name, spec := range specs {
		decoders[name] = newBlockDecoder(spec)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		file, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		for name, spec := range specs {
			checkBlockDecoder(t, decoders[name], spec, file.Body, ctx, src)
		}
	})
}

// TestDynamicBlockUnknownForEach: a dynamic block whose for_each is not
// known makes the whole block type unknown, as Terraform plans it, not a
// list of one block of unknown arguments.
func TestDynamicBlockUnknownForEach(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": `
resource "terraform_data" "u" {
  input = ["a"]
}
resource "mock_thing" "t" {
  name = "x"
  dynamic "setting" {
    for_each = terraform_data.u.output
    content {
      name = setting.value
    }
  }
}
output "n" { value = length(mock_thing.t.setting) }`}, Options{Schemas: parseMock(t)})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v := resourceValue(t, res, "mock_thing.t").GetAttr("setting"); v.IsKnown() {
		t.Errorf("setting = %#v, want unknown", v)
	}
	if n := res.Root().Outputs["n"]; n.IsKnown() {
		t.Errorf("length = %#v, want unknown", n)
	}
}

// TestDynamicBlockElementsNeedNoContext: a generated block whose content
// reads its iterator only as ITERATOR.key or ITERATOR.value (and steps
// into them) is decoded without a context, variables map and iterator
// object of its own. Each block costs its object and little more: 8
// elements more cost at most 8 allocations each, where a context and an
// iterator object for each cost 17.
func TestDynamicBlockElementsNeedNoContext(t *testing.T) {
	spec := blockTestSchemas()["loose"]
	dec := newBlockDecoder(spec)
	lim := newLimiter(context.Background(), Limits{})
	cost := func(n int) float64 {
		rules := make([]cty.Value, n)
		for i := range rules {
			rules[i] = cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(int64(i)), "proto": cty.StringVal("tcp")})
		}
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"rules": cty.ListVal(rules), "str": cty.StringVal("x")}}
		body := newGuardedBody(parseBody(t, "dynamic \"dyn\" {\n  for_each = rules\n  content {\n    port  = dyn.value.port\n    proto = dyn.value.proto\n  }\n}"), lim)
		if _, ok := dec.decode(body, ctx, nil); !ok {
			t.Fatal("the block decoder did not take the body")
		}
		return testing.AllocsPerRun(20, func() { dec.decode(body, ctx, nil) })
	}
	perElement := (cost(16) - cost(8)) / 8
	t.Logf("%.1f allocations per generated block", perElement)
	if perElement > 8 {
		t.Errorf("a generated block took %.1f allocations, more than 8", perElement)
	}
}
