package fastexpr

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/limit"
)

// Guard bounds the evaluation of expressions it has wrapped. hcl evaluates
// for expressions and templates internally, with no hook, so Expr returns a
// copy of an expression in which each for expression, its per-element
// expression, and each multi-part template is wrapped by a node that counts
// or measures before delegating to the original. The wrappers embed the
// original hclsyntax node, so they remain hclsyntax.Expressions.
type Guard struct {
	// MaxElements bounds the elements one evaluation of a for expression produces.
	MaxElements int
	// MaxStringLength bounds, in bytes, a string one template builds.
	MaxStringLength int
	// Step, when set, is charged one step per for-expression element and
	// may stop evaluation (a step budget or a cancelled context).
	Step func() error
	// Charge, when set, is charged the work of comparing structures with
	// == and != (limit.EqualityCost), which may stop evaluation as Step does.
	Charge func(n int64) error
	// Direct, when set, gives for a function of the evaluation context a
	// call with the same result that skips the checks hcl has already made
	// on its arguments (funcs.DirectCalls.Lookup).
	Direct func(function.Function) (func([]cty.Value) (cty.Value, error), bool)
	// DirectObject, when set, gives for a function of one object argument
	// a call made from the attribute names (sorted) and values of an
	// object constructor, without the object; handled false leaves the
	// call to the direct form of the object (funcs.DirectCalls.LookupObject).
	// The values are lent for the call: it must not keep them.
	DirectObject func(function.Function) (func(names []string, vals []cty.Value) (v cty.Value, handled bool, err error), bool)
	// Observe, when set, gives for an expression of the original syntax a
	// transform of its value, nil for none: each place where the
	// expression is evaluated passes its value through the transform.
	Observe func(hclsyntax.Expression) func(cty.Value) cty.Value
	// MaxValueSize, when not 0, bounds the result of each expression Expr
	// returns, counted by limit.ExpandedSize: values that repeat others
	// (an object whose attributes are each the same large object) would
	// otherwise grow exponentially along a chain of references, and every
	// walk over them with it.
	MaxValueSize int
}

// counterKey names the variable holding a for expression's element counter
// in the context the guard gives it; no identifier can contain a NUL byte.
const counterKey = "\x00tfeval for-expression element counter"

var counterType = cty.Capsule("forCounter", reflect.TypeOf(forCounter{}))

// forCounter counts the elements one evaluation of a for expression has
// built, those of for expressions nested in it included.
type forCounter struct {
	n int
	// rng is the for expression's range, held by pointer into the syntax
	// tree (which outlives every evaluation): a counter is made for every
	// evaluation of a for expression, and a copy would make it a size
	// class larger.
	rng *hcl.Range
	// owner, when not nil, is the fast for expression being evaluated,
	// ctx the context it is evaluated in, and slots the values of its
	// hoisted references, looked up on first use.
	owner *fastFor
	ctx   *hcl.EvalContext
	slots []hoistedSlot
	// inline holds the slots of a for expression with few hoisted
	// references, so that they come with the counter.
	inline [4]hoistedSlot
	// child is the context the fast for expression evaluates its elements
	// in, which comes with the counter too.
	child hcl.EvalContext
}

// Expr returns expr with its for expressions and templates guarded, and
// with the nodes that dominate evaluation time replaced by ones that take a
// shortcut in the common case (see fast.go); expr itself when it is not
// native syntax. The original is never modified, so a configuration can be
// evaluated from many goroutines at once.
func (g *Guard) Expr(expr hcl.Expression) hcl.Expression {
	x, ok := expr.(hclsyntax.Expression)
	if !ok {
		if g.MaxValueSize > 0 {
			return &sizedExpr{Expression: expr, max: g.MaxValueSize}
		}
		return expr
	}
	fast, _ := g.compile(x, false, nil)
	if g.MaxValueSize > 0 && mayBeLarge(x) {
		return &sizedSyntax{Expression: fast, max: g.MaxValueSize}
	}
	return fast
}

