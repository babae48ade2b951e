package install

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// Options says which module tree to install and how.
type Options struct {
	// Dir is the root module directory, relative to WorkDir; "" means
	// WorkDir itself. Modules are installed into Dir/.terraform/modules.
	Dir string
	// WorkDir is the directory Dir and file names in diagnostics are
	// relative to; "" means the process working directory.
	WorkDir string
	// Dialect picks the default registry host (registry.terraform.io or
	// registry.opentofu.org), the CLI configuration file and the wording.
	Dialect dialect.Dialect
	// Upgrade chooses versions and fetches packages again even where an
	// earlier installation's modules.json already satisfies a module call
	// (terraform init -upgrade).
	Upgrade bool
	// CacheDir, when not empty, is a shared module cache: packages found
	// there are copied instead of downloaded, and those downloaded are
	// kept there for later runs and other root modules.
	CacheDir string
	// Offline installs from CacheDir and an earlier installation only:
	// no request leaves the machine, and a package not in the cache is an
	// error. The newest cached version that satisfies a registry module's
	// constraint is chosen.
	Offline bool
	// Env is the environment in os.Environ form: TF_TOKEN_<host> tokens,
	// TF_CLI_CONFIG_FILE and HOME (for the CLI configuration's credentials
	// blocks), and what git needs (PATH, HOME, SSH_AUTH_SOCK,
	// GIT_SSH_COMMAND). nil means no tokens and no CLI configuration, and
	// git then runs in the process's environment; the command line passes
	// its own environment.
	Env []string
	// HTTPClient sends registry and archive requests; nil means a client
	// with proxy settings from Env's process and sane timeouts.
	HTTPClient *http.Client
	// Git is the git program; "" means "git" found on PATH.
	Git string
	// Sandbox, when not empty, is a directory outside which nothing is
	// installed or read: the root module, local module sources, absolute
	// path sources and CacheDir must all be inside it.
	Sandbox string
	// RootVariables gives the root variables' values for module sources
	// and versions built from variables, as for config.Options (see
	// tfvars.InitValues); nil means only their defaults are known.
	RootVariables func(decls map[string]*config.Variable) map[string]cty.Value
	// TestModules are the module blocks of the module's test files' run
	// blocks (tftest.InitModules lists them): terraform init installs them
	// with the configuration's module calls, each under its key, so that
	// the test command finds them.
	TestModules []TestModule
	// Context, when not nil, cancels the installation.
	Context context.Context
	// MaxPackageSize bounds one package: a download, an archive's unpacked
	// content, or a repository's clone; 0 means 256 MiB.
	MaxPackageSize int64
	// MaxPackageFiles bounds the files and directories of one package; 0
	// means 100,000.
	MaxPackageFiles int
	// RequestTimeout bounds one HTTP request, its body included, and one
	// git command (a clone, a fetch of submodules); 0 means 10 minutes.
	RequestTimeout time.Duration
	// MaxDepth bounds module nesting; 0 means config.DefaultMaxDepth.
	MaxDepth int
	// MaxModules bounds the module calls of the tree installed, local
	// ones included, as config.Options.MaxModules bounds a load; 0 means
	// config.DefaultMaxModules.
	MaxModules int
}

// Origin says where an installed module came from.
type Origin int

const (
	// Local modules are read in place: nothing was installed.
	Local Origin = iota
	// Kept modules were already installed by an earlier run (or by
	// terraform init) and still satisfy their module call.
	Kept
	// Cached modules were copied from the shared cache or from another
	// module call of the same run.
	Cached
	// Downloaded modules were fetched from their source.
	Downloaded
)

// String names the origin as the command line's output does: local,
// kept, cached or downloaded.
func (o Origin) String() string {
	if o < Local || o > Downloaded {
		return fmt.Sprintf("Origin(%d)", int(o))
	}
	return [...]string{"local", "kept", "cached", "downloaded"}[o]
}

// Module is one installed module call.
type Module struct {
	Record
	Origin Origin
}

// Result is what an installation did.
type Result struct {
	// Modules are the module calls of the tree in key order, the root
	// excluded, as recorded in modules.json.
	Modules []Module
	// Requests counts the network requests made: HTTP requests and git
	// commands that reach a repository.
	Requests int
}

