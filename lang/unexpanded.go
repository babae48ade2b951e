package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/tfvars"
)

// UnexpandedErrors are the errors that validating what the plan
// evaluation expanded to no instance found (Options.ValidateUnexpanded),
// but for those the plan's diagnostics have too (NewErrors); nil without
// that option or when there are none.
func (r *Result) UnexpandedErrors() hcl.Diagnostics {
	if r == nil {
		return nil
	}
	return r.unexpandedErrors
}

// validateUnexpanded evaluates, as terraform validate does, what the plan
// that ran the graph g (in order) expanded to no instance, and what that
// depends on, and returns the errors found that the plan's are not, in
// graph order. The validation shares the plan's caches of what does not
// depend on values (parsed references, resource shapes, function tables)
// and its limits: it costs the evaluation of those objects alone, and
// nothing more than a walk over the module instances when every object
// has an instance. A function table the plan built may know what validate
// would not (the plan timestamp), which can only make an error more, not
// less: the caller settles what it reports by validating the whole
// configuration.
func (ev *evaluator) validateUnexpanded(g *graph, order []*node) hcl.Diagnostics {
	if ev.limits.stopped() != nil || !ev.anyUnexpanded() {
		return nil
	}
	roots, countsChecked := ev.unexpandedRoots(g)
	if roots == nil {
		return nil
	}
	opts := ev.opts
	opts.Validate, opts.RootVariables, opts.DataSources, opts.DataSourceRanges, opts.Instances, opts.Applied = true, nil, nil, nil, nil, false
	vev, _ := newEvaluation(ev.cfg, opts, ev.evaluation)
	vev.countsChecked, vev.errorsOnly = countsChecked, true
	for _, n := range g.nodes {
		// The plan is done with the graph: which nodes fail is now the
		// validation's to say.
		n.failed.Store(false)
	}
	if l := ev.limits; l != nil {
		// The plan's budget is what it spent: the validation charges it
		// while it runs (the tables' functions do) and gives it back.
		steps, insts, mods := l.steps.Load(), l.instances.Load(), l.modules.Load()
		defer func() { l.steps.Store(steps); l.instances.Store(insts); l.modules.Store(mods) }()
	}
	vev.runValidation(order, roots)
	return NewErrors(ev.diags, vev.diags)
}

// NewErrors are the errors of validation that diags do not have: another
// evaluation's errors with the same summary and subject are the same,
// which Terraform words the same way whether it validates or plans.
func NewErrors(diags, validation hcl.Diagnostics) hcl.Diagnostics {
	if !validation.HasErrors() {
		return nil
	}
	type site struct {
		summary string
		subject hcl.Range
	}
	siteOf := func(d *hcl.Diagnostic) site {
		s := site{summary: d.Summary}
		if d.Subject != nil {
			s.subject = *d.Subject
		}
		return s
	}
	have := map[site]bool{}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			have[siteOf(d)] = true
		}
	}
	var out hcl.Diagnostics
	for _, d := range validation {
		if d.Severity == hcl.DiagError && !have[siteOf(d)] {
			out = append(out, d)
		}
	}
	return out
}