// boundedRoots are the names whose values every expression that refers
// to them whole has already had bounded: variables and locals were the
// results of expressions themselves (or of variables files and options,
// whose values are no larger than their text), and the others are
// instance keys and small objects.
var boundedRoots = map[string]bool{"var": true, "local": true, "each": true, "count": true, "path": true, "terraform": true, "tofu": true}

// mayBeLarge reports whether the value of expr may be larger than the
// values it refers to were when they were made, and so must be measured:
// not for a literal, nor for a reference to a variable or a local value
// (or a part of one), which are the most common expressions of all.
func mayBeLarge(expr hclsyntax.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return false
	case *hclsyntax.ScopeTraversalExpr:
		return !boundedRoots[e.Traversal.RootName()]
	case *hclsyntax.TemplateWrapExpr:
		return mayBeLarge(e.Wrapped)
	}
	return true
}

// sizedExpr refuses a result larger than max (limit.ExpandedSize). It
// unwraps to the expression it wraps, so that hcl's static analysis
// (hcl.ExprList, hcl.AbsTraversalForExpr, ...) sees through it.
type sizedExpr struct {
	hcl.Expression
	max int
}

func (s *sizedExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return sized(s.Expression, s.max, ctx)
}

func (s *sizedExpr) UnwrapExpression() hcl.Expression { return s.Expression }

// sizedSyntax is sizedExpr for native syntax, which stays an
// hclsyntax.Expression.
type sizedSyntax struct {
	hclsyntax.Expression
	max int
}

func (s *sizedSyntax) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return sized(s.Expression, s.max, ctx)
}

func (s *sizedSyntax) UnwrapExpression() hcl.Expression { return s.Expression }

func sized(expr hcl.Expression, max int, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := expr.Value(ctx)
	if !diags.HasErrors() && limit.ExpandedSize(v, max) > max {
		return cty.DynamicVal, append(diags, limit.ValueTooLarge(expr.Range(), max))
	}
	return v, diags
}

// literalParts reports whether every part of a template is a literal.
func literalParts(parts []hclsyntax.Expression) bool {
	for _, p := range parts {
		if _, ok := p.(*hclsyntax.LiteralValueExpr); !ok {
			return false
		}
	}
	return true
}

// literalTemplateValue is the value of a template of literal parts, false
// when evaluating it gives diagnostics. A single plain string part is the
// value itself, which evaluating the template would only copy.
func literalTemplateValue(e *hclsyntax.TemplateExpr) (cty.Value, bool) {
	if len(e.Parts) == 1 {
		if v := e.Parts[0].(*hclsyntax.LiteralValueExpr).Val; plain(v) && v.Type() == cty.String {
			return v, true
		}
	}
	v, diags := e.Value(nil)
	return v, len(diags) == 0
}

// compile returns two guarded copies of x. slow uses hcl's own nodes, and is
// x itself when nothing in x needs guarding. fast gives the same value and
// diagnostics as slow, taking shortcuts where it can and evaluating the
// matching part of slow where it cannot; only at a for expression's element
// or step limit does it stop at once with that limit's diagnostic where slow
// would report it for every element left. keep leaves the node itself as it
// is (its children are still guarded), for arguments that functions inspect
// syntactically. loop is the for expression whose body x is in, if any: its
// references to anything but the loop's variables are hoisted.
func (g *Guard) compile(x hclsyntax.Expression, keep bool, loop *fastFor) (fast, slow hclsyntax.Expression) {
	fast, slow = g.compileNode(x, keep, loop)
	if g.Observe != nil && !keep {
		if t := g.Observe(x); t != nil {
			return &observedExpr{Expression: fast, t: t}, &observedExpr{Expression: slow, t: t}
		}
	}
	return fast, slow
}

