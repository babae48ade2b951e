package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/internal/fastexpr"
)

// ValueCause, as the Extra of a diagnostic, says that what it reports was
// caused by an unknown, sensitive or ephemeral value of its expression,
// as Terraform marks its for_each errors. A writer showing the values an
// expression refers to then says of each such value that it is one; of
// a diagnostic without it, it leaves sensitive and ephemeral values out
// and gives only the type of an unknown one.
type ValueCause struct {
	Unknown, Sensitive, Ephemeral bool
}

// withExpression returns d about expr, evaluated in ctx: the expression
// and its context (detached) go on the diagnostic, for the writers to
// show the values expr refers to, as Terraform shows them under the
// excerpt of a failed condition.
func withExpression(d *hcl.Diagnostic, expr hcl.Expression, ctx *hcl.EvalContext) *hcl.Diagnostic {
	if ctx == nil || expr == nil {
		return d
	}
	d.Expression = expr
	d.EvalContext = detachContext(expr, ctx, d)
	return d
}

// detachDiags replaces each diagnostic that has an evaluation context
// (hcl puts the one it evaluated in on the diagnostics of an expression)
// by detached(d), evaluated being the context the expression was given
// to hcl in. A diagnostic from a context hcl made beneath it (a for
// expression's body, a dynamic block's content) keeps no function:
// Terraform's contexts are flat, and it looks for the function a
// diagnostic is about in the diagnostic's own context only, where such a
// body has none.
func detachDiags(diags hcl.Diagnostics, evaluated *hcl.EvalContext) {
	for i, d := range diags {
		// The suggestion for an unknown function is chosen while the
		// context still has the functions to choose from (hcl's own
		// choice follows a map's order).
		d = orderedSuggestion(d)
		if d.Expression != nil && d.EvalContext != nil && !madeIn(d.EvalContext, evaluated) {
			if _, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d); ok {
				c := *d
				c.EvalContext = detachContext(d.Expression, d.EvalContext, nil)
				diags[i] = &c
				continue
			}
		}
		diags[i] = detached(d)
	}
}

// madeIn reports whether ctx is evaluated, or one fastexpr made beneath
// it for a for expression's counter (which Terraform's context has no
// counterpart of), not one of hcl's for a body.
func madeIn(ctx, evaluated *hcl.EvalContext) bool {
	for ctx != evaluated {
		if ctx == nil || !fastexpr.CounterContext(ctx) {
			return false
		}
		ctx = ctx.Parent()
	}
	return true
}

// detached is d with its evaluation context detached (detachContext), or
// without one if it has no expression, which no writer could use it for.
// It is a copy: a diagnostic may be shared by the instances of a block.
func detached(d *hcl.Diagnostic) *hcl.Diagnostic {
	ctx := d.EvalContext
	if ctx == nil || ctx.Parent() == nil && len(ctx.Functions) <= 1 && d.Expression != nil {
		// None, or one as small as a detached one.
		return d
	}
	c := *d
	c.EvalContext = nil
	if d.Expression != nil {
		c.EvalContext = detachContext(d.Expression, ctx, d)
	}
	return &c
}

// detachContext is the part of ctx a writer needs to show the values
// expr refers to: the variables of the names its references start with
// (those of ctx's parents merged in, a child's winning), and of the
// function table only the function d is about, for its signature. It has
// no parent and no other function: a diagnostic kept after its
// evaluation (in a run over thousands of modules) holds only the values
// its expression reads, not the evaluator the function table's closures
// would keep alive.
func detachContext(expr hcl.Expression, ctx *hcl.EvalContext, d *hcl.Diagnostic) *hcl.EvalContext {
	out := &hcl.EvalContext{}
	for _, t := range expr.Variables() {
		// A reference of one name alone is never shown (each.key is, each is not).
		if len(t) < 2 {
			continue
		}
		name := t.RootName()
		if _, ok := out.Variables[name]; ok {
			continue
		}
		for c := ctx; c != nil; c = c.Parent() {
			if v, ok := c.Variables[name]; ok {
				if out.Variables == nil {
					out.Variables = map[string]cty.Value{}
				}
				out.Variables[name] = v
				break
			}
		}
	}
	if d == nil {
		return out
	}
	if call, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d); ok {
		name := call.CalledFunctionName()
		for c := ctx; c != nil; c = c.Parent() {
			if f, ok := c.Functions[name]; ok {
				out.Functions = map[string]function.Function{name: f}
				break
			}
		}
	}
	return out
}
