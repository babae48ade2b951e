package lang

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/fastexpr"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/typeexpr"
)

// scope is where an expression is evaluated: a module instance plus what
// the enclosing block makes available (count.index, each, self).
type scope struct {
	ev  *evaluator
	mod *ModuleInstance

	countIndex cty.Value // NilVal outside a counted block
	eachKey    cty.Value // NilVal outside a for_each block
	eachValue  cty.Value
	// countSlot is 1 + countIndex as a number when countIndex is the shared
	// elements.Index of it, else 0; an int32, so that with the two flags
	// below it takes one word.
	countSlot int32
	// selfOnly restricts references to self, count, each, path and terraform.
	selfOnly bool
	// final is set once evaluation has finished (console, checks): every
	// variable and local then has its last value, so whole var and local
	// objects are built once per module instance and shared.
	final bool
	// rare holds what few scopes set, nil when none is: a scope is made
	// for every resource instance, and without these it takes 128 bytes
	// rather than 192. Copies of a scope share it, so it is replaced,
	// never changed (setRare).
	rare *scopeRare
}

// scopeRare is what only some scopes set.
type scopeRare struct {
	self cty.Value // NilVal where self is not available
	// selfUnsupported is, in the conditions of a resource whose type its
	// provider does not support, why self has no value: the detail of the
	// error a reference to it is.
	selfUnsupported string
	// check is the check block whose scoped data resource is visible, or nil.
	check *config.Check
	// adHocReads are the paths an expression evaluated after the
	// configuration reads from resources without schema, beyond those the
	// configuration reads (readAnalysis.adHoc).
	adHocReads map[*config.Resource]*readTree
	// names are more root names an expression may refer to, beside the
	// language's own (EvalExprWithNames).
	names map[string]cty.Value
	// validating evaluates bodies as Terraform's validation walk sees
	// them, the only time it evaluates provisioner and connection blocks
	// before they run: every value is unknown but path and terraform.
	validating bool
}

// self is the value of self, NilVal where it is not available.
func (s *scope) self() cty.Value {
	if s.rare == nil {
		return cty.NilVal
	}
	return s.rare.self
}

// check is the check block whose scoped data resource is visible, or nil.
func (s *scope) check() *config.Check {
	if s.rare == nil {
		return nil
	}
	return s.rare.check
}

// adHocReads are the paths an expression evaluated after the configuration
// reads from resources without schema (scopeRare.adHocReads).
func (s *scope) adHocReads() map[*config.Resource]*readTree {
	if s.rare == nil {
		return nil
	}
	return s.rare.adHocReads
}

// names are more root names an expression may refer to (scopeRare.names).
func (s *scope) names() map[string]cty.Value {
	if s.rare == nil {
		return nil
	}
	return s.rare.names
}

// setRare changes, with set, s's own copy of what scopeRare holds: the one
// it had may be shared with other copies of the scope.
func (s *scope) setRare(set func(*scopeRare)) {
	var r scopeRare
	if s.rare != nil {
		r = *s.rare
	}
	set(&r)
	s.rare = &r
}

func (ev *evaluator) scope(mi *ModuleInstance) *scope {
	return &scope{ev: ev, mod: mi, final: ev.done}
}

// withKeys returns a copy of the scope for one instance of a counted or for_each block.
func (s *scope) withKeys(exp expansion, i int) *scope {
	c := s.keyed(exp, i)
	return &c
}

// keyed is withKeys as a value, for callers that place the copies of many
// instances themselves.
func (s *scope) keyed(exp expansion, i int) scope {
	c := *s
	switch exp.mode {
	case expandCount:
		c.countIndex = exp.keys[i]
		c.countSlot = 0
		if i < math.MaxInt32 {
			c.countSlot = int32(i + 1)
		}
	case expandForEach:
		c.eachKey = exp.keys[i]
		c.eachValue = exp.values[i]
	case expandPlaceholder:
		if exp.counted {
			c.countIndex, c.countSlot = exp.keys[i], 0
		} else {
			c.eachKey = exp.keys[i]
			c.eachValue = exp.values[i]
		}
	}
	return c
}

func (s *scope) dialect() dialect.Dialect { return s.ev.opts.Dialect }

// module is the module whose expressions the scope evaluates, nil when
// there is none.
func (s *scope) module() *config.Module {
	if s.mod == nil || s.mod.Config == nil {
		return nil
	}
	return s.mod.Config.Module
}

// evalExpr evaluates an expression, converted to want (DynamicPseudoType for
// no conversion). On reference errors the expression is not evaluated and the
// result is unknown.
func (s *scope) evalExpr(expr hcl.Expression, want cty.Type) (cty.Value, hcl.Diagnostics) {
	if v, diags, ok := s.namedValue(expr, want); ok {
		return v, diags
	}
	v, _, diags := s.evalExprIn(expr, want)
	return v, diags
}

// namedValue is evalExpr of an expression that is a reference to a
// variable or a local value, or to a part of one (the commonest of all:
// a module call's arguments, a local naming another), in the common case
// only: the value is read as the reference context's fast path reads it
// (fastexpr.Roots), without making the context, and ok is false where
// that case does not hold (a problem with the reference, a step that
// fastexpr.Traverse does not take, a value that does not convert to want)
// and evalExprIn must evaluate expr, which then gives the same value or
// the diagnostics.
func (s *scope) namedValue(expr hcl.Expression, want cty.Type) (cty.Value, hcl.Diagnostics, bool) {
	st, ok := expr.(*hclsyntax.ScopeTraversalExpr)
	if !ok || s.final || s.selfOnly || s.names() != nil || len(st.Traversal) < 2 {
		return cty.NilVal, nil, false
	}
	refs := s.ev.exprRefs(s.module(), expr)
	if len(refs) != 1 || refs[0].ref == nil || len(refs[0].diags) != 0 {
		return cty.NilVal, nil, false
	}
	ref := refs[0].ref
	if attr, ok := st.Traversal[1].(hcl.TraverseAttr); !ok || attr.Name != ref.name || !asciiName(ref.name) {
		// A name beyond ASCII is looked up in the object, where it is
		// normalized.
		return cty.NilVal, nil, false
	}
	mod := s.mod.Config.Module
	var v cty.Value
	switch ref.kind {
	case refVar:
		decl, ok := mod.Variables[ref.name]
		if !ok {
			return cty.NilVal, nil, false
		}
		v = s.mod.variableOrUnknown(ref.name, decl)
	case refLocal:
		if _, ok := mod.Locals[ref.name]; !ok {
			return cty.NilVal, nil, false
		}
		if v, ok = s.mod.local(ref.name); !ok {
			v = cty.DynamicVal
		}
	default:
		return cty.NilVal, nil, false
	}
	if v, ok = fastexpr.Traverse(v, st.Traversal[2:]); !ok {
		return cty.NilVal, nil, false
	}
	if want != cty.DynamicPseudoType {
		cv, err := typeexpr.ConvertValue(v, want)
		if err != nil {
			return cty.NilVal, nil, false
		}
		v = cv
	}
	if stop := s.ev.limits.stepDiags(expr.Range()); stop.HasErrors() {
		return cty.UnknownVal(want), stop, true
	}
	return s.withUnread(v, refs), nil, true
}

