package cli

import (
	"encoding/json"
	"fmt"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/tfvars"
)

// runVars lists each root variable with its final value and where it came from.
func runVars(c *common, env Env) int {
	cfg, diags := config.Load(".", config.Options{Dialect: c.dialect, WorkDir: env.WorkDir, Sandbox: c.sandbox, MissingModules: c.missing, Context: c.ctx})
	var entries []tfvars.Entry
	if cfg != nil && cfg.Module != nil {
		final, raw, more := tfvars.Resolve(tfvars.Inputs{Dir: env.WorkDir, Env: env.Environ, Args: c.varArgs, Sandbox: c.sandbox}, cfg.Module.Variables)
		diags = append(diags, more...)
		entries = tfvars.Describe(cfg.Module.Variables, final, raw)
	}
	if c.json {
		b, _ := json.MarshalIndent(format.NewVarsDocument(entries, diags), "", "  ")
		fmt.Fprintln(env.Stdout, string(b))
	} else {
		newDiagPrinter(env.Stderr, c, env).Print(diags)
		format.WriteVarsTable(env.Stdout, entries)
	}
	if diags.HasErrors() {
		return exitError
	}
	return exitOK
}
