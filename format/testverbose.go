package format

import (
	"encoding/json"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/address"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/tftest"
)

// The plan and the state a run prints with -json -verbose, as the binaries
// write them in their test_plan and test_state events: the parts of
// terraform show -json's plan and state documents that describe what the
// run planned or applied. The provider schemas the binaries add beside
// them are left out: tfeval runs no provider to ask for one.

// verboseEvent is the test_plan (after a plan run) or test_state (after
// an apply run) event of a run that got as far as planning.
func (e *eventWriter) verboseEvent(fr *tftest.FileResult, rr *tftest.RunResult) {
	if rr.Result == nil || rr.Stopped {
		return
	}
	p, err := NewPlan(rr.Result, PlanOptions{})
	if err != nil {
		return
	}
	ev := map[string]any{"@level": "info", "@testfile": fr.Path, "@testrun": rr.Name}
	left := map[string]bool{} // what the state after the run lacks
	for addr := range rr.NotPlanned {
		if !inState(rr, addr) {
			left[addr] = true
		}
	}
	if rr.Command == tftest.Plan {
		ev["@message"] = "-verbose flag enabled, printing plan"
		ev["type"] = "test_plan"
		ev["test_plan"] = testPlan(p, rr)
	} else {
		ev["@message"] = "-verbose flag enabled, printing state"
		ev["type"] = "test_state"
		outputs := map[string]Output{}
		for name, o := range p.PlannedValues.Outputs {
			// A state keeps no output whose value is null.
			if v := rr.Outputs[name]; !rr.NotPlanned["output."+name] && (v == cty.NilVal || !v.IsNull()) {
				outputs[name] = o
			}
		}
		state := orderedObject{
			{"state_format_version", "1.0"},
			{"root_module", stateModule(&p.PlannedValues.RootModule, left, newDependencies(rr.Result))},
		}
		if len(outputs) > 0 {
			state = append(state, member{"outputs", outputs})
		}
		ev["test_state"] = append(state, member{"provider_format_version", "1.0"})
	}
	e.emit(ev)
}

// testPlan is a plan run's plan: its changes to the state the run started
// from (a managed instance already there is updated, or unchanged), and
// what the configuration reads of the resources.
func testPlan(p *Plan, rr *tftest.RunResult) orderedObject {
	planned := map[string]cty.Value{}
	for _, ri := range rr.Result.Resources {
		if ri.Mode == config.ManagedResourceMode {
			planned[ri.Addr] = ri.Value
		}
	}
	changes := make([]ResourceChange, 0, len(p.ResourceChanges))
	for _, rc := range p.ResourceChanges {
		if rr.NotPlanned[rc.Address] {
			continue
		}
		old, ok := rr.Prior[rc.Address]
		cur, managed := planned[rc.Address]
		if ok && managed {
			rc.Change.Before, _ = json.Marshal(knownJSON(old))
			rc.Change.BeforeSensitive = sensitiveAsBool(old)
			rc.Change.Actions = []string{"update"}
			if old.RawEquals(cur) {
				rc.Change.Actions = []string{"no-op"}
			}
		}
		changes = append(changes, rc)
	}
	changed := false
	for _, rc := range changes {
		changed = changed || rc.Change.Actions[0] != "no-op"
	}
	var outputs map[string]Change
	if root := rr.Result.Root(); root != nil {
		for name, ch := range p.OutputChanges {
			if rr.NotPlanned["output."+name] {
				continue
			}
			if old, ok := rr.PriorOutputs[name]; ok {
				ch.Before, _ = json.Marshal(knownJSON(old))
				ch.Actions = []string{"update"}
				if old.RawEquals(root.Outputs[name]) {
					ch.Actions = []string{"no-op"}
				}
			}
			changed = changed || ch.Actions[0] != "no-op"
			if outputs == nil {
				outputs = map[string]Change{}
			}
			outputs[name] = ch
		}
	}
	out := orderedObject{{"plan_format_version", PlanFormatVersion}}
	if len(outputs) > 0 {
		out = append(out, member{"output_changes", outputs})
	}
	if len(changes) > 0 {
		out = append(out, member{"resource_changes", changes})
	}
	// The binaries list the attributes the plan's changes refer to.
	deps := newDependencies(rr.Result)
	var sources []string
	changedRes := map[string]bool{}
	for _, rc := range changes {
		if rc.Change.Actions[0] != "no-op" {
			sources = append(sources, deps.byInstance[rc.Address])
			changedRes[deps.byInstance[rc.Address]] = true
		}
	}
	// A module's outputs change with the resources they refer to.
	for _, id := range deps.moduleOutputs {
		for r := range deps.referencedFrom([]string{id}) {
			if changedRes[r] {
				sources = append(sources, id)
				break
			}
		}
	}
	for name, ch := range outputs {
		if ch.Actions[0] != "no-op" {
			sources = append(sources, "output."+name)
		}
	}
	reached := deps.referencedFrom(sources)
	var relevant []ResourceAttr
	for _, ra := range p.RelevantAttrs {
		if reached[deps.byInstance[ra.Resource]] {
			relevant = append(relevant, ra)
		}
	}
	if len(relevant) > 0 {
		out = append(out, member{"relevant_attributes", relevant})
	}
	return append(out, member{"provider_format_version", "1.0"})
}

