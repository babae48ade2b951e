package cli

import (
	"fmt"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
)

// runGraph prints the dependency graph of the module tree in DOT or Mermaid.
func runGraph(c *common, env Env) int {
	if c.format != "dot" && c.format != "mermaid" {
		fmt.Fprintf(env.Stderr, "tfeval graph: -format must be dot or mermaid, not %q\n", c.format)
		return exitUsage
	}
	opts, err := options(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	g, diags := tfeval.Graph(opts)
	newDiagPrinter(env.Stderr, c, env).Print(diags)
	if diags.HasErrors() {
		return exitError
	}
	if c.format == "mermaid" {
		fmt.Fprint(env.Stdout, format.Mermaid(g))
	} else {
		fmt.Fprint(env.Stdout, format.DOT(g))
	}
	return exitOK
}
