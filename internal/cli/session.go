package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// evaluate runs the whole pipeline for a command with the common options.
func evaluate(c *common, env Env, console bool) (*tfeval.Evaluation, error) {
	opts, err := options(c, env, console)
	if err != nil {
		return nil, err
	}
	return evaluateWith(opts), nil
}

// evaluateWith runs the whole pipeline with options already translated.
func evaluateWith(opts tfeval.Options) *tfeval.Evaluation {
	return tfeval.Evaluate(opts)
}

// options translates the common command-line options for the library.
func options(c *common, env Env, console bool) (tfeval.Options, error) {
	opts := tfeval.Options{
		WorkDir: env.WorkDir,
		Dialect: c.dialect,
		Env:     env.Environ,
		VarArgs: c.varArgs,
		Console: console,
		Lazy:    console, // a session evaluates what its expressions need
		Sandbox: c.sandbox,
		Rand:    env.Rand,
		Context: c.ctx,
		Step:    env.Step,

		DataFiles:        c.dataFiles,
		MissingModules:   c.missing,
		MissingVariables: c.missingVars,
		ModuleCache:      c.moduleCache,
		FunctionCache:    c.functionCache,
		ProviderSchemas:  c.providerSchemas,
	}
	if c.schemas != "" && c.providerSchemas == nil {
		path := c.schemas
		if !filepath.IsAbs(path) {
			path = filepath.Join(env.WorkDir, path)
		}
		// Named by the user, so read wherever it is, but only a regular
		// file and no more than a source file may hold: a link to a
		// device would be read forever.
		b, err := limit.ReadSource(sandbox.Dir{}, path, 0, false)
		if err != nil {
			return opts, fmt.Errorf("cannot read the provider schema document %s: %w", c.schemas, err)
		}
		opts.Schemas = b
	}
	return opts, nil
}

// firstConfigFile is the first configuration file of the module in dir,
// in name order; "" when there is none.
func firstConfigFile(dir string) string {
	var names []string
	for _, pattern := range []string{"*.tf", "*.tf.json", "*.tofu", "*.tofu.json"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		names = append(names, m...)
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return filepath.Base(names[0])
}

// newDiagPrinter prints diagnostics to w for a command run with c in env.
func newDiagPrinter(w io.Writer, c *common, env Env) *format.DiagnosticPrinter {
	return format.NewDiagnosticPrinter(w, diagOptions(c, env))
}

// diagOptions are how diagnostics are printed for a command run with c in
// env: excerpts are read from inside the sandbox, or from the files the
// command line names.
func diagOptions(c *common, env Env) format.DiagnosticOptions {
	opts := format.DiagnosticOptions{Color: c.color, WorkDir: env.WorkDir, Sandbox: c.sandbox, Dialect: c.dialect}
	for _, a := range c.varArgs {
		opts.Named = append(opts.Named, a.Text)
	}
	opts.Named = append(opts.Named, c.dataFiles...)
	return opts
}
