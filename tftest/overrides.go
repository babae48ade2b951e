package tftest

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/lang"
)

// runOverrides are the overrides in effect for a run: its own, then the
// file's for targets it does not override itself. OpenTofu warns of a
// file-level override a run's replaces.
func runOverrides(f *File, run *RunBlock, d dialect.Dialect) ([]*Override, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	out := append([]*Override(nil), run.Overrides...)
	own := map[string]bool{}
	for _, o := range run.Overrides {
		own[o.Kind.block()+" "+formatTarget(o.Target)] = true
	}
	for _, o := range f.Overrides {
		t := formatTarget(o.Target)
		if own[o.Kind.block()+" "+t] {
			if d == dialect.Tofu {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  fmt.Sprintf("Multiple `%s` blocks for the same address", o.Kind.block()),
					Detail:   fmt.Sprintf("`%s` is overridden in both global file and local run blocks. The declaration in global file block will be ignored.", t),
					Subject:  o.DeclRange.Ptr(),
				})
			}
			continue
		}
		out = append(out, o)
	}
	return out, diags
}

// invalidMockValues are the errors of the mock and override values a run
// uses that Terraform works out as the run starts (Terraform 1.15 on): the
// first override's (the run's, the file's, then its mock providers'), or
// else those of its mock providers' defaults.
func invalidMockValues(overrides []*Override, mocks map[string]*Provider, d dialect.Dialect) hcl.Diagnostics {
	for _, o := range overrides {
		if o.Invalid.HasErrors() {
			return o.Invalid
		}
	}
	keys := sortedKeys(mocks)
	for _, k := range keys {
		for _, o := range mocks[k].Overrides {
			if o.Invalid.HasErrors() {
				return o.Invalid
			}
		}
	}
	var diags hcl.Diagnostics
	for _, k := range keys {
		for _, set := range []map[string]*MockValues{mocks[k].Resources, mocks[k].Data} {
			for _, typ := range sortedKeys(set) {
				for _, diag := range set[typ].Invalid {
					// Terraform works the mocks' defaults out when it
					// configures the provider, for the file (failedMocks);
					// one that is not an object fails the plan using it.
					if d != dialect.Terraform || diag.Summary == invalidReplacement {
						diags = append(diags, diag)
					}
				}
			}
		}
	}
	return diags
}

// failedMocks are Terraform's errors for the defaults of a file's mock
// providers (its mock_resource and mock_data blocks) that cannot be worked
// out, and the mock providers they are of (by NAME or NAME.ALIAS).
// Terraform works them out when it configures the provider, once for the
// file: the errors are the file's, and a run that uses such a provider is
// skipped.
func failedMocks(f *File) (hcl.Diagnostics, map[string]bool) {
	var diags hcl.Diagnostics
	failed := map[string]bool{}
	for _, p := range f.Providers {
		if !p.Mock {
			continue
		}
		for _, set := range []map[string]*MockValues{p.Resources, p.Data} {
			for _, typ := range sortedKeys(set) {
				for _, d := range set[typ].Invalid {
					if d.Summary == invalidReplacement {
						continue // the plan's error (invalidMockValues)
					}
					diags = append(diags, d)
					if d.Severity == hcl.DiagError {
						failed[p.Key()] = true
					}
				}
			}
		}
	}
	return diags, failed
}

// usesProviders are the provider configurations of the test file a run
// uses, as Terraform hands them to it: those its providers argument maps,
// or else those the module under test names (by NAME or NAME.ALIAS): in
// required_providers and its configuration_aliases, provider blocks,
// resources and data sources, and the providers arguments of its module
// calls.
func usesProviders(run *RunBlock, root *config.Module) map[string]bool {
	out := map[string]bool{}
	if len(run.Providers) > 0 {
		for _, m := range run.Providers {
			out[m.InTest] = true
		}
		return out
	}
	if root == nil {
		return out
	}
	ref := func(r config.ProviderConfigRef) {
		if r.Alias != "" {
			out[r.Name+"."+r.Alias] = true
		} else {
			out[r.Name] = true
		}
	}
	for name, rp := range root.RequiredProviders {
		out[name] = true
		for _, a := range rp.ConfigurationAliases {
			ref(a)
		}
	}
	for key := range root.ProviderConfigs {
		out[key] = true
	}
	for _, rs := range []map[string]*config.Resource{root.ManagedResources, root.DataResources} {
		for _, res := range rs {
			alias := ""
			if res.ProviderRef != nil {
				alias = res.ProviderRef.Alias
			}
			ref(config.ProviderConfigRef{Name: lang.ResourceProviderName(res), Alias: alias})
		}
	}
	for _, call := range root.ModuleCalls {
		for _, pp := range call.Providers {
			ref(pp.InParent)
		}
	}
	return out
}

// overrideTargetWarnings are Terraform's warnings, when a file's tests
// start, for its override blocks (and those of its mock_provider blocks,
// not their mock data files') whose target no configuration the file runs
// has: the module under test's, or a run's module.
func (r *runner) overrideTargetWarnings(f *File) hcl.Diagnostics {
	if r.opts.Dialect == dialect.Tofu {
		return nil
	}
	some := len(f.Overrides) > 0
	for _, pr := range f.Providers {
		some = some || len(pr.Overrides) > 0
	}
	if !some {
		return nil
	}
	cfgs := []*config.Config{r.config(f, nil).cfg}
	for _, run := range f.Runs {
		if run.Module != nil {
			cfgs = append(cfgs, r.config(f, run).cfg)
		}
	}
	var diags hcl.Diagnostics
	check := func(o *Override) {
		for _, c := range cfgs {
			if targetExists(c, o.Target) {
				return
			}
		}
		diags = append(diags, invalidTarget(o))
	}
	for _, pr := range f.Providers {
		for _, o := range pr.Overrides {
			if !o.FromMockFile {
				check(o)
			}
		}
	}
	for _, o := range f.Overrides {
		check(o)
	}
	return diags
}

