package lang

import (
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
)

// lazyRun is the graph of an evaluation made with Options.Lazy: its nodes
// are evaluated when an expression given to the Result first needs them,
// with everything they depend on, instead of all at once. A console
// session that prints 1 then evaluates nothing else, where a configuration
// of a thousand bcrypt calls would otherwise make them all first.
type lazyRun struct {
	mu    sync.Mutex // serialises the expressions evaluated on the Result
	g     *graph
	order []*node
	done  map[*node]bool
}

// startLazy keeps the graph for later and evaluates what Terraform
// reports on before a console session starts: the root module's variables
// (missing or invalid values), and every object with a reference that is
// invalid or names nothing declared (validation errors), whose evaluation
// gives the error.
func (ev *evaluator) startLazy(g *graph, order []*node) {
	ev.lazy = &lazyRun{g: g, order: order, done: map[*node]bool{}}
	var roots []*node
	for _, n := range order {
		if n.kind == nodeVar && n.cfg == ev.cfg || ev.badReference(g, n) {
			roots = append(roots, n)
		}
	}
	ev.runNeeded(roots)
}

// badReference reports whether an object refers to something that does not
// parse or is not declared.
func (ev *evaluator) badReference(g *graph, n *node) bool {
	refs, callRefs := g.refs(n)
	check := func(c *config.Config, refs []parsedRef) bool {
		for _, pr := range refs {
			if pr.diags.HasErrors() {
				return true
			}
			if pr.ref == nil {
				continue
			}
			for _, t := range g.targets(nil, c, pr.ref) {
				if t == nil {
					return true
				}
			}
		}
		return false
	}
	return check(n.cfg, refs) || n.cfg.Parent != nil && check(n.cfg.Parent, callRefs)
}

// runNeeded evaluates the nodes in roots and everything they depend on
// that is not evaluated yet, in graph order, one at a time.
func (ev *evaluator) runNeeded(roots []*node) {
	lz := ev.lazy
	need := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		if n == nil || need[n] || lz.done[n] {
			return
		}
		need[n] = true
		for _, d := range n.deps {
			visit(d)
		}
	}
	for _, n := range roots {
		visit(n)
	}
	if len(need) == 0 {
		return
	}
	for _, n := range lz.order {
		if need[n] {
			ev.evalNode(n)
			lz.done[n] = true
		}
	}
}

// ensureFor evaluates, in a lazy evaluation, what expr refers to in the
// module c, and returns the diagnostics that evaluating it gave; the
// Result's lists of modules and resources then include what it made. The
// caller holds lazy.mu.
func (r *Result) ensureFor(c *config.Config, expr hcl.Expression) hcl.Diagnostics {
	ev := r.ev
	var roots []*node
	for _, pr := range ev.exprRefs(c.Module, expr) {
		if pr.ref != nil {
			roots = ev.lazy.g.targets(roots, c, pr.ref)
		}
	}
	before := len(ev.diags)
	// Scopes made while the graph runs must not take its values as final.
	ev.done = false
	ev.runNeeded(roots)
	ev.done = true
	if len(ev.diags) == before {
		return nil
	}
	diags := append(hcl.Diagnostics(nil), ev.diags[before:]...)
	r.Modules, r.Resources = nil, nil
	ev.collect(r)
	return diags
}

// ensureAll evaluates every node not evaluated yet. The caller holds
// lazy.mu.
func (r *Result) ensureAll() hcl.Diagnostics {
	ev := r.ev
	before := len(ev.diags)
	ev.done = false
	ev.runNeeded(ev.lazy.order)
	ev.done = true
	r.Modules, r.Resources = nil, nil
	ev.collect(r)
	return append(hcl.Diagnostics(nil), ev.diags[before:]...)
}