// Modules installs every module call of the tree at opts.Dir, recursively,
// into Dir/.terraform/modules with a modules.json that Terraform, OpenTofu
// and config.Load read as their own. It never panics; every problem is a
// diagnostic, those of a module call naming the call and its source range.
// Modules whose calls failed are left out of modules.json, so a later load
// reports them as not installed.
func Modules(opts Options) (*Result, hcl.Diagnostics) {
	in, diags := newInstaller(opts)
	if diags.HasErrors() {
		return &Result{}, diags
	}
	defer os.RemoveAll(in.stageRoot)
	defer in.client.CloseIdleConnections()
	diags = append(diags, in.run()...)
	res := &Result{Requests: in.fetch.requests}
	for _, m := range in.modules {
		res.Modules = append(res.Modules, m)
	}
	sort.Slice(res.Modules, func(i, j int) bool { return res.Modules[i].Key < res.Modules[j].Key })
	return res, diags
}

// installer is one run of Modules.
type installer struct {
	opts  Options
	fetch *fetcher
	cache *cache // nil without CacheDir
	// client is fetch's HTTP client, whose idle connections are closed at the end.
	client *http.Client
	// rootRel is opts.Dir relative to WorkDir, with forward slashes.
	rootRel string
	// sources evaluates module sources built from variables.
	sources *config.SourceResolver
	// root, installDir and stageRoot are absolute: the root module, its
	// .terraform/modules and the directory downloads are staged in.
	root, installDir, stageRoot string
	sandbox                     string
	prev                        map[string]Record
	modules                     map[string]Module
	// fetched are the packages this run already has, by package key and
	// version: the directory holding the package and the subdirectory of
	// it that the package's location selected.
	fetched map[string]fetchedPackage
	// failed are the packages this run could not fetch, with why: a
	// package refused once (a bomb) is not fetched again for another call.
	failed map[string]error
	// calls counts the module calls walked, for MaxModules.
	calls int
	// loaded keeps the modules read, which calls of the same directory
	// share.
	loaded config.ModuleCache
}

type fetchedPackage struct {
	dir, subdir string
}

func newInstaller(opts Options) (*installer, hcl.Diagnostics) {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.MaxPackageSize <= 0 {
		opts.MaxPackageSize = 256 << 20
	}
	if opts.MaxPackageFiles <= 0 {
		opts.MaxPackageFiles = 100_000
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 10 * time.Minute
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = config.DefaultMaxDepth
	}
	if opts.MaxModules <= 0 {
		opts.MaxModules = config.DefaultMaxModules
	}
	if opts.Git == "" {
		opts.Git = "git"
	}
	if opts.Dir == "" {
		opts.Dir = "."
	}
	workDir := opts.WorkDir
	if workDir == "" {
		workDir, _ = os.Getwd()
	}
	workDir, _ = filepath.Abs(workDir)
	opts.WorkDir = workDir
	in := &installer{
		opts:    opts,
		rootRel: path.Clean(filepath.ToSlash(opts.Dir)),
		modules: map[string]Module{},
		fetched: map[string]fetchedPackage{},
		failed:  map[string]error{},
	}
	in.root = absClean(join(workDir, opts.Dir))
	in.installDir = filepath.Join(in.root, ".terraform", "modules")
	if info, err := os.Stat(in.root); err != nil || !info.IsDir() {
		return nil, hcl.Diagnostics{optionError("Unreadable module directory", "The root module directory %s does not exist or cannot be read.", opts.Dir)}
	}
	if opts.Sandbox != "" {
		in.sandbox = absClean(join(workDir, opts.Sandbox))
		if !within(in.sandbox, in.root) {
			return nil, hcl.Diagnostics{optionError("Installation outside the allowed directory", "The root module %s is outside the directory modules may be installed in (-sandbox).", opts.Dir)}
		}
		if opts.CacheDir != "" && !within(in.sandbox, absClean(join(workDir, opts.CacheDir))) {
			return nil, hcl.Diagnostics{optionError("Installation outside the allowed directory", "The module cache %s is outside the directory modules may be installed in (-sandbox).", opts.CacheDir)}
		}
	}
	// A checkout may hold .terraform as a link to anywhere; the installer
	// writes only into real directories under the root module.
	for _, d := range []string{filepath.Join(in.root, ".terraform"), in.installDir} {
		if info, err := os.Lstat(d); err == nil && !info.IsDir() {
			return nil, hcl.Diagnostics{optionError("Unusable module directory", "%s is not a directory (a symbolic link or a file), so modules cannot be installed there.", d)}
		}
	}
	if err := os.MkdirAll(in.installDir, 0o755); err != nil {
		return nil, hcl.Diagnostics{optionError("Unusable module directory", "The directory %s cannot be made: %s.", in.installDir, err)}
	}
	stage, err := os.MkdirTemp(in.installDir, ".tfeval-download-")
	if err != nil {
		return nil, hcl.Diagnostics{optionError("Unusable module directory", "A temporary directory cannot be made in %s: %s.", in.installDir, err)}
	}
	in.stageRoot = stage
	var diags hcl.Diagnostics
	if opts.CacheDir != "" {
		dir := absClean(join(workDir, opts.CacheDir))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			os.RemoveAll(stage)
			return nil, hcl.Diagnostics{optionError("Unusable module cache", "The module cache %s cannot be made: %s.", opts.CacheDir, err)}
		}
		c, err := newCache(absClean(dir), opts.MaxPackageSize, opts.MaxPackageFiles)
		if err != nil {
			os.RemoveAll(stage)
			return nil, hcl.Diagnostics{optionError("Unusable module cache", "The module cache %s cannot be used: %s.", opts.CacheDir, err)}
		}
		in.cache = c
	}
	cli, cDiags := loadCLIConfig(opts.Env, opts.Dialect == dialect.Tofu)
	diags = append(diags, cDiags...)
	in.client = httpClient(opts.HTTPClient, opts.RequestTimeout)
	in.fetch = &fetcher{
		ctx: opts.Context, client: in.client, env: opts.Env, creds: cli.creds, hosts: cli.hosts,
		maxSize: opts.MaxPackageSize, maxFile: opts.MaxPackageFiles, git: opts.Git, timeout: opts.RequestTimeout,
		services: map[string]serviceResult{}, versionLists: map[string]versionsResult{},
	}
	if !opts.Upgrade {
		in.prev = readManifestFile(in.root)
	}
	return in, diags
}

