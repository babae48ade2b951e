package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/zclconf/go-cty/cty"
)

// dynamicBudget bounds the blocks the dynamic blocks of one body generate,
// those of the dynamic blocks nested in them included, by MaxElements, as
// the elements of one for expression are bounded: three dynamic blocks
// nested in each other over a thousand elements each would otherwise make
// a billion blocks. Each generated block is charged as a step too.
type dynamicBudget struct {
	lim  *limiter
	max  int
	made int
}

// tooManyDynamicBlocks is the summary of the error past a dynamicBudget.
const tooManyDynamicBlocks = "Too many dynamic blocks"

// dynamicBudget is a budget for one body's dynamic blocks (a value, which
// the common case keeps on its stack).
func (l *limiter) dynamicBudget() dynamicBudget {
	b := dynamicBudget{lim: l}
	if l != nil {
		b.max = l.limits.MaxElements
	} else {
		b.max = Limits{}.WithDefaults().MaxElements
	}
	return b
}

// take charges n more generated blocks, reporting false past the budget
// or the evaluation's steps. A nil budget bounds nothing.
func (b *dynamicBudget) take(n int) bool {
	if b == nil {
		return true
	}
	b.made += n
	if b.made > b.max {
		return false
	}
	return b.lim == nil || b.lim.charge(int64(n)*dynamicBlockSteps) == nil
}

// dynamicBlockSteps is what one generated block costs of Limits.MaxSteps:
// it is kept, with its attributes' values, for as long as the evaluation
// (about 600 bytes each, for a block of two attributes), so that counted
// resources of nested dynamic blocks stop at the step limit below a
// gigabyte rather than at two.
const dynamicBlockSteps = 4

// check is take for the elements of a dynamic block's for_each value,
// with the diagnostic at the for_each expression past the budget.
func (b *dynamicBudget) check(each cty.Value, expr hcl.Expression, _ *hcl.EvalContext) hcl.Diagnostics {
	each, _ = each.Unmark()
	if !each.IsKnown() || each.IsNull() || !each.CanIterateElements() {
		return nil
	}
	if b.take(each.LengthInt()) {
		return nil
	}
	if b.made <= b.max {
		return b.lim.chargeDiags(0, expr.Range())
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  tooManyDynamicBlocks,
		Detail:   fmt.Sprintf("The dynamic blocks of this block generate more than %d blocks, counting those of the dynamic blocks nested in them, the limit for one block (Limits.MaxElements).", b.max),
		Subject:  expr.Range().Ptr(),
	}}
}

// expandDynamic is dynblock.Expand with the dynamic blocks of body bounded
// by a budget of their own. Past it, every dynamic block still to expand
// reports the error: onceDynamicBudget keeps the first. (A body dynblock
// expands more than once is counted each time.)
func (l *limiter) expandDynamic(body hcl.Body, ctx *hcl.EvalContext) hcl.Body {
	b := l.dynamicBudget()
	return dynblock.Expand(body, ctx, dynblock.OptCheckForEach(b.check))
}

// onceDynamicBudget drops from diags every "Too many dynamic blocks" error
// but the first, which says it all.
func onceDynamicBudget(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := false
	out := diags[:0]
	for _, d := range diags {
		if d.Summary == tooManyDynamicBlocks {
			if seen {
				continue
			}
			seen = true
		}
		out = append(out, d)
	}
	return out
}
