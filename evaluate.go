package tfeval

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// Options says what to evaluate and how, in the terms of a Terraform command line.
type Options struct {
	// Dir is the root module directory, relative to WorkDir; "" means WorkDir itself.
	Dir string
	// WorkDir is the working directory Terraform would run in (after -chdir):
	// tfvars files are found there and file functions resolve paths against
	// it. "" means the process working directory.
	WorkDir string
	// Dialect is the tool whose behaviour to reproduce: dialect.Terraform
	// (the zero value) or dialect.Tofu. It selects the function table, the
	// .tofu files, tofu.workspace and the wording of diagnostics.
	Dialect dialect.Dialect
	// Workspace is terraform.workspace; "" means the TF_WORKSPACE variable
	// of Env, or "default" without one.
	Workspace string

	// Env is the environment in os.Environ form, searched for TF_VAR_ values.
	Env []string
	// VarArgs are -var and -var-file options in command-line order; Var
	// and VarFile build them.
	VarArgs []tfvars.Arg
	// Variables are values given from Go; they take precedence over every other source.
	Variables map[string]cty.Value

	// Schemas is a provider schema document as written by
	// `terraform providers schema -json`; nil means no provider schemas.
	Schemas []byte
	// ProviderSchemas, when not nil, is used instead of Schemas: the
	// document already parsed by lang.ParseProviderSchemas. A large
	// provider's document takes longer to parse than most modules take to
	// evaluate, so evaluations that share one should parse it once.
	ProviderSchemas *lang.ProviderSchemas
	// Console evaluates as `terraform console` does (impure functions give
	// real values, type() is available); otherwise as `terraform plan`.
	Console bool
	// Lazy, for a console session, evaluates each object only when an
	// expression given to Eval first needs it (see lang.Options.Lazy):
	// a session that prints 1 then evaluates nothing else. Outputs,
	// Resources and the other accessors see only what has been evaluated.
	Lazy bool
	// Sandbox, when not empty, is the only directory the evaluation reads:
	// configuration files and module directories, the variables files
	// loaded without being asked (terraform.tfvars, *.auto.tfvars), file
	// functions and templates. Symbolic links are followed before the
	// check. A relative path is resolved against WorkDir, as Terraform
	// resolves every path after -chdir. Files named in VarArgs and
	// DataFiles are the caller's choice and are read wherever they are.
	Sandbox string
	// Now is the clock for timestamp(); nil means time.Now.
	Now func() time.Time
	// Rand is the randomness behind uuid() and bcrypt() salts; nil means
	// crypto/rand. Tests give a fixed source to get the same values each run.
	Rand io.Reader
	// Context, when set, cancels loading and evaluation: they stop within
	// a second (usually milliseconds) with a "Loading cancelled" or
	// "Evaluation cancelled" error. A file being parsed when it is done
	// is left to finish in the background.
	Context context.Context
	// Step, when not nil, is called between the steps of the evaluation's
	// graph walk with the resource instances expanded so far, and may
	// block there (lang.Options.Step): a scan pauses a root that has grown
	// large with it while an earlier root runs.
	Step func(instances int)
	// Limits bounds the work and memory of loading and evaluation; zero
	// fields mean the defaults (see lang.Limits and the README's Security section).
	Limits lang.Limits
	// DataSources are results of data source instances, used as though
	// Terraform had read them while planning: by address, an instance's
	// (`data.aws_ami.ubuntu`, `data.aws_subnet.s["a"]`,
	// `module.net[0].data.aws_vpc.v`) or, without instance keys, every
	// instance's; each an object of the data source's attributes. Without
	// one, what a data source would read is unknown (marks.Unread). A data
	// source Terraform reads only during apply (its configuration depends
	// on something unknown, or depends_on names a pending change) stays
	// unknown, as in Terraform's plan.
	DataSources map[string]cty.Value
	// MissingModules says what a module call whose source is not installed
	// (or whose local directory is absent) is: MissingModulesError (the zero value) is Terraform's error and
	// nothing is evaluated; with MissingModulesUnknown the call's outputs
	// are unknown (marks.Unread) and the rest of the tree is evaluated.
	MissingModules MissingModules
	// DataFiles are JSON files of data source results (the CLI's
	// -data=FILE), relative to WorkDir: an object from addresses to
	// results. DataSources take precedence over them, later files over
	// earlier ones.
	DataFiles []string
	// FS, when not nil, is where every file is read from instead of the
	// operating system: the configuration files of every module, the
	// variables files (terraform.tfvars, *.auto.tfvars, and those VarArgs
	// name), the module manifest, the provider schema file, DataFiles,
	// and what file functions read. An editor gives its unsaved buffers
	// this way, a test its files from memory (testing/fstest.MapFS).
	// WorkDir and Dir are then slash-separated paths inside FS ("" is
	// its root), and FS is a sandbox: nothing outside it is read (a path
	// that leaves it is refused as one outside Sandbox is), and Sandbox,
	// inside it, narrows that further. Paths in diagnostics stay relative
	// to WorkDir; path.cwd is WorkDir under the directory sandbox.FSRoot
	// the FS stands for.
	FS fs.FS
	// ModuleCache, when not nil, keeps the module directories this
	// evaluation reads for later evaluations given the same cache, which
	// then parse again only the directories whose files changed. Evaluating
	// many root modules that call the same modules, or one module with many
	// sets of inputs, then parses each module once.
	ModuleCache *ModuleCache
	// FunctionCache, when not nil, keeps what the file functions of this
	// evaluation read and compute (file texts, template parses, fileset
	// listings, decoded jsondecode and yamldecode documents) for later
	// evaluations given the same cache: evaluating many roots that read the
	// same files reads and decodes each once. See funcs.Cache for what is
	// kept and how it is bounded.
	FunctionCache *FunctionCache
	// MissingVariables says what a required root variable without a value
	// is: MissingVariablesError (the zero value) is Terraform's "No value
	// for required variable" and nothing is evaluated; with
	// MissingVariablesUnknown the variable is unknown (marks.Unread, cause
	// marks.NoValue) with a warning naming it, and everything else is
	// evaluated.
	MissingVariables MissingVariables
}