func join(base, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}

// absClean is the absolute, link-free form of p (as far as it exists).
func absClean(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

func optionError(summary, format string, args ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}
}

// TestModule is the module block of a test file's run block: Key is the
// manifest key the test command looks it up by ("test.tests.a.setup" for
// run "setup" of tests/a.tftest.hcl), Source and Version its arguments.
type TestModule struct {
	Key, Source, Version   string
	SourceRange, DeclRange hcl.Range
}

// run walks the tree from the root and writes modules.json.
func (in *installer) run() hcl.Diagnostics {
	mod, diags := config.LoadModule(in.rootRel, in.loadOptions())
	if mod != nil {
		in.sources = config.NewSourceResolver(in.rootRel, config.Options{WorkDir: in.opts.WorkDir, Dialect: in.opts.Dialect, Sandbox: in.opts.Sandbox, RootVariables: in.opts.RootVariables, Context: in.opts.Context})
		root := &config.Config{Module: mod, Children: map[string]*config.Config{}}
		root.Root = root
		diags = append(diags, in.walk(root, ".", "", []string{in.root})...)
	}
	if mod != nil {
		diags = append(diags, in.testModules(mod)...)
	}
	records := []Record{{Key: "", Source: "", Dir: "."}}
	for _, m := range in.modules {
		records = append(records, m.Record)
	}
	if err := writeManifestFile(in.installDir, records); err != nil {
		diags = append(diags, optionError("Failed to write module manifest", "The module manifest %s cannot be written: %s.", filepath.Join(in.installDir, "modules.json"), err))
	}
	return diags
}

// walk installs the calls of mod, whose directory is dir (relative to the
// root module, forward slashes); pkgRoot is the installed package mod is
// in ("" for the root's own files), which its local calls may not leave.
func (in *installer) walk(cfg *config.Config, dir, pkgRoot string, ancestors []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	parent, mod := cfg.Path, cfg.Module
	names := make([]string, 0, len(mod.ModuleCalls))
	for name := range mod.ModuleCalls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := in.opts.Context.Err(); err != nil {
			return append(diags, optionError("Installation cancelled", "Module installation was cancelled: %s.", err))
		}
		call, rDiags := in.sources.Resolve(cfg, mod.ModuleCalls[name])
		diags = append(diags, rDiags...)
		if call.SourceAddr == "" || !safeName(name) {
			continue // reported while decoding
		}
		modPath := append(append([]string(nil), parent...), name)
		cDiags, stop := in.install(cfg, mod.ModuleCalls[name], call, modPath, dir, pkgRoot, ancestors)
		diags = append(diags, cDiags...)
		if stop {
			return diags
		}
	}
	return diags
}

