package lang

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/config"
)

// bodyVariables returns the references of a body decoded with spec,
// dynamic blocks included, as dynblock.VariablesHCLDec finds them: the
// attributes the spec reads, each dynamic block's for_each and labels, and
// the contents of nested and dynamic blocks, without the references to a
// dynamic block's iterator inside it. It walks the same content dynblock
// does but reads each expression with variables, which hcl's walk would
// make a closure for every node of.
func bodyVariables(body hcl.Body, spec hcldec.Spec) []hcl.Traversal {
	return bodyVariablesOf(body, spec, hcldec.ImpliedSchema(spec))
}

// bodyVariablesOf is bodyVariables given spec's implied schema.
func bodyVariablesOf(body hcl.Body, spec hcldec.Spec, schema *hcl.BodySchema) []hcl.Traversal {
	var out []hcl.Traversal
	walkBodyVariables(body, spec, schema, nil, &out)
	return out
}

// iteratorScope is the iterators in scope inside a dynamic block's
// content: its own and those of the dynamic blocks around it.
type iteratorScope struct {
	name   string
	parent *iteratorScope
}

// outer reports whether name is the iterator of a dynamic block around
// the one s belongs to.
func (s *iteratorScope) outer(name string) bool {
	for p := s.parent; p != nil; p = p.parent {
		if p.name == name {
			return true
		}
	}
	return false
}

// inScope reports whether name is any iterator in scope.
func (s *iteratorScope) inScope(name string) bool {
	return s != nil && (s.name == name || s.outer(name))
}

// dynamicHeader and dynamicInner are the schemas dynblock reads a body's
// dynamic blocks with: one label, then for_each, labels, iterator and any
// number of content blocks, none required.
var (
	dynamicHeader = hcl.BlockHeaderSchema{Type: "dynamic", LabelNames: []string{"type"}}
	dynamicInner  = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "for_each"}, {Name: "labels"}, {Name: "iterator"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
	}
)

// bodyChild is a nested body to walk after the current one's own references.
type bodyChild struct {
	typ  string
	body hcl.Body
	it   *iteratorScope
}

// walkBodyVariables appends the references of body (see bodyVariables) to
// out, reading it with hcl's PartialContent: the body a resource block
// leaves once its meta-arguments are taken out hides them, which only hcl
// knows.
func walkBodyVariables(body hcl.Body, spec hcldec.Spec, schema *hcl.BodySchema, it *iteratorScope, out *[]hcl.Traversal) {
	ext := &hcl.BodySchema{Attributes: schema.Attributes, Blocks: make([]hcl.BlockHeaderSchema, 0, len(schema.Blocks)+1)}
	ext.Blocks = append(append(ext.Blocks, schema.Blocks...), dynamicHeader)
	content, _, _ := body.PartialContent(ext)
	if content == nil {
		return
	}
	for _, attr := range content.Attributes {
		appendOutside(out, attr.Expr, it)
	}
	var children []bodyChild
	for _, b := range content.Blocks {
		if b.Type != "dynamic" {
			children = append(children, bodyChild{b.Type, b.Body, it})
			continue
		}
		typ := b.Labels[0]
		inner, _, _ := b.Body.PartialContent(dynamicInner)
		if inner == nil {
			continue
		}
		own, ok := dynamicScope(typ, attrExpr(inner.Attributes["for_each"]), attrExpr(inner.Attributes["labels"]), attrExpr(inner.Attributes["iterator"]), it, out)
		if !ok {
			continue
		}
		for _, c := range inner.Blocks {
			children = append(children, bodyChild{typ, c.Body, own})
		}
	}
	walkChildren(children, spec, out)
}

