package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/internal/elements"
)

// Where values were written. A tool that reports a finding about a value
// (a linter, a policy engine, an editor) needs the place in the
// configuration that produced it, not only the block around it. These
// functions find it after the evaluation, from the syntax: nothing is
// recorded while evaluating, so they cost nothing until they are called.
//
// A path goes into a value as cty.Path does; a set's element is named by
// its position in the set's order, an index step with a number, or (as in
// the paths cty.Walk gives) by the element itself. Each
// function follows the path as far as the configuration writes it and
// returns the range of the innermost expression that produced the value
// there: an attribute's expression, an item of an object or tuple
// constructor inside it, an attribute of a nested block or of a dynamic
// block's content. Where the configuration stops (an attribute left
// unset, a value computed by a function or a for expression, an attribute
// only the provider sets) it returns the range of the nearest enclosing
// expression or block, never a zero range while the object has one.

// ResourceSchema is the schema of the block a resource instance was made
// from: the provider's, from the schema document the evaluation was given,
// or the built-in terraform_data's; nil without one.
func (r *Result) ResourceSchema(ri *ResourceInstance) *Block {
	if r == nil || r.ev == nil || ri == nil || ri.Config == nil {
		return nil
	}
	mi := r.Module(ri.Module)
	if mi == nil {
		return nil
	}
	return r.ev.opts.Schemas.ResourceSchema(mi.Config.Module, ri.Config)
}

// AttrRange is the range of the expression that produced the value at
// path inside a resource instance's object (see above): for `tags["Name"]`
// the item of the tags object that sets Name, for `ingress[1].from_port`
// the from_port argument of the second ingress block (of the dynamic
// block's content, if a dynamic block made it). A path the configuration
// does not write ends at the nearest enclosing block or expression, the
// resource block's header at worst. It works alike for native syntax and
// JSON, and with or without provider schemas.
func (r *Result) AttrRange(ri *ResourceInstance, path cty.Path) hcl.Range {
	if ri == nil {
		return hcl.Range{}
	}
	fallback := ri.DeclRange
	if r == nil || r.ev == nil || ri.Config == nil || ri.Config.Config == nil {
		return fallback
	}
	mi := r.Module(ri.Module)
	if mi == nil {
		return fallback
	}
	rs, index := mi.instanceState(ri)
	if rs == nil {
		return fallback
	}
	info := r.ev.resourceInfo(mi.Config, rs.cfg)
	s := r.ev.scope(mi)
	if rs.cfg.Check != "" {
		ch := mi.Config.Module.Checks[rs.cfg.Check]
		s.setRare(func(r *scopeRare) { r.check = ch })
	}
	if rs.expansion.multi() && index < len(rs.expansion.keys) {
		s = s.withKeys(rs.expansion, index)
	}
	// The context the instance's body was evaluated in, for the for_each
	// of its dynamic blocks. Reference problems were reported while
	// evaluating; the for_each they touch is then unknown, and the walk
	// stops at the dynamic block.
	ctx, _ := s.refContext(copyRefDiags(info.bodyRefs))
	body := ri.Config.Config
	if info.dynamic {
		body = s.ev.limits.expandDynamic(body, ctx)
	}
	w := rangeWalker{ctx: ctx}
	return w.body(body, info.spec, path, ri.Value, fallback)
}

// instanceState finds the resource state a resource instance belongs to
// and its position among the state's instances.
func (mi *ModuleInstance) instanceState(ri *ResourceInstance) (*resourceState, int) {
	addr := ri.Config.Addr()
	rs := mi.resource(addr)
	if ri.Config.Check != "" {
		rs = mi.scopedResource(addr)
	}
	if rs == nil {
		return nil, 0
	}
	for i, inst := range rs.instances {
		if inst == ri {
			return rs, i
		}
	}
	return nil, 0
}