// testModules installs the module blocks of the test files' run blocks,
// as terraform init does: each under its key, a local one (its source
// relative to the root module) recorded in place, and the calls of the
// modules they install under that key.
func (in *installer) testModules(root *config.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	mods := append([]TestModule(nil), in.opts.TestModules...)
	sort.SliceStable(mods, func(i, j int) bool { return mods[i].Key < mods[j].Key })
	for _, tm := range mods {
		if err := in.opts.Context.Err(); err != nil {
			return append(diags, optionError("Installation cancelled", "Module installation was cancelled: %s.", err))
		}
		if _, done := in.modules[tm.Key]; done || tm.Source == "" {
			continue
		}
		name := tm.Key[strings.LastIndex(tm.Key, ".")+1:]
		call := &config.ModuleCall{Name: name, SourceAddr: tm.Source, SourceRange: tm.SourceRange, Version: tm.Version, DeclRange: tm.DeclRange}
		parent := &config.Config{Module: root, Children: map[string]*config.Config{}}
		parent.Root = parent
		cDiags, stop := in.install(parent, call, call, []string{tm.Key}, ".", "", []string{in.root})
		diags = append(diags, cDiags...)
		if stop {
			break
		}
	}
	return diags
}

// install installs one module call of cfg (written as the configuration
// has it, and with its source and version resolved), whose module path
// is modPath, and then the calls of the module it installed; dir, pkgRoot
// and ancestors are as for walk. stop says the installation is over (too
// many modules).
func (in *installer) install(cfg *config.Config, written, call *config.ModuleCall, modPath []string, dir, pkgRoot string, ancestors []string) (diags hcl.Diagnostics, stop bool) {
	name := call.Name
	key := strings.Join(modPath, ".")
	if in.calls++; in.calls > in.opts.MaxModules {
		return append(diags, callDiag(call, "Too many modules", "The module tree has more than %d module calls, the limit for one installation (MaxModules); module.%s and the calls after it are not installed.", in.opts.MaxModules, strings.Join(modPath, ".module."))), true
	}
	if len(modPath) > in.opts.MaxDepth {
		return append(diags, callDiag(call, "Module nesting too deep", "Module calls are nested more than %d levels deep at module.%s.", in.opts.MaxDepth, strings.Join(modPath, ".module."))), false
	}
	src, err := parseSource(call.SourceAddr, in.opts.Dialect)
	if err != nil {
		return append(diags, callDiag(call, "Invalid module source address", "Failed to parse module source address: %s.", strings.TrimSuffix(err.Error(), "."))), false
	}
	if call.Version != "" && src.kind != registryKind {
		return append(diags, versionOnNonRegistry(written, call, src.kind == localKind, in.opts.Dialect)), false
	}
	var childDir, childPkg string
	if src.kind == localKind {
		childDir = path.Join(dir, filepath.ToSlash(src.url))
		childPkg = pkgRoot
		if pkgRoot != "" && childDir != pkgRoot && !strings.HasPrefix(childDir, pkgRoot+"/") {
			return append(diags, callDiag(call, "Local module path escapes module package", "The given source directory for module %q (at %s) would be outside of its containing package %q. Local source addresses starting with \"../\" must stay within the same package that the calling module belongs to.", name, at(call.DeclRange), pkgRoot)), false
		}
		abs := absClean(filepath.Join(in.root, filepath.FromSlash(childDir)))
		if in.sandbox != "" && !within(in.sandbox, abs) {
			return append(diags, callDiag(call, "Module source outside the allowed directory", "The module source %q resolves to %s, which is outside the directory modules may be read from.", call.SourceAddr, childDir)), false
		}
		if info, err := os.Stat(abs); err != nil || !info.IsDir() {
			return append(diags, callDiag(call, "Unreadable module directory", "The directory %s does not exist or cannot be read.", childDir)), false
		}
		if indexOf(ancestors, abs) >= 0 {
			return append(diags, callDiag(call, "Module call cycle", "The module call %q refers to %s, a module that is already one of its callers. A module cannot call itself, directly or indirectly.", name, childDir)), false
		}
		in.modules[key] = Module{Record: Record{Key: key, Source: call.SourceAddr, Dir: childDir}, Origin: Local}
	} else {
		rec, origin, dDiags := in.remote(key, call, src)
		diags = append(diags, dDiags...)
		if dDiags.HasErrors() {
			return diags, false
		}
		in.modules[key] = Module{Record: rec, Origin: origin}
		childDir, childPkg = rec.Dir, installedDir(key)
	}
	child, cDiags := config.LoadModule(path.Join(in.rootRel, childDir), in.loadOptions())
	diags = append(diags, cDiags...)
	if child != nil {
		abs := absClean(filepath.Join(in.root, filepath.FromSlash(childDir)))
		childCfg := &config.Config{Root: cfg.Root, Parent: cfg, Path: modPath, Module: child, Children: map[string]*config.Config{}}
		cfg.Children[name] = childCfg
		diags = append(diags, in.walk(childCfg, childDir, childPkg, append(ancestors[:len(ancestors):len(ancestors)], abs))...)
	}
	return diags, false
}

