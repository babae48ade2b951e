package lang

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/fastexpr"
	"github.com/tfeval/tfeval/internal/limit"
)

// blockDecoder decodes a resource body with nested blocks, dynamic ones
// included, to what dynblock.Expand followed by hcldec.Decode give, but
// only in the common case: every step known, unmarked and free of
// diagnostics. Anything else (an unknown or marked for_each, labels, a
// block count out of bounds, any diagnostic at all) makes decode report
// false, and the caller decodes the body again with dynblock and hcldec,
// which then give the values and diagnostics. It exists because dynblock
// builds a context, a variables map and an iterator object for each
// attribute of each generated block, and hcldec works out each nested
// schema again for every block; here a generated block gets one context,
// and schemas and body contents are worked out once.
type blockDecoder struct {
	schema *hcl.BodySchema // the spec's schema, plus dynamic blocks
	attrs  []*hcldec.AttrSpec
	keys   []string // result names of attrs
	blocks []*blockField
}

// blockField is one block-typed entry of an object spec.
type blockField struct {
	key, typeName string
	kind          blockKind
	nested        *blockDecoder
	min, max      int
	required      bool
	// none is the value when there is no block: null, the group's
	// default, or the empty collection.
	none cty.Value
}

type blockKind int

const (
	blockSingle blockKind = iota
	blockList
	blockSet
	blockTuple
)

// dynamicBlockSchema is the schema of a dynamic block's own body when
// the generated blocks have no labels, as dynblock reads it (so that both
// share the body's remembered content): labels are an error there.
var dynamicBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "for_each", Required: true},
		{Name: "iterator"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "content"}},
}

// newBlockDecoder returns the decoder for an object spec of attributes
// and blocks without labels, as decoderSpec builds them, or nil when spec
// has anything else.
func newBlockDecoder(spec hcldec.Spec) *blockDecoder {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok {
		return nil
	}
	d := &blockDecoder{schema: impliedSchema(spec)}
	for _, b := range d.schema.Blocks {
		if b.Type == "dynamic" || len(b.LabelNames) != 0 {
			return nil
		}
	}
	d.schema.Blocks = append(d.schema.Blocks, hcl.BlockHeaderSchema{Type: "dynamic", LabelNames: []string{"type"}})
	keys := make([]string, 0, len(obj))
	for key := range obj {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		f := &blockField{key: key}
		var nested hcldec.Spec
		switch s := obj[key].(type) {
		case *hcldec.AttrSpec:
			d.attrs = append(d.attrs, s)
			d.keys = append(d.keys, key)
			continue
		case *hcldec.BlockSpec:
			f.kind, f.typeName, f.required, nested = blockSingle, s.TypeName, s.Required, s.Nested
			if nested != nil {
				f.none = cty.NullVal(hcldec.ImpliedType(nested).WithoutOptionalAttributesDeep())
			}
		case *hcldec.DefaultSpec:
			primary, ok := s.Primary.(*hcldec.BlockSpec)
			dflt, ok2 := s.Default.(*hcldec.LiteralSpec)
			if !ok || !ok2 || primary.Required {
				return nil
			}
			f.kind, f.typeName, nested, f.none = blockSingle, primary.TypeName, primary.Nested, dflt.Value
		case *hcldec.BlockListSpec:
			f.kind, f.typeName, f.min, f.max, nested = blockList, s.TypeName, s.MinItems, s.MaxItems, s.Nested
			if nested != nil {
				f.none = cty.ListValEmpty(hcldec.ImpliedType(nested))
			}
		case *hcldec.BlockSetSpec:
			f.kind, f.typeName, f.min, f.max, nested = blockSet, s.TypeName, s.MinItems, s.MaxItems, s.Nested
			if nested != nil {
				f.none = cty.SetValEmpty(hcldec.ImpliedType(nested))
			}
		case *hcldec.BlockTupleSpec:
			f.kind, f.typeName, f.min, f.max, nested, f.none = blockTuple, s.TypeName, s.MinItems, s.MaxItems, s.Nested, cty.EmptyTupleVal
		default:
			return nil
		}
		if f.nested = newBlockDecoder(nested); f.nested == nil {
			return nil
		}
		d.blocks = append(d.blocks, f)
	}
	return d
}

