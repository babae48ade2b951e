package tfeval

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/diagsort"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/tfvars"
)

// Validate checks the module tree at opts.Dir as terraform validate does:
// it loads every module, reads the root module's variable files for their
// own problems (Terraform; OpenTofu does not read them), and evaluates
// every block once with every input variable unknown, count and for_each
// checked but not expanded, and no resource planned. So it reports what is
// wrong whatever the variables' values: undeclared references, references
// out of their context, wrong calls of functions, a count or for_each that
// no value could make valid, sensitive and ephemeral values where they may
// not go, and, with provider schemas, arguments and blocks the schema does
// not have. VarArgs, Variables and the data source options are not used.
func Validate(opts Options) hcl.Diagnostics {
	return ValidateConfig(opts).Diagnostics
}

// Validation is the outcome of ValidateConfig: the configuration
// validated and what is wrong with it.
type Validation struct {
	// Config is the loaded module tree; nil when the root module could
	// not be read. Output that needs the structure of the files the
	// diagnostics point into takes it from here rather than parse them
	// again (format.Sources.UseConfig).
	Config *config.Config
	// Diagnostics are what Validate returns.
	Diagnostics hcl.Diagnostics
}

// HasErrors reports whether validating found an error.
func (v *Validation) HasErrors() bool {
	return v != nil && v.Diagnostics.HasErrors()
}

// ValidateConfig is Validate, keeping the configuration it loaded along
// with the diagnostics, as Evaluate does in its Evaluation.
func ValidateConfig(opts Options) *Validation {
	opts.WorkDir = absWorkDir(opts)
	box, diags := resolveSandbox(opts)
	if diags.HasErrors() {
		return &Validation{Diagnostics: diags}
	}
	opts.Sandbox = box
	cfg, workDir, diags := load(opts)
	if initFails(diags) && opts.Dialect == dialect.Terraform && cfg != nil && cfg.Module != nil && len(cfg.Module.ModuleCalls) > 0 {
		// terraform init loads the configuration too, and stops at these
		// errors before it installs a module: validate then sees no
		// module installed, not even a local one.
		cfg, diags = loadUninitialized(opts)
		return &Validation{Config: cfg, Diagnostics: diags}
	}
	v := &Validation{Config: cfg}
	if cfg == nil || cfg.Module == nil || diags.HasErrors() {
		v.Diagnostics = diags
		return v
	}
	if opts.Dialect == dialect.Terraform {
		_, moreDiags := tfvars.Collect(tfvars.Inputs{Dir: workDir, Env: opts.Env, Sandbox: opts.Sandbox, FS: opts.FS}, cfg.Module.Variables)
		for _, d := range moreDiags {
			if d.Summary == "Value for undeclared variable" {
				// validate names the variable, not where its value is.
				c := *d
				c.Subject, c.Context = nil, nil
				d = &c
			}
			diags = append(diags, d)
		}
	} else {
		diags = append(diags, tfvars.ParseAutoFiles(tfvars.Inputs{Dir: workDir, Dialect: opts.Dialect, Sandbox: opts.Sandbox, FS: opts.FS})...)
		diags = append(diags, ignoredDefaultAttrs(cfg)...)
	}
	testBox, _ := sandbox.NewFS(opts.FS, opts.Sandbox, workDir)
	diags = append(diags, testFiles(testBox, filepath.Join(workDir, opts.Dir))...)
	schemas, diag := providerSchemas(opts, workDir)
	if diag != nil {
		v.Diagnostics = append(diags, diag)
		return v
	}
	v.Diagnostics = append(diags, validateTree(cfg, opts, workDir, schemas)...)
	return v
}

// validateTree is the evaluation terraform validate makes of a loaded
// tree (also the first phase of terraform plan).
func validateTree(cfg *config.Config, opts Options, workDir string, schemas *lang.ProviderSchemas) hcl.Diagnostics {
	_, diags := lang.Evaluate(cfg, lang.Options{
		Dialect:   opts.Dialect,
		Cwd:       workDir,
		Workspace: workspaceName(opts),
		Schemas:   schemas,
		Context:   opts.Context,
		Step:      opts.Step,
		Limits:    opts.Limits,
		Validate:  true,
		Functions: funcOptions(opts, workDir),
	})
	return diags
}

