package cli

import (
	"bufio"
	"fmt"

	"github.com/tfeval/tfeval/format"
)

// runEval evaluates the whole module tree as terraform plan would and prints
// the outputs and resource instances.
func runEval(c *common, env Env) int {
	ev, err := evaluate(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	// The output of a large tree is tens of megabytes: one write per
	// resource instance would be a system call each.
	out := bufio.NewWriterSize(env.Stdout, 1<<16)
	defer out.Flush()
	if c.format == "sarif" {
		if err := writeSARIF(out, ev.Diagnostics, env.WorkDir); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
	} else if c.json {
		if err := format.WriteEval(out, ev.Result, ev.Diagnostics); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
		out.WriteByte('\n')
	} else {
		format.NewDiagnosticPrinter(env.Stderr, c.color, env.WorkDir).Print(ev.Diagnostics)
		if ev.Result != nil {
			format.WriteText(out, ev.Result)
		}
	}
	if ev.Diagnostics.HasErrors() {
		return exitError
	}
	return exitOK
}
