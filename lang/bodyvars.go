package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
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

func walkBodyVariables(body hcl.Body, spec hcldec.Spec, schema *hcl.BodySchema, it *iteratorScope, out *[]hcl.Traversal) {
	ext := &hcl.BodySchema{Attributes: schema.Attributes, Blocks: make([]hcl.BlockHeaderSchema, 0, len(schema.Blocks)+1)}
	ext.Blocks = append(append(ext.Blocks, schema.Blocks...), dynamicHeader)
	content, _, _ := body.PartialContent(ext)
	if content == nil {
		return
	}
	for _, attr := range content.Attributes {
		for _, t := range variables(attr.Expr) {
			if !it.inScope(t.RootName()) {
				*out = append(*out, t)
			}
		}
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
		name := typ
		if a, ok := inner.Attributes["iterator"]; ok {
			trav, _ := hcl.AbsTraversalForExpr(a.Expr)
			if len(trav) == 0 {
				continue // an invalid iterator: expanding the block reports it
			}
			name = trav.RootName()
		}
		own := &iteratorScope{name: name, parent: it}
		if a, ok := inner.Attributes["for_each"]; ok {
			// The collection is read outside the block: only the
			// iterators around it are in scope.
			for _, t := range variables(a.Expr) {
				if !own.outer(t.RootName()) {
					*out = append(*out, t)
				}
			}
		}
		if a, ok := inner.Attributes["labels"]; ok {
			for _, t := range variables(a.Expr) {
				if !own.inScope(t.RootName()) {
					*out = append(*out, t)
				}
			}
		}
		for _, c := range inner.Blocks {
			children = append(children, bodyChild{typ, c.Body, own})
		}
	}
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
			cschema = hcldec.ImpliedSchema(cs)
			schemas = append(schemas, typeSchema{c.typ, cschema})
		}
		walkBodyVariables(c.body, cs, cschema, c.it, out)
	}
}
