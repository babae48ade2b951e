package tfeval

import "testing"

func TestGraphDeterministic(t *testing.T) {
	first, _ := Graph(Options{WorkDir: "testdata/examples/quickstart"})
	for range 5 {
		g, _ := Graph(Options{WorkDir: "testdata/examples/quickstart"})
		if g.DOT() != first.DOT() || g.Mermaid() != first.Mermaid() {
			t.Fatal("graph output differs between runs")
		}
	}
}
