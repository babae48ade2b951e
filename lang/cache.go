package lang

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// resourceInfo is what evaluating a resource block needs that is the same
// in every instance of every module instance: computed once per block.
type resourceInfo struct {
	schema *Block
	spec   hcldec.Spec
	// bodyVars are the references of the body, dynamic blocks included.
	bodyVars []hcl.Traversal
	// dynamic says whether the body has dynamic blocks to expand.
	dynamic bool
	// bodyRefs are bodyVars parsed.
	bodyRefs []parsedRef
	// body is the block's body with guarded expressions and remembered content.
	body *guardedBody
	// attrs decodes the body when its spec has only attributes, else nil.
	attrs *attributeDecoder
	// blocks decodes the common case of a native-syntax body with blocks,
	// else nil.
	blocks *blockDecoder
	// readOnly are the schema's computed-only attributes, sorted.
	readOnly []string
}

// resourceInfo returns the cached per-block data of a resource.
func (ev *evaluator) resourceInfo(c *config.Config, res *config.Resource) *resourceInfo {
	sh := ev.share()
	sh.cacheMu.RLock()
	info := sh.resources[res]
	sh.cacheMu.RUnlock()
	if info != nil {
		return info
	}
	info = &resourceInfo{schema: ev.opts.Schemas.resourceSchema(c.Module, res)}
	if info.schema != nil {
		info.spec = info.schema.decoderSpec()
		for _, name := range sortedKeys(info.schema.Attributes) {
			if a := info.schema.Attributes[name]; a.Computed && !a.Optional {
				info.readOnly = append(info.readOnly, name)
			}
		}
	} else {
		info.spec = impliedSpec(res.Config)
	}
	if res.Config != nil {
		info.bodyVars = bodyVariables(res.Config, info.spec)
		info.dynamic = hasDynamicBlocks(res.Config)
		info.bodyRefs = parseRefs(info.bodyVars, ev.opts.Dialect)
		info.body = newGuardedBody(res.Config, ev.limits)
		info.attrs = newAttributeDecoder(info.spec)
		if _, native := res.Config.(*hclsyntax.Body); native && info.attrs == nil {
			info.blocks = newBlockDecoder(info.spec)
		}
	}
	sh.cacheMu.Lock()
	if prev := sh.resources[res]; prev != nil {
		info = prev
	} else {
		sh.resources[res] = info
	}
	sh.cacheMu.Unlock()
	return info
}

// hasDynamicBlocks reports whether a body (or a block nested in it) has a
// dynamic block; bodies that are not native syntax count as having one.
func hasDynamicBlocks(body hcl.Body) bool {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return true
	}
	for _, b := range sb.Blocks {
		if b.Type == "dynamic" || hasDynamicBlocks(b.Body) {
			return true
		}
	}
	return false
}

// callAttributesCached is callAttributes, decoded once per module call.
func (ev *evaluator) callAttributesCached(call *config.ModuleCall) hcl.Attributes {
	if call == nil {
		return nil
	}
	sh := ev.share()
	sh.cacheMu.RLock()
	attrs, ok := sh.calls[call]
	sh.cacheMu.RUnlock()
	if ok {
		return attrs
	}
	attrs = callAttributes(call)
	sh.cacheMu.Lock()
	sh.calls[call] = attrs
	sh.cacheMu.Unlock()
	return attrs
}

// hasNamespacedCalls reports whether an expression calls a function with a
// namespace ("provider::", "core::"), remembered per expression.
func (ev *evaluator) hasNamespacedCalls(expr hclsyntax.Expression) bool {
	sh := ev.share()
	sh.cacheMu.RLock()
	has, ok := sh.nsCalls[expr]
	sh.cacheMu.RUnlock()
	if ok {
		return has
	}
	has = callsNamespaced(expr)
	if cacheable(ev.done, &sh.adHocLeft) {
		sh.cacheMu.Lock()
		sh.nsCalls[expr] = has
		sh.cacheMu.Unlock()
	}
	return has
}

