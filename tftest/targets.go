package tftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/address"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// targeting is what a run's plan_options.target leaves in its plan, as
// the binaries prune their graph: the objects the targets name (a resource,
// a resource instance, or every resource of a module), everything they
// depend on, and the root module outputs that depend on resources and on
// none outside that set. Nothing else is planned or applied: an object
// outside it keeps what the state has, or is not created.
type targeting struct {
	// addrs are the targets as written, with instance keys.
	addrs []string
	// named are the resources (graph IDs: module path, no keys) a target
	// names; their instances are planned only when a target covers them.
	named map[string]bool
	// planned are the graph IDs of every object planned.
	planned map[string]bool
	// outputs are the root module outputs kept.
	outputs map[string]bool
	// evaluated are the graph IDs of every object the plan evaluates: the
	// planned ones, the outputs kept and what they refer to.
	evaluated map[string]bool
}

// newTargeting works out what the targets leave in a plan of cfg; nil
// without targets.
func newTargeting(cfg *config.Config, targets []hcl.Traversal, opts lang.Options) *targeting {
	if len(targets) == 0 {
		return nil
	}
	g := lang.BuildGraph(cfg, opts)
	deps := map[string][]string{}
	kinds := map[string]lang.GraphNodeKind{}
	for _, n := range g.Nodes {
		kinds[n.ID] = n.Kind
		if len(n.Module) > 0 {
			// What is in a module waits for the module call's expansion.
			call := address.ModulePrefix(n.Module[:len(n.Module)-1]) + "module." + n.Module[len(n.Module)-1]
			deps[n.ID] = append(deps[n.ID], call)
		}
	}
	for _, e := range g.Edges {
		deps[e.From] = append(deps[e.From], e.To)
	}
	ancestors := func(id string, into map[string]bool) {
		stack := []string{id}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range deps[n] {
				if !into[d] {
					into[d] = true
					stack = append(stack, d)
				}
			}
		}
	}
	isResource := func(id string) bool {
		k := kinds[id]
		return k == lang.GraphResource || k == lang.GraphDataResource || k == lang.GraphEphemeralResource
	}

	t := &targeting{named: map[string]bool{}, planned: map[string]bool{}, outputs: map[string]bool{}, evaluated: map[string]bool{}}
	for _, trav := range targets {
		t.addrs = append(t.addrs, formatTarget(trav))
		unkeyed := withoutKeys(trav)
		for _, n := range g.Nodes {
			if !isResource(n.ID) || (n.ID != unkeyed && !strings.HasPrefix(n.ID, unkeyed+".")) {
				continue
			}
			t.named[n.ID] = true
			t.planned[n.ID] = true
			ancestors(n.ID, t.planned)
		}
	}
	for _, n := range g.Nodes {
		if n.Kind != lang.GraphOutput || len(n.Module) > 0 {
			continue
		}
		up := map[string]bool{}
		ancestors(n.ID, up)
		found := 0
		for id := range up {
			if !isResource(id) {
				continue
			}
			if !t.planned[id] {
				found = 0
				break
			}
			found++
		}
		if found > 0 {
			t.outputs[strings.TrimPrefix(n.Name, "output.")] = true
			t.evaluated[n.ID] = true
			for id := range up {
				t.evaluated[id] = true
			}
		}
	}
	for id := range t.planned {
		t.evaluated[id] = true
	}
	return t
}

// uninitialized are Terraform's errors (1.14 on) for what an assertion of
// a targeted run reads that the plan did not evaluate: a root module
// variable, local value or resource outside the targets and what they
// depend on.
func (t *targeting) uninitialized(a *Assert, root *config.Module) hcl.Diagnostics {
	if t == nil {
		return nil
	}
	return uninitialized(a, root, func(id string) bool { return !t.evaluated[id] })
}