// FunctionCache keeps what file functions read and compute across
// evaluations; its zero value is ready to use. See funcs.Cache.
type FunctionCache = funcs.Cache

// MissingVariables says what a required root variable without a value
// is; see tfvars.MissingVariables.
type MissingVariables = tfvars.MissingVariables

// The values of Options.MissingVariables.
const (
	MissingVariablesError   = tfvars.MissingVariablesError
	MissingVariablesUnknown = tfvars.MissingVariablesUnknown
)

// MissingModules says what loading makes of a module call whose source
// is not installed; see config.MissingModules.
type MissingModules = config.MissingModules

// The values of Options.MissingModules.
const (
	MissingModulesError   = config.MissingModulesError
	MissingModulesUnknown = config.MissingModulesUnknown
)

// ModuleCache keeps loaded modules for later evaluations in the same
// process; its zero value is ready to use. See config.ModuleCache.
type ModuleCache = config.ModuleCache

// Evaluation is the outcome of Evaluate: the loaded configuration and its
// evaluated values. Either may be partial, or nil, when Diagnostics has
// errors; the methods (Outputs, Resources, Variables, Checks, Eval, ...)
// are safe to call in every case.
type Evaluation struct {
	// Config is the loaded module tree; nil when the root module could not be read.
	Config *config.Config
	// Result holds every module instance's values; nil when the
	// configuration did not load, or (as terraform plan stops there) a
	// required root variable has no value.
	Result *lang.Result
	// Diagnostics are the errors and warnings of loading and evaluating, in
	// a deterministic order, each with Terraform's wording and (mostly) a
	// source range whose file name is relative to the working directory.
	Diagnostics hcl.Diagnostics

	// rawVariables are the root variable values as given, with their sources.
	rawVariables map[string]*tfvars.Value
}