// exprContext is the scope and the context expr is evaluated in.
func (s *scope) exprContext(expr hcl.Expression) (*scope, []parsedRef, *hcl.EvalContext, hcl.Diagnostics) {
	if s.final && s.adHocReads() == nil && !s.ev.opts.Console {
		c := *s
		reads := s.ev.reads().adHoc(s.mod.Config, expr)
		c.setRare(func(r *scopeRare) { r.adHocReads = reads })
		s = &c
	}
	refs := s.ev.exprRefs(s.module(), expr)
	if s.names() != nil {
		refs = s.unnamedRefs(expr)
	}
	ctx, diags := s.refContext(refs)
	if diags.HasErrors() {
		return s, refs, ctx, diags
	}
	if s.final {
		if fns := s.adHocFunctions(expr, ctx.Functions); fns != nil {
			// The context may be shared (finalContext): the table goes in a child.
			ctx = ctx.NewChild()
			ctx.Functions = fns
		}
	}
	if names := s.names(); names != nil {
		// The context may be shared (finalContext): the names go in a child.
		ctx = ctx.NewChild()
		ctx.Variables = names
	}
	return s, refs, ctx, diags
}

// adHocFunctions is the function table for an expression evaluated after
// the configuration (a test file's assertion, a console line) that calls a
// function of a provider the module requires without a schema, where the
// module itself does not call that function: table holds stand-ins only for
// the calls the module makes, and the provider, which Terraform would ask,
// may offer any name. It is table with stand-ins added for those calls, or
// nil where expr makes none.
func (s *scope) adHocFunctions(expr hcl.Expression, table map[string]function.Function) map[string]function.Function {
	se, ok := expr.(hclsyntax.Expression)
	if !ok || !s.ev.hasNamespacedCalls(se) {
		return nil
	}
	mod := s.mod.Config.Module
	var added map[string]function.Function
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		call, ok := n.(*hclsyntax.FunctionCallExpr)
		if !ok {
			return nil
		}
		_, inTable := table[call.Name]
		_, inAdded := added[call.Name]
		if inTable || inAdded {
			return nil
		}
		parts := strings.Split(call.Name, "::")
		if len(parts) != 3 || parts[0] != "provider" {
			return nil
		}
		local := parts[1]
		if _, ok := mod.RequiredProviders[local]; !ok || declaresBuiltinProvider(mod, local) || s.ev.opts.Schemas.provider(mod, local) != nil {
			return nil
		}
		if added == nil {
			added = map[string]function.Function{}
		}
		added[call.Name] = standInFunction(call.Name)
		return nil
	})
	if added == nil {
		return nil
	}
	s.ev.madeUnread()
	fns := make(map[string]function.Function, len(table)+len(added))
	maps.Copy(fns, table)
	maps.Copy(fns, added)
	return fns
}