// loadOptions are the options configuration files are read with: through
// the sandbox, as every command reads them.
func (in *installer) loadOptions() config.Options {
	return config.Options{WorkDir: in.opts.WorkDir, Dialect: in.opts.Dialect, Sandbox: in.opts.Sandbox, Cache: &in.loaded}
}

// safeName reports whether a module call name can be part of a directory
// name: the decoder reports names that are not identifiers.
func safeName(name string) bool {
	return name != "" && !strings.ContainsAny(name, `/\.:`) && name != ".."
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// at writes a range as Terraform's installer messages do: file:line.
func at(r hcl.Range) string {
	return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
}

// callDiag is an error about a module call, at its source argument.
func callDiag(call *config.ModuleCall, summary, format string, args ...any) *hcl.Diagnostic {
	subject := call.SourceRange
	if subject.Filename == "" {
		subject = call.DeclRange
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: subject.Ptr()}
}

// versionOnNonRegistry is the error of a module call with a version whose
// source is not a registry address. A literal version makes the tools read
// the source as one when they load the call (config.VersionedSourceError);
// a version built from values is refused by the installer, which says
// whether the source is a local path. written is the call as written,
// call as its source and version are resolved.
func versionOnNonRegistry(written, call *config.ModuleCall, local bool, d dialect.Dialect) *hcl.Diagnostic {
	if written.VersionExpr == nil && written.VersionRange != (hcl.Range{}) {
		if diag := config.VersionedSourceError(call.SourceAddr, call.SourceRange, d); diag != nil {
			return diag
		}
	}
	reason := "doesn't come from a module registry"
	if local {
		reason = "has a relative local path"
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid version constraint",
		Detail:   fmt.Sprintf("Cannot apply a version constraint to module %q (at %s) because it %s.", call.Name, at(call.DeclRange), reason),
		Subject:  call.DeclRange.Ptr(),
	}
}

func versionSubject(call *config.ModuleCall) *hcl.Range {
	if call.VersionRange.Filename != "" {
		return call.VersionRange.Ptr()
	}
	return call.DeclRange.Ptr()
}

// remote installs one module call whose source is not a local path.
func (in *installer) remote(key string, call *config.ModuleCall, src *source) (Record, Origin, hcl.Diagnostics) {
	var cons *constraint
	if src.kind == registryKind {
		c, err := parseConstraint(call.Version)
		if err != nil {
			return Record{}, 0, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid version constraint",
				Detail:   constraintError(call.Version, err),
				Subject:  versionSubject(call),
			}}
		}
		cons = c
	}
	if rec, ok := in.keep(key, src, cons); ok {
		return rec, Kept, nil
	}
	if err := in.checkLocal(src, "the module source"); err != nil {
		return Record{}, 0, hcl.Diagnostics{callDiag(call, "Module source outside the allowed directory", "The module source %q cannot be installed: %s.", call.SourceAddr, err)}
	}
	version := ""
	if src.kind == registryKind {
		v, diag := in.chooseVersion(call, src, cons)
		if diag != nil {
			return Record{}, 0, hcl.Diagnostics{diag}
		}
		version = v
	}
	pkg, origin, err := in.obtain(src, version)
	if err != nil {
		what := "source code from " + fmt.Sprintf("%q", redact(src.text))
		if src.kind == registryKind {
			what = fmt.Sprintf("%s %s", src.registryAddr(), version)
		}
		if errors.Is(err, errNotCached) {
			return Record{}, 0, hcl.Diagnostics{callDiag(call, "Module not in the cache", "Module %q (%s) needs %s, which is not in the module cache, and installation is offline.", call.Name, at(call.DeclRange), what)}
		}
		return Record{}, 0, hcl.Diagnostics{callDiag(call, "Failed to download module", "Could not download module %q (%s) %s: %s.", call.Name, at(call.DeclRange), what, strings.TrimSuffix(err.Error(), "."))}
	}
	dest := filepath.Join(in.root, filepath.FromSlash(installedDir(key)))
	if err := in.materialize(src, version, pkg, dest); err != nil {
		return Record{}, 0, hcl.Diagnostics{callDiag(call, "Failed to install module", "Could not install module %q (%s) into %s: %s.", call.Name, at(call.DeclRange), installedDir(key), strings.TrimSuffix(err.Error(), "."))}
	}
	sub, err := resolveSubdir(dest, src.subdir)
	if err != nil {
		return Record{}, 0, hcl.Diagnostics{callDiag(call, "Failed to install module", "Could not install module %q (%s): %s.", call.Name, at(call.DeclRange), strings.TrimSuffix(err.Error(), "."))}
	}
	return Record{Key: key, Source: src.text, Version: version, Dir: path.Join(installedDir(key), sub)}, origin, nil
}