// Evaluate loads the module tree at opts.Dir, collects variable values as
// Terraform would and evaluates everything. It returns whatever it could
// evaluate together with all diagnostics, in a deterministic order.
func Evaluate(opts Options) *Evaluation {
	ev := &Evaluation{}
	opts.WorkDir = absWorkDir(opts)
	box, diags := resolveSandbox(opts)
	if diags.HasErrors() {
		ev.Diagnostics = diags
		return ev
	}
	opts.Sandbox = box
	cfg, workDir, diags := load(opts)
	ev.Config = cfg
	ev.Diagnostics = append(ev.Diagnostics, diags...)
	// Terraform stops at a configuration that does not load: nothing is
	// evaluated, so no follow-on errors are reported.
	if cfg == nil || cfg.Module == nil || diags.HasErrors() {
		return ev
	}

	raw, diags := tfvars.Collect(tfvars.Inputs{
		Dir:     workDir,
		Env:     opts.Env,
		Args:    opts.VarArgs,
		Values:  opts.Variables,
		Sandbox: opts.Sandbox,
		FS:      opts.FS,
	}, cfg.Module.Variables)
	ev.Diagnostics = append(ev.Diagnostics, diags...)
	if raw == nil {
		// Not nil: Variables tells collected from not collected by it.
		raw = map[string]*tfvars.Value{}
	}
	ev.rawVariables = raw
	if opts.MissingVariables == MissingVariablesUnknown {
		ev.Diagnostics = append(ev.Diagnostics, tfvars.UnknownMissing(raw, cfg.Module.Variables)...)
	}
	if !opts.Console {
		// terraform plan stops at a required variable without a value,
		// before it evaluates anything.
		if missing := tfvars.Missing(raw, cfg.Module.Variables); missing.HasErrors() {
			ev.Diagnostics = append(ev.Diagnostics, missing...)
			return ev
		}
	}

	schemas, diag := providerSchemas(opts, workDir)
	if diag != nil {
		ev.Diagnostics = append(ev.Diagnostics, diag)
	}

	workspace := workspaceName(opts)
	data, dataRanges, diags := dataResults(opts, workDir)
	ev.Diagnostics = append(ev.Diagnostics, diags...)
	res, diags := lang.Evaluate(cfg, lang.Options{
		Dialect:          opts.Dialect,
		Cwd:              workDir,
		Workspace:        workspace,
		RootVariables:    raw,
		Schemas:          schemas,
		Console:          opts.Console,
		Lazy:             opts.Lazy,
		Context:          opts.Context,
		Step:             opts.Step,
		Limits:           opts.Limits,
		DataSources:      data,
		DataSourceRanges: dataRanges,
		Functions:        planFuncOptions(opts, workDir),
		// Checked here only for what a plan reports: validatedFirst.
		ValidateUnexpanded: !opts.Console,
	})
	ev.Result = res
	if !opts.Console {
		diags = validatedFirst(cfg, opts, workDir, schemas, res, diags)
	}
	ev.Diagnostics = append(ev.Diagnostics, diags...)
	return ev
}

// validatedFirst is what terraform plan reports of a configuration whose
// plan evaluation gave diags. Terraform validates the configuration first
// and stops at an error, before it plans anything or checks variable
// values and conditions: the validation's diagnostics are then all it
// reports. Validating costs about what the plan evaluation does, so the
// whole configuration is validated only where that can find what the
// plan did not: where a check failed (checked only after validation),
// where a placeholder instance erred (see settlePlaceholderErrors), and
// where the plan's own validation of what it expanded to no instance
// (lang.Options.ValidateUnexpanded: Terraform validates every block
// whatever its count) found an error the plan does not have.
func validatedFirst(cfg *config.Config, opts Options, workDir string, schemas *lang.ProviderSchemas, res *lang.Result, diags hcl.Diagnostics) hcl.Diagnostics {
	checks, placeholders := failedChecks(diags), hasPlaceholderErrors(diags)
	if !checks && !placeholders && res.UnexpandedErrors() == nil {
		return diags
	}
	vdiags := validateTree(cfg, opts, workDir, schemas)
	if vdiags.HasErrors() && (checks || lang.NewErrors(diags, vdiags) != nil) {
		return vdiags
	}
	if placeholders {
		return settlePlaceholderErrors(diags, vdiags)
	}
	return diags
}