// providerFunctionsKey names the set of provider functions a module sees,
// so that modules seeing the same set share a function table.
func (ev *evaluator) providerFunctionsKey(m *config.Module) string {
	if ev.opts.Schemas == nil || m == nil || len(m.RequiredProviders) == 0 {
		return ""
	}
	var b strings.Builder
	for _, local := range sortedKeys(m.RequiredProviders) {
		ps := ev.opts.Schemas.provider(m, local)
		if ps == nil || len(ps.Functions) == 0 {
			continue
		}
		src := "hashicorp/" + local
		if rp := m.RequiredProviders[local]; rp != nil && rp.Source != "" {
			src = rp.Source
		}
		b.WriteString(local)
		b.WriteByte('=')
		b.WriteString(providerKey(src))
		b.WriteByte(';')
	}
	return b.String()
}

// parsedRef is one traversal parsed by parseRef, kept for reuse.
type parsedRef struct {
	ref   *reference
	diags hcl.Diagnostics
}

// parseRefs parses traversals. Diagnostics are copied each time a cached
// list is used (see refDiags), since callers may change their severity.
func parseRefs(travs []hcl.Traversal, d dialect.Dialect) []parsedRef {
	out := make([]parsedRef, len(travs))
	for i, t := range travs {
		out[i].ref, out[i].diags = parseRef(t, d)
	}
	return out
}

// exprRefs returns the parsed references of an expression, computed once
// per expression.
func (ev *evaluator) exprRefs(expr hcl.Expression) []parsedRef {
	sh := ev.share()
	sh.cacheMu.RLock()
	refs, ok := sh.exprRefs[expr]
	sh.cacheMu.RUnlock()
	if !ok {
		refs = parseRefs(variables(expr), ev.opts.Dialect)
		if cacheable(ev.done, &sh.adHocLeft) {
			sh.cacheMu.Lock()
			sh.exprRefs[expr] = refs
			sh.cacheMu.Unlock()
		}
	}
	return copyRefDiags(refs)
}

// copyRefDiags returns refs with private copies of any diagnostics.
func copyRefDiags(refs []parsedRef) []parsedRef {
	var out []parsedRef
	for i, r := range refs {
		if len(r.diags) == 0 {
			continue
		}
		if out == nil {
			out = append([]parsedRef(nil), refs...)
		}
		ds := make(hcl.Diagnostics, len(r.diags))
		for j, d := range r.diags {
			c := *d
			ds[j] = &c
		}
		out[i].diags = ds
	}
	if out == nil {
		return refs
	}
	return out
}

// callsNamespaced reports whether e, or an expression inside it, calls a
// function with a namespace. It walks the node types of hclsyntax itself,
// since hclsyntax.VisitAll makes a closure for every node of every
// expression; a node type it does not know is left to VisitAll.
func callsNamespaced(e hclsyntax.Expression) bool {
	some := func(es ...hclsyntax.Expression) bool {
		for _, e := range es {
			if e != nil && callsNamespaced(e) {
				return true
			}
		}
		return false
	}
	switch e := e.(type) {
	case *hclsyntax.FunctionCallExpr:
		return strings.Contains(e.Name, "::") || some(e.Args...)
	case *hclsyntax.LiteralValueExpr, *hclsyntax.ScopeTraversalExpr, *hclsyntax.AnonSymbolExpr, *hclsyntax.ExprSyntaxError:
		return false
	case *hclsyntax.RelativeTraversalExpr:
		return some(e.Source)
	case *hclsyntax.ConditionalExpr:
		return some(e.Condition, e.TrueResult, e.FalseResult)
	case *hclsyntax.IndexExpr:
		return some(e.Collection, e.Key)
	case *hclsyntax.TupleConsExpr:
		return some(e.Exprs...)
	case *hclsyntax.ObjectConsExpr:
		for _, it := range e.Items {
			if some(it.KeyExpr, it.ValueExpr) {
				return true
			}
		}
		return false
	case *hclsyntax.ObjectConsKeyExpr:
		return some(e.Wrapped)
	case *hclsyntax.ForExpr:
		return some(e.CollExpr, e.KeyExpr, e.ValExpr, e.CondExpr)
	case *hclsyntax.SplatExpr:
		return some(e.Source, e.Each)
	case *hclsyntax.BinaryOpExpr:
		return some(e.LHS, e.RHS)
	case *hclsyntax.UnaryOpExpr:
		return some(e.Val)
	case *hclsyntax.TemplateExpr:
		return some(e.Parts...)
	case *hclsyntax.TemplateJoinExpr:
		return some(e.Tuple)
	case *hclsyntax.TemplateWrapExpr:
		return some(e.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		return some(e.Expression)
	}
	return visitNamespaced(e)
}

// visitNamespaced is callsNamespaced by hcl's own walk, for node types
// callsNamespaced does not know.
func visitNamespaced(e hclsyntax.Node) bool {
	has := false
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.Contains(call.Name, "::") {
			has = true
		}
		return nil
	})
	return has
}