// evalExprIn is evalExpr that also returns the context expr was
// evaluated in (nil if it was not), for a diagnostic about its value
// (withExpression).
func (s *scope) evalExprIn(expr hcl.Expression, want cty.Type) (cty.Value, *hcl.EvalContext, hcl.Diagnostics) {
	if expr == nil {
		return cty.NullVal(want), nil, nil
	}
	s, refs, ctx, diags := s.exprContext(expr)
	if diags.HasErrors() {
		return cty.UnknownVal(want), nil, diags
	}
	diags = append(diags, s.checkFunctionCalls(expr)...)
	if diags.HasErrors() {
		return cty.UnknownVal(want), nil, diags
	}
	if stop := s.ev.limits.stepDiags(expr.Range()); stop.HasErrors() {
		return cty.UnknownVal(want), nil, append(diags, stop...)
	}
	v, moreDiags := s.ev.limits.guardExpr(expr).Value(ctx)
	moreDiags = s.ev.limits.stoppedDiags(moreDiags, expr.Range())
	for i, d := range moreDiags {
		moreDiags[i] = orderedSuggestion(d)
	}
	if moreDiags.HasErrors() {
		moreDiags = funcs.UnknownFunctionDiags(s.ev.opts.Dialect, ctx.Functions, s.declaresProvider, moreDiags)
		moreDiags = dropUnreadConditionals(moreDiags, expr)
	}
	detachDiags(moreDiags, ctx)
	diags = append(diags, moreDiags...)
	if want != cty.DynamicPseudoType && !moreDiags.HasErrors() {
		cv, err := typeexpr.ConvertValue(v, want)
		if err != nil {
			diags = append(diags, withExpression(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incorrect value type", Detail: fmt.Sprintf("Invalid expression value: %s.", err), Subject: expr.Range().Ptr()}, expr, ctx))
			return cty.UnknownVal(want), ctx, diags
		}
		v = cv
	}
	if !moreDiags.HasErrors() {
		v = s.withUnread(v, refs)
		if names := s.names(); names != nil && marks.HasUnmarkedUnknown(v) {
			v = marks.MarkUnknowns(v, namedUnread(expr, names))
		}
	}
	return v, ctx, diags
}

// namedUnread returns the Unread marks of what expr reads of the more root
// names it is evaluated with (a test file's output and run objects): an
// unknown made afresh from them (by can, try or a for over a value of
// unknown type) keeps their cause, as withUnread keeps that of the
// configuration's own values.
func namedUnread(expr hcl.Expression, names map[string]cty.Value) cty.ValueMarks {
	var found []marks.Unread
	ctx := &hcl.EvalContext{Variables: names}
	for _, t := range expr.Variables() {
		if _, ok := names[t.RootName()]; !ok {
			continue
		}
		// The longest part of the reference that reads a value.
		for n := len(t); n >= 1; n-- {
			v, diags := t[:n].TraverseAbs(ctx)
			if diags.HasErrors() {
				continue
			}
			for _, u := range marks.UnreadMarks(v) {
				if !containsUnread(found, u) {
					found = append(found, u)
				}
			}
			break
		}
	}
	return marks.UnreadSet(found)
}

// evalBody decodes a block body with a spec, expanding dynamic blocks.
func (s *scope) evalBody(body hcl.Body, spec hcldec.Spec) (cty.Value, hcl.Diagnostics) {
	ctx, diags := s.evalContext(bodyVariables(body, spec))
	if s.rare != nil && s.rare.validating && ctx != nil {
		ctx = unknownContext(ctx, s.mod.Config.Module)
	}
	if diags.HasErrors() {
		diags = ungeneratedDropped(body, body, spec, ctx, diags, s.ev.limits)
	}
	if diags.HasErrors() {
		return cty.UnknownVal(hcldec.ImpliedType(spec)), diags
	}
	if stop := s.ev.limits.stepDiags(body.MissingItemRange()); stop.HasErrors() {
		return cty.UnknownVal(hcldec.ImpliedType(spec)), append(diags, stop...)
	}
	expanded := s.ev.limits.expandDynamic(body, ctx)
	v, moreDiags := hcldec.Decode(typedBodyFor(expanded, spec), spec, ctx)
	moreDiags = dropUnreadConditionals(onceDynamicBudget(moreDiags), body)
	detachDiags(moreDiags, ctx)
	diags = append(diags, moreDiags...)
	return v, diags
}

// unknownContext is a copy of ctx whose values are unknown, as Terraform's
// validation walk gives them: only path, terraform and the locals of mod
// computed from nothing else (validationKnownLocal) are known there before
// the plan. The others are unknown of any type, not of the type they have:
// a list variable's value is a tuple of its length, which would make an
// index past it an error the validation walk, where the variable is not
// yet given, does not find. A nil mod keeps no local.
func unknownContext(ctx *hcl.EvalContext, mod *config.Module) *hcl.EvalContext {
	out := &hcl.EvalContext{Functions: ctx.Functions, Variables: make(map[string]cty.Value, len(ctx.Variables))}
	for name, v := range ctx.Variables {
		if fastexpr.IsRootsVariable(name) {
			continue // its record of the known values
		}
		switch name {
		case "path", "terraform":
		case "local":
			v = validationLocals(v, mod)
		default:
			v = cty.DynamicVal.WithMarks(v.Marks())
		}
		out.Variables[name] = v
	}
	return out
}

// validationLocals is the "local" object of an evaluation context as the
// validation walk has it: the locals it knows keep their values, the others
// are unknown.
func validationLocals(v cty.Value, mod *config.Module) cty.Value {
	if mod == nil || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() {
		return cty.DynamicVal.WithMarks(v.Marks())
	}
	v, m := v.Unmark()
	attrs := make(map[string]cty.Value, v.LengthInt())
	state := map[string]int8{}
	for it := v.ElementIterator(); it.Next(); {
		k, av := it.Element()
		name := k.AsString()
		if !validationKnownLocal(mod, name, state) {
			av = cty.DynamicVal.WithMarks(av.Marks())
		}
		attrs[name] = av
	}
	return cty.ObjectVal(attrs).WithMarks(m)
}

// validationUnknownFuncs are the functions whose results Terraform's
// validation walk leaves unknown: the impure ones (plantimestamp is known
// only once a plan starts).
var validationUnknownFuncs = map[string]bool{"plantimestamp": true, "timestamp": true, "uuid": true, "bcrypt": true}

// validationKnownLocal reports whether Terraform's validation walk, where
// variables, resources, module outputs, count and each are all unknown,
// knows the value of local name of mod: its expression reads only such
// locals, path and terraform and calls no function the walk leaves
// unknown. Its value there is then the plan's. state records the locals
// decided (1 known, 2 unknown) or being decided (3: a cycle is unknown).
func validationKnownLocal(mod *config.Module, name string, state map[string]int8) bool {
	switch state[name] {
	case 1:
		return true
	case 2, 3:
		return false
	}
	state[name] = 3
	known := false
	if l, ok := mod.Locals[name]; ok {
		known = validationKnownExpr(mod, l.Expr, state)
	}
	state[name] = 2
	if known {
		state[name] = 1
	}
	return known
}

// validationKnownExpr is validationKnownLocal for one expression.
func validationKnownExpr(mod *config.Module, e hcl.Expression, state map[string]int8) bool {
	se, ok := e.(hclsyntax.Expression)
	if !ok {
		return false // a JSON expression's templates and calls are not walked here
	}
	for _, t := range se.Variables() {
		switch t.RootName() {
		case "path", "terraform":
		case "local":
			if len(t) < 2 {
				return false
			}
			attr, ok := t[1].(hcl.TraverseAttr)
			if !ok || !validationKnownLocal(mod, attr.Name, state) {
				return false
			}
		default:
			return false
		}
	}
	known := true
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && (validationUnknownFuncs[call.Name] || strings.Contains(call.Name, "::")) {
			known = false
		}
		return nil
	})
	return known
}