// runValidation evaluates, in graph order, the nodes roots and what they
// depend on (roots by node position in the graph). A variable or resource that is not a root is only given the
// value terraform validate gives what refers to it, unknown (of the
// variable's type, of the resource's schema), without evaluating its
// configuration or what that needs: errors there, which a root's value
// does not depend on, the plan reports too.
func (ev *evaluator) runValidation(order []*node, roots []bool) {
	// What each node needs, by position: nothing, its value alone, or its
	// evaluation.
	const (
		needNothing = iota
		needValue
		needEvaluation
	)
	need := make([]uint8, len(roots))
	var visit func(n *node)
	visit = func(n *node) {
		if n == nil || need[n.pos] != needNothing {
			return
		}
		need[n.pos] = needEvaluation
		if (n.kind == nodeVar || n.kind == nodeResource) && !roots[n.pos] {
			need[n.pos] = needValue
			if p := n.cfg.Parent; p != nil {
				// The module instances are made by their call.
				for _, d := range n.deps {
					if d.kind == nodeCall && d.cfg == p && d.name == n.cfg.Path[len(n.cfg.Path)-1] {
						visit(d)
					}
				}
			}
			return
		}
		for _, d := range n.deps {
			visit(d)
		}
	}
	for _, n := range order {
		if roots[n.pos] {
			visit(n)
		}
	}
	for _, n := range order {
		switch {
		case need[n.pos] == needNothing:
		case need[n.pos] == needValue && n.kind == nodeVar:
			decl := n.cfg.Module.Variables[n.name]
			if decl.Ephemeral {
				ev.madeEphemeral()
			}
			v := tfvars.Unknown(decl)
			for _, mi := range ev.moduleInstances(n.cfg) {
				mi.setVariable(n.name, v)
			}
		case need[n.pos] == needValue:
			res := findResource(n.cfg.Module, n.name)
			for _, mi := range ev.moduleInstances(n.cfg) {
				mi.setResource(n.name, ev.unplannedState(mi, res))
			}
		default:
			ev.evalNode(n)
		}
	}
}

// anyUnexpanded reports whether the plan evaluated anything to no
// instance: a module configuration without an instance because every call
// of it (or of a module above) made none, or a resource with no instance
// in any instance of its module. What was never evaluated (a call or
// resource without a state) does not count. It allocates nothing.
func (ev *evaluator) anyUnexpanded() bool {
	var walk func(c *config.Config) bool
	walk = func(c *config.Config) bool {
		if c.Module == nil {
			return false
		}
		insts := ev.moduleInstances(c)
		for _, set := range [...]map[string]*config.Resource{c.Module.ManagedResources, c.Module.DataResources, c.Module.EphemeralResources} {
			for addr, res := range set {
				if res.Check == "" && len(insts) > 0 && hasDynamicBlock(res) {
					return true
				}
				if res.Check == "" && noneOf(insts, func(mi *ModuleInstance) (int, bool) {
					rs := mi.resource(addr)
					if rs == nil {
						return 0, false
					}
					return len(rs.instances), true
				}) {
					return true
				}
			}
		}
		for name, child := range c.Children {
			if child.Module != nil && noneOf(insts, func(mi *ModuleInstance) (int, bool) {
				cs := mi.call(name)
				if cs == nil {
					return 0, false
				}
				return len(cs.children), true
			}) {
				return true
			}
			if walk(child) {
				return true
			}
		}
		return false
	}
	return walk(ev.cfg)
}

