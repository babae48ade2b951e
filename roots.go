package tfeval

import (
	"context"
	"iter"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/scan"
	"github.com/tfeval/tfeval/tfvars"
)

// FindOptions say how FindRoots walks a tree and which of its module
// directories are roots; see scan.Options.
type FindOptions = scan.Options

// FindRoots lists the root modules below dir: every directory holding
// configuration files that no other one of the tree calls as a local
// module, or with AllDirs every such directory, as slash-separated paths
// relative to dir ("." for dir itself), in path order. Hidden directories
// (.terraform, .git) and the Exclude patterns are skipped. The diagnostics
// are the walk's: warnings for directories that could not be read and
// links not followed, errors when dir cannot be scanned at all.
func FindRoots(dir string, opts FindOptions) ([]string, hcl.Diagnostics) {
	tree, diags := scan.Find(dir, opts)
	if tree == nil {
		return nil, diags
	}
	return tree.Roots, diags
}

// RootsOptions say how EvaluateRoots evaluates the roots of a tree.
type RootsOptions struct {
	// Options are every root's options. Each root is evaluated as
	// Terraform run in its directory would be: WorkDir is the root's
	// directory, where its terraform.tfvars, *.auto.tfvars and
	// .terraform/modules are found. Relative paths in VarArgs files,
	// DataFiles and Sandbox are resolved once against Options.WorkDir
	// (which dir is relative to too); Dir is not used; Context is
	// EvaluateRoots' ctx. A provider schema document is parsed once for
	// every root. Without a ModuleCache or FunctionCache, EvaluateRoots
	// makes one of each for the roots to share, ModuleCache bounded by
	// DefaultRootsModuleBytes.
	Options
	// AllDirs, Exclude and MaxDirs say which directories are roots, as in
	// FindOptions.
	AllDirs bool
	Exclude []string
	MaxDirs int
	// Parallelism is how many roots are evaluated at once at most; 0
	// means GOMAXPROCS. A root that has expanded many resource instances
	// (scan.LargeRoot) waits while an earlier root runs, and once the
	// roots' evaluations hold much memory (scan.LargeHeap), they are
	// evaluated one at a time.
	Parallelism int
}

// DefaultRootsModuleBytes bounds the module cache EvaluateRoots makes when
// it is given none: the configuration source bytes of the modules it
// keeps, the least recently used dropped past it. A loaded module takes
// about fifteen times its source in memory, so this is about 15 MiB: of
// the published repositories, all but the two largest keep every module
// they parse; those two parse a third to three quarters more than with
// twice the bound, and their scans' peak memory is a quarter lower
// (docs/benchmarks.md).
const DefaultRootsModuleBytes = 1 << 20