// evalResourceBody is evalBody for a resource block, with the references
// and spec computed once per block; bodies without dynamic blocks are
// decoded directly. With errorsOnly, only the diagnostics are wanted: the
// values are not given the marks of what they read.
func (s *scope) evalResourceBody(body hcl.Body, info *resourceInfo, ictx *instanceContext, errorsOnly bool) (decodedBody, hcl.Diagnostics) {
	ctx, diags := ictx.get(s, info.bodyRefs)
	if diags.HasErrors() && info.dynamic {
		expand := body
		if info.body != nil {
			expand = info.body
		}
		diags = ungeneratedDropped(body, expand, info.spec, ctx, diags, s.ev.limits)
	}
	if diags.HasErrors() {
		return decodedBody{v: cty.UnknownVal(hcldec.ImpliedType(info.spec))}, diags
	}
	if stop := s.ev.limits.stepDiags(body.MissingItemRange()); stop.HasErrors() {
		return decodedBody{v: cty.UnknownVal(hcldec.ImpliedType(info.spec))}, append(diags, stop...)
	}
	if info.body != nil {
		body = info.body
	}
	var d decodedBody
	var moreDiags hcl.Diagnostics
	var plain *hclsyntax.Body
	if errorsOnly && info.schema == nil && !info.dynamic {
		plain = plainSyntax(body, info.spec)
	}
	switch {
	case plain != nil:
		moreDiags = s.checkPlain(plain, info.spec.(hcldec.ObjectSpec), ctx)
	case errorsOnly && info.schema == nil && info.dynamic && tuplesOnly(info.spec):
		if info.syntax == nil || !s.checkDynamic(info.syntax, info.hidden, info.dynamicSpec(), ctx) {
			moreDiags = checkDecoded(s.ev.limits.expandDynamic(body, ctx), info.spec.(hcldec.ObjectSpec), ctx)
		}
	case !info.dynamic && info.decoders().attrs != nil:
		d, moreDiags = info.decoders().attrs.decode(body, ctx)
	default:
		if blocks := info.decoders().blocks; blocks != nil {
			budget := s.ev.limits.dynamicBudget()
			if attrs, ok := blocks.decode(body, ctx, &budget); ok {
				d.attrs = attrs
				break
			}
		}
		// Everything but the common case, diagnostics included, is
		// dynblock's and hcldec's, from the start.
		if info.dynamic {
			body = s.ev.limits.expandDynamic(body, ctx)
		}
		d.v, moreDiags = hcldec.Decode(typedBodyFor(body, info.spec), info.spec, ctx)
	}
	if info.dynamic && len(info.asBlocks) > 0 {
		d = nullEmptyAsBlocks(d, info.asBlocks)
	}
	moreDiags = dropUnreadConditionals(onceDynamicBudget(moreDiags), body)
	detachDiags(moreDiags, ctx)
	if moreDiags.HasErrors() && info.failureCost > 0 {
		moreDiags = append(moreDiags, s.ev.limits.chargeDiags(info.failureCost, body.MissingItemRange())...)
	}
	diags = append(diags, s.ev.limits.stoppedDiags(moreDiags, body.MissingItemRange())...)
	if !moreDiags.HasErrors() && !errorsOnly && s.ev.share().unread.Load() {
		// Until a value is marked unread, no unknown can have lost the
		// mark, and the attributes need not be walked for one.
		if d.attrs != nil {
			u := unreadOfRefs{s: s, refs: info.bodyRefs}
			for name, v := range d.attrs {
				d.attrs[name] = u.mark(v)
			}
		} else {
			d.v = s.withUnread(d.v, info.bodyRefs)
		}
	}
	return d, diags
}

// plainSyntax is the native syntax of body, a guarded resource body
// without schema and without dynamic blocks, whose implied spec is spec,
// when decoding it can have no errors of its own, only its expressions':
// when none of its blocks, at any depth, has labels, and no name is both
// an argument and a block type. Its implied spec then has every argument
// it has and every block as a tuple of objects, and no type to convert
// to. It is nil otherwise.
func plainSyntax(body hcl.Body, spec hcldec.Spec) *hclsyntax.Body {
	gb, ok := body.(*guardedBody)
	if !ok {
		return nil
	}
	sb, ok := gb.Body.(*hclsyntax.Body)
	obj, ok2 := spec.(hcldec.ObjectSpec)
	if !ok || !ok2 || !plainFor(sb, obj, true) {
		return nil
	}
	return sb
}