// unexpandedRoots are the nodes of g that validating what the plan
// expanded to no instance starts from, and the resources among them whose
// count or for_each the plan evaluated. terraform validate evaluates a
// module's configuration the same wherever it is called, every variable
// unknown, and what a plan evaluated with values reports at least the
// errors validate finds there: so an object is validated, once, only
// where no configuration with the same module (the loader shares one for
// each source directory) has an instance of it. That is a resource with
// no instance in any of them, every other object of a module with no
// instance anywhere, and the variables of a module call with no instance
// anywhere (their values are its arguments); and a resource with a
// dynamic block (hasDynamicBlock), once for its module, whatever its
// instances. Where a module is called
// from several places, the first in address order is validated.
func (ev *evaluator) unexpandedRoots(g *graph) ([]bool, map[*config.Resource]bool) {
	type resourceKey struct {
		m    *config.Module
		addr string
	}
	type callKey struct {
		parent *config.Module
		name   string
	}
	planned := map[*config.Module]bool{} // has an instance somewhere
	instanced := map[resourceKey]bool{}  // a resource with an instance (or not evaluated)
	calledOnce := map[callKey]bool{}     // a call with an instance (or not evaluated)
	var cfgs []*config.Config
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		if c.Module == nil {
			return
		}
		cfgs = append(cfgs, c)
		insts := ev.moduleInstances(c)
		if len(insts) > 0 {
			planned[c.Module] = true
		}
		for _, set := range [...]map[string]*config.Resource{c.Module.ManagedResources, c.Module.DataResources, c.Module.EphemeralResources} {
			for addr := range set {
				k := resourceKey{c.Module, addr}
				for _, mi := range insts {
					if instanced[k] {
						break
					}
					if rs := mi.resource(addr); rs == nil || len(rs.instances) > 0 {
						instanced[k] = true
					}
				}
			}
		}
		for name := range c.Module.ModuleCalls {
			k := callKey{c.Module, name}
			for _, mi := range insts {
				if calledOnce[k] {
					break
				}
				if cs := mi.call(name); cs == nil || len(cs.children) > 0 {
					calledOnce[k] = true
				}
			}
		}
		for _, name := range sortedKeys(c.Children) {
			walk(c.Children[name])
		}
	}
	walk(ev.cfg)
	var roots []bool // by node position, nil while there is none
	root := func(n *node) {
		if n == nil {
			return
		}
		if roots == nil {
			roots = make([]bool, len(g.nodes))
		}
		roots[n.pos] = true
	}
	var countsChecked map[*config.Resource]bool
	validated := map[*config.Module]bool{}
	argsValidated := map[callKey]bool{}
	for _, c := range cfgs {
		if p := c.Parent; p != nil {
			k := callKey{p.Module, c.Path[len(c.Path)-1]}
			if !calledOnce[k] && !argsValidated[k] {
				argsValidated[k] = true
				for name := range c.Module.Variables {
					root(g.get(c, nodeVar, name))
				}
			}
		}
		if validated[c.Module] {
			continue
		}
		validated[c.Module] = true
		if !planned[c.Module] {
			gm := g.modules[c]
			for i := range gm.objects.objects {
				if n := g.nodes[gm.first+i]; n.kind != nodeVar {
					root(n)
				}
			}
			continue
		}
		for _, res := range moduleResources(c.Module) {
			if instanced[resourceKey{c.Module, res.Addr()}] {
				if hasDynamicBlock(res) {
					root(g.get(c, nodeResource, res.Addr()))
				}
				continue
			}
			root(g.get(c, nodeResource, res.Addr()))
			if res.Count != nil || res.ForEach != nil {
				if countsChecked == nil {
					countsChecked = map[*config.Resource]bool{}
				}
				countsChecked[res] = true
			}
		}
	}
	return roots, countsChecked
}

// noneOf reports whether the module instances insts, of which there is at
// least one, all have a state of the object that count gives the instances
// of (ok), and none of them has an instance.
func noneOf(insts []*ModuleInstance, count func(*ModuleInstance) (n int, ok bool)) bool {
	if len(insts) == 0 {
		return false
	}
	for _, mi := range insts {
		if n, ok := count(mi); !ok || n > 0 {
			return false
		}
	}
	return true
}

// hasDynamicBlock reports whether the body of res has a dynamic block, at
// any depth. terraform validate expands a dynamic block whose for_each
// depends on a variable, unknown there, to one block of unknown values
// and checks its content against the schema, where the plan's values may
// have expanded it to none: so such a resource is validated whatever its
// instances. A body tfeval cannot walk (an override merged into it, JSON)
// counts as having one. It allocates nothing.
func hasDynamicBlock(res *config.Resource) bool {
	body, _, ok := res.VisibleSyntax()
	if !ok {
		return true
	}
	return syntaxHasDynamic(body)
}

func syntaxHasDynamic(body *hclsyntax.Body) bool {
	for _, b := range body.Blocks {
		if b.Type == "dynamic" || syntaxHasDynamic(b.Body) {
			return true
		}
	}
	return false
}
