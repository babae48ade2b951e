package cli

import (
	"bytes"
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
	// Written whole or not at all.
	var buf bytes.Buffer
	if err := plan.WriteJSON(&buf); err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	if int64(buf.Len()) > maxOutput {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", &lang.OutputTooLarge{Max: maxOutput})
		return exitError
	}
	if _, err := env.Stdout.Write(buf.Bytes()); err != nil {
		return exitError
	}
	return exitOK
}