// plainFor is plainSyntax's test of body with spec, at the top of the
// resource's body (top), whose meta-arguments spec leaves out, or nested.
func plainFor(body *hclsyntax.Body, spec hcldec.ObjectSpec, top bool) bool {
	for name := range body.Attributes {
		switch spec[name].(type) {
		case *hcldec.AttrSpec:
		case nil:
			if !top {
				return false
			}
		default:
			return false
		}
	}
	for _, b := range body.Blocks {
		if len(b.Labels) != 0 {
			return false
		}
		switch sp := spec[b.Type].(type) {
		case *hcldec.BlockTupleSpec:
			nested, ok := sp.Nested.(hcldec.ObjectSpec)
			if !ok || !plainFor(b.Body, nested, false) {
				return false
			}
		case nil:
			if !top {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// checkPlain returns the diagnostics decoding body, a plainSyntax body,
// with spec, its implied spec, has: those of its attributes' expressions,
// in name order, then of each block type's blocks', in type name and
// source order. They are evaluated once, in an evaluation for errors
// only: their guarded copies are not kept, nor is the body's content.
func (s *scope) checkPlain(body *hclsyntax.Body, spec hcldec.ObjectSpec, ctx *hcl.EvalContext) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, key := range sortedKeys(spec) {
		switch sp := spec[key].(type) {
		case *hcldec.AttrSpec:
			if a, ok := body.Attributes[sp.Name]; ok {
				_, more := s.ev.limits.guardOnce(a.Expr).Value(ctx)
				diags = append(diags, more...)
			}
		case *hcldec.BlockTupleSpec:
			nested, _ := sp.Nested.(hcldec.ObjectSpec)
			for _, b := range body.Blocks {
				if b.Type == sp.TypeName {
					diags = append(diags, s.checkPlain(b.Body, nested, ctx)...)
				}
			}
		}
	}
	return diags
}

// tuplesOnly reports whether spec is an object spec of arguments of any
// type and tuples of blocks, at every depth: the implied spec of a body
// without schema whose blocks have no labels.
func tuplesOnly(spec hcldec.Spec) bool {
	obj, ok := spec.(hcldec.ObjectSpec)
	if !ok {
		return false
	}
	for _, sp := range obj {
		switch sp := sp.(type) {
		case *hcldec.AttrSpec:
			if sp.Type != cty.DynamicPseudoType {
				return false
			}
		case *hcldec.BlockTupleSpec:
			if sp.MinItems != 0 || sp.MaxItems != 0 || !tuplesOnly(sp.Nested) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// checkDecoded returns the diagnostics hcldec.Decode(body, spec, ctx)
// has, spec being tuplesOnly, without the value: those of the body's
// content, of its arguments' expressions (which have no type to convert
// to) and of its blocks', each block type's up to the first block whose
// body is unknown (a dynamic block's whose for_each is), as hcldec stops
// there. It is for a dynamic body (dynblock's expansion), evaluated once,
// for its errors only: hcldec would read each block's content again for
// its source range, expanding its dynamic blocks again.
func checkDecoded(body hcl.Body, spec hcldec.ObjectSpec, ctx *hcl.EvalContext) hcl.Diagnostics {
	content, diags := body.Content(hcldec.ImpliedSchema(spec))
	if content == nil {
		return diags
	}
	for _, key := range sortedKeys(spec) {
		switch sp := spec[key].(type) {
		case *hcldec.AttrSpec:
			if a, ok := content.Attributes[sp.Name]; ok {
				_, more := a.Expr.Value(ctx)
				diags = append(diags, more...)
			}
		case *hcldec.BlockTupleSpec:
			for _, b := range content.Blocks {
				if b.Type != sp.TypeName {
					continue
				}
				diags = append(diags, checkDecoded(b.Body, sp.Nested.(hcldec.ObjectSpec), ctx)...)
				if u, ok := b.Body.(hcldec.UnknownBody); ok && u.Unknown() {
					break
				}
			}
		}
	}
	return diags
}

// instanceContext shares the evaluation context of a resource body among
// the instances of one expansion: the first instance resolves the
// references, the others only swap count and each.
type instanceContext struct {
	ctx   *hcl.EvalContext
	diags hcl.Diagnostics
	// reads is which of count.index, each.key and each.value ctx
	// defines, found once by the first instance: the later ones only
	// swap them.
	reads instanceReads
}

// get returns the context for the instance of scope s; the first call
// returns the diagnostics, later calls none (they would be the same).
func (ic *instanceContext) get(s *scope, refs []parsedRef) (*hcl.EvalContext, hcl.Diagnostics) {
	refs = copyRefDiags(refs)
	if ic == nil {
		return s.refContext(refs)
	}
	if ic.ctx == nil && ic.diags == nil {
		ctx, diags := s.refContext(refs)
		if diags == nil {
			diags = hcl.Diagnostics{}
		}
		ic.reads = readsOf(ctx)
		ic.ctx, ic.diags = ctx, diags
		return ctx, diags
	}
	if ic.diags.HasErrors() {
		// Still this instance's context: problems inside dynamic blocks
		// count only where its count or each generates them.
		return s.forInstance(ic.ctx, ic.reads), ic.diags
	}
	return s.forInstance(ic.ctx, ic.reads), nil
}

// ready reports whether the first instance has set the context up, after
// which get only reads it and may be called from several goroutines.
func (ic *instanceContext) ready() bool {
	return ic.ctx != nil || ic.diags != nil
}

// evalContext builds the hcl.EvalContext for the given references, with
// every problem a reference has.
func (s *scope) evalContext(travs []hcl.Traversal) (*hcl.EvalContext, hcl.Diagnostics) {
	return s.refContext(parseRefs(travs, s.dialect()))
}

// refContext is evalContext for references already parsed. The context
// defines only the root names the references use: an expression can look
// up nothing else.
func (s *scope) refContext(refs []parsedRef) (*hcl.EvalContext, hcl.Diagnostics) {
	ctx, diags, _ := s.refContextStatic(refs)
	return ctx, diags
}

// refContextStatic is refContext, and whether a reference to a resource, a
// module call or self failed: Terraform checks those before it resolves any
// value (see refProblems).
func (s *scope) refContextStatic(refs []parsedRef) (*hcl.EvalContext, hcl.Diagnostics, bool) {
	var diags hcl.Diagnostics
	ctx := &hcl.EvalContext{Functions: s.ev.functions(s.mod.Config)}
	// The attributes of each root name (var, local, path, ...) and the
	// resources referred to are gathered first, then made into objects:
	// an expression refers to few, so slices searched in order serve, and
	// the maps the objects are built from are lent (attrmap).
	// Few root names and resources: the slices start in arrays on the
	// stack, and are allocated only past them.
	var varsBuf [4]rootAttrs
	vars := varsBuf[:0]
	// roots records the same attributes for the references' fast path
	// (fastexpr.Roots), made at the first.
	var roots *fastexpr.Roots
	put := func(root, name string, v cty.Value) {
		if roots == nil {
			roots = fastexpr.NewRoots(rootRefs(refs))
		}
		roots.Put(root, name, v)
		for i := range vars {
			if vars[i].root == root {
				vars[i].attrs[name] = v
				return
			}
		}
		attrs := attrmap.New(0)
		attrs[name] = v
		vars = append(vars, rootAttrs{root, attrs})
	}
	var resourcesBuf [4]resourceRef
	resources := resourcesBuf[:0]
	// wholeVar and wholeLocal: use the finished module's whole objects (see scope.final).
	var wholeVar, wholeLocal bool
	var self cty.Value
	hasSelf := false
	mod := s.mod.Config.Module

	// Terraform checks the references to resources, module calls and self
	// before it resolves any value: when one of those fails, the value
	// problems of the others (an undeclared variable, count outside a
	// counted block) are not reported. static holds the diagnostics that
	// are then all there is.
	var static hcl.Diagnostics
	staticFailed := false
	for _, pr := range refs {
		ref := pr.ref
		diags = append(diags, pr.diags...)
		static = append(static, pr.diags...)
		if ref == nil {
			continue
		}
		if s.selfOnly {
			switch ref.kind {
			case refSelf, refCount, refEach, refPath, refTerraform:
			default:
				diags = append(diags, invalidRef(ref.rng, fmt.Sprintf("The reference to %q is not valid in this context.", ref.addr())))
				continue
			}
		}
		switch ref.kind {
		case refVar:
			decl, ok := mod.Variables[ref.name]
			if !ok {
				detail := fmt.Sprintf("An input variable with the name %q has not been declared.", ref.name)
				if sug := nameSuggestion(ref.name, sortedKeys(mod.Variables)); sug != "" {
					detail += fmt.Sprintf(" Did you mean %q?", sug)
				} else {
					detail += fmt.Sprintf(" This variable can be declared with a variable %q {} block.", ref.name)
				}
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared input variable", Detail: detail, Subject: ref.rng.Ptr()})
				continue
			}
			if s.final {
				wholeVar = true
				continue
			}
			put("var", ref.name, s.mod.variableOrUnknown(ref.name, decl))
		case refLocal:
			if _, ok := mod.Locals[ref.name]; !ok {
				detail := fmt.Sprintf("A local value with the name %q has not been declared.", ref.name)
				if sug := nameSuggestion(ref.name, sortedKeys(mod.Locals)); sug != "" {
					detail += fmt.Sprintf(" Did you mean %q?", sug)
				}
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared local value", Detail: detail, Subject: ref.rng.Ptr()})
				continue
			}
			if s.final {
				wholeLocal = true
				continue
			}
			v, ok := s.mod.local(ref.name)
			if !ok {
				v = cty.DynamicVal
			}
			put("local", ref.name, v)
		case refPath:
			var v cty.Value
			switch ref.name {
			case "module":
				v = cty.StringVal(sourceDir(s.mod.Config))
			case "root":
				v = cty.StringVal(sourceDir(s.mod.Config.Root))
			case "cwd":
				v = cty.StringVal(s.ev.cwd)
			default:
				detail := fmt.Sprintf("The \"path\" object does not have an attribute named %q.", ref.name)
				if sug := nameSuggestion(ref.name, []string{"cwd", "module", "root"}); sug != "" {
					detail += fmt.Sprintf(" Did you mean %q?", sug)
				}
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "path" attribute`, Detail: detail, Subject: ref.rng.Ptr()})
				continue
			}
			put("path", ref.name, v)
		case refTerraform:
			var v cty.Value
			switch ref.name {
			case "workspace":
				v = cty.StringVal(s.ev.opts.Workspace)
			case "applying":
				s.ev.madeEphemeral()
				v = cty.False.Mark(marks.Ephemeral)
			case "env":
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "terraform" attribute`, Detail: `The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.`, Subject: ref.rng.Ptr()})
				continue
			default:
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Invalid %q attribute", ref.root), Detail: s.ev.texts().terraformAttr(ref.root, ref.name), Subject: ref.rng.Ptr()})
				continue
			}
			put(ref.root, ref.name, v)
		case refCount:
			if ref.name != "index" {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "count" attribute`, Detail: fmt.Sprintf(`The "count" object does not have an attribute named %q. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`, ref.name), Subject: ref.rng.Ptr()})
				continue
			}
			if s.countIndex == cty.NilVal {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Reference to "count" in non-counted context`, Detail: `The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`, Subject: ref.rng.Ptr()})
				continue
			}
			put("count", "index", s.countIndex)
		case refEach:
			if ref.name != "key" && ref.name != "value" {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "each" attribute`, Detail: fmt.Sprintf(`The "each" object does not have an attribute named %q. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`, ref.name), Subject: ref.rng.Ptr()})
				continue
			}
			if ref.name == "value" && s.eachValue == cty.NilVal {
				// each.value has its own message, wherever it is missing.
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `each.value cannot be used in this context`, Detail: `A reference to "each.value" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its "for_each" expression. Remove this reference to each.value in your configuration to work around this error.`, Subject: ref.rng.Ptr()})
				continue
			}
			if s.eachKey == cty.NilVal {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Reference to "each" in context without for_each`, Detail: `The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`, Subject: ref.rng.Ptr()})
				continue
			}
			if ref.name == "key" {
				put("each", "key", s.eachKey)
			} else {
				put("each", "value", s.eachValue)
			}
		case refSelf:
			if s.rare != nil && s.rare.selfUnsupported != "" {
				d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid resource type", Detail: s.rare.selfUnsupported, Subject: ref.rng.Ptr()}
				diags, static, staticFailed = append(diags, d), append(static, d), true
				continue
			}
			if s.self() == cty.NilVal {
				d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: `Invalid "self" reference`, Detail: `The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`, Subject: ref.rng.Ptr()}
				diags, static, staticFailed = append(diags, d), append(static, d), true
				continue
			}
			self, hasSelf = s.self(), true
		case refModule:
			call, ok := mod.ModuleCalls[ref.name]
			if !ok {
				detail := fmt.Sprintf("No module call named %q is declared in %s.", ref.name, moduleDesc(s.mod))
				if sug := nameSuggestion(ref.name, sortedKeys(mod.ModuleCalls)); sug != "" {
					detail += fmt.Sprintf(" Did you mean %q?", sug)
				}
				d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared module", Detail: detail, Subject: ref.rng.Ptr()}
				diags, static, staticFailed = append(diags, d), append(static, d), true
				continue
			}
			put("module", ref.name, s.ev.callValueFor(s.mod, call, refs))
		case refResource:
			v, rdiags := s.resourceValue(ref)
			diags, static = append(diags, rdiags...), append(static, rdiags...)
			if rdiags.HasErrors() {
				staticFailed = true
				continue
			}
			resources = append(resources, resourceRef{mode: ref.mode, typ: ref.typ, name: ref.name, v: v, direct: ref.root != "resource"})
		}
	}

	if staticFailed {
		diags = static
	}
	if (wholeVar || wholeLocal) && len(vars) == 0 && len(resources) == 0 && !hasSelf {
		// Only var and local: the finished module's shared context serves.
		return s.mod.finalContext(ctx.Functions), diags, staticFailed
	}
	ctx.Variables = make(map[string]cty.Value, len(vars)+len(resources)+4)
	for _, r := range vars {
		ctx.Variables[r.root] = cty.ObjectVal(r.attrs)
		attrmap.Release(r.attrs, 0)
	}
	if roots != nil {
		roots.Define(ctx.Variables)
	}
	if wholeVar {
		ctx.Variables["var"] = s.mod.wholeObject("var")
	}
	if wholeLocal {
		ctx.Variables["local"] = s.mod.wholeObject("local")
	}
	if len(resources) > 0 {
		putResources(ctx.Variables, resources)
	}
	if hasSelf {
		ctx.Variables["self"] = self
	}
	return ctx, diags, staticFailed
}

