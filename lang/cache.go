package lang

import (
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/providerfuncs"
)

// resourceInfo is what evaluating a resource block needs that is the same
// in every instance of every module instance: computed once per block.
type resourceInfo struct {
	schema *Block
	*resourceShape
	// body is the block's body with guarded expressions and remembered
	// content, charged to this evaluation's limits.
	body *guardedBody
	// dynamicArgs, without schema, are the arguments of spec that tfeval
	// knows the provider declares of dynamic type (dynamicSpecs).
	dynamicArgs []*hcldec.AttrSpec
	// sensitive, without schema, is the table of the provider's schema
	// of the type when it has sensitive attributes (tableSensitive).
	sensitive *Block
	// writeOnly, without schema, is the table of the provider's schema of
	// a managed resource type with write-only arguments (tableWriteOnly).
	writeOnly *Block
	// setBlocks, without schema, is the table of the provider's schema of
	// the type when it nests a block type as a set (tableSetBlocks).
	setBlocks *Block
}

// resourceShape is the part of resourceInfo that depends only on the
// block, its schema and the dialect: it is kept with the block
// (config.Resource.Derived), so that the evaluations sharing a module (a
// scan's roots calling it) work it out once.
type resourceShape struct {
	spec hcldec.Spec
	// asBlocks are the attributes of the schema the body writes as blocks
	// ("attributes as blocks"): when no block is left of them after
	// dynamic blocks are expanded, the attribute is null, not empty.
	asBlocks []string
	// bodyVars are the references of the body, dynamic blocks included.
	bodyVars []hcl.Traversal
	// dynamic says whether the body has dynamic blocks to expand.
	dynamic bool
	// bodyRefs are bodyVars parsed.
	bodyRefs []parsedRef
	// bodySchema is the schema spec implies, nil without a body.
	bodySchema *hcl.BodySchema
	// native says whether the body is native syntax.
	native bool
	// decoded is the body's decoders, made on first need: a body only
	// validated for its errors (an object with no instance) is walked
	// instead.
	decodersOnce sync.Once
	decoded      bodyDecoders
	// readOnly are the schema's computed-only attributes, sorted.
	readOnly []string
	// failureCost is what failing to decode one instance's body costs
	// beyond its expressions' steps (see typeCost).
	failureCost int64
	// syntax and hidden are the block's body as written and the names its
	// meta-arguments hide (config.Resource.VisibleSyntax), syntax nil
	// when it was not decoded from syntax alone.
	syntax *hclsyntax.Body
	hidden *hcl.BodySchema
	// dynamicLayout is spec laid out for checkDynamic, made on first
	// need.
	dynamicOnce   sync.Once
	dynamicLayout *dynamicSpec
}

// dynamicSpec is spec laid out for checkDynamic; spec must be tuplesOnly.
func (sh *resourceShape) dynamicSpec() *dynamicSpec {
	sh.dynamicOnce.Do(func() { sh.dynamicLayout = newDynamicSpec(sh.spec.(hcldec.ObjectSpec)) })
	return sh.dynamicLayout
}

// resourceShapeKey is what a resourceShape is made from besides its block.
type resourceShapeKey struct {
	schema  *Block
	dialect dialect.Dialect
}

