package limit

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
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
}

// counterKey names the variable holding a for expression's element counter
// in the context the guard gives it; no identifier can contain a NUL byte.
const counterKey = "\x00tfeval for-expression element counter"

var counterType = cty.Capsule("forCounter", reflect.TypeOf(forCounter{}))

// forCounter counts the elements one evaluation of a for expression has
// built, those of for expressions nested in it included.
type forCounter struct {
	n   int
	rng hcl.Range
}

// Expr returns expr with its for expressions and templates guarded; expr
// itself when it contains none. The original is never modified, so a
// configuration can be evaluated from many goroutines at once.
func (g *Guard) Expr(expr hcl.Expression) hcl.Expression {
	x, ok := expr.(hclsyntax.Expression)
	if !ok {
		return expr
	}
	if out, changed := g.rewrite(x, false); changed {
		return out
	}
	return expr
}

// rewrite copies the nodes on the path to every guarded node. keep leaves
// the node itself unwrapped (its children are still guarded), for arguments
// that functions inspect syntactically.
func (g *Guard) rewrite(x hclsyntax.Expression, keep bool) (hclsyntax.Expression, bool) {
	switch e := x.(type) {
	case *hclsyntax.ForExpr:
		c := *e
		c.CollExpr, _ = g.rewrite(e.CollExpr, false)
		if e.KeyExpr != nil {
			c.KeyExpr, _ = g.rewrite(e.KeyExpr, false)
		}
		c.ValExpr, _ = g.rewrite(e.ValExpr, false)
		if e.CondExpr != nil {
			c.CondExpr, _ = g.rewrite(e.CondExpr, false)
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
		return &forGuard{ForExpr: &c}, true
	case *hclsyntax.TemplateExpr:
		c := *e
		changed := false
		c.Parts = make([]hclsyntax.Expression, len(e.Parts))
		literal := true
		for i, p := range e.Parts {
			var ch bool
			c.Parts[i], ch = g.rewrite(p, false)
			changed = changed || ch
			if _, ok := p.(*hclsyntax.LiteralValueExpr); !ok {
				literal = false
			}
		}
		if literal || len(e.Parts) < 2 || keep {
			if changed {
				return &c, true
			}
			return e, false
		}
		return &templateGuard{TemplateExpr: &c, g: g}, true
	case *hclsyntax.TemplateJoinExpr:
		c := *e
		c.Tuple, _ = g.rewrite(e.Tuple, false)
		return &joinGuard{TemplateJoinExpr: &c, g: g}, true
	case *hclsyntax.TemplateWrapExpr:
		w, ch := g.rewrite(e.Wrapped, false)
		if !ch {
			return e, false
		}
		c := *e
		c.Wrapped = w
		return &c, true
	case *hclsyntax.BinaryOpExpr:
		l, ch1 := g.rewrite(e.LHS, false)
		r, ch2 := g.rewrite(e.RHS, false)
		if !ch1 && !ch2 {
			return e, false
		}
		c := *e
		c.LHS, c.RHS = l, r
		return &c, true
	case *hclsyntax.UnaryOpExpr:
		v, ch := g.rewrite(e.Val, false)
		if !ch {
			return e, false
		}
		c := *e
		c.Val = v
		return &c, true
	case *hclsyntax.ConditionalExpr:
		cond, ch1 := g.rewrite(e.Condition, false)
		t, ch2 := g.rewrite(e.TrueResult, false)
		f, ch3 := g.rewrite(e.FalseResult, false)
		if !ch1 && !ch2 && !ch3 {
			return e, false
		}
		c := *e
		c.Condition, c.TrueResult, c.FalseResult = cond, t, f
		return &c, true
	case *hclsyntax.ParenthesesExpr:
		v, ch := g.rewrite(e.Expression, keep)
		if !ch {
			return e, false
		}
		c := *e
		c.Expression = v
		return &c, true
	case *hclsyntax.FunctionCallExpr:
		// templatestring inspects its argument's syntax, so it stays unwrapped.
		keepArgs := e.Name == "templatestring" || e.Name == "core::templatestring"
		args := make([]hclsyntax.Expression, len(e.Args))
		changed := false
		for i, a := range e.Args {
			var ch bool
			args[i], ch = g.rewrite(a, keepArgs)
			changed = changed || ch
		}
		if !changed {
			return e, false
		}
		c := *e
		c.Args = args
		return &c, true
	case *hclsyntax.TupleConsExpr:
		exprs := make([]hclsyntax.Expression, len(e.Exprs))
		changed := false
		for i, a := range e.Exprs {
			var ch bool
			exprs[i], ch = g.rewrite(a, false)
			changed = changed || ch
		}
		if !changed {
			return e, false
		}
		c := *e
		c.Exprs = exprs
		return &c, true
	case *hclsyntax.ObjectConsExpr:
		items := make([]hclsyntax.ObjectConsItem, len(e.Items))
		changed := false
		for i, it := range e.Items {
			k, ch1 := g.rewrite(it.KeyExpr, false)
			v, ch2 := g.rewrite(it.ValueExpr, false)
			items[i] = hclsyntax.ObjectConsItem{KeyExpr: k, ValueExpr: v}
			changed = changed || ch1 || ch2
		}
		if !changed {
			return e, false
		}
		c := *e
		c.Items = items
		return &c, true
	case *hclsyntax.ObjectConsKeyExpr:
		v, ch := g.rewrite(e.Wrapped, false)
		if !ch {
			return e, false
		}
		c := *e
		c.Wrapped = v
		return &c, true
	case *hclsyntax.IndexExpr:
		coll, ch1 := g.rewrite(e.Collection, false)
		key, ch2 := g.rewrite(e.Key, false)
		if !ch1 && !ch2 {
			return e, false
		}
		c := *e
		c.Collection, c.Key = coll, key
		return &c, true
	case *hclsyntax.RelativeTraversalExpr:
		src, ch := g.rewrite(e.Source, false)
		if !ch {
			return e, false
		}
		c := *e
		c.Source = src
		return &c, true
	case *hclsyntax.SplatExpr:
		src, ch := g.rewrite(e.Source, false)
		if !ch {
			return e, false
		}
		c := *e
		c.Source = src
		return &c, true
	}
	return x, false
}

// forGuard gives each evaluation of a for expression its own element counter.
type forGuard struct {
	*hclsyntax.ForExpr
}

func (f *forGuard) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	child := ctx.NewChild()
	child.Variables = map[string]cty.Value{counterKey: cty.CapsuleVal(counterType, &forCounter{rng: f.SrcRange})}
	return f.ForExpr.Value(child)
}