// unevaluated are the root module objects Terraform's plan did not
// evaluate for its errors (the expected failures of failed): those that
// depend on a failed object, which its graph walk does not visit. Nil when
// nothing failed.
func unevaluated(cfg *config.Config, failed []string, opts lang.Options) map[string]bool {
	if len(failed) == 0 || cfg == nil {
		return nil
	}
	g := lang.BuildGraph(cfg, opts)
	users := map[string][]string{}
	for _, e := range g.Edges {
		users[e.To] = append(users[e.To], e.From)
	}
	out := map[string]bool{}
	stack := slices.Clone(failed)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range users[n] {
			if !out[u] {
				out[u] = true
				stack = append(stack, u)
			}
		}
	}
	return out
}

// uninitializedOutputs are a run's root module outputs with those the
// operation did not evaluate for an expected failure (rr.skipped) unknown,
// as Terraform (1.15 on) reads an output its walk did not visit: an
// assertion reading one is "Unknown condition value", and a later run's
// variable "Reference to unknown value".
func (rr *RunResult) uninitializedOutputs(outputs map[string]cty.Value, root *config.Module) map[string]cty.Value {
	if len(rr.skipped) == 0 || root == nil {
		return outputs
	}
	for name := range outputs {
		if !rr.skipped["output."+name] {
			continue
		}
		v := cty.DynamicVal
		if o := root.Outputs[name]; o != nil && o.Sensitive {
			v = v.Mark(marks.Sensitive)
		}
		outputs[name] = v
	}
	return outputs
}

// keepUnapplied is the state after an apply that did not visit the
// resources in skipped (unevaluated): those keep what the prior state had
// of them, the others what the apply made.
func keepUnapplied(applied, prior map[string]cty.Value, skipped map[string]bool) map[string]cty.Value {
	if len(skipped) == 0 {
		return applied
	}
	out := make(map[string]cty.Value, len(applied))
	for addr, v := range applied {
		if !skipped[withoutInstanceKeys(addr)] {
			out[addr] = v
		}
	}
	for addr, v := range prior {
		if skipped[withoutInstanceKeys(addr)] {
			out[addr] = v
		}
	}
	return out
}

// withoutInstanceKeys is an instance address without its instance keys:
// its configuration address.
func withoutInstanceKeys(addr string) string {
	steps := address.Steps(addr)
	for i, s := range steps {
		steps[i], _, _ = strings.Cut(s, "[")
	}
	return strings.Join(steps, ".")
}

// uninitialized are Terraform's errors (1.14 on) for what an assertion
// reads of a root module variable, local value or resource that the plan
// did not evaluate (skipped reports which).
func uninitialized(a *Assert, root *config.Module, skipped func(id string) bool) hcl.Diagnostics {
	if root == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, e := range []hcl.Expression{a.Condition, a.ErrorMessage} {
		for _, tr := range e.Variables() {
			names := traversalNames(tr)
			if len(names) < 2 {
				continue
			}
			var id, summary, what string
			n := 2
			switch names[0] {
			case "var":
				if root.Variables[names[1]] == nil {
					continue // the test file's own value
				}
				id, summary, what = "var."+names[1], "Reference to uninitialized variable", "variable"
			case "local":
				id, summary, what = "local."+names[1], "Reference to uninitialized local value", "local value"
			case "data":
				if len(names) < 3 {
					continue
				}
				id, summary, what, n = "data."+names[1]+"."+names[2], "Reference to uninitialized resource", "resource", 3
				if root.DataResources[id] == nil {
					continue
				}
			default:
				id, summary, what = names[0]+"."+names[1], "Reference to uninitialized resource", "resource"
				if root.ManagedResources[id] == nil {
					continue
				}
			}
			if !skipped(id) {
				continue
			}
			ref := leadingNames(tr, n)
			rng := hcl.RangeBetween(ref[0].SourceRange(), ref[len(ref)-1].SourceRange())
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf("The %s %s was not processed by the most recent operation, this likely means the previous operation either failed or was incomplete due to targeting.", what, id), Subject: rng.Ptr()})
		}
	}
	return diags
}