// observedExpr passes the value of the expression it wraps through t
// (Guard.Observe). It unwraps to that expression, so that hcl's static
// analysis sees through it.
type observedExpr struct {
	hclsyntax.Expression
	t func(cty.Value) cty.Value
}

func (o *observedExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := o.Expression.Value(ctx)
	if diags.HasErrors() {
		return v, diags
	}
	return o.t(v), diags
}

func (o *observedExpr) UnwrapExpression() hcl.Expression { return o.Expression }

// compileNode is compile of x itself, without Observe's transform.
func (g *Guard) compileNode(x hclsyntax.Expression, keep bool, loop *fastFor) (fast, slow hclsyntax.Expression) {
	switch e := x.(type) {
	case *hclsyntax.ForExpr:
		ff := &fastFor{ForExpr: e, g: g}
		c := *e
		// The collection is evaluated where the for expression is; its
		// body, for each element, in a scope of its own.
		ff.coll, c.CollExpr = g.compile(e.CollExpr, false, loop)
		if e.KeyExpr != nil {
			ff.key, c.KeyExpr = g.compile(e.KeyExpr, false, ff)
		}
		ff.val, c.ValExpr = g.compile(e.ValExpr, false, ff)
		if e.CondExpr != nil {
			ff.cond, c.CondExpr = g.compile(e.CondExpr, false, ff)
			ff.match = attrMatchOf(ff, ff.cond)
		}
		// The first expression hcl evaluates for each element is the one that counts.
		switch {
		case c.CondExpr != nil:
			c.CondExpr = &countedExpr{Expression: c.CondExpr, g: g, forRange: e.SrcRange}
		case c.KeyExpr != nil:
			c.KeyExpr = &countedExpr{Expression: c.KeyExpr, g: g, forRange: e.SrcRange}
		default:
			c.ValExpr = &countedExpr{Expression: c.ValExpr, g: g, forRange: e.SrcRange}
		}
		ff.slow = &forGuard{ForExpr: &c}
		return ff, ff.slow
	case *hclsyntax.TemplateExpr:
		if literalParts(e.Parts) {
			// Literal parts compile to themselves: the template needs no
			// copy, and its value is made once (most string literals are
			// such a template, of one part).
			if keep {
				return e, e
			}
			if v, ok := literalTemplateValue(e); ok {
				return &constTemplate{TemplateExpr: e, v: v}, e
			}
			return e, e
		}
		c := *e
		changed := false
		c.Parts = make([]hclsyntax.Expression, len(e.Parts))
		fastParts := make([]hclsyntax.Expression, len(e.Parts))
		for i, p := range e.Parts {
			fastParts[i], c.Parts[i] = g.compile(p, false, loop)
			changed = changed || c.Parts[i] != p
		}
		slow = e
		switch {
		case len(e.Parts) < 2 || keep:
			if changed {
				slow = &c
			}
		default:
			slow = &templateGuard{TemplateExpr: &c, g: g}
		}
		if keep {
			return slow, slow
		}
		return &fastTemplate{TemplateExpr: e, parts: fastParts, slow: slow, g: g}, slow
	case *hclsyntax.TemplateJoinExpr:
		cs, cf := *e, *e
		cf.Tuple, cs.Tuple = g.compile(e.Tuple, false, loop)
		return &joinGuard{TemplateJoinExpr: &cf, g: g}, &joinGuard{TemplateJoinExpr: &cs, g: g}
	case *hclsyntax.TemplateWrapExpr:
		w, ws := g.compile(e.Wrapped, false, loop)
		return copyNode(e, e.Wrapped, ws, w, func(c *hclsyntax.TemplateWrapExpr, v hclsyntax.Expression) { c.Wrapped = v })
	case *hclsyntax.BinaryOpExpr:
		lf, ls := g.compile(e.LHS, false, loop)
		rf, rs := g.compile(e.RHS, false, loop)
		slow = e
		if ls != e.LHS || rs != e.RHS {
			c := *e
			c.LHS, c.RHS = ls, rs
			slow = &c
		}
		if arithmeticOps[e.Op] {
			slow = &checkedArithmetic{BinaryOpExpr: slow.(*hclsyntax.BinaryOpExpr)}
		}
		if g.Charge != nil && (e.Op == hclsyntax.OpEqual || e.Op == hclsyntax.OpNotEqual) {
			c := *slow.(*hclsyntax.BinaryOpExpr)
			c.Op = g.chargedComparison(e.Op)
			slow = &c
		}
		if fastOps[e.Op] {
			fb := &fastBinary{BinaryOpExpr: e, lhs: lf, rhs: rf, slow: slow, intLiteral: isIntLiteral(e.LHS) || isIntLiteral(e.RHS)}
			if lit, ok := e.RHS.(*hclsyntax.LiteralValueExpr); ok && e.Op == hclsyntax.OpModulo && lit.Val.Type() == cty.Number && plain(lit.Val) {
				fb.rhsNumber = lit.Val.AsBigFloat()
			}
			if e.Op == hclsyntax.OpEqual || e.Op == hclsyntax.OpNotEqual {
				switch {
				case isNullLiteral(e.RHS):
					fb.nullOther = lf
				case isNullLiteral(e.LHS):
					fb.nullOther = rf
				}
			}
			return fb, slow
		}
		c := *e
		c.LHS, c.RHS = lf, rf
		return &c, slow
	case *hclsyntax.UnaryOpExpr:
		v, vs := g.compile(e.Val, false, loop)
		return copyNode(e, e.Val, vs, v, func(c *hclsyntax.UnaryOpExpr, v hclsyntax.Expression) { c.Val = v })
	case *hclsyntax.ConditionalExpr:
		fc := &fastConditional{ConditionalExpr: e}
		var cond, t, f hclsyntax.Expression
		fc.cond, cond = g.compile(e.Condition, false, loop)
		fc.t, t = g.compile(e.TrueResult, false, loop)
		fc.f, f = g.compile(e.FalseResult, false, loop)
		fc.slow = e
		if cond != e.Condition || t != e.TrueResult || f != e.FalseResult {
			// Copied only when a part changed: the copy is an allocation.
			c := *e
			c.Condition, c.TrueResult, c.FalseResult = cond, t, f
			fc.slow = &c
		}
		return fc, fc.slow
	case *hclsyntax.ParenthesesExpr:
		v, vs := g.compile(e.Expression, keep, loop)
		return copyNode(e, e.Expression, vs, v, func(c *hclsyntax.ParenthesesExpr, v hclsyntax.Expression) { c.Expression = v })
	case *hclsyntax.FunctionCallExpr:
		// templatestring inspects its argument's syntax, so it stays unwrapped.
		keepArgs := e.Name == "templatestring" || e.Name == "core::templatestring"
		// Copies of the node are made only where they are used: the
		// slow one when an argument changed, the fast one without Direct.
		fastArgs := make([]hclsyntax.Expression, len(e.Args))
		slowArgs := changedCopies(e.Args, func(i int, a hclsyntax.Expression) hclsyntax.Expression {
			var s hclsyntax.Expression
			fastArgs[i], s = g.compile(a, keepArgs, loop)
			return s
		})
		slow = e
		if slowArgs != nil {
			cs := *e
			cs.Args = slowArgs
			slow = &cs
		}
		if g.Direct != nil && !e.ExpandFinal {
			return &fastCall{FunctionCallExpr: e, args: fastArgs, slow: slow, g: g}, slow
		}
		cf := *e
		cf.Args = fastArgs
		return &cf, slow
	case *hclsyntax.TupleConsExpr:
		cf := *e
		cf.Exprs = make([]hclsyntax.Expression, len(e.Exprs))
		slowExprs := changedCopies(e.Exprs, func(i int, a hclsyntax.Expression) hclsyntax.Expression {
			var s hclsyntax.Expression
			cf.Exprs[i], s = g.compile(a, false, loop)
			return s
		})
		if slowExprs == nil {
			return &cf, e
		}
		cs := *e
		cs.Exprs = slowExprs
		return &cf, &cs
	case *hclsyntax.ObjectConsExpr:
		fastItems := make([]hclsyntax.ObjectConsItem, len(e.Items))
		var slowItems []hclsyntax.ObjectConsItem // made at the first item that changes
		for i, it := range e.Items {
			kf, ks := g.compile(it.KeyExpr, false, loop)
			vf, vs := g.compile(it.ValueExpr, false, loop)
			fastItems[i] = hclsyntax.ObjectConsItem{KeyExpr: kf, ValueExpr: vf}
			if slowItems == nil && (ks != it.KeyExpr || vs != it.ValueExpr) {
				slowItems = make([]hclsyntax.ObjectConsItem, len(e.Items))
				copy(slowItems, e.Items[:i])
			}
			if slowItems != nil {
				slowItems[i] = hclsyntax.ObjectConsItem{KeyExpr: ks, ValueExpr: vs}
			}
		}
		slow = e
		if slowItems != nil {
			cs := *e
			cs.Items = slowItems
			slow = &cs
		}
		if fo := newFastObject(e, fastItems, slow); fo != nil {
			return fo, slow
		}
		cf := *e
		cf.Items = fastItems
		return &cf, slow
	case *hclsyntax.ObjectConsKeyExpr:
		// hcl reads a bare key's syntax, so the wrapped expression keeps its node type.
		_, ws := g.compile(e.Wrapped, false, loop)
		return copyNode(e, e.Wrapped, ws, ws, func(c *hclsyntax.ObjectConsKeyExpr, v hclsyntax.Expression) { c.Wrapped = v })
	case *hclsyntax.IndexExpr:
		fi := &fastIndex{IndexExpr: e}
		c := *e
		fi.coll, c.Collection = g.compile(e.Collection, false, loop)
		fi.key, c.Key = g.compile(e.Key, false, loop)
		fi.slow = e
		if c.Collection != e.Collection || c.Key != e.Key {
			fi.slow = &c
		}
		return fi, fi.slow
	case *hclsyntax.RelativeTraversalExpr:
		src, srcs := g.compile(e.Source, false, loop)
		return copyNode(e, e.Source, srcs, src, func(c *hclsyntax.RelativeTraversalExpr, v hclsyntax.Expression) { c.Source = v })
	case *hclsyntax.SplatExpr:
		src, srcs := g.compile(e.Source, false, loop)
		fast, slow := copyNode(e, e.Source, srcs, src, func(c *hclsyntax.SplatExpr, v hclsyntax.Expression) { c.Source = v })
		if names := splatAttrs(e); names != nil {
			return &fastSplat{SplatExpr: e, src: src, attrs: names, slow: slow}, slow
		}
		return fast, slow
	case *hclsyntax.ScopeTraversalExpr:
		if keep {
			return e, e
		}
		ft := fastTraversal{ScopeTraversalExpr: e}
		if loop != nil && !loop.loopVar(e.Traversal.RootName()) {
			return loop.hoist(ft), e
		}
		return ft, e
	}
	return x, x
}