// OutputRange is the range of the expression that produced the value at
// path inside one of the module instance's outputs: the output's value
// argument, or the part of it that writes the place path names. An
// output the module does not declare gives the zero range.
func (mi *ModuleInstance) OutputRange(name string, path cty.Path) hcl.Range {
	if mi == nil || mi.Config == nil || mi.Config.Module == nil {
		return hcl.Range{}
	}
	out := mi.Config.Module.Outputs[name]
	if out == nil {
		return hcl.Range{}
	}
	if out.Expr == nil {
		return out.DeclRange
	}
	v, _ := mi.output(name)
	return exprRange(out.Expr, path, v)
}

// VariableRange is where the value of one of the module instance's input
// variables (at path inside it) was written in the configuration: for a
// called module, the argument of the module block that sets it, or the
// part of the argument that writes the place path names; for a variable
// the call leaves unset, and for the root module, the variable's default,
// else its declaration. (Root variables get their values from outside the
// configuration: tfeval's Evaluation.Variables says from where.) A
// variable the module does not declare gives the zero range.
func (mi *ModuleInstance) VariableRange(name string, path cty.Path) hcl.Range {
	if mi == nil || mi.Config == nil || mi.Config.Module == nil {
		return hcl.Range{}
	}
	decl := mi.Config.Module.Variables[name]
	if decl == nil {
		return hcl.Range{}
	}
	if mi.Call != nil && mi.Call.Config != nil {
		if attrs, _ := mi.Call.Config.JustAttributes(); attrs[name] != nil {
			v, _ := mi.variable(name)
			return exprRange(attrs[name].Expr, path, v)
		}
	}
	if decl.DefaultRange.Filename != "" {
		return decl.DefaultRange
	}
	return decl.DeclRange
}

// rangeWalker follows a path through a configuration body.
type rangeWalker struct {
	// ctx is the context the body was evaluated in, for matching the
	// blocks of a set to the set's elements.
	ctx *hcl.EvalContext
}

// body follows path through a block body decoded with spec, whose
// evaluated value is v; fallback is the block's own range.
func (w rangeWalker) body(body hcl.Body, spec hcldec.Spec, path cty.Path, v cty.Value, fallback hcl.Range) hcl.Range {
	if len(path) == 0 {
		return fallback
	}
	name, ok := stepName(path[0])
	obj, isObj := spec.(hcldec.ObjectSpec)
	if !ok || !isObj || obj[name] == nil {
		return fallback
	}
	v = stepValue(v, path[0])
	switch s := obj[name].(type) {
	case *hcldec.AttrSpec:
		content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: s.Name}}})
		if content == nil || content.Attributes[s.Name] == nil {
			return fallback
		}
		return exprRange(content.Attributes[s.Name].Expr, path[1:], v)
	case *hcldec.BlockSpec:
		return w.single(body, s.TypeName, s.Nested, path[1:], v, fallback)
	case *hcldec.DefaultSpec:
		if b, ok := s.Primary.(*hcldec.BlockSpec); ok {
			return w.single(body, b.TypeName, b.Nested, path[1:], v, fallback)
		}
	case *hcldec.BlockListSpec:
		return w.list(body, s.TypeName, s.Nested, path[1:], v, fallback)
	case *hcldec.BlockTupleSpec:
		return w.list(body, s.TypeName, s.Nested, path[1:], v, fallback)
	case *hcldec.BlockSetSpec:
		return w.set(body, s.TypeName, s.Nested, path[1:], v, fallback)
	case *hcldec.BlockMapSpec:
		return w.mapped(body, s.TypeName, s.Nested, path[1:], v, fallback)
	case *hcldec.BlockObjectSpec:
		return w.mapped(body, s.TypeName, s.Nested, path[1:], v, fallback)
	}
	return fallback
}

// blocks are the blocks of one type in a body, those dynamic blocks made
// included, in order.
func blocksOfType(body hcl.Body, typeName string, labels int) hcl.Blocks {
	header := hcl.BlockHeaderSchema{Type: typeName}
	for range labels {
		header.LabelNames = append(header.LabelNames, "label")
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{header}})
	if content == nil {
		return nil
	}
	return content.Blocks.OfType(typeName)
}