// refProblems is what Terraform's validation of a condition or an error
// message reports about the references of e, nil when they resolve. Where
// a reference to a resource, a module call or self fails, Terraform still
// evaluates the condition or message of a resource or an output (not of a
// check block's assertion: rule is false), with no named value at all, so
// each of its references is then also an "Unknown variable".
func (s *scope) refProblems(e hcl.Expression, rule bool) hcl.Diagnostics {
	refs := s.ev.exprRefs(s.module(), e)
	if len(refs) == 0 {
		return nil
	}
	_, diags, static := s.refContextStatic(refs)
	if static && rule {
		_, more := e.Value(&hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: s.ev.functions(s.mod.Config)})
		diags = append(diags, more...)
	}
	return diags
}

// rootRefs counts the references that refContext makes attributes of
// root objects of (var.x, local.y, each.key, ...): at most as many are
// recorded for the fast path (fastexpr.Roots).
func rootRefs(refs []parsedRef) int {
	n := 0
	for _, pr := range refs {
		if pr.ref != nil && pr.ref.kind != refResource && pr.ref.kind != refSelf {
			n++
		}
	}
	return n
}

// rootAttrs are the attributes of one root name an expression refers to.
type rootAttrs struct {
	root  string
	attrs map[string]cty.Value
}

// resourceRef is a resource an expression refers to, with its value;
// direct when written TYPE.NAME rather than resource.TYPE.NAME.
type resourceRef struct {
	mode      config.ResourceMode
	typ, name string
	v         cty.Value
	direct    bool
}

