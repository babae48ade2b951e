package lang

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// dynamicSpec is a tuplesOnly spec laid out for checkDynamic: its entries
// in key order, as checkDecoded visits them, each an argument or a block
// type with the dynamicSpec of its blocks' bodies.
type dynamicSpec struct {
	entries []dynamicEntry
}

type dynamicEntry struct {
	attr *hcldec.AttrSpec // nil for a block type
	// typeName and nested are a block type's.
	typeName string
	nested   *dynamicSpec
}

// newDynamicSpec lays out spec, which tuplesOnly accepts.
func newDynamicSpec(spec hcldec.ObjectSpec) *dynamicSpec {
	d := &dynamicSpec{entries: make([]dynamicEntry, 0, len(spec))}
	keys := make([]string, 0, len(spec))
	for key := range spec {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		switch sp := spec[key].(type) {
		case *hcldec.AttrSpec:
			d.entries = append(d.entries, dynamicEntry{attr: sp})
		case *hcldec.BlockTupleSpec:
			d.entries = append(d.entries, dynamicEntry{typeName: sp.TypeName, nested: newDynamicSpec(sp.Nested.(hcldec.ObjectSpec))})
		}
	}
	return d
}

// block is the entry of block type typ, nil when the spec has none.
func (d *dynamicSpec) block(typ string) *dynamicEntry {
	for i := range d.entries {
		if e := &d.entries[i]; e.attr == nil && e.typeName == typ {
			return e
		}
	}
	return nil
}

// clean reports whether reading body's content with the spec's implied
// schema plus dynamic blocks, as dynblock does, has no diagnostic
// (hclsyntax's Body.Content): every argument and block but those hidden
// names is of the schema, each block with the schema's labels, and every
// required argument is set. hidden is the schema a resource body's
// meta-arguments were read with (config.Resource.VisibleSyntax), nil for
// a nested body, which hides nothing.
func (d *dynamicSpec) clean(body *hclsyntax.Body, hidden *hcl.BodySchema) bool {
	for name := range body.Attributes {
		found := hiddenAttribute(hidden, name)
		for i := 0; i < len(d.entries) && !found; i++ {
			e := &d.entries[i]
			found = e.attr != nil && e.attr.Name == name
		}
		if !found {
			return false
		}
	}
	for _, e := range d.entries {
		if e.attr != nil && e.attr.Required && (body.Attributes[e.attr.Name] == nil || hiddenAttribute(hidden, e.attr.Name)) {
			return false
		}
	}
	for _, b := range body.Blocks {
		switch {
		case hiddenBlock(hidden, b.Type):
		case b.Type == "dynamic":
			if len(b.Labels) != 1 {
				return false
			}
		case len(b.Labels) != 0 || d.block(b.Type) == nil:
			return false
		}
	}
	return true
}

// dynamicBodyParts are what a dynamic block's own body gives dynblock
// when reading it has no diagnostic (labels, which the implied blocks
// never have, are one): its for_each and iterator arguments and its
// content block's body; ok is false otherwise.
func dynamicBodyParts(body *hclsyntax.Body) (forEach, iterator hcl.Expression, content *hclsyntax.Body, ok bool) {
	for name, a := range body.Attributes {
		switch name {
		case "for_each":
			forEach = a.Expr
		case "iterator":
			iterator = a.Expr
		default:
			return nil, nil, nil, false
		}
	}
	for _, b := range body.Blocks {
		if b.Type != "content" || len(b.Labels) != 0 || content != nil {
			return nil, nil, nil, false
		}
		content = b.Body
	}
	return forEach, iterator, content, forEach != nil && content != nil
}

// dynamicIteration is the element of a dynamic block that a generated
// block stands for, and those of the dynamic blocks it is nested in.
type dynamicIteration struct {
	name       string
	key, value cty.Value
	parent     *dynamicIteration
	// ctx is the context the block's expressions are evaluated in, made
	// on first need: the body's, with every iterator (the nearest of a
	// name) defined.
	ctx *hcl.EvalContext
}

// dynamicCheck walks a body as checkDecoded walks dynblock's expansion of
// it (checkDynamic).
type dynamicCheck struct {
	s   *scope
	ctx *hcl.EvalContext
	// budget bounds the blocks the check generates, as dynblock's
	// expansion is bounded (the check stops where that reports it).
	budget *dynamicBudget
}

// checkDynamic reports whether checkDecoded(dynblock.Expand(body, ctx),
// spec, ctx) has no diagnostic, body being a resource body without schema
// read from syntax with hidden names (config.Resource.VisibleSyntax)
// and spec its tuplesOnly implied spec laid out as d: it evaluates the
// same expressions, as many times, in contexts with the same variables,
// but reads the contents from the syntax and evaluates the arguments
// there, rather than through dynblock's expansion of guarded copies of
// every body (a body, a context and an iterator object for each
// argument, and a content map copied at every level). It stops at the
// first diagnostic, any at all, and reports false, having given back the
// steps its evaluations charged: the caller then has checkDecoded give
// them.
func (s *scope) checkDynamic(syntax *hclsyntax.Body, hidden *hcl.BodySchema, d *dynamicSpec, ctx *hcl.EvalContext) bool {
	if !d.clean(syntax, hidden) {
		return false
	}
	var steps int64
	if l := s.ev.limits; l != nil {
		steps = l.steps.Load()
	}
	budget := s.ev.limits.dynamicBudget()
	c := dynamicCheck{s: s, ctx: ctx, budget: &budget}
	if c.level(syntax, hidden, d, nil, &lazyContext{ctx: ctx}, false) {
		return true
	}
	if l := s.ev.limits; l != nil {
		l.steps.Store(steps)
	}
	return false
}

