package cli

import (
	"encoding/json"
	"fmt"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
)

// runValidate loads and statically checks the module tree without needing
// variable values.
func runValidate(c *common, env Env) int {
	opts, err := options(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	diags := tfeval.Validate(opts)
	if c.format == "sarif" {
		if err := writeSARIF(env.Stdout, diags, env.WorkDir); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
	} else if c.json {
		b, _ := json.MarshalIndent(format.NewValidateDocument(diags), "", "  ")
		fmt.Fprintln(env.Stdout, string(b))
	} else {
		newDiagPrinter(env.Stderr, c, env).Print(diags)
		if !diags.HasErrors() {
			fmt.Fprintln(env.Stdout, "Success! The configuration is valid.")
		}
	}
	if diags.HasErrors() {
		return exitError
	}
	return exitOK
}