// decode decodes body in ctx to the attributes of the object hcldec
// would give, or reports false when the common case does not hold.
func (d *blockDecoder) decode(body hcl.Body, ctx *hcl.EvalContext, budget *dynamicBudget) (map[string]cty.Value, bool) {
	content, diags := body.Content(d.schema)
	if len(diags) != 0 {
		return nil, false
	}
	vals := attrmap.New(len(d.attrs) + len(d.blocks))
	for i, spec := range d.attrs {
		v, diags := decodeAttribute(content, spec, ctx)
		if len(diags) != 0 {
			return nil, false
		}
		vals[d.keys[i]] = v
	}
	if len(d.blocks) == 0 {
		return vals, true
	}
	// A dynamic block of a type the spec does not have is an error.
	for _, blk := range content.Blocks {
		if blk.Type == "dynamic" && d.field(blk.Labels[0]) == nil {
			return nil, false
		}
	}
	var elems []cty.Value
	for _, f := range d.blocks {
		elems = elems[:0]
		for _, blk := range content.Blocks {
			var ok bool
			switch {
			case blk.Type == f.typeName:
				var v cty.Value
				v, ok = f.nested.object(blk.Body, ctx, budget)
				elems = append(elems, v)
			case blk.Type == "dynamic" && blk.Labels[0] == f.typeName:
				elems, ok = f.expand(blk, ctx, elems, budget)
			default:
				ok = true
			}
			if !ok {
				return nil, false
			}
		}
		v, ok := f.value(elems)
		if !ok {
			return nil, false
		}
		vals[f.key] = v
	}
	return vals, true
}

// object is decode made into the object value.
func (d *blockDecoder) object(body hcl.Body, ctx *hcl.EvalContext, budget *dynamicBudget) (cty.Value, bool) {
	vals, ok := d.decode(body, ctx, budget)
	if !ok {
		return cty.NilVal, false
	}
	v := cty.ObjectVal(vals)
	attrmap.Release(vals, len(d.attrs)+len(d.blocks))
	return v, true
}

// field returns the block field of a block type, if the spec has one.
func (d *blockDecoder) field(typeName string) *blockField {
	for _, f := range d.blocks {
		if f.typeName == typeName {
			return f
		}
	}
	return nil
}

// expand appends to elems the blocks a dynamic block generates, each
// decoded in a child of ctx that defines the iterator, or reports false
// past the budget (dynblock's expansion then reports it).
func (f *blockField) expand(blk *hcl.Block, ctx *hcl.EvalContext, elems []cty.Value, budget *dynamicBudget) ([]cty.Value, bool) {
	spec, diags := blk.Body.Content(dynamicBlockSchema)
	if len(diags) != 0 || len(spec.Blocks) != 1 {
		return elems, false
	}
	iterator := f.typeName
	if attr := spec.Attributes["iterator"]; attr != nil {
		trav, diags := hcl.AbsTraversalForExpr(attr.Expr)
		if len(diags) != 0 || len(trav) != 1 {
			return elems, false
		}
		iterator = trav.RootName()
	}
	each, diags := spec.Attributes["for_each"].Expr.Value(ctx)
	if len(diags) != 0 || each.IsMarked() || !each.IsKnown() || each.IsNull() || !each.CanIterateElements() || !budget.take(each.LengthInt()) {
		return elems, false
	}
	content := spec.Blocks[0].Body
	plan := f.nested.iteratorPlan(content, iterator)
	for it := elements.Of(each); it.Next(); {
		key, value := it.Element()
		if plan != nil {
			if v, ok := f.nested.objectFor(content, plan, key, value, ctx); ok {
				elems = append(elems, v)
				continue
			}
		}
		// A new context for every block, never one reused with its
		// variables swapped: internal/limit keeps its filter indexes per
		// context, relying on a context not changing once made.
		child := ctx.NewChild()
		child.Variables = map[string]cty.Value{iterator: cty.ObjectVal(map[string]cty.Value{"key": key, "value": value})}
		v, ok := f.nested.object(content, child, budget)
		if !ok {
			return elems, false
		}
		elems = append(elems, v)
	}
	return elems, true
}

// iteratorPlan is how the attributes of a dynamic block's content are
// read for a generated block without a context of its own: an attribute
// that refers to the iterator only as ITERATOR.key or ITERATOR.value,
// followed by attribute and index steps, is read from the element; one
// that does not refer to the iterator at all is evaluated in the enclosing
// context, where it has the same value. A generated block then costs no
// context, variables map and iterator object.
type iteratorPlan struct {
	// paths has, for each of the decoder's attributes, where it is read
	// from the element, or nil when it is evaluated in the enclosing
	// context (or is not set).
	paths []*iteratorPath
	// maxSize bounds what a path reads (limit.ExpandedSize), as the
	// guarded expression would, when not 0.
	maxSize int
}

