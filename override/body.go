package override

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// MergeBodies returns a body that reads as base with override laid over it:
// override arguments replace same-named base arguments, and any block type
// present in override (statically or as `dynamic "TYPE"`) replaces every
// base block of that type, static or dynamic. Nested blocks are not merged.
func MergeBodies(base, override hcl.Body) hcl.Body {
	return &mergedBody{base: base, override: override}
}

type mergedBody struct {
	base, override hcl.Body
}

// Layers returns the base and override bodies of a body MergeBodies made,
// and false for any other body: a reader that cannot know its schema (a
// resource without a provider schema) reads the layers' own contents.
func Layers(b hcl.Body) (base, override hcl.Body, ok bool) {
	m, ok := b.(*mergedBody)
	if !ok {
		return nil, nil, false
	}
	return m.base, m.override, true
}

var _ hcl.Body = (*mergedBody)(nil)

func (b *mergedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	relaxed := relaxSchema(schema)
	baseContent, diags := b.base.Content(relaxed)
	overContent, oDiags := b.override.Content(relaxed)
	diags = append(diags, oDiags...)
	content := mergeContent(baseContent, overContent, hasDynamic(schema))
	diags = append(diags, b.missingRequired(schema, content)...)
	return content, diags
}

func (b *mergedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	relaxed := relaxSchema(schema)
	baseContent, baseRemain, diags := b.base.PartialContent(relaxed)
	overContent, overRemain, oDiags := b.override.PartialContent(relaxed)
	diags = append(diags, oDiags...)
	content := mergeContent(baseContent, overContent, hasDynamic(schema))
	diags = append(diags, b.missingRequired(schema, content)...)
	return content, MergeBodies(baseRemain, overRemain), diags
}

func (b *mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.base.JustAttributes()
	overAttrs, oDiags := b.override.JustAttributes()
	diags = append(diags, oDiags...)
	merged := make(hcl.Attributes, len(attrs)+len(overAttrs))
	for name, attr := range attrs {
		merged[name] = attr
	}
	for name, attr := range overAttrs {
		merged[name] = attr
	}
	return merged, diags
}

func (b *mergedBody) MissingItemRange() hcl.Range { return b.base.MissingItemRange() }

// missingRequired reports required arguments neither body sets; each body
// alone may legitimately lack them.
func (b *mergedBody) missingRequired(schema *hcl.BodySchema, content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, attrS := range schema.Attributes {
		if !attrS.Required {
			continue
		}
		if _, ok := content.Attributes[attrS.Name]; ok {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required argument",
			Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", attrS.Name),
			Subject:  b.MissingItemRange().Ptr(),
		})
	}
	return diags
}

// relaxSchema copies schema with no argument required.
func relaxSchema(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{
		Attributes: make([]hcl.AttributeSchema, len(schema.Attributes)),
		Blocks:     schema.Blocks,
	}
	for i, attrS := range schema.Attributes {
		attrS.Required = false
		out.Attributes[i] = attrS
	}
	return out
}

// hasDynamic reports whether the caller asked for dynamic blocks, which
// means it expands them (dynblock) and override types must count them.
func hasDynamic(schema *hcl.BodySchema) bool {
	for _, bs := range schema.Blocks {
		if bs.Type == "dynamic" {
			return true
		}
	}
	return false
}

// blockType is the type a block produces: its own, or for `dynamic "x"` x.
func blockType(block *hcl.Block, dynamic bool) string {
	if dynamic && block.Type == "dynamic" && len(block.Labels) > 0 {
		return block.Labels[0]
	}
	return block.Type
}

func mergeContent(base, over *hcl.BodyContent, dynamic bool) *hcl.BodyContent {
	content := &hcl.BodyContent{
		Attributes:       make(hcl.Attributes, len(base.Attributes)+len(over.Attributes)),
		MissingItemRange: base.MissingItemRange,
	}
	for name, attr := range base.Attributes {
		content.Attributes[name] = attr
	}
	for name, attr := range over.Attributes {
		content.Attributes[name] = attr
	}
	overridden := map[string]bool{}
	for _, block := range over.Blocks {
		overridden[blockType(block, dynamic)] = true
	}
	for _, block := range base.Blocks {
		if !overridden[blockType(block, dynamic)] {
			content.Blocks = append(content.Blocks, block)
		}
	}
	content.Blocks = append(content.Blocks, over.Blocks...)
	return content
}
