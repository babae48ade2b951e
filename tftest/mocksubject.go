package tftest

import (
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// subjectAt is where Terraform places a diagnostic of the mocked provider
// about the attribute or nested object at path p of a resource whose
// configuration is body (Terraform v1.15.9 elaborates it from the
// configuration): with more than one step, the path leads first through
// the nested blocks the configuration writes, as far as it can (a
// block type without index when written once, a list's element by its
// position among the blocks written, a map's by its label; a set's
// element, a dynamic block or a block not written ends it); then the
// expression of the attribute the next step names if the body sets it,
// else the start of the body reached. With one step, only the attribute
// is looked for.
func subjectAt(body hcl.Body, p cty.Path) hcl.Range {
	if body == nil {
		return hcl.Range{}
	}
	if len(p) == 0 {
		return body.MissingItemRange()
	}
	rest := p
	if len(p) > 1 {
		body, rest = deepestBody(body, p)
	}
	if len(rest) == 0 {
		return body.MissingItemRange()
	}
	step, ok := rest[0].(cty.GetAttrStep)
	if !ok {
		return body.MissingItemRange()
	}
	content, _, diags := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: step.Name, Required: true}}})
	if diags.HasErrors() {
		return body.MissingItemRange()
	}
	attr, ok := content.Attributes[step.Name]
	if !ok {
		return body.MissingItemRange()
	}
	return attr.Expr.Range()
}

// deepestBody follows p through the nested blocks body writes, and gives
// the body reached and what is left of p.
func deepestBody(body hcl.Body, p cty.Path) (hcl.Body, cty.Path) {
	done := 0
	for i := 0; i < len(p); i++ {
		step, ok := p[i].(cty.GetAttrStep)
		if !ok {
			break
		}
		var key cty.Value
		if i+1 < len(p) {
			if ix, ok := p[i+1].(cty.IndexStep); ok {
				key = ix.Key
			}
		}
		schema := hcl.BlockHeaderSchema{Type: step.Name}
		if key != cty.NilVal && key.Type() == cty.String {
			schema.LabelNames = []string{"key"}
		}
		content, _, diags := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{schema}})
		if diags.HasErrors() {
			break
		}
		var blocks []*hcl.Block
		for _, b := range content.Blocks {
			if b.Type == step.Name {
				blocks = append(blocks, b)
			}
		}
		if len(blocks) == 0 {
			break
		}
		var next *hcl.Block
		switch {
		case key == cty.NilVal:
			if len(blocks) == 1 {
				next = blocks[0]
			}
		case !key.IsKnown() || key.IsNull():
		case key.Type() == cty.Number:
			if n, acc := key.AsBigFloat().Int64(); acc == big.Exact && n >= 0 && n < int64(len(blocks)) {
				next = blocks[n]
			}
		case key.Type() == cty.String:
			for _, b := range blocks {
				if b.Labels[0] == key.AsString() {
					next = b
					break
				}
			}
		}
		if next == nil {
			break
		}
		body = next.Body
		if key != cty.NilVal {
			i++
		}
		done = i + 1
	}
	return body, p[done:]
}