// stateModule is a module's values as a state has them: without the
// instances left out, each with the resources it depends on.
func stateModule(m *Module, left map[string]bool, deps *dependencies) *stateValues {
	out := &stateValues{Address: m.Address}
	for _, r := range m.Resources {
		if !left[r.Address] {
			out.Resources = append(out.Resources, stateResource{r, deps.of(r.Address)})
		}
	}
	for _, c := range m.ChildModules {
		if c := stateModule(c, left, deps); len(c.Resources) > 0 || len(c.ChildModules) > 0 {
			out.ChildModules = append(out.ChildModules, c)
		}
	}
	return out
}

// stateValues is a module's resource instances in a state, and the
// module instances it calls that have some.
type stateValues struct {
	Resources    []stateResource `json:"resources,omitempty"`
	Address      string          `json:"address,omitempty"`
	ChildModules []*stateValues  `json:"child_modules,omitempty"`
}

// stateResource is a resource instance in a state: its values, and the
// resources (configuration addresses) it depends on.
type stateResource struct {
	Resource
	DependsOn []string `json:"depends_on,omitempty"`
}

// dependencies are what each resource depends on, as a state records it:
// every resource it depends on, directly or through other objects; a
// module named in depends_on brings all of its resources.
type dependencies struct {
	byInstance map[string]string // instance address -> graph ID
	deps       map[string][]string
	resources  map[string]bool
	memo       map[string][]string
	// moduleOutputs are the graph IDs of the outputs of called modules.
	moduleOutputs []string
}

func newDependencies(res *lang.Result) *dependencies {
	d := &dependencies{byInstance: map[string]string{}, deps: map[string][]string{}, resources: map[string]bool{}, memo: map[string][]string{}}
	root := res.Root()
	if root == nil {
		return d
	}
	for _, ri := range res.Resources {
		if mi := res.Module(ri.Module); mi != nil && ri.Config != nil {
			d.byInstance[ri.Addr] = address.ModulePrefix(mi.Config.Path) + ri.Config.Addr()
		}
	}
	g := lang.BuildGraph(root.Config, lang.Options{Dialect: res.Options().Dialect, Schemas: res.Options().Schemas})
	inModule := map[string][]string{} // module call graph ID -> its resources, nested too
	for _, n := range g.Nodes {
		switch n.Kind {
		case lang.GraphOutput:
			if len(n.Module) > 0 {
				d.moduleOutputs = append(d.moduleOutputs, n.ID)
			}
		case lang.GraphResource, lang.GraphDataResource:
			d.resources[n.ID] = true
			for i := range n.Module {
				call := address.ModulePrefix(n.Module[:i]) + "module." + n.Module[i]
				inModule[call] = append(inModule[call], n.ID)
			}
		}
		if len(n.Module) > 0 {
			// What is in a module waits for the module call.
			d.deps[n.ID] = append(d.deps[n.ID], address.ModulePrefix(n.Module[:len(n.Module)-1])+"module."+n.Module[len(n.Module)-1])
		}
	}
	for _, e := range g.Edges {
		d.deps[e.From] = append(d.deps[e.From], e.To)
	}
	// A module named in depends_on brings every resource in it.
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		prefix := address.ModulePrefix(c.Path)
		named := func(id string, deps []hcl.Traversal) {
			for _, t := range deps {
				if len(t) >= 2 && t.RootName() == "module" {
					if a, ok := t[1].(hcl.TraverseAttr); ok {
						d.deps[id] = append(d.deps[id], inModule[prefix+"module."+a.Name]...)
					}
				}
			}
		}
		for _, set := range []map[string]*config.Resource{c.Module.ManagedResources, c.Module.DataResources} {
			for _, r := range set {
				named(prefix+r.Addr(), r.DependsOn)
			}
		}
		for name, call := range c.Module.ModuleCalls {
			named(prefix+"module."+name, call.DependsOn)
		}
		for _, child := range c.Children {
			walk(child)
		}
	}
	walk(root.Config)
	return d
}

// referencedFrom are the resources (graph IDs) what the given objects
// refer to reaches: directly, or through objects that are not resources.
func (d *dependencies) referencedFrom(ids []string) map[string]bool {
	return d.resourcesUpstream(ids, false)
}

// of is what the instance at addr depends on, sorted: every resource
// upstream of it, through anything.
func (d *dependencies) of(addr string) []string {
	id, ok := d.byInstance[addr]
	if !ok {
		return nil
	}
	if out, ok := d.memo[id]; ok {
		return out
	}
	var out []string
	for r := range d.resourcesUpstream([]string{id}, true) {
		out = append(out, r)
	}
	sort.Strings(out)
	d.memo[id] = out
	return out
}

// resourcesUpstream are the resources the given objects depend on; past
// a resource only when through is set.
func (d *dependencies) resourcesUpstream(ids []string, through bool) map[string]bool {
	out := map[string]bool{}
	seen := map[string]bool{}
	stack := append([]string(nil), ids...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, dep := range d.deps[n] {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if d.resources[dep] {
				out[dep] = true
				if !through {
					continue
				}
			}
			stack = append(stack, dep)
		}
	}
	return out
}