// afterInstall are the load errors terraform init reports only after it
// has installed the modules, or that Terraform finds only while validating
// (a module call's missing argument): a destroy-time provisioner's
// reference to another object, a provider configuration passed to a
// module that configures its own or not passed where the module requires
// it (v1.11.4 checked), and, by a summary of its own, a provider
// configuration passed that the module does not have.
var afterInstall = map[string]bool{
	"Missing required argument":                  true,
	"Invalid reference from destroy provisioner": true,
	"Cannot override provider configuration":     true,
	"Missing required provider configuration":    true,
}

// initFails reports whether terraform init would stop at one of the load
// errors diags has: every one but those of afterInstall. A load that stopped at one of
// tfeval's own limits, or was cancelled, is reported as it is.
func initFails(diags hcl.Diagnostics) bool {
	fails := false
	for _, d := range diags {
		switch {
		case d.Severity != hcl.DiagError:
		case d.Summary == "Too many modules" || d.Summary == "Loading cancelled":
			return false
		case !afterInstall[d.Summary] && !strings.HasPrefix(d.Summary, "missing provider "):
			fails = true
		}
	}
	return fails
}

// loadUninitialized is the load of a directory whose init failed.
func loadUninitialized(opts Options) (*config.Config, hcl.Diagnostics) {
	opts.MissingModules = MissingModulesError
	cfg, _, diags := loadWith(opts, func(o *config.Options) { o.Uninitialized = true })
	return cfg, diags
}

// ignoredDefaultAttrs warns, as OpenTofu's validate does, of the
// attributes of variable defaults that the variables' object types drop.
func ignoredDefaultAttrs(cfg *config.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var walk func(c *config.Config)
	walk = func(c *config.Config) {
		for _, name := range sortedNames(c.Module.Variables) {
			v := c.Module.Variables[name]
			for _, attr := range v.IgnoredDefaultAttrs {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Object attribute is ignored",
					Detail:   fmt.Sprintf("The object type for this variable does not include an attribute named %q, so this definition is unused.", attr),
					Subject:  v.DefaultRange.Ptr(),
				})
			}
		}
		for _, name := range sortedNames(c.Children) {
			walk(c.Children[name])
		}
	}
	walk(cfg)
	diagsort.ByPosition(diags)
	return diags
}

// testFiles checks the test files terraform validate reads along with the
// root module (*.tftest.hcl and *.tftest.json, there and in tests/): each
// run block needs a valid name of its own.
func testFiles(box sandbox.Dir, rootDir string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, dir := range []string{rootDir, filepath.Join(rootDir, "tests")} {
		entries, err := box.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !(strings.HasSuffix(name, ".tftest.hcl") || strings.HasSuffix(name, ".tftest.json")) {
				continue
			}
			path := filepath.Join(dir, name)
			src, err := limit.ReadSource(box, path, 0, false)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to read test file", Detail: fmt.Sprintf("Cannot read %s: %s.", name, err)})
				continue
			}
			rel := filepath.ToSlash(filepath.Join(filepath.Base(dir), name))
			if dir == rootDir {
				rel = name
			}
			var f *hcl.File
			var pDiags hcl.Diagnostics
			if strings.HasSuffix(name, ".json") {
				f, pDiags = hcljson.Parse(src, rel)
			} else {
				f, pDiags = hclsyntax.ParseConfig(src, rel, hcl.InitialPos)
			}
			diags = append(diags, pDiags...)
			if f == nil || pDiags.HasErrors() {
				continue
			}
			content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "run", LabelNames: []string{"name"}}}})
			seen := map[string]hcl.Range{}
			for _, b := range content.Blocks {
				runName := b.Labels[0]
				if !hclsyntax.ValidIdentifier(runName) {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid run block name",
						Detail:   fmt.Sprintf("%q is not a valid run block name: a name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", runName),
						Subject:  b.LabelRanges[0].Ptr(),
					})
				}
				if prev, dup := seen[runName]; dup {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Duplicate run block",
						Detail:   fmt.Sprintf("This test file already has a run block named %q at %s.", runName, prev),
						Subject:  b.DefRange.Ptr(),
					})
					continue
				}
				seen[runName] = b.DefRange
			}
		}
	}
	return diags
}