// countedExpr is the per-element expression of a guarded for expression.
type countedExpr struct {
	hclsyntax.Expression
	g        *Guard
	forRange hcl.Range
}

func (c *countedExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	// Every enclosing for expression's counter is charged, so nested for
	// expressions are bounded by their total, not each by itself.
	for p := ctx.Parent(); p != nil; p = p.Parent() {
		v, ok := p.Variables[counterKey]
		if !ok {
			continue
		}
		fc := v.EncapsulatedValue().(*forCounter)
		fc.n++
		if c.g.MaxElements > 0 && fc.n > c.g.MaxElements {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Too many elements in for expression",
				Detail:   fmt.Sprintf("This for expression builds more than %d elements, counting those of the for expressions in it, the limit for one expression (Limits.MaxElements).", c.g.MaxElements),
				Subject:  fc.rng.Ptr(),
			}}
		}
	}
	if c.g.Step != nil {
		if err := c.g.Step(); err != nil {
			return cty.DynamicVal, hcl.Diagnostics{stopDiag(err, c.forRange)}
		}
	}
	return c.Expression.Value(ctx)
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
	parts := make([]hclsyntax.Expression, len(t.Parts))
	total := 0
	for i, p := range t.Parts {
		v, partDiags := p.Value(ctx)
		diags = append(diags, partDiags...)
		if partDiags.HasErrors() {
			v = cty.DynamicVal
		}
		total += stringLen(v)
		parts[i] = &hclsyntax.LiteralValueExpr{Val: v, SrcRange: p.Range()}
	}
	if t.g.MaxStringLength > 0 && total > t.g.MaxStringLength {
		return cty.UnknownVal(cty.String), append(diags, t.g.tooLong(total, t.SrcRange)...)
	}
	c := *t.TemplateExpr
	c.Parts = parts
	v, more := c.Value(ctx)
	return v, append(diags, more...)
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
		for it := t.ElementIterator(); it.Next(); {
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
