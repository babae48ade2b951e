package lang

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/typeexpr"
)

// attributeDecoder decodes a body whose spec is an object of attributes
// only, as hcldec.Decode does, without working out the spec's schema again
// for every body: hcldec does that on each call, and resource bodies are
// decoded once per instance.
type attributeDecoder struct {
	schema *hcl.BodySchema
	keys   []string // result attribute names, sorted
	specs  []*hcldec.AttrSpec
}

// newAttributeDecoder returns the decoder for spec, whose implied schema
// is schema, or nil when spec has anything but attributes.
func newAttributeDecoder(spec hcldec.Spec, schema *hcl.BodySchema) *attributeDecoder {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok {
		return nil
	}
	for _, s := range obj {
		if _, ok := s.(*hcldec.AttrSpec); !ok {
			return nil
		}
	}
	d := &attributeDecoder{schema: schema}
	for key := range obj {
		d.keys = append(d.keys, key)
	}
	sort.Strings(d.keys)
	for _, key := range d.keys {
		d.specs = append(d.specs, obj[key].(*hcldec.AttrSpec))
	}
	return d
}

// decode is hcldec.Decode(body, spec, ctx) for the decoder's spec, with
// the attributes' diagnostics in name order rather than map order, and
// the object's attributes not yet made into the object.
func (d *attributeDecoder) decode(body hcl.Body, ctx *hcl.EvalContext) (decodedBody, hcl.Diagnostics) {
	content, diags := body.Content(d.schema)
	vals := attrmap.New(len(d.keys))
	for i, key := range d.keys {
		v, more := decodeAttribute(content, d.specs[i], ctx)
		vals[key] = v
		diags = append(diags, more...)
	}
	return decodedBody{attrs: vals}, diags
}

// decodedBody is a decoded resource body: the object hcldec gives, or,
// from an attributeDecoder, the object's attributes, since planning reads
// them to build an object of its own and the first would be thrown away.
type decodedBody struct {
	attrs map[string]cty.Value // when not nil, the attributes of the object
	v     cty.Value            // the object, when attrs is nil
}

// known reports whether the decoded object has attributes to read: it is
// known and not null.
func (d decodedBody) known() bool {
	return d.attrs != nil || d.v.IsKnown() && !d.v.IsNull()
}

// get returns an attribute of the decoded object, which must be known.
func (d decodedBody) get(name string) (cty.Value, bool) {
	if d.attrs != nil {
		v, ok := d.attrs[name]
		return v, ok
	}
	v, _ := d.v.Unmark()
	if !v.Type().HasAttribute(name) {
		return cty.NilVal, false
	}
	return v.GetAttr(name), true
}

// value is the decoded object.
func (d decodedBody) value() cty.Value {
	if d.attrs != nil {
		return cty.ObjectVal(d.attrs)
	}
	return d.v
}

// nullEmptyAsBlocks makes null each attribute of names, written as blocks
// ("attributes as blocks"), whose dynamic blocks left no block: Terraform
// gives such an attribute no elements as null, as if it were not written.
func nullEmptyAsBlocks(d decodedBody, names []string) decodedBody {
	if !d.known() {
		return d
	}
	var attrs map[string]cty.Value
	obj, objMarks := d.v.Unmark()
	for _, name := range names {
		v, ok := d.get(name)
		if !ok {
			continue
		}
		uv, m := v.Unmark()
		if uv.IsNull() || !uv.IsKnown() || uv.LengthInt() > 0 {
			continue
		}
		if attrs == nil {
			if d.attrs != nil {
				attrs = d.attrs
			} else {
				attrs = obj.AsValueMap()
			}
		}
		attrs[name] = cty.NullVal(uv.Type()).WithMarks(m)
	}
	if attrs != nil && d.attrs == nil {
		d.v = cty.ObjectVal(attrs).WithMarks(objMarks)
	}
	return d
}

// decodeAttribute is what hcldec does for one AttrSpec of an object spec.
func decodeAttribute(content *hcl.BodyContent, s *hcldec.AttrSpec, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	attr, ok := content.Attributes[s.Name]
	if !ok {
		// Content has already reported a missing required attribute.
		return cty.NullVal(typeexpr.WithoutOptional(s.Type)), nil
	}
	if decodeFn := customdecode.CustomExpressionDecoderForType(s.Type); decodeFn != nil {
		v, diags := decodeFn(attr.Expr, ctx)
		if v == cty.NilVal {
			v = cty.UnknownVal(typeexpr.WithoutOptional(s.Type))
		}
		return v, diags
	}
	val, diags := attr.Expr.Value(ctx)
	return convertAttribute(attr, s, val, diags, ctx)
}

// convertAttribute is the rest of decodeAttribute, given the value of the
// attribute's expression and its diagnostics.
func convertAttribute(attr *hcl.Attribute, s *hcldec.AttrSpec, val cty.Value, diags hcl.Diagnostics, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	conv, err := val, error(nil)
	if s.Type != cty.DynamicPseudoType {
		// Converting to any type returns the value as it is, after
		// building a conversion for it. typeexpr converts a known,
		// unmarked value in one pass, where go-cty works its conversion
		// out anew for every instance; without defaults the result is
		// go-cty's.
		conv, err = typeexpr.Convert(val, s.Type, nil)
	}
	if err != nil {
		return cty.UnknownVal(typeexpr.WithoutOptional(s.Type)), append(diags, attributeTypeDiag(s.Name, attr.NameRange, attr.Expr, ctx, err))
	}
	return conv, diags
}

// attributeTypeDiag is hcldec's diagnostic for an attribute whose value
// does not convert to the attribute's type.
func attributeTypeDiag(name string, nameRange hcl.Range, expr hcl.Expression, ctx *hcl.EvalContext, err error) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity:    hcl.DiagError,
		Summary:     "Incorrect attribute value type",
		Detail:      fmt.Sprintf("Inappropriate value for attribute %q: %s.", name, err.Error()),
		Subject:     expr.Range().Ptr(),
		Context:     hcl.RangeBetween(nameRange, expr.Range()).Ptr(),
		Expression:  expr,
		EvalContext: ctx,
	}
}
