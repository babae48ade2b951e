package tfeval

import (
	"context"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/tftest"
)

// TestOptions says which module's test files to run and how: the
// evaluation's options (WorkDir and Dir name the module under test, where
// terraform test would run) and terraform test's own.
type TestOptions struct {
	Options
	// TestDirectory is the directory, relative to the module, searched for
	// test files besides the module's own; "" means "tests".
	TestDirectory string
	// Filter, when not empty, runs only the test files with these paths,
	// relative to the module ("tests/a.tftest.hcl"), as -filter does.
	Filter []string
	// Seed varies the strings mocked providers generate for computed
	// attributes; the same seed gives the same strings (see tftest).
	Seed uint64
	// DropResults leaves each run's plan or state out of the Report once
	// the run is judged, for callers that read only statuses, assertions
	// and diagnostics: memory then holds one run's evaluation at a time
	// (see tftest.Options.DropResults).
	DropResults bool
}

// Test runs a module's .tftest.hcl and .tftest.json files (and, in the
// OpenTofu dialect, its .tofutest.hcl and .tofutest.json files) as
// terraform test (tofu test) would, without providers: each run block is
// planned, and applied unless it says command = plan, against the file's
// in-memory state, mocked providers and overrides; its assertions and
// expected failures are checked. A run that needs a provider the file
// does not mock is skipped with the reason, never passed or failed. The
// Report has every file's runs with their statuses, assertion outcomes and
// diagnostics, in Terraform's wording. ctx, when not nil, stops the runs
// not finished when it is done.
func Test(ctx context.Context, opts TestOptions) *tftest.Report {
	if ctx != nil {
		opts.Context = ctx
	}
	opts.WorkDir = absWorkDir(opts.Options)
	box, diags := resolveSandbox(opts.Options)
	if diags.HasErrors() {
		return &tftest.Report{Status: tftest.Error, Diagnostics: diags}
	}
	opts.Sandbox = box
	// The module under test is the working directory of its test runs.
	workDir := filepath.Join(opts.WorkDir, filepath.FromSlash(opts.Dir))
	base := opts.Options
	base.WorkDir, base.Dir = workDir, ""
	if base.ModuleCache == nil {
		// Every run loads its module again: read each directory once.
		base.ModuleCache = &config.ModuleCache{}
	}
	if base.FunctionCache == nil {
		// Every run calls the module's file functions again: read each
		// file and decode each document once for all of them (the
		// naming module decodes a 54 KB JSON document in every run).
		// Runs write no files, so what the cache keeps stays right.
		base.FunctionCache = &FunctionCache{}
	}
	schemas, diag := providerSchemas(base, workDir)
	if diag != nil {
		return &tftest.Report{Status: tftest.Error, Diagnostics: hcl.Diagnostics{diag}}
	}
	return tftest.Run(tftest.Options{
		WorkDir:       workDir,
		TestDirectory: opts.TestDirectory,
		Filter:        opts.Filter,
		Dialect:       opts.Dialect,
		Env:           opts.Env,
		VarArgs:       opts.VarArgs,
		Sandbox:       opts.Sandbox,
		FS:            opts.FS,
		Schemas:       schemas,
		Functions:     funcOptions(base, workDir),
		Limits:        opts.Limits,
		Context:       opts.Context,
		Seed:          opts.Seed,
		DropResults:   opts.DropResults,
		Load: func(dir, manifestKey string) (*config.Config, hcl.Diagnostics) {
			o := base
			o.Dir = filepath.ToSlash(dir)
			cfg, _, diags := loadWith(o, func(co *config.Options) { co.ManifestDir, co.ManifestKey = ".", manifestKey })
			return cfg, diags
		},
	})
}
