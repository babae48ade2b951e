package format

import (
	"strings"
	"testing"

	"github.com/tfeval/tfeval/lang"
)

// A graph renders with each module a cluster (DOT) or subgraph (Mermaid),
// quoting what the languages need quoted, edges from referrer to referee.
func TestGraphRenderings(t *testing.T) {
	g := &lang.Graph{
		Nodes: []lang.GraphNode{
			{ID: "module.m", Kind: lang.GraphModuleCall, Name: "module.m", Source: `./m"x`},
			{ID: "module.m.var.x", Kind: lang.GraphVariable, Module: []string{"m"}, Name: "var.x"},
			{ID: "var.n", Kind: lang.GraphVariable, Name: "var.n"},
		},
		Edges: []lang.GraphEdge{{From: "module.m.var.x", To: "var.n"}},
	}
	dot := DOT(g)
	for _, want := range []string{
		`subgraph "cluster_module.m" {`,
		`"module.m" [label="module.m\nsource = \"./m\"x\"", shape=component`,
		`"module.m.var.x" [label="var.x", shape=ellipse`,
		`"module.m.var.x" -> "var.n";`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
	mermaid := Mermaid(g)
	for _, want := range []string{
		"flowchart RL\n",
		`n2(["var.n"])`,
		`subgraph m0["module.m"]`,
		`n0[["module.m<br>source = #quot;./m#quot;x#quot;"]]`,
		"n1 --> n2",
	} {
		if !strings.Contains(mermaid, want) {
			t.Errorf("Mermaid lacks %q:\n%s", want, mermaid)
		}
	}
	if DOT(g) != dot || Mermaid(g) != mermaid {
		t.Error("renderings differ between calls")
	}
}
