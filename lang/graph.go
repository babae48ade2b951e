package lang

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
)

// nodeKind is the kind of configuration object a graph node evaluates.
type nodeKind int

const (
	nodeVar nodeKind = iota
	nodeLocal
	nodeCall
	nodeResource
	nodeOutput
	nodeCheck
)

// node is one configuration object (in every instance of its module).
type node struct {
	kind nodeKind
	cfg  *config.Config
	name string // variable, local, output, call or check name; resource address
	id   string // display name, e.g. "module.a.local.x"
	deps map[*node]bool

	// selfRef is set when the object refers to itself.
	selfRef bool
}

// modulePrefix is "module.a.module.b." for a module config path, "" for the root.
func modulePrefix(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString("module.")
		b.WriteString(p)
		b.WriteString(".")
	}
	return b.String()
}

// graph is the dependency graph of the whole configuration tree.
type graph struct {
	nodes []*node
	index map[string]*node // id -> node
}

func nodeID(cfg *config.Config, kind nodeKind, name string) string {
	p := modulePrefix(cfg.Path)
	switch kind {
	case nodeVar:
		return p + "var." + name
	case nodeLocal:
		return p + "local." + name
	case nodeCall:
		return p + "module." + name
	case nodeOutput:
		return p + "output." + name
	case nodeCheck:
		return p + "check." + name
	}
	return p + name
}

func (g *graph) add(cfg *config.Config, kind nodeKind, name string) *node {
	n := &node{kind: kind, cfg: cfg, name: name, id: nodeID(cfg, kind, name), deps: map[*node]bool{}}
	g.nodes = append(g.nodes, n)
	g.index[n.id] = n
	return n
}

func (g *graph) get(cfg *config.Config, kind nodeKind, name string) *node {
	return g.index[nodeID(cfg, kind, name)]
}

// buildGraph creates a node for every object of every module and connects
// each to the objects its expressions refer to.
func (ev *evaluator) buildGraph() *graph {
	g := &graph{index: map[string]*node{}}
	var addNodes func(c *config.Config)
	addNodes = func(c *config.Config) {
		m := c.Module
		for _, n := range sortedKeys(m.Variables) {
			g.add(c, nodeVar, n)
		}
		for _, n := range sortedKeys(m.Locals) {
			g.add(c, nodeLocal, n)
		}
		for _, n := range sortedKeys(m.ModuleCalls) {
			g.add(c, nodeCall, n)
		}
		for _, res := range moduleResources(m) {
			g.add(c, nodeResource, res.Addr())
		}
		for _, n := range sortedKeys(m.Outputs) {
			g.add(c, nodeOutput, n)
		}
		for _, n := range sortedKeys(m.Checks) {
			g.add(c, nodeCheck, n)
		}
		for _, n := range sortedKeys(c.Children) {
			addNodes(c.Children[n])
		}
	}
	addNodes(ev.cfg)

	for _, n := range g.nodes {
		m := n.cfg.Module
		var travs []hcl.Traversal
		switch n.kind {
		case nodeVar:
			v := m.Variables[n.name]
			travs = append(travs, ruleVars(v.Validations)...)
			if n.cfg.Parent != nil {
				// The value comes from the calling module block.
				call := n.cfg.Parent.Module.ModuleCalls[n.cfg.Path[len(n.cfg.Path)-1]]
				if a, ok := callAttributes(call)[n.name]; ok {
					ev.connect(g, n, n.cfg.Parent, a.Expr.Variables())
				}
			}
		case nodeLocal:
			travs = exprVars(m.Locals[n.name].Expr)
		case nodeCall:
			call := m.ModuleCalls[n.name]
			travs = append(travs, exprVars(call.Count)...)
			travs = append(travs, exprVars(call.ForEach)...)
			travs = append(travs, call.DependsOn...)
		case nodeResource:
			res := findResource(m, n.name)
			travs = ev.resourceTraversals(n.cfg, res)
		case nodeOutput:
			o := m.Outputs[n.name]
			travs = append(travs, exprVars(o.Expr)...)
			travs = append(travs, o.DependsOn...)
			travs = append(travs, ruleVars(o.Preconditions)...)
		case nodeCheck:
			ch := m.Checks[n.name]
			if ch.DataResource != nil {
				travs = append(travs, ev.resourceTraversals(n.cfg, ch.DataResource)...)
			}
			travs = append(travs, ruleVars(ch.Asserts)...)
		}
		ev.connect(g, n, n.cfg, travs)
		if n.cfg.Parent != nil {
			if call := g.get(n.cfg.Parent, nodeCall, n.cfg.Path[len(n.cfg.Path)-1]); call != nil {
				n.deps[call] = true
			}
		}
	}
	return g
}

