package tfeval

import (
	"testing"

	"github.com/tfeval/tfeval/format"
)

func TestGraphDeterministic(t *testing.T) {
	first, _ := Graph(Options{WorkDir: "testdata/examples/quickstart"})
	for range 5 {
		g, _ := Graph(Options{WorkDir: "testdata/examples/quickstart"})
		if format.DOT(g) != format.DOT(first) || format.Mermaid(g) != format.Mermaid(first) {
			t.Fatal("graph output differs between runs")
		}
	}
}
