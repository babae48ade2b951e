package config

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// Options controls how a module tree is loaded.
type Options struct {
	Dialect dialect.Dialect
	// MaxDepth bounds module nesting; 0 means the default.
	MaxDepth int
	// MaxModules bounds the module calls in the tree, each counted once
	// for every path it is reached by (two calls per level for twenty
	// levels is a million modules); 0 means DefaultMaxModules.
	MaxModules int
	// Sandbox, when not empty, is a directory outside which nothing is read:
	// no module directory, configuration file or module manifest. A
	// relative path is resolved against WorkDir.
	Sandbox string
	// WorkDir is the directory a relative dir (and every module path and
	// file name, which stay relative in diagnostics and path.module) is
	// resolved against; "" means the process working directory.
	WorkDir string
	// Cache, when not nil, keeps the modules read for later loads, which
	// then parse again only the module directories whose files changed
	// (see ModuleCache).
	Cache *ModuleCache
	// MissingModules says what a module call whose source is not installed
	// (not local, and not in .terraform/modules/modules.json) is.
	MissingModules MissingModules
	// Context, when set, cancels the load: no module or file is read once
	// it is done, and a file being parsed is left to finish on its own
	// (every file is bounded) while Load returns with "Loading cancelled".
	Context context.Context
	// Uninitialized loads the root module as Terraform sees a directory
	// whose `terraform init` failed: no module call is installed, local
	// ones included, so each is "Module not installed" (with Terraform's
	// own text) and no child module is read.
	Uninitialized bool
	// RootVariables, when not nil, gives the root module's variable values
	// (as given or defaulted) for module sources and versions built from
	// variables, as init reads them: it is called at most once, with the
	// root module's declarations. Without it only defaults are known.
	RootVariables func(decls map[string]*Variable) map[string]cty.Value
	// Workspace is terraform.workspace in OpenTofu's module sources; ""
	// means "default".
	Workspace string
	// ManifestDir and ManifestKey, when ManifestKey is set, say where the
	// modules the root module calls were installed: in the module manifest
	// of ManifestDir (relative to WorkDir; "" is WorkDir), under keys that
	// start with ManifestKey. `terraform init` installs what a test file's
	// run block runs so: a helper module's calls are in the manifest of
	// the module under test, under test.DIR.FILE.RUN (see tftest).
	ManifestDir, ManifestKey string
	// FS, when not nil, is where every file is read from (the module
	// directories, their files, the module manifest) instead of the
	// operating system: WorkDir is then a directory inside it ("" its
	// root), and FS is a sandbox of its own, which Sandbox (inside it)
	// narrows further. See sandbox.FSRoot for the paths FS stands for.
	FS fs.FS
}

// inFS makes WorkDir a path under the root an FS stands for.
func (o Options) inFS() Options {
	if o.FS != nil && !filepath.IsAbs(o.WorkDir) {
		o.WorkDir = filepath.Join(sandbox.FSRoot, o.WorkDir)
	}
	return o
}

// MissingModules says what loading makes of a module call whose source is
// not installed.
type MissingModules string

const (
	// MissingModulesError is Terraform's answer (also the zero value): the
	// error "Module not installed", and nothing is evaluated.
	MissingModulesError MissingModules = "error"
	// MissingModulesUnknown loads the rest of the tree (also past a call to
	// a local directory that is absent): the call is listed
	// in Config.NotInstalled with a warning, and evaluation gives it
	// unknown outputs (marked as unread, see marks.Unread).
	MissingModulesUnknown MissingModules = "unknown"
)

// ParseMissingModules reads the -missing-modules option: error or unknown.
func ParseMissingModules(s string) (MissingModules, error) {
	switch MissingModules(s) {
	case "", MissingModulesError:
		return MissingModulesError, nil
	case MissingModulesUnknown:
		return MissingModulesUnknown, nil
	}
	return "", fmt.Errorf("-missing-modules must be error or unknown, not %q", s)
}

// DefaultMaxDepth is the module nesting limit when Options.MaxDepth is 0.
const DefaultMaxDepth = 64

// DefaultMaxModules is the module limit when Options.MaxModules is 0: a
// tree of 1,000 modules is a large monorepo.
const DefaultMaxModules = 10_000

// Load reads the module in dir and every module it calls, returning the tree
// and every problem found without evaluating anything. dir is kept as given
// (relative stays relative) because Terraform reports path.module that way.
// The tree is returned even with errors, as complete as the errors allow.
func Load(dir string, opts Options) (*Config, hcl.Diagnostics) {
	opts = opts.inFS()
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxModules <= 0 {
		opts.MaxModules = DefaultMaxModules
	}
	box, diags := sandboxOf(opts)
	if diags.HasErrors() {
		return nil, diags
	}
	sourceDir := sourceDirOf(dir)
	mod, diags := loadModule(opts, box, dir, sourceDir)
	root := &Config{Children: map[string]*Config{}, Module: mod}
	root.Root = root

	manifestDir := dir
	if opts.ManifestKey != "" {
		manifestDir = opts.ManifestDir
	}
	man, mDiags := readManifest(box, opts.WorkDir, manifestDir)
	diags = append(diags, mDiags...)
	l := &treeLoader{opts: opts, box: box, manifest: man, rootSourceDir: sourceDir, manifestDir: sourceDirOf(manifestDir), prefetch: newPrefetcher(opts, box)}
	l.prefetch.children(mod)
	diags = append(diags, l.loadChildren(root, []string{absDir(box, resolve(opts.WorkDir, dir))})...)
	l.prefetch.wait()
	diags = append(diags, l.checkEarlyValues(root)...)
	return root, l.withMissingProvider(diags)
}

// cancelled is the diagnostic of a load whose context is done, or nil.
func cancelled(ctx context.Context) *hcl.Diagnostic {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Loading cancelled",
		Detail:   "Loading the configuration was cancelled before it finished (its context is done).",
	}
}

// sandboxOf resolves opts.Sandbox once, for everything the load reads.
func sandboxOf(opts Options) (sandbox.Dir, hcl.Diagnostics) {
	box, err := sandbox.NewFS(opts.FS, opts.Sandbox, opts.WorkDir)
	if err != nil {
		return box, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid sandbox directory",
			Detail:   fmt.Sprintf("The directory given as the sandbox cannot be used: %s.", err),
		}}
	}
	return box, nil
}

// sourceDirOf is the path.module form of a directory: forward slashes,
// cleaned, "." for the current directory.
func sourceDirOf(dir string) string {
	if dir == "" {
		return "."
	}
	return path.Clean(filepath.ToSlash(dir))
}

// absDir is the absolute, symlink-free form of dir, used to recognise a
// module directory already being loaded.
func absDir(box sandbox.Dir, dir string) string {
	if box.FS() != nil {
		abs, _ := box.RealPath(dir)
		return abs
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if resolved, err := box.EvalSymlinks(abs); err == nil {
		return resolved
	}
	return abs
}