// plans reports whether the run plans an instance.
func (t *targeting) plans(pi *lang.PlannedInstance) bool {
	if t == nil {
		return true
	}
	id := configAddr(pi)
	if !t.planned[id] {
		return false
	}
	if !t.named[id] {
		return true // something a target depends on: all of it
	}
	return t.covers(pi.Addr)
}

// covers reports whether a target covers an instance address: the same
// steps, or the first steps of it (a module), where a step the target
// writes without a key stands for all of its keys.
func covers(target, addr string) bool {
	ts, as := address.Steps(target), address.Steps(addr)
	if len(ts) > len(as) {
		return false
	}
	for i, t := range ts {
		tn, tk, keyed := strings.Cut(t, "[")
		an, ak, _ := strings.Cut(as[i], "[")
		if tn != an || keyed && tk != ak {
			return false
		}
	}
	return true
}

// covers reports whether a target covers an instance address.
func (t *targeting) covers(addr string) bool {
	for _, a := range t.addrs {
		if covers(a, addr) {
			return true
		}
	}
	return false
}

// keeps reports whether the run plans a root module output.
func (t *targeting) keeps(name string) bool {
	return t == nil || t.outputs[name]
}

// leaveOut adds the root module outputs the targets leave out of the
// plan to notPlanned, as output.NAME.
func (t *targeting) leaveOut(res *lang.Result, notPlanned map[string]bool) map[string]bool {
	if root := res.Root(); t != nil && root != nil {
		for name := range root.Outputs {
			if !t.keeps(name) {
				notPlanned["output."+name] = true
			}
		}
	}
	return notPlanned
}

// runOutputs are a run's root module outputs as its plan or state has
// them: those the run plans, and of the others the value the prior state
// has, or null.
func (t *targeting) runOutputs(res *lang.Result, prior map[string]cty.Value) map[string]cty.Value {
	root := res.Root()
	if root == nil {
		return nil
	}
	outputs := root.ReadOutputs()
	if t == nil {
		return outputs
	}
	out := make(map[string]cty.Value, len(outputs))
	for name, v := range outputs {
		switch p, ok := prior[name]; {
		case t.keeps(name):
			out[name] = v
		case ok:
			out[name] = p
		default:
			out[name] = cty.NullVal(cty.DynamicPseudoType)
		}
	}
	return out
}

// unplannedUnknowns drops from diags the errors of a count or for_each
// not known while planning ("Invalid count argument", "Invalid for_each
// argument" about an unknown value) of the resources the targets leave
// out: Terraform does not plan those, and its validation of the whole
// configuration, which still runs, takes an unknown count or for_each as
// it is. Every other diagnostic stays.
func (t *targeting) unplannedUnknowns(cfg *config.Config, diags hcl.Diagnostics) hcl.Diagnostics {
	if t == nil || !diags.HasErrors() {
		return diags
	}
	var exprs []hcl.Range
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		if c.Module != nil {
			for _, rs := range []map[string]*config.Resource{c.Module.ManagedResources, c.Module.DataResources} {
				for _, r := range rs {
					if t.planned[address.ModulePrefix(c.Path)+r.Addr()] {
						continue
					}
					for _, e := range []hcl.Expression{r.Count, r.ForEach} {
						if e != nil {
							exprs = append(exprs, e.Range())
						}
					}
				}
			}
		}
		for _, child := range c.Children {
			walk(child)
		}
	}
	walk(cfg)
	out := diags[:0:0]
	for _, d := range diags {
		if cause, ok := hcl.DiagnosticExtra[lang.ValueCause](d); ok && cause.Unknown && d.Severity == hcl.DiagError && d.Subject != nil && slices.ContainsFunc(exprs, func(r hcl.Range) bool {
			return r.Filename == d.Subject.Filename && r.Start.Byte == d.Subject.Start.Byte && r.End.Byte == d.Subject.End.Byte
		}) {
			continue
		}
		out = append(out, d)
	}
	return out
}
