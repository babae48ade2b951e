package cli

import (
	"fmt"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
)

// graphRoot prints the dependency graph of the module tree in DOT or
// Mermaid.
func graphRoot(c *common, env Env) report {
	opts, err := options(c, env, false)
	if err != nil {
		return failure(err)
	}
	g, diags := tfeval.Graph(opts)
	rep := report{diags: diags, failed: diags.HasErrors()}
	if rep.failed {
		return rep
	}
	if c.format == "mermaid" {
		rep.out = []byte(format.Mermaid(g))
	} else {
		rep.out = []byte(format.DOT(g))
	}
	return rep
}

// checkGraph refuses a format graph does not write.
func checkGraph(c *common) error {
	if c.format != "dot" && c.format != "mermaid" {
		return fmt.Errorf("-format must be dot or mermaid, not %q", c.format)
	}
	return nil
}

// graphHeader names a root before its graph in a -recursive run, as a
// comment of the graph's language, so that the output stays one that
// Graphviz reads.
func graphHeader(c *common, root string) string {
	if c.format == "mermaid" {
		return "%% " + root + "\n"
	}
	return "// " + root + "\n"
}

// graphFile is the file -out writes each root's graph to.
func graphFile(c *common) string {
	if c.format == "mermaid" {
		return "graph.mmd"
	}
	return "graph.dot"
}