func exprVars(e hcl.Expression) []hcl.Traversal {
	if e == nil {
		return nil
	}
	return e.Variables()
}

// resourceTraversals lists everything a resource block refers to.
func (ev *evaluator) resourceTraversals(c *config.Config, res *config.Resource) []hcl.Traversal {
	var travs []hcl.Traversal
	travs = append(travs, exprVars(res.Count)...)
	travs = append(travs, exprVars(res.ForEach)...)
	travs = append(travs, res.DependsOn...)
	if res.Config != nil {
		// Worked out once per block, with the rest evaluation needs of it.
		travs = append(travs, ev.resourceInfo(c, res).bodyVars...)
	}
	travs = append(travs, ruleVars(res.Preconditions)...)
	travs = append(travs, ruleVars(res.Postconditions)...)
	for _, body := range provisionerBodies(res) {
		travs = append(travs, config.BodyTraversals(body)...)
	}
	return travs
}

// connect adds an edge from n to every node the traversals (in module c) name.
func (ev *evaluator) connect(g *graph, n *node, c *config.Config, travs []hcl.Traversal) {
	for _, t := range travs {
		ref, _ := parseRef(t, ev.opts.Dialect)
		if ref == nil {
			continue
		}
		var targets []*node
		switch ref.kind {
		case refVar:
			targets = append(targets, g.get(c, nodeVar, ref.name))
		case refLocal:
			targets = append(targets, g.get(c, nodeLocal, ref.name))
		case refModule:
			targets = append(targets, g.get(c, nodeCall, ref.name))
			if child := c.Children[ref.name]; child != nil {
				if ref.output != "" && child.Module.Outputs[ref.output] != nil {
					targets = append(targets, g.get(child, nodeOutput, ref.output))
				} else {
					for _, o := range sortedKeys(child.Module.Outputs) {
						targets = append(targets, g.get(child, nodeOutput, o))
					}
				}
			}
		case refResource:
			targets = append(targets, g.get(c, nodeResource, ref.addr()))
		}
		for _, t := range targets {
			if t == nil {
				continue
			}
			if t == n {
				n.selfRef = true
				continue
			}
			n.deps[t] = true
		}
	}
}

// order returns the nodes in an evaluation order (dependencies first,
// otherwise declaration order) and the cycles found, each as sorted node ids.
func (g *graph) order() ([]*node, [][]*node) {
	// Tarjan's algorithm yields strongly connected components in reverse
	// topological order of the condensation, i.e. dependencies first.
	index := map[*node]int{}
	low := map[*node]int{}
	onStack := map[*node]bool{}
	var stack []*node
	var out []*node
	var cycles [][]*node
	next := 0
	var strong func(v *node)
	strong = func(v *node) {
		index[v] = next
		low[v] = next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range sortedDeps(v) {
			if _, seen := index[w]; !seen {
				strong(w)
				if low[w] < low[v] {
					low[v] = low[w]
				}
			} else if onStack[w] && index[w] < low[v] {
				low[v] = index[w]
			}
		}
		if low[v] == index[v] {
			var comp []*node
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				sort.Slice(comp, func(i, j int) bool { return comp[i].id < comp[j].id })
				cycles = append(cycles, comp)
			}
			out = append(out, comp...)
		}
	}
	for _, n := range g.nodes {
		if _, seen := index[n]; !seen {
			strong(n)
		}
	}
	return out, cycles
}

func sortedDeps(n *node) []*node {
	deps := make([]*node, 0, len(n.deps))
	for d := range n.deps {
		deps = append(deps, d)
	}
	sort.Slice(deps, func(i, j int) bool { return deps[i].id < deps[j].id })
	return deps
}

// moduleResources lists the module's managed, data and ephemeral resources in address order.
func moduleResources(m *config.Module) []*config.Resource {
	var out []*config.Resource
	for _, set := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, k := range sortedKeys(set) {
			if set[k].Check != "" {
				continue // a check block's data resource belongs to the check
			}
			out = append(out, set[k])
		}
	}
	return out
}

func findResource(m *config.Module, addr string) *config.Resource {
	switch {
	case strings.HasPrefix(addr, "data."):
		return m.DataResources[addr]
	case strings.HasPrefix(addr, "ephemeral."):
		return m.EphemeralResources[addr]
	}
	return m.ManagedResources[addr]
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ruleVars lists the references of condition rules.
func ruleVars(rules []*config.CheckRule) []hcl.Traversal {
	var travs []hcl.Traversal
	for _, r := range rules {
		if r == nil {
			continue
		}
		travs = append(travs, exprVars(r.Condition)...)
		travs = append(travs, exprVars(r.ErrorMessage)...)
	}
	return travs
}