// hasPlaceholderErrors reports whether diags have an error that arose in a
// placeholder instance (see placeholderError).
func hasPlaceholderErrors(diags hcl.Diagnostics) bool {
	return slices.ContainsFunc(diags, placeholderError)
}

// placeholderError reports whether d is an error that arose in the
// placeholder standing for instances tfeval could not count because it
// lacks what Terraform would have (a data source's result, a schema, ...):
// Terraform, which knows how many there are, may find none.
func placeholderError(d *hcl.Diagnostic) bool {
	if d.Severity != hcl.DiagError {
		return false
	}
	us, ok := lang.PlaceholderUnread(d)
	return ok && slices.ContainsFunc(us, func(u marks.Unread) bool { return u.Cause != marks.Errored })
}

// settlePlaceholderErrors keeps as errors the placeholder errors that
// terraform validate reports too (vdiags, validating with every count and
// for_each unknown): Terraform's plan validates first, so it reports them
// however many instances there are. The others it reports only if the
// object has instances, which tfeval cannot know: they become warnings
// that say so, rather than errors tfeval may have invented.
func settlePlaceholderErrors(diags, vdiags hcl.Diagnostics) hcl.Diagnostics {
	type site struct {
		summary string
		subject hcl.Range
	}
	certain := map[site]bool{}
	for _, d := range vdiags {
		if d.Severity == hcl.DiagError && d.Subject != nil {
			certain[site{d.Summary, *d.Subject}] = true
		}
	}
	var out hcl.Diagnostics
	for _, d := range diags {
		if placeholderError(d) && (d.Subject == nil || !certain[site{d.Summary, *d.Subject}]) {
			c := *d
			c.Severity = hcl.DiagWarning
			c.Detail += "\n\nThis arose in a placeholder instance (see the warning \"Instances not known\"): Terraform reports it only if there are instances, which tfeval cannot tell."
			d = &c
		}
		out = append(out, d)
	}
	return out
}

// failedChecks reports whether diags have a failed variable validation or
// condition, which terraform plan checks only once the configuration has
// validated.
func failedChecks(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		switch d.Summary {
		case "Invalid value for variable", "Resource precondition failed", "Resource postcondition failed", "Module output value precondition failed":
			return true
		}
	}
	return false
}

// funcOptions are the function table options of an evaluation.
func funcOptions(opts Options, workDir string) funcs.Options {
	return funcs.Options{
		Dialect: opts.Dialect,
		BaseDir: workDir,
		FS:      opts.FS,
		Sandbox: opts.Sandbox,
		Now:     opts.Now,
		Rand:    opts.Rand,
		Cache:   opts.FunctionCache,
	}
}

// planFuncOptions are funcOptions for terraform plan: plantimestamp() is
// the time the evaluation starts, one for the whole plan (the console has
// no plantimestamp).
func planFuncOptions(opts Options, workDir string) funcs.Options {
	o := funcOptions(opts, workDir)
	if !opts.Console {
		now := time.Now
		if opts.Now != nil {
			now = opts.Now
		}
		o.PlanTimestamp = now().UTC()
	}
	return o
}

// workspaceName is terraform.workspace: Options.Workspace, else the
// TF_WORKSPACE environment variable Terraform reads, else "default".
func workspaceName(opts Options) string {
	if opts.Workspace != "" {
		return opts.Workspace
	}
	for _, kv := range opts.Env {
		if v, ok := strings.CutPrefix(kv, "TF_WORKSPACE="); ok && v != "" {
			return v
		}
	}
	return "default"
}

// SchemaFile is the file in a root module directory that gives the
// provider schemas when Options gives none: the document `terraform
// providers schema -json` writes, committed next to the module.
const SchemaFile = "providers-schema.json"

