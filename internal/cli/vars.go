package cli

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tfeval/tfeval/format"
)

// runVars lists each root variable with its final value and where it came
// from. It runs the same evaluation as eval (tfeval.Evaluate), so the
// values are those eval uses; when a required variable has no value the
// evaluation stops there, as terraform plan does, and the others are
// still listed with theirs.
func runVars(c *common, env Env) int {
	ev, err := evaluate(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	entries, diags := ev.Variables(), ev.Diagnostics
	if c.json {
		b, _ := json.MarshalIndent(format.NewVarsDocument(entries, diags), "", "  ")
		fmt.Fprintln(env.Stdout, string(b))
	} else {
		p := newDiagPrinter(env.Stderr, c, env)
		p.Sources().UseConfig(ev.Config)
		p.Print(diags)
		format.WriteVars(env.Stdout, entries, terminalWidth(env))
	}
	if diags.HasErrors() {
		return exitError
	}
	return exitOK
}

// terminalWidth is the width to wrap text for: the terminal's, else the
// COLUMNS variable, else 80.
func terminalWidth(env Env) int {
	if env.Width > 0 {
		return env.Width
	}
	if n, err := strconv.Atoi(lookupEnv(env.Environ, "COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}