// variables is expr.Variables(): the traversals of the root scope expr
// refers to, in hcl's order. For native syntax it walks hclsyntax's node
// types itself, since hclsyntax.Variables makes a closure for every node
// of every expression; a node type it does not know is left to hcl.
func variables(expr hcl.Expression) []hcl.Traversal {
	se, ok := expr.(hclsyntax.Expression)
	if !ok {
		return expr.Variables()
	}
	w := variablesWalk{}
	w.walk(se)
	return w.vars
}

// variablesWalk collects traversals as hclsyntax's variables walker does.
type variablesWalk struct {
	vars []hcl.Traversal
	// locals are the names for expressions bind in the node being walked.
	locals []string
}

func (w *variablesWalk) local(name string) bool {
	for _, l := range w.locals {
		if l == name {
			return true
		}
	}
	return false
}

func (w *variablesWalk) walk(e hclsyntax.Expression) {
	switch e := e.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if !w.local(e.Traversal.RootName()) {
			w.vars = append(w.vars, e.Traversal)
		}
	case *hclsyntax.LiteralValueExpr, *hclsyntax.AnonSymbolExpr, *hclsyntax.ExprSyntaxError:
	case *hclsyntax.FunctionCallExpr:
		w.all(e.Args...)
	case *hclsyntax.RelativeTraversalExpr:
		w.walk(e.Source)
	case *hclsyntax.ConditionalExpr:
		w.all(e.Condition, e.TrueResult, e.FalseResult)
	case *hclsyntax.IndexExpr:
		w.all(e.Collection, e.Key)
	case *hclsyntax.TupleConsExpr:
		w.all(e.Exprs...)
	case *hclsyntax.ObjectConsExpr:
		for _, it := range e.Items {
			w.all(it.KeyExpr, it.ValueExpr)
		}
	case *hclsyntax.ObjectConsKeyExpr:
		// A key that reads as a bare name is that name, not a reference.
		if hcl.ExprAsKeyword(e.Wrapped) == "" {
			w.walk(e.Wrapped)
		}
	case *hclsyntax.ForExpr:
		w.walk(e.CollExpr)
		n := len(w.locals)
		if e.KeyVar != "" {
			w.locals = append(w.locals, e.KeyVar)
		}
		if e.ValVar != "" {
			w.locals = append(w.locals, e.ValVar)
		}
		w.all(e.KeyExpr, e.ValExpr, e.CondExpr)
		w.locals = w.locals[:n]
	case *hclsyntax.SplatExpr:
		w.all(e.Source, e.Each)
	case *hclsyntax.BinaryOpExpr:
		w.all(e.LHS, e.RHS)
	case *hclsyntax.UnaryOpExpr:
		w.walk(e.Val)
	case *hclsyntax.TemplateExpr:
		w.all(e.Parts...)
	case *hclsyntax.TemplateJoinExpr:
		w.walk(e.Tuple)
	case *hclsyntax.TemplateWrapExpr:
		w.walk(e.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		w.walk(e.Expression)
	default:
		for _, t := range hclsyntax.Variables(e) {
			if !w.local(t.RootName()) {
				w.vars = append(w.vars, t)
			}
		}
	}
}

// all walks es in order, skipping absent ones.
func (w *variablesWalk) all(es ...hclsyntax.Expression) {
	for _, e := range es {
		if e != nil {
			w.walk(e)
		}
	}
}