// single follows path into the one block of a type.
func (w rangeWalker) single(body hcl.Body, typeName string, nested hcldec.Spec, path cty.Path, v cty.Value, fallback hcl.Range) hcl.Range {
	blocks := blocksOfType(body, typeName, 0)
	if len(blocks) == 0 {
		return fallback
	}
	return w.body(blocks[0].Body, nested, path, v, blocks[0].DefRange)
}

// list follows path into the blocks of a type that make a list: the
// path's index is the block's position.
func (w rangeWalker) list(body hcl.Body, typeName string, nested hcldec.Spec, path cty.Path, v cty.Value, fallback hcl.Range) hcl.Range {
	blocks := blocksOfType(body, typeName, 0)
	if len(blocks) == 0 {
		return fallback
	}
	if len(path) == 0 {
		return blocks[0].DefRange
	}
	i, ok := stepIndex(path[0])
	if !ok || i >= len(blocks) {
		return fallback
	}
	return w.body(blocks[i].Body, nested, path[1:], stepValue(v, path[0]), blocks[i].DefRange)
}

// set follows path into the blocks of a type that make a set: the path's
// index is a position in the set's order, which is not the blocks' order,
// so the element there is matched to the block whose arguments give it.
func (w rangeWalker) set(body hcl.Body, typeName string, nested hcldec.Spec, path cty.Path, v cty.Value, fallback hcl.Range) hcl.Range {
	blocks := blocksOfType(body, typeName, 0)
	if len(blocks) == 0 {
		return fallback
	}
	if len(path) == 0 {
		return blocks[0].DefRange
	}
	elem := stepValue(v, path[0])
	for _, b := range blocks {
		if w.blockGives(b.Body, nested, elem) {
			return w.body(b.Body, nested, path[1:], elem, b.DefRange)
		}
	}
	return fallback
}

// mapped follows path into the blocks of a type that make a map, by label.
func (w rangeWalker) mapped(body hcl.Body, typeName string, nested hcldec.Spec, path cty.Path, v cty.Value, fallback hcl.Range) hcl.Range {
	blocks := blocksOfType(body, typeName, 1)
	if len(blocks) == 0 {
		return fallback
	}
	if len(path) == 0 {
		return blocks[0].DefRange
	}
	key, ok := stepName(path[0])
	if !ok {
		return fallback
	}
	for _, b := range blocks {
		if len(b.Labels) == 1 && b.Labels[0] == key {
			return w.body(b.Body, nested, path[1:], stepValue(v, path[0]), b.DefRange)
		}
	}
	return fallback
}

// blockGives reports whether a block's arguments give the object elem:
// every argument the block sets, decoded, equals elem's attribute (the
// attributes the provider computes are not in the block).
func (w rangeWalker) blockGives(body hcl.Body, nested hcldec.Spec, elem cty.Value) bool {
	elem, _ = elem.UnmarkDeep()
	if !elem.IsKnown() || elem.IsNull() || !elem.Type().IsObjectType() {
		return false
	}
	got, diags := hcldec.Decode(body, nested, w.ctx)
	if diags.HasErrors() {
		return false
	}
	got, _ = got.UnmarkDeep()
	if !got.IsKnown() || got.IsNull() || !got.Type().IsObjectType() {
		return false
	}
	for name := range got.Type().AttributeTypes() {
		g := got.GetAttr(name)
		if g.IsNull() || !elem.Type().HasAttribute(name) {
			continue
		}
		if !sameValue(g, elem.GetAttr(name)) {
			return false
		}
	}
	return true
}

// sameValue reports whether a configuration's value equals the evaluated
// one once converted to its type; values with unknowns match anything.
func sameValue(config, evaluated cty.Value) bool {
	if !config.IsWhollyKnown() || !evaluated.IsWhollyKnown() {
		return true
	}
	c, err := convert.Convert(config, evaluated.Type())
	if err != nil {
		return false
	}
	return c.Equals(evaluated).True()
}