// copyNode returns the fast and slow copies of a node with one child, orig:
// the slow copy is e itself while its child is unchanged.
func copyNode[T any, P interface {
	*T
	hclsyntax.Expression
}](e P, orig, slowChild, fastChild hclsyntax.Expression, set func(P, hclsyntax.Expression)) (fast, slow hclsyntax.Expression) {
	cf := P(new(T))
	*cf = *e
	set(cf, fastChild)
	if slowChild == orig {
		return cf, e
	}
	cs := P(new(T))
	*cs = *e
	set(cs, slowChild)
	return cf, cs
}

// forGuard gives each evaluation of a for expression its own element counter.
type forGuard struct {
	*hclsyntax.ForExpr
}

func (f *forGuard) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	child := ctx.NewChild()
	child.Variables = map[string]cty.Value{counterKey: cty.CapsuleVal(counterType, &forCounter{rng: &f.SrcRange})}
	return f.ForExpr.Value(child)
}

// countedExpr is the per-element expression of a guarded for expression.
type countedExpr struct {
	hclsyntax.Expression
	g        *Guard
	forRange hcl.Range
}

func (c *countedExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	// hcl evaluates each element in a child of the context holding the counter.
	if d := c.g.chargeElement(ctx.Parent(), c.forRange); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	return c.Expression.Value(ctx)
}

