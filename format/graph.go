package format

import (
	"fmt"
	"strings"

	"github.com/tfeval/tfeval/lang"
)

// graphStyle is how DOT draws each kind of node.
var graphStyle = map[lang.GraphNodeKind]string{
	lang.GraphVariable:          `shape=ellipse, style=filled, fillcolor="#e8f0fe"`,
	lang.GraphLocal:             `shape=ellipse, style=filled, fillcolor="#f1f3f4"`,
	lang.GraphModuleCall:        `shape=component, style=filled, fillcolor="#fef7e0"`,
	lang.GraphResource:          `shape=box, style="rounded,filled", fillcolor="#e6f4ea"`,
	lang.GraphDataResource:      `shape=box, style="rounded,filled,dashed", fillcolor="#e6f4ea"`,
	lang.GraphEphemeralResource: `shape=box, style="rounded,filled,dotted", fillcolor="#e6f4ea"`,
	lang.GraphOutput:            `shape=house, style=filled, fillcolor="#fce8e6"`,
	lang.GraphCheck:             `shape=octagon, style=filled, fillcolor="#f3e8fd"`,
}

// moduleTree groups node indexes by module path for nested clusters.
type moduleTree struct {
	name     string
	nodes    []int
	children map[string]*moduleTree
}

func graphTree(g *lang.Graph) *moduleTree {
	root := &moduleTree{children: map[string]*moduleTree{}}
	for i, n := range g.Nodes {
		t := root
		path := n.Module
		if n.Kind == lang.GraphModuleCall {
			// A call heads the cluster of the module it instantiates.
			path = append(append([]string(nil), n.Module...), strings.TrimPrefix(n.Name, "module."))
		}
		for _, p := range path {
			c := t.children[p]
			if c == nil {
				c = &moduleTree{name: p, children: map[string]*moduleTree{}}
				t.children[p] = c
			}
			t = c
		}
		t.nodes = append(t.nodes, i)
	}
	return root
}

// DOT renders a dependency graph in Graphviz's language, each module a
// cluster and each edge pointing from an object to what it refers to. The
// output is deterministic.
func DOT(g *lang.Graph) string {
	var b strings.Builder
	b.WriteString("digraph {\n")
	b.WriteString("  rankdir=RL;\n")
	b.WriteString("  compound=true;\n")
	b.WriteString("  node [fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("  edge [color=\"#5f6368\", arrowsize=0.7];\n")
	var walk func(t *moduleTree, path []string, indent string)
	walk = func(t *moduleTree, path []string, indent string) {
		for _, i := range t.nodes {
			n := g.Nodes[i]
			fmt.Fprintf(&b, "%s%s [label=%s, %s];\n", indent, dotQuote(n.ID), dotQuote(nodeLabel(n, "\n", nil)), graphStyle[n.Kind])
		}
		for _, name := range sortedKeys(t.children) {
			p := append(append([]string(nil), path...), name)
			id := modulePath(p)
			fmt.Fprintf(&b, "%ssubgraph %s {\n", indent, dotQuote("cluster_"+id))
			fmt.Fprintf(&b, "%s  label=%s;\n%s  style=\"rounded\";\n%s  color=\"#9aa0a6\";\n%s  fontname=\"Helvetica\";\n", indent, dotQuote(id), indent, indent, indent)
			walk(t.children[name], p, indent+"  ")
			fmt.Fprintf(&b, "%s}\n", indent)
		}
	}
	walk(graphTree(g), nil, "  ")
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -> %s;\n", dotQuote(e.From), dotQuote(e.To))
	}
	b.WriteString("}\n")
	return b.String()
}

// Mermaid renders a dependency graph as a Mermaid flowchart, each module a
// subgraph and each edge pointing from an object to what it refers to. Node
// ids are n0, n1, ... in ID order, so the output is deterministic.
func Mermaid(g *lang.Graph) string {
	var b strings.Builder
	b.WriteString("flowchart RL\n")
	ids := make(map[string]string, len(g.Nodes))
	for i, n := range g.Nodes {
		ids[n.ID] = fmt.Sprintf("n%d", i)
	}
	shape := map[lang.GraphNodeKind][2]string{
		lang.GraphVariable:          {"([", "])"},
		lang.GraphLocal:             {"(", ")"},
		lang.GraphModuleCall:        {"[[", "]]"},
		lang.GraphResource:          {"[", "]"},
		lang.GraphDataResource:      {"[/", "/]"},
		lang.GraphEphemeralResource: {"[\\", "\\]"},
		lang.GraphOutput:            {">", "]"},
		lang.GraphCheck:             {"{{", "}}"},
	}
	clusters := 0
	var walk func(t *moduleTree, path []string, indent string)
	walk = func(t *moduleTree, path []string, indent string) {
		for _, i := range t.nodes {
			n := g.Nodes[i]
			s := shape[n.Kind]
			fmt.Fprintf(&b, "%s%s%s\"%s\"%s\n", indent, ids[n.ID], s[0], nodeLabel(n, "<br>", mermaidEscape), s[1])
		}
		for _, name := range sortedKeys(t.children) {
			p := append(append([]string(nil), path...), name)
			id := modulePath(p)
			fmt.Fprintf(&b, "%ssubgraph m%d[\"%s\"]\n", indent, clusters, mermaidEscape(id))
			clusters++
			walk(t.children[name], p, indent+"  ")
			fmt.Fprintf(&b, "%send\n", indent)
		}
	}
	walk(graphTree(g), nil, "  ")
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s --> %s\n", ids[e.From], ids[e.To])
	}
	return b.String()
}

// nodeLabel is the node's name, and for a module call its source on a
// second line; escape, when not nil, applies to each line.
func nodeLabel(n lang.GraphNode, newline string, escape func(string) string) string {
	if escape == nil {
		escape = func(s string) string { return s }
	}
	if n.Kind == lang.GraphModuleCall && n.Source != "" {
		return escape(n.Name) + newline + escape(`source = "`+n.Source+`"`)
	}
	return escape(n.Name)
}

func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func mermaidEscape(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;").Replace(s)
}