// newResourceShape works out the shape of res with schema (nil: implied
// by the body).
func newResourceShape(res *config.Resource, schema *Block, d dialect.Dialect) *resourceShape {
	sh := &resourceShape{}
	if schema != nil {
		var bodies []*hclsyntax.Body
		if body, ok := res.Config.(*hclsyntax.Body); ok {
			bodies = []*hclsyntax.Body{body}
		}
		spec := schema.decoderSpecFor(bodies)
		sh.spec = spec
		for _, name := range sortedKeys(schema.Attributes) {
			switch spec[name].(type) {
			case *hcldec.BlockListSpec, *hcldec.BlockSetSpec:
				sh.asBlocks = append(sh.asBlocks, name)
			}
		}
		for _, name := range sortedKeys(schema.Attributes) {
			if a := schema.Attributes[name]; a.Computed && !a.Optional {
				sh.readOnly = append(sh.readOnly, name)
			}
		}
	} else {
		sh.spec = resourceImpliedSpec(res)
	}
	sh.failureCost = typeCost(hcldec.ImpliedType(sh.spec))
	if res.Config != nil {
		bodySchema := impliedSchema(sh.spec)
		sh.bodyVars = resourceBodyVariables(res, sh.spec, bodySchema)
		sh.dynamic = hasDynamicBlocks(res.Config)
		sh.syntax, sh.hidden, _ = res.VisibleSyntax()
		sh.bodyRefs = parseRefs(sh.bodyVars, d)
		sh.bodySchema = bodySchema
		_, sh.native = res.Config.(*hclsyntax.Body)
	}
	return sh
}

// bodyDecoders decode a resource body in its common cases.
type bodyDecoders struct {
	// attrs decodes the body when its spec has only attributes, else nil.
	attrs *attributeDecoder
	// blocks decodes the common case of a native-syntax body with
	// blocks, else nil.
	blocks *blockDecoder
	// made says that the decoders above have been made.
	made bool
}

// decoders returns the body's decoders, made at the first call.
func (sh *resourceShape) decoders() *bodyDecoders {
	sh.decodersOnce.Do(func() {
		d := &sh.decoded
		if sh.bodySchema != nil {
			d.attrs = newAttributeDecoder(sh.spec, sh.bodySchema)
			if sh.native && d.attrs == nil {
				d.blocks = newBlockDecoder(sh.spec)
			}
		}
		d.made = true
	})
	return &sh.decoded
}

// moduleShape is what evaluation works out of a module alone (with the
// dialect and schemas): it is kept with the module (config.Module.Derived),
// so that the evaluations sharing a module (a scan's roots calling it, the
// calls of a long-lived program through one ModuleCache) work it out once.
// Each part is made when first needed.
type moduleShape struct {
	readsOnce sync.Once
	reads     *moduleReads

	objectsOnce sync.Once
	objects     *moduleObjects
}

func newModuleShape() any { return &moduleShape{} }

// moduleShapeKey is what a moduleShape is made from besides its module.
type moduleShapeKey struct {
	schemas *ProviderSchemas
	dialect dialect.Dialect
}

// moduleShape returns the shape kept with m for this evaluation's dialect
// and schemas.
func (ev *evaluator) moduleShape(m *config.Module) *moduleShape {
	return m.Derived(ev.share().shapeKey, newModuleShape).(*moduleShape)
}

// moduleReads returns the reads analysis's walk of m (walkModule).
func (ev *evaluator) moduleReads(m *config.Module) *moduleReads {
	sh := ev.moduleShape(m)
	sh.readsOnce.Do(func() {
		// The arguments of its calls as the graph read them (callArgs),
		// not read from their bodies once more.
		sh.reads = walkModule(m, func(call *config.ModuleCall) hcl.Attributes {
			if ca := ev.moduleObjects(m).callArgs(call.Name); ca != nil {
				return ca.attrs
			}
			return callAttributes(call)
		})
	})
	return sh.reads
}