// keep returns the earlier installation's record for key when it is
// still good: the same source, a version the constraint allows, and its
// directory there.
func (in *installer) keep(key string, src *source, cons *constraint) (Record, bool) {
	rec, ok := in.prev[key]
	if !ok || !keptDir(key, rec.Dir) {
		return Record{}, false
	}
	if rec.Source != src.text {
		prevSrc, err := parseSource(rec.Source, in.opts.Dialect)
		if err != nil || prevSrc.text != src.text {
			return Record{}, false
		}
	}
	if src.kind == registryKind {
		v := parseVersions([]string{rec.Version})
		if len(v) != 1 || !cons.allows(v[0]) {
			return Record{}, false
		}
	}
	dir := filepath.Join(in.root, filepath.FromSlash(path.Clean(rec.Dir)))
	info, err := os.Stat(dir)
	// A checkout may hold .terraform/modules/KEY as a link to anywhere:
	// such a module is installed afresh, not kept.
	if err != nil || !info.IsDir() || !insideDir(in.installDir, dir) {
		return Record{}, false
	}
	rec.Key, rec.Dir = key, path.Clean(rec.Dir)
	return rec, true
}

// chooseVersion picks a registry module's version: the newest the
// constraint allows among those the registry lists (or, offline, those
// in the cache).
func (in *installer) chooseVersion(call *config.ModuleCall, src *source, cons *constraint) (string, *hcl.Diagnostic) {
	var available []string
	if in.opts.Offline {
		if in.cache != nil {
			vs, err := in.cache.registryVersions(src)
			if err != nil {
				return "", callDiag(call, "Module not in the cache", "Module %q (%s): %s.", call.Name, at(call.DeclRange), err)
			}
			available = vs
		}
		if len(available) == 0 {
			return "", callDiag(call, "Module not in the cache", "Module %q (%s) comes from the registry at %s, and the module cache holds no version of %s; installation is offline.", call.Name, at(call.DeclRange), src.host, src.registryAddr())
		}
	} else {
		vs, err := in.fetch.registryVersions(src)
		switch {
		case errors.Is(err, errModuleNotFound):
			return "", callDiag(call, "Module not found", "Module %q (from %s) cannot be found in the module registry at %s.", call.Name, at(call.DeclRange), src.host)
		case err != nil:
			return "", callDiag(call, "Error accessing remote module registry", "Failed to retrieve available versions for module %q (%s) from %s: %s.", call.Name, at(call.DeclRange), src.host, strings.TrimSuffix(err.Error(), "."))
		}
		available = vs
	}
	chosen, newest := cons.choose(available)
	if chosen == nil {
		d := callDiag(call, "Unresolvable module version constraint", "There is no available version of module %q (%s) which matches the given version constraint.", src.registryAddr(), at(call.DeclRange))
		if newest != nil {
			d.Detail = strings.TrimSuffix(d.Detail, ".") + ". The newest available version is " + newest.String() + "."
		}
		if call.Version != "" {
			d.Subject = versionSubject(call)
		}
		return "", d
	}
	return chosen.Original(), nil
}

