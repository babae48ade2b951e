package cli

import (
	"fmt"
	"time"

	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
)

// showRoot writes the document terraform show -json writes for a saved
// plan of the configuration. A configuration with errors has no plan: its
// diagnostics go to standard error, and nothing to standard output.
func showRoot(c *common, env Env) report {
	opts, err := options(c, env, false)
	if err != nil {
		return failure(err)
	}
	// The plan's time is the one plantimestamp() returns in it.
	now := time.Now().UTC()
	opts.Now = func() time.Time { return now }
	ev := evaluateWith(opts)
	rep := report{diags: ev.Diagnostics, config: ev.Config}
	if ev.Diagnostics.HasErrors() || ev.Result == nil {
		rep.failed = true
		return rep
	}
	plan, err := format.NewPlan(ev.Result, format.PlanOptions{Timestamp: now})
	if err != nil {
		return failure(err)
	}
	// Written whole or not at all: its size is found first, by writing
	// it to nothing, so that it is never held in memory whole.
	size, err := plan.JSONSize()
	if err == nil && size > maxOutput {
		err = &lang.OutputTooLarge{Max: maxOutput}
	}
	if err != nil {
		return failure(err)
	}
	rep.write = plan.WriteJSON
	return rep
}

// checkShow refuses a show without -json, the only form it has.
func checkShow(c *common) error {
	if !c.json {
		return fmt.Errorf("only -json is supported: the document terraform show -json writes for a plan")
	}
	return nil
}