// putResources defines in vars the root names the resource references
// use: data, ephemeral, resource (for resource.TYPE.NAME) and each TYPE
// written directly. Each type's object is made once, for both ways of
// writing a managed resource.
func putResources(vars map[string]cty.Value, refs []resourceRef) {
	slices.SortStableFunc(refs, func(a, b resourceRef) int {
		if a.mode != b.mode {
			return cmp.Compare(a.mode, b.mode)
		}
		return strings.Compare(a.typ, b.typ)
	})
	for len(refs) > 0 {
		mode := refs[0].mode
		n := 1
		for n < len(refs) && refs[n].mode == mode {
			n++
		}
		byMode := refs[:n]
		refs = refs[n:]
		types := attrmap.New(0)
		viaResourceRoot := false
		for len(byMode) > 0 {
			typ := byMode[0].typ
			direct := false
			names := attrmap.New(0)
			k := 0
			for ; k < len(byMode) && byMode[k].typ == typ; k++ {
				names[byMode[k].name] = byMode[k].v
				direct = direct || byMode[k].direct
				viaResourceRoot = viaResourceRoot || !byMode[k].direct
			}
			byMode = byMode[k:]
			obj := cty.ObjectVal(names)
			attrmap.Release(names, 0)
			types[typ] = obj
			if mode == config.ManagedResourceMode && direct {
				if _, taken := vars[typ]; !taken {
					vars[typ] = obj
				}
			}
		}
		switch mode {
		case config.DataResourceMode:
			vars["data"] = cty.ObjectVal(types)
		case config.EphemeralResourceMode:
			vars["ephemeral"] = cty.ObjectVal(types)
		default:
			if viaResourceRoot {
				vars["resource"] = cty.ObjectVal(types)
			}
		}
		attrmap.Release(types, 0)
	}
}

// instanceReads is which of the instance's own values a context defines.
type instanceReads struct{ index, key, value bool }

// readsOf is the instanceReads of ctx: cty's HasAttribute normalizes the
// name, so they are looked up once per block rather than per instance.
func readsOf(ctx *hcl.EvalContext) instanceReads {
	var r instanceReads
	if ctx == nil {
		return r
	}
	if count, ok := ctx.Variables["count"]; ok && count.Type().IsObjectType() {
		r.index = count.Type().HasAttribute("index")
	}
	if each, ok := ctx.Variables["each"]; ok && each.Type().IsObjectType() {
		r.key = each.Type().HasAttribute("key")
		r.value = each.Type().HasAttribute("value")
	}
	return r
}

// forInstance derives, from a context built for one instance of a counted
// or for_each block, the context of another instance: only count and each
// differ, so the references are not resolved again. reads is readsOf(ctx).
func (s *scope) forInstance(ctx *hcl.EvalContext, reads instanceReads) *hcl.EvalContext {
	hasIndex, hasKey, hasValue := reads.index, reads.key, reads.value
	if !hasIndex && !hasKey && !hasValue {
		return ctx
	}
	// A child context shadows count and each; everything else is found in
	// the shared context, which is not copied for every instance. Neither
	// is changed once made (fastexpr keeps filter indexes per context).
	c := ctx.NewChild()
	if hasIndex && !hasKey && !hasValue && s.countSlot > 0 {
		c.Variables = s.ev.share().countVariables(s)
		return c
	}
	c.Variables = make(map[string]cty.Value, 3)
	roots := fastexpr.NewRoots(2)
	if hasIndex {
		c.Variables["count"] = s.countObject()
		roots.Put("count", "index", s.countIndex)
	}
	if hasKey || hasValue {
		attrs := attrmap.New(2)
		if hasKey {
			attrs["key"] = s.eachKey
			roots.Put("each", "key", s.eachKey)
		}
		if hasValue {
			attrs["value"] = s.eachValue
			roots.Put("each", "value", s.eachValue)
		}
		c.Variables["each"] = cty.ObjectVal(attrs)
		attrmap.Release(attrs, 2)
	}
	roots.Define(c.Variables)
	return c
}

// countObjects are the count objects of the first instances of every
// counted block, shared: they are the same in all of them.
var countObjects = sync.OnceValue(func() []cty.Value {
	objs := make([]cty.Value, 256)
	for i := range objs {
		objs[i] = cty.ObjectVal(map[string]cty.Value{"index": elements.Index(i)})
	}
	return objs
})

// countVariables returns the variables of the context of the instance of
// scope s, of a counted block, when it reads count alone: its count object
// and nothing else. They are made once per index in an evaluation and
// shared by every counted block, since a context's variables are never
// changed once it is made.
func (sh *evalShared) countVariables(s *scope) map[string]cty.Value {
	i := int(s.countSlot) - 1
	sh.countMu.Lock()
	defer sh.countMu.Unlock()
	if i >= len(sh.countVars) {
		sh.countVars = append(sh.countVars, make([]map[string]cty.Value, i+1-len(sh.countVars))...)
	}
	if sh.countVars[i] == nil {
		vars := map[string]cty.Value{"count": s.countObject()}
		roots := fastexpr.NewRoots(1)
		roots.Put("count", "index", s.countIndex)
		roots.Define(vars)
		sh.countVars[i] = vars
	}
	return sh.countVars[i]
}

