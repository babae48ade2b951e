package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/typeexpr"
)

// typedBody is a body for hcldec.Decode whose attributes convert their
// values to the types the spec gives them, as hcldec then would. hcldec
// words a value that cannot convert with go-cty's message, which names
// the first offending element or attribute in Go's random map order;
// converted here, the message names the first in name order
// (typeexpr.MismatchMessage), and hcldec, given a value of the type,
// adds nothing. Everything else, the diagnostic itself included, is as
// hcldec would have it.
type typedBody struct {
	hcl.Body
	attrs  map[string]cty.Type          // attribute name → type
	blocks map[string]hcldec.ObjectSpec // block type → nested spec
}

// typedBodyFor wraps body for decoding with spec, when spec is an object
// spec (as every block's is).
func typedBodyFor(body hcl.Body, spec hcldec.Spec) hcl.Body {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok || body == nil {
		return body
	}
	b := &typedBody{Body: body}
	for _, s := range obj {
		if d, ok := s.(*hcldec.DefaultSpec); ok {
			s = d.Primary
		}
		switch s := s.(type) {
		case *hcldec.AttrSpec:
			if s.Type != cty.DynamicPseudoType && customdecode.CustomExpressionDecoderForType(s.Type) == nil {
				if b.attrs == nil {
					b.attrs = map[string]cty.Type{}
				}
				b.attrs[s.Name] = s.Type
			}
		case *hcldec.BlockSpec:
			b.addBlock(s.TypeName, s.Nested)
		case *hcldec.BlockListSpec:
			b.addBlock(s.TypeName, s.Nested)
		case *hcldec.BlockTupleSpec:
			b.addBlock(s.TypeName, s.Nested)
		case *hcldec.BlockSetSpec:
			b.addBlock(s.TypeName, s.Nested)
		case *hcldec.BlockMapSpec:
			b.addBlock(s.TypeName, s.Nested)
		case *hcldec.BlockObjectSpec:
			b.addBlock(s.TypeName, s.Nested)
		}
	}
	if b.attrs == nil && b.blocks == nil {
		// Nothing to convert: hcldec's own conversions are to any type.
		return body
	}
	return b
}

func (b *typedBody) addBlock(typeName string, nested hcldec.Spec) {
	if obj, ok := nested.(hcldec.ObjectSpec); ok {
		if b.blocks == nil {
			b.blocks = map[string]hcldec.ObjectSpec{}
		}
		b.blocks[typeName] = obj
	}
}

func (b *typedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, diags := b.Body.Content(schema)
	return b.typed(content), diags
}

func (b *typedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	content, remain, diags := b.Body.PartialContent(schema)
	if remain != nil {
		remain = &typedBody{Body: remain, attrs: b.attrs, blocks: b.blocks}
	}
	return b.typed(content), remain, diags
}

// typed copies content with converting attributes and typed block bodies.
func (b *typedBody) typed(content *hcl.BodyContent) *hcl.BodyContent {
	if content == nil {
		return nil
	}
	out := *content
	if len(content.Attributes) > 0 {
		out.Attributes = make(hcl.Attributes, len(content.Attributes))
		for name, a := range content.Attributes {
			if ty, ok := b.attrs[name]; ok {
				c := *a
				c.Expr = &typedExpr{Expression: a.Expr, ty: ty, name: name, nameRange: a.NameRange}
				a = &c
			}
			out.Attributes[name] = a
		}
	}
	if len(content.Blocks) > 0 {
		out.Blocks = make(hcl.Blocks, len(content.Blocks))
		for i, blk := range content.Blocks {
			if u, ok := blk.Body.(hcldec.UnknownBody); ok && u.Unknown() {
				// A dynamic block whose for_each is unknown: hcldec makes
				// the whole block type unknown when it sees this body.
				out.Blocks[i] = blk
				continue
			}
			if nested, ok := b.blocks[blk.Type]; ok {
				c := *blk
				c.Body = typedBodyFor(blk.Body, nested)
				blk = &c
			}
			out.Blocks[i] = blk
		}
	}
	return &out
}

// typedExpr is an attribute's expression that converts its value to the
// attribute's type, with hcldec's diagnostic when it cannot.
type typedExpr struct {
	hcl.Expression
	ty        cty.Type
	name      string
	nameRange hcl.Range
}

func (e *typedExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	val, diags := e.Expression.Value(ctx)
	conv, err := typeexpr.ConvertValue(val, e.ty)
	if err != nil {
		return cty.UnknownVal(e.ty.WithoutOptionalAttributesDeep()), append(diags, attributeTypeDiag(e.name, e.nameRange, e.Expression, ctx, err))
	}
	return conv, diags
}

// UnwrapExpression lets hcl.UnwrapExpression see the attribute's own
// expression, for keyword and traversal checks.
func (e *typedExpr) UnwrapExpression() hcl.Expression { return e.Expression }