// chargeElement counts one element of the for expression at forRange
// against the counters in ctx and its ancestors (every enclosing for
// expression's, so nested ones are bounded by their total, not each by
// itself) and against the step budget. It returns the diagnostic of the
// limit it reaches.
func (g *Guard) chargeElement(ctx *hcl.EvalContext, forRange hcl.Range) *hcl.Diagnostic {
	for p := ctx; p != nil; p = p.Parent() {
		v, ok := p.Variables[counterKey]
		if !ok {
			continue
		}
		fc := v.EncapsulatedValue().(*forCounter)
		fc.n++
		if g.MaxElements > 0 && fc.n > g.MaxElements {
			return g.tooMany(*fc.rng)
		}
	}
	if g.Step != nil {
		if err := g.Step(); err != nil {
			return stopDiag(err, forRange)
		}
	}
	return nil
}

// chargeElements is chargeElement for n elements at once. charged is
// false, and nothing is charged, when that would pass an element limit:
// the caller then visits the elements one by one and stops where the
// limit is, as it always has.
func (g *Guard) chargeElements(ctx *hcl.EvalContext, forRange hcl.Range, n int) (d *hcl.Diagnostic, charged bool) {
	var counters []*forCounter
	for p := ctx; p != nil; p = p.Parent() {
		if v, ok := p.Variables[counterKey]; ok {
			fc := v.EncapsulatedValue().(*forCounter)
			if g.MaxElements > 0 && fc.n+n > g.MaxElements {
				return nil, false
			}
			counters = append(counters, fc)
		}
	}
	for _, fc := range counters {
		fc.n += n
	}
	if g.Step != nil {
		for range n {
			if err := g.Step(); err != nil {
				return stopDiag(err, forRange), true
			}
		}
	}
	return nil, true
}