type iteratorPath struct {
	value bool // ITERATOR.value, else ITERATOR.key
	steps hcl.Traversal
}

// iteratorPlan returns the plan for decoding content, the body of a
// dynamic block's content block, with the given iterator name; nil when
// some attribute needs the iterator object (or the decoder has blocks, or
// the body is not native syntax). Guarded bodies remember it.
func (d *blockDecoder) iteratorPlan(content hcl.Body, iterator string) *iteratorPlan {
	if len(d.blocks) != 0 {
		return nil
	}
	gb, guarded := content.(*guardedBody)
	if guarded {
		if p, ok := gb.iteratorPlan(d, iterator); ok {
			return p
		}
		content = gb.Body
	}
	p := newIteratorPlan(d, content, iterator)
	if guarded {
		if p != nil && gb.lim != nil && gb.lim.guard != nil {
			p.maxSize = gb.lim.guard.MaxValueSize
		}
		gb.rememberPlan(d, iterator, p)
	}
	return p
}

func newIteratorPlan(d *blockDecoder, content hcl.Body, iterator string) *iteratorPlan {
	sb, ok := content.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	p := &iteratorPlan{paths: make([]*iteratorPath, len(d.attrs))}
	for i, spec := range d.attrs {
		attr, ok := sb.Attributes[spec.Name]
		if !ok {
			continue
		}
		if customdecode.CustomExpressionDecoderForType(spec.Type) != nil {
			return nil
		}
		refers := false
		for _, t := range hclsyntax.Variables(attr.Expr) {
			if t.RootName() == iterator {
				refers = true
			}
		}
		if !refers {
			continue
		}
		st, ok := attr.Expr.(*hclsyntax.ScopeTraversalExpr)
		if !ok || len(st.Traversal) < 2 {
			return nil
		}
		field, ok := st.Traversal[1].(hcl.TraverseAttr)
		if !ok || field.Name != "key" && field.Name != "value" {
			return nil
		}
		p.paths[i] = &iteratorPath{value: field.Name == "value", steps: st.Traversal[2:]}
	}
	return p
}

// objectFor is object for the block a dynamic block generates for one
// element (key, value), by plan, in the enclosing context ctx; false
// where the block must be decoded in a context with the iterator.
func (d *blockDecoder) objectFor(content hcl.Body, plan *iteratorPlan, key, value cty.Value, ctx *hcl.EvalContext) (cty.Value, bool) {
	c, diags := content.Content(d.schema)
	if len(diags) != 0 {
		return cty.NilVal, false
	}
	vals := attrmap.New(len(d.attrs))
	for i, spec := range d.attrs {
		var v cty.Value
		path := plan.paths[i]
		if path == nil {
			v, diags = decodeAttribute(c, spec, ctx)
		} else {
			from := key
			if path.value {
				from = value
			}
			raw, ok := fastexpr.Traverse(from, path.steps)
			if !ok || plan.maxSize > 0 && limit.ExpandedSize(raw, plan.maxSize) > plan.maxSize {
				attrmap.Release(vals, len(d.attrs))
				return cty.NilVal, false
			}
			v, diags = convertAttribute(c.Attributes[spec.Name], spec, raw, nil, ctx)
		}
		if len(diags) != 0 {
			attrmap.Release(vals, len(d.attrs))
			return cty.NilVal, false
		}
		vals[d.keys[i]] = v
	}
	v := cty.ObjectVal(vals)
	attrmap.Release(vals, len(d.attrs))
	return v, true
}

// value is the field's value for its decoded blocks, as hcldec builds it,
// or false where hcldec would report a diagnostic.
func (f *blockField) value(elems []cty.Value) (cty.Value, bool) {
	if f.kind == blockSingle {
		switch {
		case len(elems) == 1:
			return elems[0], true
		case len(elems) == 0 && !f.required:
			return f.none, true
		}
		return cty.NilVal, false
	}
	if len(elems) < f.min || f.max > 0 && len(elems) > f.max {
		return cty.NilVal, false
	}
	if len(elems) == 0 {
		return f.none, true
	}
	// cty copies elems into the collection, so the slice can be reused.
	if f.kind == blockTuple {
		return cty.TupleVal(elems), true
	}
	// hcldec unifies differing element types, which only attributes of
	// any type can make; those take its path.
	ty := elems[0].Type()
	for _, v := range elems[1:] {
		if !v.Type().Equals(ty) {
			return cty.NilVal, false
		}
	}
	if f.kind == blockList {
		return cty.ListVal(elems), true
	}
	return elements.Set(elems), true
}