// resourceShapeOf returns the shape kept with res for schema and d.
func resourceShapeOf(res *config.Resource, schema *Block, d dialect.Dialect) *resourceShape {
	return res.Derived(resourceShapeKey{schema, d}, func() any {
		return newResourceShape(res, schema, d)
	}).(*resourceShape)
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
	schema := ev.opts.Schemas.resourceSchema(c.Module, res)
	info = &resourceInfo{schema: schema, resourceShape: resourceShapeOf(res, schema, ev.opts.Dialect)}
	if schema == nil {
		info.dynamicArgs = dynamicSpecs(c.Module, res, info.spec)
		info.sensitive = tableSensitive(c, res, &sh.tableVersions)
		info.writeOnly = tableWriteOnly(c, res, &sh.tableVersions)
		info.setBlocks = tableSetBlocks(c, res, &sh.tableVersions)
	}
	if res.Config != nil {
		info.body = newGuardedBody(res.Config, ev.limits)
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
	if m == nil || len(m.RequiredProviders) == 0 {
		return ""
	}
	var b strings.Builder
	for _, local := range sortedKeys(m.RequiredProviders) {
		if declaresBuiltinProvider(m, local) {
			b.WriteString(local + "=" + funcs.BuiltinProviderSource + ";")
			continue
		}
		src := providerKey(providerSource(m, local))
		ps := ev.opts.Schemas.provider(m, local)
		if ps == nil {
			// The functions tfeval computes for the provider, and stand-ins
			// for the others the module calls.
			if names := ev.unschemaedFunctions(m, local); len(names) > 0 || len(providerfuncs.Names(src)) > 0 {
				b.WriteString(local + "?" + src + ":" + strings.Join(names, ",") + ";")
			}
			continue
		}
		if ev.texts().tofu() && ev.opts.Validate {
			// Stand-ins for the functions called that the schema lacks.
			b.WriteString(local + "?" + strings.Join(ev.unschemaedFunctions(m, local), ",") + ";")
		}
		if len(ps.Functions) == 0 {
			continue
		}
		b.WriteString(local)
		b.WriteByte('=')
		b.WriteString(src)
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
	// The references are made together: they are cached, and dropped, together.
	refs := make([]reference, len(travs))
	for i, t := range travs {
		out[i].ref, out[i].diags = parseRefIn(&refs[i], t, d)
	}
	return out
}

// exprRefs returns the parsed references of an expression of module m
// (nil when it has none). Those of the expressions the dependency graph
// takes from m are parsed once per module (moduleObjects); others (a
// resource body's, or one evaluated after the configuration, such as a
// console line) once per evaluation, and after evaluation at most
// maxAdHocCached of them are kept.
func (ev *evaluator) exprRefs(m *config.Module, expr hcl.Expression) []parsedRef {
	if m != nil {
		mo := ev.moduleObjects(m)
		if refs, ok := mo.exprRefs[expr]; ok {
			return copyRefDiags(refs)
		}
		if refs, ok := mo.argRefs.Load(expr); ok {
			return copyRefDiags(refs.([]parsedRef))
		}
	}
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
// function with a namespace. It walks with exprChildren, since
// hclsyntax.VisitAll makes a closure for every node of every expression; a
// node type exprChildren does not know is left to VisitAll.
func callsNamespaced(e hclsyntax.Expression) bool {
	if call, ok := e.(*hclsyntax.FunctionCallExpr); ok && strings.Contains(call.Name, "::") {
		return true
	}
	found := false
	known := exprChildren(e, func(c hclsyntax.Expression, _ *hclsyntax.ForExpr) {
		found = found || callsNamespaced(c)
	})
	if !known {
		return visitNamespaced(e)
	}
	return found
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

// exprChildren calls fn with each expression directly inside e, in the
// order hclsyntax's walk visits them, passing the for expression whose key
// and value variables are bound in the child (nil outside one), and
// reports whether it knows e's node type. A node type added to hclsyntax
// later is reported unknown, and the callers then use hcl's own walk.
func exprChildren(e hclsyntax.Expression, fn func(child hclsyntax.Expression, scope *hclsyntax.ForExpr)) bool {
	each := func(es ...hclsyntax.Expression) {
		for _, c := range es {
			if c != nil {
				fn(c, nil)
			}
		}
	}
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr, *hclsyntax.ScopeTraversalExpr, *hclsyntax.AnonSymbolExpr, *hclsyntax.ExprSyntaxError:
	case *hclsyntax.FunctionCallExpr:
		each(e.Args...)
	case *hclsyntax.RelativeTraversalExpr:
		each(e.Source)
	case *hclsyntax.ConditionalExpr:
		each(e.Condition, e.TrueResult, e.FalseResult)
	case *hclsyntax.IndexExpr:
		each(e.Collection, e.Key)
	case *hclsyntax.TupleConsExpr:
		each(e.Exprs...)
	case *hclsyntax.ObjectConsExpr:
		for _, it := range e.Items {
			each(it.KeyExpr, it.ValueExpr)
		}
	case *hclsyntax.ObjectConsKeyExpr:
		// A key that reads as a bare name is that name, not an expression.
		if hcl.ExprAsKeyword(e.Wrapped) == "" {
			each(e.Wrapped)
		}
	case *hclsyntax.ForExpr:
		each(e.CollExpr)
		for _, c := range []hclsyntax.Expression{e.KeyExpr, e.ValExpr, e.CondExpr} {
			if c != nil {
				fn(c, e)
			}
		}
	case *hclsyntax.SplatExpr:
		each(e.Source, e.Each)
	case *hclsyntax.BinaryOpExpr:
		each(e.LHS, e.RHS)
	case *hclsyntax.UnaryOpExpr:
		each(e.Val)
	case *hclsyntax.TemplateExpr:
		each(e.Parts...)
	case *hclsyntax.TemplateJoinExpr:
		each(e.Tuple)
	case *hclsyntax.TemplateWrapExpr:
		each(e.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		each(e.Expression)
	default:
		return false
	}
	return true
}

// variables is expr.Variables(): the traversals of the root scope expr
// refers to, in hcl's order. For native syntax it walks with exprChildren,
// since hclsyntax.Variables makes a closure for every node of every
// expression; a node type exprChildren does not know is left to hcl.
func variables(expr hcl.Expression) []hcl.Traversal {
	if _, ok := expr.(hclsyntax.Expression); !ok {
		return expr.Variables()
	}
	return appendVariables(nil, expr)
}

// appendVariables appends the traversals of expr (see variables) to dst: a
// caller that reads them once passes a list it reuses.
func appendVariables(dst []hcl.Traversal, expr hcl.Expression) []hcl.Traversal {
	se, ok := expr.(hclsyntax.Expression)
	if !ok {
		return append(dst, expr.Variables()...)
	}
	w := variablesWalk{vars: dst}
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
	return slices.Contains(w.locals, name)
}

func (w *variablesWalk) walk(e hclsyntax.Expression) {
	if t, ok := e.(*hclsyntax.ScopeTraversalExpr); ok {
		if !w.local(t.Traversal.RootName()) {
			w.vars = append(w.vars, t.Traversal)
		}
		return
	}
	known := exprChildren(e, func(c hclsyntax.Expression, scope *hclsyntax.ForExpr) {
		if scope == nil {
			w.walk(c)
			return
		}
		n := len(w.locals)
		if scope.KeyVar != "" {
			w.locals = append(w.locals, scope.KeyVar)
		}
		if scope.ValVar != "" {
			w.locals = append(w.locals, scope.ValVar)
		}
		w.walk(c)
		w.locals = w.locals[:n]
	})
	if !known {
		for _, t := range hclsyntax.Variables(e) {
			if !w.local(t.RootName()) {
				w.vars = append(w.vars, t)
			}
		}
	}
}

// typeCost is the steps of failing to convert a value to ty beyond the
// steps of the expressions that made it: go-cty and tfeval work out why,
// walking and sorting the type's parts, once per instance. A schema's
// types are a few hundred parts, which the steps of an instance's
// expressions cover; for an object type of 50,000 attributes it took
// 60 ms an instance, about four steps (of some 300 ns) a part, and six
// are charged, as the other rates are rounded towards charging more.
func typeCost(ty cty.Type) int64 {
	const free, stepsPerPart = 1024, 6
	n := limit.TypeValues(ty, limit.DefaultMaxValueSize)
	if n <= free {
		return 0
	}
	return int64(n-free) * stepsPerPart
}