// obtain returns a package with this run's copy, the cache's, or a
// fresh download (stored in the cache when there is one).
func (in *installer) obtain(src *source, version string) (fetchedPackage, Origin, error) {
	memo := src.packageKey() + "@" + version
	if p, ok := in.fetched[memo]; ok {
		return p, Cached, nil
	}
	if err, ok := in.failed[memo]; ok {
		return fetchedPackage{}, 0, err
	}
	p, origin, err := in.obtainOnce(src, version)
	if err != nil {
		in.failed[memo] = err
		return p, origin, err
	}
	in.fetched[memo] = p
	return p, origin, nil
}

func (in *installer) obtainOnce(src *source, version string) (fetchedPackage, Origin, error) {
	c := in.cache
	switch src.kind {
	case registryKind:
		if c != nil {
			if r, dir, ok := c.read(c.registryRef(src, version)); ok {
				return fetchedPackage{dir, r.Subdir}, Cached, nil
			}
		}
		if in.opts.Offline {
			return fetchedPackage{}, 0, errNotCached
		}
		loc, err := in.fetch.registryLocation(src, version)
		if err != nil {
			return fetchedPackage{}, 0, err
		}
		locSrc, err := parseSource(loc, in.opts.Dialect)
		if err != nil {
			return fetchedPackage{}, 0, fmt.Errorf("the registry gave the package location %q, which is not usable: %s", loc, err)
		}
		if locSrc.kind == registryKind || locSrc.kind == localKind || locSrc.kind == fileKind {
			return fetchedPackage{}, 0, fmt.Errorf("the registry gave the package location %q, which is not a git or http(s) address", loc)
		}
		if err := in.checkLocal(locSrc, "the registry's package location"); err != nil {
			return fetchedPackage{}, 0, err
		}
		stage, sub, _, err := in.downloadStaged(locSrc)
		if err != nil {
			return fetchedPackage{}, 0, err
		}
		sub = path.Join(sub, locSrc.subdir)
		return in.keepInCache(stage, sub, func(c *cache) (string, cacheRef) {
			return c.registryRef(src, version), cacheRef{Source: src.registryAddr() + " " + version, Location: loc, Subdir: sub}
		})
	case gitKind:
		commit := ""
		if c != nil {
			if in.opts.Offline {
				commit = src.ref
				if !commitID(commit) {
					r, ok := c.readRef(c.gitRefName(src))
					if !ok {
						return fetchedPackage{}, 0, errNotCached
					}
					commit = r.Commit
				}
			} else {
				id, err := in.fetch.resolveRef(src, in.stageRoot)
				if err != nil {
					return fetchedPackage{}, 0, err
				}
				commit = id
			}
			if commitID(commit) {
				if _, dir, ok := c.read(c.gitRef(src, commit)); ok {
					return fetchedPackage{dir, ""}, Cached, nil
				}
			}
		}
		if in.opts.Offline {
			return fetchedPackage{}, 0, errNotCached
		}
		stage, sub, got, err := in.downloadStaged(src)
		if err != nil {
			return fetchedPackage{}, 0, err
		}
		if c != nil && got != "" {
			if err := c.writeRef(c.gitRefName(src), cacheRef{Source: src.url + " " + src.ref, Commit: got}); err != nil {
				return fetchedPackage{}, 0, err
			}
		}
		return in.keepInCache(stage, sub, func(c *cache) (string, cacheRef) {
			return c.gitRef(src, got), cacheRef{Source: src.url, Commit: got}
		})
	case httpKind:
		if c != nil {
			if r, dir, ok := c.read(c.httpRef(src)); ok {
				return fetchedPackage{dir, r.Subdir}, Cached, nil
			}
		}
		if in.opts.Offline {
			return fetchedPackage{}, 0, errNotCached
		}
		stage, sub, _, err := in.downloadStaged(src)
		if err != nil {
			return fetchedPackage{}, 0, err
		}
		return in.keepInCache(stage, sub, func(c *cache) (string, cacheRef) {
			return c.httpRef(src), cacheRef{Source: src.url, Subdir: sub}
		})
	}
	// An absolute path: copied as it is now, never cached.
	stage, _, _, err := in.downloadStaged(src)
	if err != nil {
		return fetchedPackage{}, 0, err
	}
	return fetchedPackage{stage, ""}, Downloaded, nil
}

