package cli

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/lang"
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
	if c.json {
		var nerr, nwarn int
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				nerr++
			} else {
				nwarn++
			}
		}
		doc := map[string]any{
			"format_version": "1.0",
			"valid":          !diags.HasErrors(),
			"error_count":    nerr,
			"warning_count":  nwarn,
			"diagnostics":    lang.DiagnosticsJSON(diags),
		}
		b, _ := json.MarshalIndent(doc, "", "  ")
		fmt.Fprintln(env.Stdout, string(b))
	} else {
		newDiagPrinter(env.Stderr, c, env).print(diags)
		if !diags.HasErrors() {
			fmt.Fprintln(env.Stdout, "Success! The configuration is valid.")
		}
	}
	if diags.HasErrors() {
		return exitError
	}
	return exitOK
}