// dynamicChild is a block of a level as dynblock expands it: a static
// block, or one a dynamic block generates (unknown when its for_each
// is).
type dynamicChild struct {
	typ     string
	body    *hclsyntax.Body
	it      *dynamicIteration
	unknown bool
}

// level checks one body, with hidden names (those of a resource body's
// meta-arguments at the top, else nil), inside the iteration it (nil
// outside dynamic blocks), whose dynamic blocks' for_each are evaluated in
// the context forEach gives. In an unknown body, dynblock gives the
// arguments as unknown values, which have no diagnostics, and hcldec
// reads only the first block of each type.
func (c *dynamicCheck) level(body *hclsyntax.Body, hidden *hcl.BodySchema, d *dynamicSpec, it *dynamicIteration, forEach *lazyContext, unknown bool) bool {
	var children []dynamicChild
	for _, b := range body.Blocks {
		switch {
		case hiddenBlock(hidden, b.Type):
		case b.Type == "dynamic":
			var ok bool
			if children, ok = c.expandDynamic(children, b.Labels[0], b.Body, d, it, forEach.get(c), unknown); !ok {
				return false
			}
		default:
			children = append(children, dynamicChild{b.Type, b.Body, it, unknown})
		}
	}
	for _, e := range d.entries {
		if e.attr != nil {
			if unknown {
				continue
			}
			a := body.Attributes[e.attr.Name]
			if a == nil || hiddenAttribute(hidden, a.Name) {
				continue
			}
			expr := a.Expr
			ctx, guarded := c.ctx, c.s.ev.limits.guardOnce(expr)
			if it != nil {
				// Evaluated again for each element.
				ctx, guarded = c.iterationContext(it), c.s.ev.limits.guardExpr(expr)
			}
			if _, diags := guarded.Value(ctx); len(diags) != 0 {
				return false
			}
			continue
		}
		for _, ch := range children {
			if ch.typ != e.typeName {
				continue
			}
			if !e.nested.clean(ch.body, nil) {
				return false
			}
			// dynblock reads a nested body's dynamic blocks in a new
			// context below the enclosing body's, with the iterators
			// defined inside dynamic blocks.
			fe := &lazyContext{it: ch.it, parent: forEach}
			if !c.level(ch.body, nil, e.nested, ch.it, fe, ch.unknown) {
				return false
			}
			if ch.unknown {
				break
			}
		}
	}
	return true
}

// lazyContext is the context a body's dynamic blocks' for_each are
// evaluated in, made on first need: its iteration's, or outside dynamic
// blocks an empty child of the enclosing body's (the checked body's
// own context at the top, ctx).
type lazyContext struct {
	ctx    *hcl.EvalContext
	it     *dynamicIteration
	parent *lazyContext
}

func (l *lazyContext) get(c *dynamicCheck) *hcl.EvalContext {
	if l.ctx == nil {
		if l.it != nil {
			l.ctx = c.iterationContext(l.it)
		} else {
			l.ctx = l.parent.get(c).NewChild()
		}
	}
	return l.ctx
}

// expandDynamic appends to children the blocks the dynamic block of type
// typ with body body generates, as dynblock's expansion does: one for
// each element of a known for_each, or one unknown block.
func (c *dynamicCheck) expandDynamic(children []dynamicChild, typ string, body *hclsyntax.Body, d *dynamicSpec, it *dynamicIteration, forEachCtx *hcl.EvalContext, unknown bool) ([]dynamicChild, bool) {
	if d.block(typ) == nil {
		return children, false
	}
	forEach, iterator, content, ok := dynamicBodyParts(body)
	if !ok {
		return children, false
	}
	name := typ
	if iterator != nil {
		trav, diags := hcl.AbsTraversalForExpr(c.s.ev.limits.guardOnce(iterator))
		if len(diags) != 0 || len(trav) != 1 {
			return children, false
		}
		name = trav.RootName()
	}
	guarded := c.s.ev.limits.guardOnce(forEach)
	if it != nil {
		// Evaluated again for each element.
		guarded = c.s.ev.limits.guardExpr(forEach)
	}
	each, diags := guarded.Value(forEachCtx)
	if len(diags) != 0 {
		return children, false
	}
	each, _ = each.Unmark()
	if !each.CanIterateElements() && each.Type() != cty.DynamicPseudoType || each.IsNull() {
		return children, false
	}
	if !each.IsKnown() {
		return append(children, dynamicChild{typ, content, &dynamicIteration{name: name, key: cty.DynamicVal, value: cty.DynamicVal, parent: it}, true}), true
	}
	if !c.budget.take(each.LengthInt()) {
		return children, false
	}
	for elems := each.ElementIterator(); elems.Next(); {
		key, value := elems.Element()
		children = append(children, dynamicChild{typ, content, &dynamicIteration{name: name, key: key, value: value, parent: it}, unknown})
	}
	return children, true
}

// iterationContext is it's context, made on first need: the checked
// body's context with every iterator defined, the nearest of each name.
func (c *dynamicCheck) iterationContext(it *dynamicIteration) *hcl.EvalContext {
	if it.ctx != nil {
		return it.ctx
	}
	vars := map[string]cty.Value{}
	for i := it; i != nil; i = i.parent {
		if _, shadowed := vars[i.name]; !shadowed {
			vars[i.name] = cty.ObjectVal(map[string]cty.Value{"key": i.key, "value": i.value})
		}
	}
	it.ctx = c.ctx.NewChild()
	it.ctx.Variables = vars
	return it.ctx
}