// tooMany is the diagnostic for a for expression, at rng, that would build
// more elements than the limit.
func (g *Guard) tooMany(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Too many elements in for expression",
		Detail:   fmt.Sprintf("This for expression builds more than %d elements, counting those of the for expressions in it, the limit for one expression (Limits.MaxElements).", g.MaxElements),
		Subject:  rng.Ptr(),
	}
}

// StopDiag turns the error of a Step function into a diagnostic at rng.
func stopDiag(err error, rng hcl.Range) *hcl.Diagnostic {
	if d, ok := err.(interface{ Diagnostic() *hcl.Diagnostic }); ok {
		diag := *d.Diagnostic()
		diag.Subject = rng.Ptr()
		return &diag
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Evaluation stopped", Detail: err.Error(), Subject: rng.Ptr()}
}

// tooLong is the diagnostic for a template whose result would exceed the limit.
func (g *Guard) tooLong(n int, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "String too long",
		Detail:   fmt.Sprintf("This template would build a string of %d bytes, more than the limit of %d (Limits.MaxStringLength).", n, g.MaxStringLength),
		Subject:  rng.Ptr(),
	}}
}

// stringLen is the length a value adds to a template: known strings count
// their bytes; other values convert to short strings or fail anyway.
func stringLen(v cty.Value) int {
	v, _ = v.Unmark()
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		return len(v.AsString())
	}
	return 0
}

// templateGuard measures a template's parts before hcl concatenates them.
type templateGuard struct {
	*hclsyntax.TemplateExpr
	g *Guard
}

