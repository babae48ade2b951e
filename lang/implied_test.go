package lang

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestImpliedSchemaAgreesWithHCL: impliedSchema lists what
// hcldec.ImpliedSchema lists, for the specs bodies imply and the specs
// schemas give, and leaves what it does not know to hcldec.
func TestImpliedSchemaAgreesWithHCL(t *testing.T) {
	attr := func(name string, req bool) hcldec.Spec {
		return &hcldec.AttrSpec{Name: name, Type: cty.String, Required: req}
	}
	nested := hcldec.ObjectSpec{"x": attr("x", false)}
	specs := map[string]hcldec.Spec{
		"empty":      hcldec.ObjectSpec{},
		"attributes": hcldec.ObjectSpec{"a": attr("a", true), "b": attr("b", false), "c": attr("c", false)},
		"blocks": hcldec.ObjectSpec{
			"a":  attr("a", false),
			"l":  &hcldec.BlockListSpec{TypeName: "l", Nested: nested, MinItems: 1},
			"s":  &hcldec.BlockSetSpec{TypeName: "s", Nested: nested},
			"t":  &hcldec.BlockTupleSpec{TypeName: "t", Nested: hcldec.ObjectSpec{}},
			"o":  &hcldec.BlockSpec{TypeName: "o", Nested: nested, Required: true},
			"ob": &hcldec.BlockObjectSpec{TypeName: "ob", Nested: nested, LabelNames: []string{"key"}},
		},
		"group": hcldec.ObjectSpec{"g": &hcldec.DefaultSpec{
			Primary: &hcldec.BlockSpec{TypeName: "g", Nested: nested},
			Default: &hcldec.LiteralSpec{Value: cty.EmptyObjectVal},
		}},
		"map":      hcldec.ObjectSpec{"m": &hcldec.BlockMapSpec{TypeName: "m", LabelNames: []string{"name"}, Nested: nested}},
		"labelled": hcldec.ObjectSpec{"b": &hcldec.BlockListSpec{TypeName: "b", Nested: hcldec.ObjectSpec{"n": &hcldec.BlockLabelSpec{Index: 0, Name: "n"}}}},
		"labels and keys": hcldec.ObjectSpec{"b": &hcldec.BlockObjectSpec{TypeName: "b", LabelNames: []string{"key"},
			Nested: hcldec.ObjectSpec{"n": &hcldec.BlockLabelSpec{Index: 0, Name: "n"}}}},
		"not an object": &hcldec.AttrSpec{Name: "a", Type: cty.String},
	}
	for _, src := range []string{
		`a = 1
b = var.x
c { d = 1 }
c { e = 2 }
k "one" { v = 1 }
dynamic "d" {
  for_each = var.list
  content { w = d.value }
}
dynamic "lab" {
  for_each = var.map
  labels   = [lab.key]
  content {}
}`,
		``,
		`only = "attributes"`,
		`block {}`,
	} {
		f, diags := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		specs["implied: "+strings.SplitN(src, "\n", 2)[0]] = syntaxImpliedSpec(f.Body.(*hclsyntax.Body), nil)
	}
	for name, spec := range specs {
		for range 4 { // map order varies between calls
			got, want := sorted(impliedSchema(spec)), sorted(hcldec.ImpliedSchema(spec))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %#v, hcldec %#v", name, got, want)
			}
		}
	}
}

// sorted is s with its lists in name order.
func sorted(s *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Attributes: slices.Clone(s.Attributes), Blocks: slices.Clone(s.Blocks)}
	slices.SortFunc(out.Attributes, func(a, b hcl.AttributeSchema) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(out.Blocks, func(a, b hcl.BlockHeaderSchema) int { return strings.Compare(a.Type, b.Type) })
	return out
}

// TestImpliedSchemaAllocations holds impliedSchema to its schema and its
// two lists, where hcldec grows each list and makes one for each entry.
func TestImpliedSchemaAllocations(t *testing.T) {
	f, diags := hclsyntax.ParseConfig([]byte(`a = 1
b = 2
c = 3
d = 4
e = 5
blk { x = 1 }
other "key" { y = 1 }
`), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	spec := syntaxImpliedSpec(f.Body.(*hclsyntax.Body), nil)
	if n := testing.AllocsPerRun(20, func() { impliedSchema(spec) }); n > 3 {
		t.Errorf("%.0f allocations, want at most 3 (hcldec: %.0f)", n, testing.AllocsPerRun(20, func() { hcldec.ImpliedSchema(spec) }))
	}
}

// TestSyntaxImpliedSpecAllocations: the attributes' specs of a body are
// made together, not one allocation each.
func TestSyntaxImpliedSpecAllocations(t *testing.T) {
	src := ""
	for i := range 12 {
		src += "a" + string(rune('a'+i)) + " = 1\n"
	}
	f, diags := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	body := f.Body.(*hclsyntax.Body)
	spec := syntaxImpliedSpec(body, nil)
	if len(spec) != 12 {
		t.Fatalf("%d attributes", len(spec))
	}
	for name, s := range spec {
		if as := s.(*hcldec.AttrSpec); as.Name != name || as.Type != cty.DynamicPseudoType || as.Required {
			t.Errorf("%s: %#v", name, as)
		}
	}
	// The map (its directory and groups) and the specs, which took one
	// allocation each before.
	if n := testing.AllocsPerRun(20, func() { syntaxImpliedSpec(body, nil) }); n > 5 {
		t.Errorf("%.0f allocations for 12 attributes, want at most 5", n)
	}
}