// countObject is the value of count in an instance of a counted block.
func (s *scope) countObject() cty.Value {
	if i := int(s.countSlot) - 1; i >= 0 && i < len(countObjects()) {
		return countObjects()[i]
	}
	return cty.ObjectVal(map[string]cty.Value{"index": s.countIndex})
}

// resourceValue is what a resource reference evaluates to, after checking
// that the resource is declared and visible here.
func (s *scope) resourceValue(ref *reference) (cty.Value, hcl.Diagnostics) {
	mod := s.mod.Config.Module
	addr := ref.addr()
	cfg := findResource(mod, addr)
	var rs *resourceState
	if cfg != nil && cfg.Check != "" {
		// A check block's data resource is visible only inside that check.
		if check := s.check(); check == nil || check.Name != cfg.Check {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to scoped resource", Detail: fmt.Sprintf("The referenced data resource %q %q is not available from this context.", ref.typ, ref.name), Subject: ref.rng.Ptr()}}
		}
		rs = s.mod.scopedResource(addr)
	} else if cfg != nil {
		rs = s.mod.resource(addr)
	}
	if cfg == nil {
		return cty.DynamicVal, hcl.Diagnostics{s.ev.texts().undeclaredResource(ref, s.mod)}
	}
	if d := instanceKeyProblem(cfg, ref); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	if rs == nil {
		return cty.DynamicVal, nil
	}
	if diags := s.validateResourceAttr(rs, ref); diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if t := s.adHocReads()[cfg]; t != nil && rs.schema == nil {
		info := s.ev.resourceInfo(s.mod.Config, cfg)
		v := fillWhole(rs, t, info.spec, s.ev.plannedUnknowns(s.mod.Config, cfg, info, false))
		if info.sensitive != nil {
			v = markWholeSensitive(info.sensitive, v, rs.expansion.multi())
		}
		return v, nil
	}
	return rs.whole, nil
}

// validateResourceAttr checks, with a schema, that the attribute a
// reference reads from a resource exists. Without one it checks only what
// the table of the provider's schema tells for certain: an index into a set
// of blocks (tableSetIndex).
func (s *scope) validateResourceAttr(rs *resourceState, ref *reference) hcl.Diagnostics {
	if rs.schema == nil {
		return s.tableSetIndex(rs, ref)
	}
	if len(ref.remaining) == 0 {
		return nil
	}
	rest := ref.remaining
	if ref.key == cty.NilVal && rs.cfg.Count == nil && rs.cfg.ForEach == nil {
		// single instance: the first step is an attribute
	} else if ref.key == cty.NilVal {
		return nil
	}
	attr, ok := rest[0].(hcl.TraverseAttr)
	if !ok {
		return nil
	}
	if _, ok := rs.schema.Attributes[attr.Name]; ok {
		return nil
	}
	if nb, ok := rs.schema.BlockTypes[attr.Name]; ok {
		if d := setBlockIndex(attr.Name, nb, rest[1:]); d != nil {
			return hcl.Diagnostics{d}
		}
		return nil
	}
	detail := fmt.Sprintf("This object has no argument, nested block, or exported attribute named %q.", attr.Name)
	if sug := nameSuggestion(attr.Name, rs.schema.attributeNames()); sug != "" {
		detail += fmt.Sprintf(" Did you mean %q?", sug)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported attribute", Detail: detail, Subject: attr.SrcRange.Ptr()}}
}

// setBlockIndex finds, in the steps a reference reads from a nested block
// of type name, an index into a block type the schema nests as a set:
// Terraform's check of references against the schema refuses it, the
// elements of a set having no key, before evaluating anything.
func setBlockIndex(name string, nb *NestedBlock, steps hcl.Traversal) *hcl.Diagnostic {
	for nb != nil && len(steps) > 0 {
		switch nb.Nesting {
		case NestingSet:
			idx, ok := steps[0].(hcl.TraverseIndex)
			if !ok {
				return nil
			}
			return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot index a set value", Detail: fmt.Sprintf(`Block type %q is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a "for" expression with an "if" clause.`, name), Subject: idx.SrcRange.Ptr()}
		case NestingList, NestingMap:
			if _, ok := steps[0].(hcl.TraverseIndex); !ok {
				return nil
			}
			steps = steps[1:]
		}
		if len(steps) == 0 || nb.Block == nil {
			return nil
		}
		a, ok := steps[0].(hcl.TraverseAttr)
		if !ok {
			return nil
		}
		name, nb, steps = a.Name, nb.Block.BlockTypes[a.Name], steps[1:]
	}
	return nil
}

// sourceDir is path.module for a module.
func sourceDir(c *config.Config) string {
	if c == nil || c.Module == nil || c.Module.SourceDir == "" {
		return "."
	}
	return c.Module.SourceDir
}

// nameSuggestion returns the first candidate within edit distance 2 of given.
func nameSuggestion(given string, candidates []string) string {
	for _, c := range candidates {
		if levenshtein.Distance(given, c, nil) < 3 {
			return c
		}
	}
	return ""
}

// instanceKeyProblem reports an attribute read from a multi-instance
// resource without a key, or a key given for a single-instance one.
func instanceKeyProblem(cfg *config.Resource, ref *reference) *hcl.Diagnostic {
	multi := cfg.Count != nil || cfg.ForEach != nil
	addr := ref.addr()
	switch {
	case multi && ref.key == cty.NilVal && len(ref.remaining) > 0:
		if _, ok := ref.remaining[0].(hcl.TraverseAttr); !ok {
			return nil
		}
		arg, key := "count", "count.index"
		if cfg.ForEach != nil {
			arg, key = "for_each", "each.key"
		}
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing resource instance key", Detail: fmt.Sprintf("Because %s has %q set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[%s]", addr, arg, addr, key), Subject: ref.trav.SourceRange().Ptr()}
	case !multi && ref.key != cty.NilVal:
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unexpected resource instance key", Detail: fmt.Sprintf(`Because %s does not have "count" or "for_each" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.`, addr), Subject: ref.trav.SourceRange().Ptr()}
	}
	return nil
}

// declaresProvider reports whether the scope's module declares a provider
// local name in its required_providers.
func (s *scope) declaresProvider(local string) bool {
	_, ok := s.mod.Config.Module.RequiredProviders[local]
	return ok
}