// resourceBodyVariables is bodyVariablesOf of a resource's body. While
// the body is the one its block was decoded to, it is read from the
// block's syntax without the meta-arguments config took out
// (config.Resource.VisibleSyntax), rather than through PartialContent of
// the body config left, which copies each attribute and block it returns
// and the sets of names it hides.
func resourceBodyVariables(res *config.Resource, spec hcldec.Spec, schema *hcl.BodySchema) []hcl.Traversal {
	body, meta, ok := res.VisibleSyntax()
	if !ok {
		return bodyVariablesOf(res.Config, spec, schema)
	}
	var out []hcl.Traversal
	walkSyntaxBodyVariables(body, meta, spec, schema, nil, &out)
	return out
}

// walkSyntaxBodyVariables is walkBodyVariables for a native-syntax body,
// leaving out the attributes and block types hidden names (nil for a body
// nested in another, which hides nothing): it reads the body's attributes
// and blocks as PartialContent would return them, without the copies of
// each that hcl makes.
func walkSyntaxBodyVariables(body *hclsyntax.Body, hidden *hcl.BodySchema, spec hcldec.Spec, schema *hcl.BodySchema, it *iteratorScope, out *[]hcl.Traversal) {
	for _, as := range schema.Attributes {
		if a, ok := body.Attributes[as.Name]; ok && !hiddenAttribute(hidden, as.Name) {
			appendOutside(out, a.Expr, it)
		}
	}
	var children []bodyChild
	for _, b := range body.Blocks {
		if hiddenBlock(hidden, b.Type) {
			continue
		}
		if b.Type != "dynamic" {
			if labels, ok := blockLabels(schema, b.Type); ok && labels == len(b.Labels) {
				children = append(children, bodyChild{b.Type, b.Body, it})
			}
			continue
		}
		if len(b.Labels) != len(dynamicHeader.LabelNames) {
			continue // hcl leaves it out (dynamicHeader is read last)
		}
		typ := b.Labels[0]
		own, ok := dynamicScope(typ, syntaxAttrExpr(b.Body, "for_each"), syntaxAttrExpr(b.Body, "labels"), syntaxAttrExpr(b.Body, "iterator"), it, out)
		if !ok {
			continue
		}
		for _, c := range b.Body.Blocks {
			if c.Type == "content" && len(c.Labels) == 0 {
				children = append(children, bodyChild{typ, c.Body, own})
			}
		}
	}
	walkChildren(children, spec, out)
}

// blockLabels is how many labels schema expects on blocks of type typ;
// false when it has no such block type. Of two schemas of one type the
// last counts, as in hcl.
func blockLabels(schema *hcl.BodySchema, typ string) (int, bool) {
	for i := len(schema.Blocks) - 1; i >= 0; i-- {
		if schema.Blocks[i].Type == typ {
			return len(schema.Blocks[i].LabelNames), true
		}
	}
	return 0, false
}

// attrExpr is the expression of an attribute, nil for none.
func attrExpr(a *hcl.Attribute) hcl.Expression {
	if a == nil {
		return nil
	}
	return a.Expr
}

// syntaxAttrExpr is the expression of a native-syntax body's attribute,
// nil for none.
func syntaxAttrExpr(body *hclsyntax.Body, name string) hcl.Expression {
	if a, ok := body.Attributes[name]; ok {
		return a.Expr
	}
	return nil
}

// appendOutside appends to out the traversals of expr (see variables) that
// do not start at an iterator in scope. They are walked into out and those
// in scope taken out again, so that no list is made for expr alone.
func appendOutside(out *[]hcl.Traversal, expr hcl.Expression, it *iteratorScope) {
	n := len(*out)
	all := appendVariables(*out, expr)
	kept := all[:n]
	for _, t := range all[n:] {
		if !it.inScope(t.RootName()) {
			kept = append(kept, t)
		}
	}
	*out = kept
}

