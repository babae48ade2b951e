package cli

import (
	"bufio"
	"fmt"
	"time"

	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
)

// runShow writes the document terraform show -json writes for a saved plan
// of the configuration. A configuration with errors has no plan: its
// diagnostics go to standard error, and nothing to standard output.
func runShow(c *common, env Env) int {
	if !c.json {
		fmt.Fprintf(env.Stderr, "tfeval show: only -json is supported: the document terraform show -json writes for a plan\n")
		return exitUsage
	}
	opts, err := options(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	// The plan's time is the one plantimestamp() returns in it.
	now := time.Now().UTC()
	opts.Now = func() time.Time { return now }
	ev := evaluateWith(opts)
	newDiagPrinter(env.Stderr, c, env).Print(ev.Diagnostics)
	if ev.Diagnostics.HasErrors() || ev.Result == nil {
		return exitError
	}
	plan, err := format.NewPlan(ev.Result, format.PlanOptions{Timestamp: now})
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	// Written whole or not at all: its size is found first, by writing
	// it to nothing, so that it is never held in memory whole.
	size, err := plan.JSONSize()
	if err == nil && size > maxOutput {
		err = &lang.OutputTooLarge{Max: maxOutput}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	out := bufio.NewWriterSize(env.Stdout, 1<<16)
	if err := plan.WriteJSON(out); err != nil || out.Flush() != nil {
		return exitError
	}
	return exitOK
}