func (t *templateGuard) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	vals := make([]cty.Value, len(t.Parts))
	for i, p := range t.Parts {
		v, partDiags := p.Value(ctx)
		diags = append(diags, partDiags...)
		if partDiags.HasErrors() {
			v = cty.DynamicVal
		}
		vals[i] = v
	}
	v, more := t.ofValues(ctx, vals)
	return v, append(diags, more...)
}

// ofValues is the template of parts of the given values: measured, then
// concatenated by hcl.
func (t *templateGuard) ofValues(ctx *hcl.EvalContext, vals []cty.Value) (cty.Value, hcl.Diagnostics) {
	parts := make([]hclsyntax.Expression, len(t.Parts))
	total := 0
	for i, v := range vals {
		total += stringLen(v)
		parts[i] = &hclsyntax.LiteralValueExpr{Val: v, SrcRange: t.Parts[i].Range()}
	}
	if t.g.MaxStringLength > 0 && total > t.g.MaxStringLength {
		return cty.UnknownVal(cty.String), t.g.tooLong(total, t.SrcRange)
	}
	c := *t.TemplateExpr
	c.Parts = parts
	return c.Value(ctx)
}

// joinGuard measures the strings a template for directive produced before
// hcl joins them.
type joinGuard struct {
	*hclsyntax.TemplateJoinExpr
	g *Guard
}

func (j *joinGuard) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	tuple, diags := j.Tuple.Value(ctx)
	if diags.HasErrors() {
		return cty.UnknownVal(cty.String), diags
	}
	if t, _ := tuple.Unmark(); t.IsKnown() && !t.IsNull() && t.CanIterateElements() {
		total := 0
		for it := elements.Of(t); it.Next(); {
			_, v := it.Element()
			total += stringLen(v)
		}
		if j.g.MaxStringLength > 0 && total > j.g.MaxStringLength {
			return cty.UnknownVal(cty.String), append(diags, j.g.tooLong(total, j.Range())...)
		}
	}
	c := *j.TemplateJoinExpr
	c.Tuple = &hclsyntax.LiteralValueExpr{Val: tuple, SrcRange: j.Tuple.Range()}
	v, more := c.Value(ctx)
	return v, append(diags, more...)
}

// changedCopies calls compile for each of exprs and returns the slow
// copies it gives, or nil while every one is the original: the slice is
// made at the first that differs.
func changedCopies(exprs []hclsyntax.Expression, compile func(i int, e hclsyntax.Expression) hclsyntax.Expression) []hclsyntax.Expression {
	var out []hclsyntax.Expression
	for i, e := range exprs {
		s := compile(i, e)
		if out == nil && s != e {
			out = make([]hclsyntax.Expression, len(exprs))
			copy(out, exprs[:i])
		}
		if out != nil {
			out[i] = s
		}
	}
	return out
}

// chargedComparison is op (== or !=) with the work of comparing its
// operands charged first: comparing two large structures walks each at
// every level of it, so == in a for expression over shared values could
// otherwise run for minutes in what counts as one step an element.
func (g *Guard) chargedComparison(op *hclsyntax.Operation) *hclsyntax.Operation {
	impl := op.Impl
	return &hclsyntax.Operation{Type: op.Type, Impl: function.New(&function.Spec{
		Params: impl.Params(),
		Type:   function.StaticReturnType(op.Type),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if err := g.Charge(limit.EqualityCost(args[0], args[1])); err != nil {
				return cty.UnknownVal(op.Type), err
			}
			return impl.Call(args)
		},
	})}
}

// CounterContext reports whether ctx is a context made here only to carry
// a for expression's element counter, beneath the one the expression was
// given: everything else is found in its parent.
func CounterContext(ctx *hcl.EvalContext) bool {
	_, ok := ctx.Variables[counterKey]
	return ok && len(ctx.Variables) == 1 && len(ctx.Functions) == 0
}