// providerSchemas are the provider schemas opts gives, parsed or as a
// document, or those of the root module's SchemaFile; nil when there are
// none. A document that does not parse is an error.
func providerSchemas(opts Options, workDir string) (*lang.ProviderSchemas, *hcl.Diagnostic) {
	if opts.ProviderSchemas != nil {
		return opts.ProviderSchemas, nil
	}
	doc, name := opts.Schemas, "the provider schema document"
	if doc == nil {
		path := filepath.Join(workDir, opts.Dir, SchemaFile)
		// The file is part of the module, so the sandbox applies.
		box, _ := sandbox.NewFS(opts.FS, opts.Sandbox, workDir)
		if _, err := box.Stat(path); err != nil {
			return nil, nil
		}
		src, err := limit.ReadSource(box, path, 0, false)
		if err != nil {
			return nil, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider schema document", Detail: fmt.Sprintf("Cannot read %s: %s.", SchemaFile, err)}
		}
		doc, name = src, SchemaFile
	}
	s, err := lang.ParseProviderSchemas(doc)
	if err != nil {
		return nil, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider schema document", Detail: fmt.Sprintf("%s: %s", name, err)}
	}
	return s, nil
}

// absWorkDir is the absolute form of the working directory option ("" is
// the process directory, or with an FS its root).
func absWorkDir(opts Options) string {
	workDir := opts.WorkDir
	if opts.FS != nil {
		if filepath.IsAbs(workDir) {
			return filepath.Clean(workDir)
		}
		return filepath.Join(sandbox.FSRoot, filepath.FromSlash(workDir))
	}
	if workDir == "" {
		workDir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(workDir); err == nil {
		workDir = abs
	}
	return workDir
}

// resolveSandbox is the sandbox option resolved, once, against the working
// directory, every symbolic link followed: the loader, the variables files
// and the file functions then all get the same absolute directory.
func resolveSandbox(opts Options) (string, hcl.Diagnostics) {
	box, err := sandbox.NewFS(opts.FS, opts.Sandbox, opts.WorkDir)
	if err != nil {
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid sandbox directory", Detail: fmt.Sprintf("The directory given as the sandbox cannot be used: %s.", err)}}
	}
	return box.Root(), nil
}

// load reads the module tree opts names; it returns the absolute working directory too.
func load(opts Options) (*config.Config, string, hcl.Diagnostics) {
	return loadWith(opts, nil)
}

// loadWith is load with more loader options set by adjust, when not nil.
func loadWith(opts Options, adjust func(*config.Options)) (*config.Config, string, hcl.Diagnostics) {
	workDir := absWorkDir(opts)
	dir := filepath.FromSlash(opts.Dir)
	if dir == "" {
		dir = "."
	}
	copts := config.Options{Dialect: opts.Dialect, WorkDir: workDir, Sandbox: opts.Sandbox, MaxDepth: opts.Limits.MaxModuleDepth, MaxModules: opts.Limits.MaxModules, Cache: opts.ModuleCache, MissingModules: opts.MissingModules, Context: opts.Context, FS: opts.FS,
		RootVariables: func(decls map[string]*config.Variable) map[string]cty.Value {
			return tfvars.InitValues(tfvars.Inputs{Dir: workDir, Env: opts.Env, Args: opts.VarArgs, Values: opts.Variables, Sandbox: opts.Sandbox, FS: opts.FS}, decls)
		},
		Workspace: workspaceName(opts),
	}
	if adjust != nil {
		adjust(&copts)
	}
	cfg, diags := config.Load(dir, copts)
	return cfg, workDir, diags
}

// Arg is one -var or -var-file command-line option; see Var and VarFile.
type Arg = tfvars.Arg

// Var is a -var NAME=VALUE option for Options.VarArgs; the value is parsed
// as the command line would, according to the variable's type.
func Var(nameValue string) Arg {
	return tfvars.Arg{Kind: tfvars.VarFlag, Text: nameValue}
}

// VarFile is a -var-file=PATH option for Options.VarArgs; a relative PATH
// is found in the working directory.
func VarFile(path string) Arg {
	return tfvars.Arg{Kind: tfvars.VarFileFlag, Text: path}
}
