package cli

import (
	"os"
	"path/filepath"

	tfeval "github.com/tfeval/tfeval"
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
		Sandbox: c.sandbox,
		Rand:    env.Rand,

		DataFiles:      c.dataFiles,
		MissingModules: c.missing,
	}
	if c.schemas != "" {
		path := c.schemas
		if !filepath.IsAbs(path) {
			path = filepath.Join(env.WorkDir, path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return opts, err
		}
		opts.Schemas = b
	}
	return opts, nil
}
