package tftest

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestSubjectAt: where Terraform v1.15.9 places a diagnostic about a path
// of a resource, found through the configuration's nested blocks.
func TestSubjectAt(t *testing.T) {
	const src = `resource "x" "y" {
  name = "n"
  lst {
    a = 1
  }
  lst {
    a = 2
  }
  one {
    inner {}
  }
  mp "k" {}
  dynamic "dyn" {
    for_each = [1]
    content {}
  }
}
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "resource", LabelNames: []string{"type", "name"}}}})
	body := content.Blocks[0].Body
	attr := func(n string) cty.PathStep { return cty.GetAttrStep{Name: n} }
	idx := func(k cty.Value) cty.PathStep { return cty.IndexStep{Key: k} }
	for _, tc := range []struct {
		name      string
		path      cty.Path
		line, col int
	}{
		{"no path", nil, 1, 18},
		{"an attribute not set", cty.Path{attr("id")}, 1, 18},
		{"an attribute set", cty.Path{attr("name")}, 2, 10},
		{"a block, one step only", cty.Path{attr("one")}, 1, 18},
		{"a list's second object", cty.Path{attr("lst"), idx(cty.NumberIntVal(1))}, 6, 7},
		{"an attribute of a list's object", cty.Path{attr("lst"), idx(cty.NumberIntVal(0)), attr("id")}, 3, 7},
		{"an attribute set in a list's object", cty.Path{attr("lst"), idx(cty.NumberIntVal(0)), attr("a")}, 4, 9},
		{"past the objects written", cty.Path{attr("lst"), idx(cty.NumberIntVal(2))}, 1, 18},
		{"a set's object", cty.Path{attr("lst"), idx(cty.EmptyObjectVal)}, 1, 18},
		{"a single block's nested block", cty.Path{attr("one"), attr("inner"), idx(cty.NumberIntVal(0))}, 10, 11},
		{"a map's object by its key", cty.Path{attr("mp"), idx(cty.StringVal("k"))}, 12, 10},
		{"a map's key not written", cty.Path{attr("mp"), idx(cty.StringVal("z"))}, 1, 18},
		{"a dynamic block", cty.Path{attr("dyn"), idx(cty.NumberIntVal(0))}, 1, 18},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := subjectAt(body, tc.path)
			if got.Filename != "main.tf" || got.Start.Line != tc.line || got.Start.Column != tc.col {
				t.Errorf("subjectAt(%s) = %v, want main.tf:%d,%d", formatPath(tc.path), got, tc.line, tc.col)
			}
		})
	}
}