// runOverrideWarnings are Terraform's warnings, before a run, for its own
// override blocks whose target its configuration does not have.
func runOverrideWarnings(run *RunBlock, cfg *config.Config, d dialect.Dialect) hcl.Diagnostics {
	if d == dialect.Tofu {
		return nil
	}
	var diags hcl.Diagnostics
	for _, o := range run.Overrides {
		if !targetExists(cfg, o.Target) {
			diags = append(diags, invalidTarget(o))
		}
	}
	return diags
}

func invalidTarget(o *Override) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Invalid override target", Detail: fmt.Sprintf("The override target %s does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.", formatTarget(o.Target)), Subject: o.TargetRange.Ptr()}
}

// targetExists reports whether cfg has the module call, resource or data
// source an override targets, whatever its instance keys.
func targetExists(cfg *config.Config, t hcl.Traversal) bool {
	if cfg == nil || cfg.Module == nil {
		return true // not loaded: its own error says so
	}
	names := traversalNames(t)
	i := 0
	for i+1 < len(names) && names[i] == "module" {
		child := cfg.Children[names[i+1]]
		if child == nil || child.Module == nil {
			return false
		}
		cfg, i = child, i+2
	}
	switch {
	case i == len(names):
		return true
	case names[i] == "data" && i+2 < len(names):
		return cfg.Module.DataResources["data."+names[i+1]+"."+names[i+2]] != nil
	case i+1 < len(names):
		return cfg.Module.ManagedResources[names[i]+"."+names[i+1]] != nil
	}
	return false
}

// runChecks are the checks of a run block both binaries make before it
// runs, each failing the run: its expect_failures references, and in
// OpenTofu the override blocks of the file and then the run's naming one
// target twice (Terraform reports those when it loads the file).
func (r *runner) runChecks(f *File, run *RunBlock) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if r.opts.Dialect == dialect.Tofu {
		if diags = duplicatedOverrides(f.Overrides); diags.HasErrors() {
			return diags
		}
		if diags = duplicatedOverrides(run.Overrides); diags.HasErrors() {
			return diags
		}
	}
	return invalidExpectations(run)
}

// withModuleOverrides is the module tree with every module call an
// override_module block targets replaced by a module of only the call's
// outputs, whose values are the block's (null for those it does not
// give): nothing in the real module is evaluated.
func withModuleOverrides(cfg *config.Config, overrides []*Override) *config.Config {
	byPath := map[string]*Override{}
	for _, o := range overrides {
		if o.Kind == OverrideModule {
			names := traversalNames(o.Target)
			var path []string
			for i := 1; i < len(names); i += 2 {
				path = append(path, names[i])
			}
			key := strings.Join(path, ".")
			if _, ok := byPath[key]; !ok {
				byPath[key] = o
			}
		}
	}
	if len(byPath) == 0 {
		return cfg
	}
	var copyTree func(c, parent, root *config.Config) *config.Config
	copyTree = func(c, parent, root *config.Config) *config.Config {
		n := *c
		n.Parent = parent
		if root == nil {
			root = &n
		}
		n.Root = root
		n.Children = make(map[string]*config.Config, len(c.Children))
		if o, ok := byPath[strings.Join(c.Path, ".")]; ok && parent != nil {
			n.Module = overriddenModule(c.Module, o)
			return &n
		}
		for name, child := range c.Children {
			n.Children[name] = copyTree(child, &n, root)
		}
		return &n
	}
	return copyTree(cfg, nil, nil)
}

// overriddenModule is a module with m's variables (without their
// validations) and outputs whose values are o's.
func overriddenModule(m *config.Module, o *Override) *config.Module {
	out := &config.Module{
		SourceDir:          m.SourceDir,
		Files:              m.Files,
		Bodies:             m.Bodies,
		RequiredProviders:  m.RequiredProviders,
		Variables:          make(map[string]*config.Variable, len(m.Variables)),
		Locals:             map[string]*config.Local{},
		Outputs:            make(map[string]*config.Output, len(m.Outputs)),
		ModuleCalls:        map[string]*config.ModuleCall{},
		ProviderConfigs:    map[string]*config.Provider{},
		ManagedResources:   map[string]*config.Resource{},
		DataResources:      map[string]*config.Resource{},
		EphemeralResources: map[string]*config.Resource{},
		Checks:             map[string]*config.Check{},
	}
	for name, v := range m.Variables {
		c := *v
		c.Validations = nil
		out.Variables[name] = &c
	}
	for name, op := range m.Outputs {
		v := attrOf(o.Values, name)
		if v == cty.NilVal {
			v = cty.NullVal(cty.DynamicPseudoType)
		}
		out.Outputs[name] = &config.Output{
			Name:         name,
			Expr:         &valueExpr{val: v, rng: o.DeclRange},
			Sensitive:    op.Sensitive,
			SensitiveSet: op.SensitiveSet,
			DeclRange:    op.DeclRange,
		}
	}
	return out
}

// valueExpr is an expression that is a value, like hcl.StaticExpr's; unlike
// that one it is a pointer, so an expression stays usable as a map key (the
// evaluator keys its caches by expression) whatever the type of its value.
type valueExpr struct {
	val cty.Value
	rng hcl.Range
}

func (e *valueExpr) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) { return e.val, nil }
func (e *valueExpr) Variables() []hcl.Traversal                          { return nil }
func (e *valueExpr) Range() hcl.Range                                    { return e.rng }
func (e *valueExpr) StartRange() hcl.Range                               { return e.rng }