// exprRange follows path into an expression whose value is v: through the
// items of object constructors (by key) and the elements of tuple
// constructors (by index; for a set, the element whose constant
// expression gives the set's element at that position), as far as the
// syntax goes, and returns the innermost expression's range.
func exprRange(expr hcl.Expression, path cty.Path, v cty.Value) hcl.Range {
	for _, step := range path {
		next := stepValue(v, step)
		inner := stepExpr(expr, step, v, next)
		if inner == nil {
			break
		}
		expr, v = inner, next
	}
	return expr.Range()
}

// stepExpr is the part of expr that writes the value one step in, or nil
// when expr is not a constructor that writes it.
func stepExpr(expr hcl.Expression, step cty.PathStep, v, next cty.Value) hcl.Expression {
	if plain, _ := v.Unmark(); plain.Type().IsSetType() {
		// A set's order is not the constructor's: find the element.
		exprs, diags := hcl.ExprList(expr)
		if diags.HasErrors() {
			return nil
		}
		for _, e := range exprs {
			c, diags := e.Value(nil)
			if !diags.HasErrors() && c.IsWhollyKnown() && next.IsWhollyKnown() && sameValue(c, next) {
				return e
			}
		}
		return nil
	}
	if key, ok := stepName(step); ok {
		pairs, diags := hcl.ExprMap(expr)
		if diags.HasErrors() {
			return nil
		}
		// The last item that gives the key wins, as in the value; a key
		// made from variables could be any key, so after one the item
		// found so far is not certain to be the one.
		var found hcl.Expression
		for _, p := range pairs {
			// (A JSON key's template is literal text without a context,
			// so a key with references counts as made from variables.)
			k, diags := p.Key.Value(nil)
			if diags.HasErrors() || !k.IsKnown() || k.IsNull() || len(p.Key.Variables()) > 0 {
				found = nil
				continue
			}
			if k, err := convert.Convert(k, cty.String); err == nil && k.AsString() == key {
				found = p.Value
			}
		}
		return found
	}
	i, ok := stepIndex(step)
	if !ok {
		return nil
	}
	exprs, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		return nil
	}
	if i >= len(exprs) {
		return nil
	}
	return exprs[i]
}

// stepName is the attribute name or string key of a step.
func stepName(step cty.PathStep) (string, bool) {
	switch s := step.(type) {
	case cty.GetAttrStep:
		return s.Name, true
	case cty.IndexStep:
		k, _ := s.Key.Unmark()
		if k.Type() == cty.String && k.IsKnown() && !k.IsNull() {
			return k.AsString(), true
		}
	}
	return "", false
}

// stepIndex is the number of an index step.
func stepIndex(step cty.PathStep) (int, bool) {
	s, ok := step.(cty.IndexStep)
	if !ok {
		return 0, false
	}
	k, _ := s.Key.Unmark()
	if k.Type() != cty.Number || !k.IsKnown() || k.IsNull() {
		return 0, false
	}
	i, acc := k.AsBigFloat().Int64()
	if acc != 0 || i < 0 || i > 1<<31 {
		return 0, false
	}
	return int(i), true
}

// stepValue is the value one step inside v (a set's element by position),
// or cty.DynamicVal where there is none to be had.
func stepValue(v cty.Value, step cty.PathStep) cty.Value {
	if v.Type() == cty.NilType {
		return cty.DynamicVal
	}
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() {
		return cty.DynamicVal
	}
	ty := v.Type()
	if s, ok := step.(cty.IndexStep); ok && ty.IsSetType() && s.Key.Type() != cty.Number {
		// cty's own paths name a set's element by the element itself.
		k, _ := s.Key.UnmarkDeep()
		return k
	}
	if name, ok := stepName(step); ok {
		switch {
		case ty.IsObjectType() && ty.HasAttribute(name):
			return v.GetAttr(name)
		case ty.IsMapType():
			if k := cty.StringVal(name); v.HasIndex(k).True() {
				return v.Index(k)
			}
		}
		return cty.DynamicVal
	}
	i, ok := stepIndex(step)
	if !ok || !v.CanIterateElements() || i >= v.LengthInt() {
		return cty.DynamicVal
	}
	n := 0
	for it := elements.Of(v); it.Next(); n++ {
		if n == i {
			_, e := it.Element()
			return e
		}
	}
	return cty.DynamicVal
}