// EvaluateRoots finds the roots below dir as FindRoots does and evaluates
// each, yielding its path (as FindRoots gives it) and its Evaluation in
// path order, each once it and the roots before it are done. Roots are
// evaluated in parallel, sharing one ModuleCache (each module directory is
// parsed once per path it is reached by) and one FunctionCache (each file
// function input read and decoded once); only a few evaluations wait at a
// time for an earlier root, so a scan of thousands of roots holds few
// results. An evaluation that panics is an "Internal error" diagnostic of
// its root, and the others go on.
//
// When the walk itself has something to say (a directory it could not
// read, a link it did not follow, or an error: dir cannot be scanned, or
// holds no configuration at all), that comes first, as an Evaluation of
// the root "" with only Diagnostics. Once ctx is done, the roots not yet
// started are not evaluated: a last Evaluation of the root "" says how
// many were.
func EvaluateRoots(ctx context.Context, dir string, opts RootsOptions) iter.Seq2[string, *Evaluation] {
	return func(yield func(string, *Evaluation) bool) {
		o := opts.Options.WithAbsolutePaths()
		o.Context = ctx
		// A cache of its own keeps only what roots share: each root's own
		// module is dropped once the root is evaluated. One the caller
		// gives may serve later evaluations of the same roots.
		ownCache := o.ModuleCache == nil
		if ownCache {
			o.ModuleCache = &ModuleCache{MaxBytes: DefaultRootsModuleBytes}
		}
		if o.FunctionCache == nil {
			o.FunctionCache = &FunctionCache{}
		}
		tree, diags := scan.Find(dir, scan.Options{
			Dialect: o.Dialect, AllDirs: opts.AllDirs, Exclude: opts.Exclude, MaxDirs: opts.MaxDirs,
			WorkDir: o.WorkDir, Sandbox: o.Sandbox, FS: o.FS, Cache: o.ModuleCache, Context: ctx,
		})
		if tree != nil && len(tree.ModuleDirs) == 0 {
			diags = append(diags, NoConfiguration(dir))
		}
		if len(diags) > 0 && !yield("", &Evaluation{Diagnostics: diags}) || diags.HasErrors() {
			return
		}
		if o.Schemas != nil && o.ProviderSchemas == nil {
			s, diag := providerSchemas(o, o.WorkDir)
			if diag != nil {
				yield("", &Evaluation{Diagnostics: hcl.Diagnostics{diag}})
				return
			}
			o.ProviderSchemas = s
		}
		var done [][]string
		if ownCache {
			done = tree.LastReached()
		}
		// A root that has expanded many instances pauses while an earlier
		// one runs (scan.EachHeld), after the caller's own Step.
		for i, ev := range scan.EachHeld(len(tree.Roots), opts.Parallelism, nil, func(i int, step func(int)) *Evaluation {
			ro := o
			if step != nil {
				if own := o.Step; own != nil {
					ro.Step = func(n int) { own(n); step(n) }
				} else {
					ro.Step = step
				}
			}
			ro.WorkDir = filepath.Join(tree.Dir, filepath.FromSlash(tree.Roots[i]))
			if ownCache {
				defer o.ModuleCache.ForgetRoot(ro.WorkDir)
			}
			return Evaluate(ro)
		}, func(i int, p *scan.Panic) *Evaluation {
			return &Evaluation{Diagnostics: hcl.Diagnostics{p.Diagnostic(tree.Roots[i])}}
		}) {
			if !yield(tree.Roots[i], ev) {
				return
			}
			// Every root up to this one is done, and no later one
			// reaches these directories.
			if ownCache {
				for _, d := range done[i] {
					o.ModuleCache.Forget(d)
				}
			}
			if ctx.Err() != nil && i+1 < len(tree.Roots) {
				yield("", &Evaluation{Diagnostics: hcl.Diagnostics{scan.Cancelled(ctx, i+1, len(tree.Roots))}})
				return
			}
		}
	}
}

// NoConfiguration is the error of a scan of dir that found no
// configuration files in it nor below it.
func NoConfiguration(dir string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "No configuration files",
		Detail:   "There are no Terraform configuration files (.tf, .tf.json) in " + dir + " or in any directory below it (hidden directories and excluded ones aside).",
	}
}

// WithAbsolutePaths is o with the relative paths it names for the files a
// user chooses (-var-file options, DataFiles) and Sandbox resolved against
// WorkDir (made absolute), as Terraform resolves them against the
// directory it runs in: the options can then serve evaluations in other
// directories, as EvaluateRoots's roots are.
func (o Options) WithAbsolutePaths() Options {
	o.WorkDir = absWorkDir(o)
	anchor := func(path string) string {
		if path == "" || filepath.IsAbs(path) {
			return path
		}
		return filepath.Join(o.WorkDir, path)
	}
	o.Sandbox = anchor(o.Sandbox)
	o.DataFiles = slices.Clone(o.DataFiles)
	for i, p := range o.DataFiles {
		o.DataFiles[i] = anchor(p)
	}
	o.VarArgs = slices.Clone(o.VarArgs)
	for i, a := range o.VarArgs {
		if a.Kind == tfvars.VarFileFlag {
			o.VarArgs[i].Text = anchor(a.Text)
		}
	}
	return o
}
