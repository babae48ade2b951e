package lang

import (
	"sort"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestAttributeDecoderMatchesHCLDec decodes bodies with the attribute
// decoder and with hcldec, which must agree on values and diagnostics.
func TestAttributeDecoderMatchesHCLDec(t *testing.T) {
	spec := hcldec.ObjectSpec{
		"name":  &hcldec.AttrSpec{Name: "name", Type: cty.String, Required: true},
		"size":  &hcldec.AttrSpec{Name: "size", Type: cty.Number},
		"tags":  &hcldec.AttrSpec{Name: "tags", Type: cty.Map(cty.String)},
		"any":   &hcldec.AttrSpec{Name: "any", Type: cty.DynamicPseudoType},
		"obj":   &hcldec.AttrSpec{Name: "obj", Type: cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.Number}, []string{"b"})},
		"expr":  &hcldec.AttrSpec{Name: "expr", Type: customdecode.ExpressionType},
		"alias": &hcldec.AttrSpec{Name: "original", Type: cty.Bool},
	}
	dec := newAttributeDecoder(spec, hcldec.ImpliedSchema(spec))
	if dec == nil {
		t.Fatal("no decoder for an attribute-only spec")
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"v": cty.StringVal("x"), "u": cty.UnknownVal(cty.Number), "s": cty.StringVal("p").Mark("sensitive")}}
	for _, src := range []string{
		`name = "a"`,
		"name = v\nsize = u\ntags = { a = s }\nany = [1, \"x\"]\nobj = { a = \"z\" }\nexpr = v + 1\noriginal = true",
		`size = 1`,
		"name = 1\nsize = \"nope\"\ntags = [1]\nobj = { c = 1 }\noriginal = \"maybe\"",
		"name = \"a\"\nextra = 1",
		"name = \"a\"\nblock {}",
		"name = missing.attr",
	} {
		body := parseBody(t, src)
		decoded, gd := dec.decode(body, ctx)
		gv := decoded.value()
		wv, wd := hcldec.Decode(body, spec, ctx)
		if !gv.RawEquals(wv) {
			t.Errorf("%q: value %#v, hcldec %#v", src, gv, wv)
		}
		if got, want := sortedDiags(gd), sortedDiags(wd); got != want {
			t.Errorf("%q: diagnostics\n%s\nhcldec\n%s", src, got, want)
		}
	}
	if newAttributeDecoder(hcldec.ObjectSpec{"b": &hcldec.BlockListSpec{TypeName: "b", Nested: hcldec.ObjectSpec{}}}, nil) != nil {
		t.Error("a decoder for a spec with blocks")
	}
}

func parseBody(t *testing.T, src string) hcl.Body {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return f.Body
}

// sortedDiags is the diagnostics as text in a stable order: hcldec reports
// an object's attributes in map order.
func sortedDiags(diags hcl.Diagnostics) string {
	var lines []string
	for _, d := range diags {
		line := d.Summary + ": " + d.Detail
		if d.Subject != nil {
			line += " @" + d.Subject.String()
		}
		if d.Context != nil {
			line += " in " + d.Context.String()
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	out := ""
	for _, l := range lines {
		out += l + "\n"
	}
	return out
}
