package cli

import (
	"bufio"
	"fmt"

	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
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
	res := ev.Result
	if res.Stopped() {
		// What a stopped evaluation made is partial, and can be as large
		// as the limit that stopped it: only the diagnostics are written.
		res = nil
	}
	if c.format == "sarif" {
		if err := writeSARIF(out, ev.Diagnostics, env.WorkDir); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
	} else if c.json {
		if err := format.WriteEval(out, res, ev.Diagnostics); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
		out.WriteByte('\n')
	} else {
		newDiagPrinter(env.Stderr, c, env).Print(ev.Diagnostics)
		switch {
		case ev.Diagnostics.HasErrors():
			// Next to an error, values stand in for what failed (unknown,
			// or what evaluation went on with) and would read as results;
			// terraform plan prints no plan either.
			fmt.Fprintln(env.Stderr, "No values are printed because the configuration has errors; -json writes what could be evaluated, with the diagnostics.")
		case res != nil:
			if err := format.WriteText(c.ctx, out, res, maxOutput); err != nil {
				fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
				return exitError
			}
		}
	}
	if ev.Diagnostics.HasErrors() {
		return exitError
	}
	return exitOK
}

// maxOutput bounds what one command prints (lang.Limits.MaxOutputSize).
var maxOutput = lang.Limits{}.WithDefaults().MaxOutputSize