// dynamicScope appends the references of a dynamic block's for_each and
// labels to out and returns the iterators in scope in its content, false
// for an invalid iterator (expanding the block reports it).
func dynamicScope(typ string, forEach, labels, iterator hcl.Expression, it *iteratorScope, out *[]hcl.Traversal) (*iteratorScope, bool) {
	name := typ
	if iterator != nil {
		trav, _ := hcl.AbsTraversalForExpr(iterator)
		if len(trav) == 0 {
			return nil, false
		}
		name = trav.RootName()
	}
	own := &iteratorScope{name: name, parent: it}
	if forEach != nil {
		// The collection is read outside the block: only the iterators
		// around it are in scope.
		n := len(*out)
		all := appendVariables(*out, forEach)
		kept := all[:n]
		for _, t := range all[n:] {
			if !own.outer(t.RootName()) {
				kept = append(kept, t)
			}
		}
		*out = kept
	}
	if labels != nil {
		appendOutside(out, labels, own)
	}
	return own, true
}

// walkChildren walks the nested bodies of a body decoded with spec.
func walkChildren(children []bodyChild, spec hcldec.Spec, out *[]hcl.Traversal) {
	if len(children) == 0 {
		return
	}
	specs := hcldec.ChildBlockTypes(spec)
	// Blocks of one type share their spec's schema, made once here.
	type typeSchema struct {
		typ    string
		schema *hcl.BodySchema
	}
	var schemas []typeSchema
	for _, c := range children {
		cs, ok := specs[c.typ]
		if !ok {
			continue
		}
		var cschema *hcl.BodySchema
		for _, ts := range schemas {
			if ts.typ == c.typ {
				cschema = ts.schema
			}
		}
		if cschema == nil {
			cschema = impliedSchema(cs)
			schemas = append(schemas, typeSchema{c.typ, cschema})
		}
		if sb, ok := c.body.(*hclsyntax.Body); ok {
			walkSyntaxBodyVariables(sb, nil, cs, cschema, c.it, out)
		} else {
			walkBodyVariables(c.body, cs, cschema, c.it, out)
		}
	}
}

// ungeneratedDropped returns diags without the problems of references
// inside the content of raw's dynamic blocks that expanding body (raw, or
// a wrapper of it) with ctx generates no block from. Terraform checks a
// body's references after expanding its dynamic blocks: content that is
// never generated, its for_each empty or unknown, is never resolved, so
// a misspelt iterator is an error only once the collection has elements.
// Only native-syntax bodies are sorted; others keep every diagnostic.
func ungeneratedDropped(raw, body hcl.Body, spec hcldec.Spec, ctx *hcl.EvalContext, diags hcl.Diagnostics, lim *limiter) hcl.Diagnostics {
	sb, ok := raw.(*hclsyntax.Body)
	if !ok {
		return diags
	}
	contents := dynamicContentRanges(sb, nil)
	if len(contents) == 0 {
		return diags
	}
	var generated []hcl.Traversal
	expanded := false
	out := diags[:0:0]
	for _, d := range diags {
		if d.Subject == nil || !slices.ContainsFunc(contents, func(r hcl.Range) bool { return rangeWithin(*d.Subject, r) }) {
			out = append(out, d)
			continue
		}
		if !expanded {
			generated = hcldec.Variables(lim.expandDynamic(body, ctx), spec)
			expanded = true
		}
		if slices.ContainsFunc(generated, func(t hcl.Traversal) bool { return rangeWithin(*d.Subject, t.SourceRange()) }) {
			out = append(out, d)
		}
	}
	return out
}

// dynamicContentRanges appends to out the ranges of the content blocks of
// the dynamic blocks in body, those nested in other blocks included.
func dynamicContentRanges(body *hclsyntax.Body, out []hcl.Range) []hcl.Range {
	for _, b := range body.Blocks {
		if b.Type != "dynamic" {
			out = dynamicContentRanges(b.Body, out)
			continue
		}
		for _, c := range b.Body.Blocks {
			if c.Type == "content" {
				out = append(out, c.Body.SrcRange)
			}
		}
	}
	return out
}

// rangeWithin reports whether r lies inside outer.
func rangeWithin(r, outer hcl.Range) bool {
	return r.Filename == outer.Filename && r.Start.Byte >= outer.Start.Byte && r.End.Byte <= outer.End.Byte
}