// keepInCache moves a downloaded package into the cache, if there is one.
func (in *installer) keepInCache(stage, sub string, ref func(*cache) (string, cacheRef)) (fetchedPackage, Origin, error) {
	if in.cache == nil {
		return fetchedPackage{stage, sub}, Downloaded, nil
	}
	refFile, r := ref(in.cache)
	// The stage is under the install directory; the cache may be on
	// another file system, where a rename fails: copy it over then.
	tmp, err := in.cache.tempDir()
	if err != nil {
		return fetchedPackage{}, 0, err
	}
	os.Remove(tmp)
	if err := os.Rename(stage, tmp); err != nil {
		if err := copyTree(stage, tmp); err != nil {
			os.RemoveAll(tmp)
			return fetchedPackage{}, 0, err
		}
	}
	dir, err := in.cache.store(tmp, refFile, r)
	if err != nil {
		os.RemoveAll(tmp)
		return fetchedPackage{}, 0, err
	}
	return fetchedPackage{dir, sub}, Downloaded, nil
}

// downloadStaged downloads src into a fresh staging directory, which it
// returns with download's subdirectory and commit. What a download that
// failed left (up to the size limit of a package) is removed at once, not
// when the installation ends.
func (in *installer) downloadStaged(src *source) (stage, sub, commit string, err error) {
	if stage, err = in.stageDir(); err != nil {
		return "", "", "", err
	}
	if sub, commit, err = in.download(src, stage, 0); err != nil {
		removeAll(stage)
		removeAll(stage + ".download")
		return "", "", "", err
	}
	return stage, sub, commit, nil
}

// stageDir is a fresh name for a download under the staging directory.
func (in *installer) stageDir() (string, error) {
	d, err := os.MkdirTemp(in.stageRoot, "pkg-")
	if err != nil {
		return "", err
	}
	return d, os.Remove(d)
}

// download fetches a git, http or file source into dst (which does not
// exist yet), following http sources that name another location. It
// returns the subdirectory of dst that those locations selected with
// their "//" (src's own subdirectory is the caller's to apply) and, for
// git, the commit.
func (in *installer) download(src *source, dst string, hops int) (string, string, error) {
	switch src.kind {
	case gitKind:
		commit, err := in.fetch.cloneGit(src, dst)
		if err != nil {
			return "", "", err
		}
		if err := checkTree(dst, in.opts.MaxPackageSize, in.opts.MaxPackageFiles); err != nil {
			return "", "", err
		}
		return "", commit, nil
	case httpKind:
		next, err := in.fetch.fetchHTTP(src, dst)
		if err != nil {
			return "", "", err
		}
		if next == "" {
			return "", "", nil
		}
		if hops >= maxIndirections {
			return "", "", fmt.Errorf("gave up after %d X-Terraform-Get locations, each naming another (a loop?)", maxIndirections)
		}
		nextSrc, err := parseSource(next, in.opts.Dialect)
		if err != nil {
			return "", "", fmt.Errorf("the location %q it names is not usable: %s", next, err)
		}
		if nextSrc.kind != gitKind && nextSrc.kind != httpKind {
			return "", "", fmt.Errorf("the location %q it names is not a git or http(s) address", next)
		}
		if err := in.checkLocal(nextSrc, "the location the server names"); err != nil {
			return "", "", err
		}
		sub, commit, err := in.download(nextSrc, dst, hops+1)
		if err != nil {
			return "", "", err
		}
		return path.Join(sub, nextSrc.subdir), commit, nil
	case fileKind:
		info, err := os.Stat(src.url)
		if err != nil || !info.IsDir() {
			return "", "", fmt.Errorf("the directory %s does not exist or cannot be read", src.url)
		}
		if err := checkTree(src.url, in.opts.MaxPackageSize, in.opts.MaxPackageFiles); err != nil {
			return "", "", err
		}
		return "", "", copyTree(src.url, dst)
	}
	return "", "", fmt.Errorf("%s cannot be downloaded", src.text)
}

// materialize copies a package (the part its location selected) to dest,
// replacing what an earlier installation left there. A package staged by
// this run and kept in no cache is moved instead, and later calls of the
// run copy it from dest.
func (in *installer) materialize(src *source, version string, pkg fetchedPackage, dest string) error {
	from := pkg.dir
	if pkg.subdir != "" {
		sub, err := resolveSubdir(pkg.dir, pkg.subdir)
		if err != nil {
			return err
		}
		from = filepath.Join(pkg.dir, filepath.FromSlash(sub))
	}
	if err := os.RemoveAll(dest); err != nil {
		return err
	}
	if within(in.stageRoot, from) && from != in.stageRoot {
		if err := os.Rename(from, dest); err == nil {
			in.fetched[src.packageKey()+"@"+version] = fetchedPackage{dest, ""}
			return nil
		}
	}
	return copyTree(from, dest)
}
