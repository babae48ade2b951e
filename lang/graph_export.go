package lang

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/address"
)

// GraphNodeKind is the kind of configuration object a Graph node stands for.
type GraphNodeKind string

// The kinds of Graph nodes.
const (
	GraphVariable          GraphNodeKind = "variable"
	GraphLocal             GraphNodeKind = "local"
	GraphModuleCall        GraphNodeKind = "module"
	GraphResource          GraphNodeKind = "resource"
	GraphDataResource      GraphNodeKind = "data"
	GraphEphemeralResource GraphNodeKind = "ephemeral"
	GraphOutput            GraphNodeKind = "output"
	GraphCheck             GraphNodeKind = "check"
)

// GraphNode is one configuration object of one module (not one instance).
type GraphNode struct {
	// ID is unique in the graph: the object's address inside its module,
	// prefixed by the module path, e.g. `module.network.var.cidr`,
	// `terraform_data.server`, `data.http.health`.
	ID   string
	Kind GraphNodeKind
	// Module is the module's path in the configuration tree (call names; empty for the root).
	Module []string
	// Name is the address inside the module, e.g. `var.cidr`, `module.network`, `output.ids`.
	Name string
	// Source is a module call's source address; "" for other kinds.
	Source string
	// Range is the declaration's range.
	Range hcl.Range
}

// GraphEdge says that the object From refers to the object To (so To is
// evaluated first).
type GraphEdge struct {
	From, To string
}

// Graph is the dependency graph of a configuration tree, the one Evaluate
// walks, with the edges from every object of a child module to its module
// call left out (module nesting shows that instead).
type Graph struct {
	// Nodes are sorted by ID.
	Nodes []GraphNode
	// Edges are sorted by From, then To.
	Edges []GraphEdge
}

// BuildGraph builds the dependency graph of a loaded configuration without
// evaluating anything. Dialect decides which references are valid;
// Schemas, when given, decide which nested blocks a resource has.
func BuildGraph(cfg *config.Config, opts Options) *Graph {
	out := &Graph{}
	if cfg == nil || cfg.Module == nil {
		return out
	}
	ev := &evaluator{evaluation: &evaluation{opts: opts, cfg: cfg, seen: map[string]bool{}, instances: map[string][]*ModuleInstance{}, funcs: map[string]map[string]function.Function{}}}
	g := ev.buildGraph()
	for _, n := range g.nodes {
		if n.kind == nodeProvider {
			// Provider configurations are not among the kinds a Graph
			// shows.
			continue
		}
		id := n.id()
		gn := GraphNode{ID: id, Module: n.cfg.Path, Name: strings.TrimPrefix(id, address.ModulePrefix(n.cfg.Path))}
		m := n.cfg.Module
		switch n.kind {
		case nodeVar:
			gn.Kind, gn.Range = GraphVariable, m.Variables[n.name].DeclRange
		case nodeLocal:
			gn.Kind, gn.Range = GraphLocal, m.Locals[n.name].DeclRange
		case nodeCall:
			gn.Kind, gn.Range, gn.Source = GraphModuleCall, m.ModuleCalls[n.name].DeclRange, m.ModuleCalls[n.name].SourceAddr
			if child := n.cfg.Children[n.name]; child != nil {
				// A source built from variables is known once loaded.
				gn.Source = child.SourceAddr
			}
		case nodeOutput:
			gn.Kind, gn.Range = GraphOutput, m.Outputs[n.name].DeclRange
		case nodeCheck:
			gn.Kind, gn.Range = GraphCheck, m.Checks[n.name].DeclRange
		case nodeResource:
			res := findResource(m, n.name)
			gn.Kind, gn.Range = GraphResource, res.DeclRange
			switch res.Mode {
			case config.DataResourceMode:
				gn.Kind = GraphDataResource
			case config.EphemeralResourceMode:
				gn.Kind = GraphEphemeralResource
			}
		}
		out.Nodes = append(out.Nodes, gn)
		for _, d := range n.deps {
			if d.kind == nodeProvider || isContainingCall(n, d) || refersToCallOutput(n, d, n.deps) {
				continue
			}
			out.Edges = append(out.Edges, GraphEdge{From: id, To: d.id()})
		}
	}
	sort.Slice(out.Nodes, func(i, j int) bool { return out.Nodes[i].ID < out.Nodes[j].ID })
	sort.Slice(out.Edges, func(i, j int) bool {
		if out.Edges[i].From != out.Edges[j].From {
			return out.Edges[i].From < out.Edges[j].From
		}
		return out.Edges[i].To < out.Edges[j].To
	})
	return out
}

// isContainingCall reports whether d is the module call that instantiates
// n's module: an ordering edge, not a reference.
func isContainingCall(n, d *node) bool {
	p := n.cfg.Path
	return d.kind == nodeCall && len(p) > 0 && d.cfg == n.cfg.Parent && d.name == p[len(p)-1]
}

// refersToCallOutput reports whether d is a module call and n also depends
// on one of that call's outputs: the output edge says more, so the call
// edge is left out.
func refersToCallOutput(n, d *node, deps []*node) bool {
	if d.kind != nodeCall {
		return false
	}
	for _, o := range deps {
		if o.kind == nodeOutput && o.cfg.Parent == d.cfg && len(o.cfg.Path) > 0 && o.cfg.Path[len(o.cfg.Path)-1] == d.name {
			return true
		}
	}
	return false
}
