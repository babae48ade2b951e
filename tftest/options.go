package tftest

import (
	"context"
	"io/fs"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/tfvars"
)

// DefaultTestDirectory is where test files are found beside the module's
// own directory when Options.TestDirectory is empty.
const DefaultTestDirectory = "tests"

// Options says what to test and how, in the terms of terraform test's
// command line.
type Options struct {
	// WorkDir is the absolute directory of the module under test (where
	// terraform test runs, after -chdir).
	WorkDir string
	// TestDirectory is the directory, relative to WorkDir, searched for
	// test files besides WorkDir itself; "" means DefaultTestDirectory.
	TestDirectory string
	// Filter, when not empty, runs only the test files with these paths
	// (relative to WorkDir, as -filter gives them).
	Filter  []string
	Dialect dialect.Dialect
	// Env is the environment in os.Environ form (TF_VAR_ values).
	Env []string
	// VarArgs are the -var and -var-file options in command-line order.
	VarArgs []tfvars.Arg
	// Sandbox, when not empty, is the absolute directory nothing outside
	// of which is read (test files, mock data files, variables files
	// found without being named).
	Sandbox string
	// FS, when not nil, is where files are read from (see tfeval.Options.FS).
	FS fs.FS
	// Schemas are provider schemas: mocked values take their types.
	Schemas *lang.ProviderSchemas
	// Functions is the base of the function table options (BaseDir, FS,
	// Sandbox, Now, Rand).
	Functions funcs.Options
	Limits    lang.Limits
	// Context, when set, stops the runs: a run not finished when it is
	// done errors, and the runs after it are skipped.
	Context context.Context
	// Load loads the module tree in dir, relative to WorkDir (the module
	// under test is "."), as `terraform init` left it: with manifestKey
	// set, the modules it calls are those init installed for a run block
	// under that key of WorkDir's manifest (config.Options.ManifestKey).
	// The same directory may be loaded many times; Load may keep what it
	// read.
	Load func(dir, manifestKey string) (*config.Config, hcl.Diagnostics)
	// Seed varies the values mocked providers generate (see generate.go);
	// the same seed gives the same values.
	Seed uint64
	// DropResults leaves each run's evaluation out of its RunResult once
	// the run is judged (Result, Prior, PriorOutputs, Outputs and
	// NotPlanned are nil): a caller that reads only statuses, assertions
	// and diagnostics then holds one run's evaluation at a time rather
	// than every run's (a file of 73 runs of an EKS module peaked at
	// 1.3 GB holding them all).
	DropResults bool
}
