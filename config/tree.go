package config

import (
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/diagsort"
	"github.com/tfeval/tfeval/internal/fastexpr"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// treeLoader builds the module tree below the root.
type treeLoader struct {
	opts          Options
	box           sandbox.Dir // opts.Sandbox, resolved
	manifest      manifest
	rootSourceDir string
	// manifestDir is the directory the manifest's relative directories
	// are relative to: the root module's, or Options.ManifestDir.
	manifestDir string
	prefetch    *prefetcher // nil on one CPU
	// modules counts the module calls loaded so far (Options.MaxModules).
	modules int
	// missingArgs is set once a module call's missing required arguments
	// are reported: Terraform reports those of one call only.
	missingArgs bool
	// missingProvider is the error of the first provider configuration
	// passed but not had: Terraform stops building its graph there, when
	// the configuration has no other error (withMissingProvider).
	missingProvider *hcl.Diagnostic
	// cancelled is set once the context's end has been reported.
	cancelled bool
	// scopes evaluate module sources and versions built from variables,
	// one per module of the tree, made when first needed.
	scopes map[*Config]*staticScope
	// rootVals are Options.RootVariables' values; funcs the built-in
	// functions for those expressions.
	rootVals map[string]cty.Value
	funcs    map[string]function.Function
	// guard and steps bound the work of those expressions.
	guard *fastexpr.Guard
	steps atomic.Int64
	// loaded are the modules read so far, by source directory: a directory
	// that several module blocks call is read and decoded once per load, and
	// its module shared by the calls (it is not modified once loaded).
	loaded map[string]loadedModule
}

// module returns the module in sourceDir with its diagnostics, read once
// per load; every call after the first gets copies of the diagnostics.
func (l *treeLoader) module(dir, sourceDir string) (*Module, hcl.Diagnostics) {
	if cm, ok := l.loaded[sourceDir]; ok {
		return cm.mod, copyDiagnostics(cm.diags)
	}
	mod, diags, ok := l.prefetch.take(sourceDir)
	if !ok {
		mod, diags = loadModule(l.opts, l.box, dir, sourceDir)
	}
	if l.loaded == nil {
		l.loaded = map[string]loadedModule{}
	}
	l.loaded[sourceDir] = loadedModule{mod: mod, diags: copyDiagnostics(diags)}
	return mod, diags
}

// loadChildren loads the modules called by parent, depth first in call name
// order. ancestors holds the absolute directories of parent and its callers
// so that a module calling itself is caught instead of recursing forever.
func (l *treeLoader) loadChildren(parent *Config, ancestors []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	names := make([]string, 0, len(parent.Module.ModuleCalls))
	for name := range parent.Module.ModuleCalls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		call := parent.Module.ModuleCalls[name]
		literalVersion := call.VersionExpr == nil && call.VersionRange != (hcl.Range{})
		if call.SourceExpr != nil || call.VersionExpr != nil {
			resolved, rDiags := l.staticScope(parent).resolveCall(call)
			diags = append(diags, rDiags...)
			if rDiags.HasErrors() {
				continue
			}
			call = resolved
		}
		if call.SourceAddr == "" {
			continue // already reported while decoding
		}
		if literalVersion {
			if d := sourceWithVersion(call, l.opts.Dialect); d != nil {
				diags = append(diags, d)
				continue
			}
		}
		childPath := append(append([]string(nil), parent.Path...), name)
		if d := cancelled(l.opts.Context); d != nil {
			if !l.cancelled {
				l.cancelled = true
				diags = append(diags, d)
			}
			return diags
		}
		if l.modules++; l.modules > l.opts.MaxModules {
			if l.modules > l.opts.MaxModules+1 {
				return diags // reported once, at the first call past the limit
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Too many modules",
				Detail:   fmt.Sprintf("The module tree has more than %d module calls, counting a module once for every path of calls that reaches it (Limits.MaxModules); module.%s is not loaded.", l.opts.MaxModules, strings.Join(childPath, ".module.")),
				Subject:  call.DeclRange.Ptr(),
			})
			return diags
		}
		if len(childPath) > l.opts.MaxDepth {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module nesting too deep",
				Detail:   fmt.Sprintf("Module calls are nested more than %d levels deep at module.%s.", l.opts.MaxDepth, strings.Join(childPath, ".module.")),
				Subject:  call.DeclRange.Ptr(),
			})
			continue
		}
		sourceDir, ok, sDiags := l.childSourceDir(parent, call, childPath)
		diags = append(diags, sDiags...)
		if !ok {
			if !sDiags.HasErrors() {
				parent.NotInstalled = append(parent.NotInstalled, name)
			}
			continue
		}
		dir := filepath.FromSlash(sourceDir)
		abs := absDir(l.box, resolve(l.opts.WorkDir, dir))
		if cycle := indexOf(ancestors, abs); cycle >= 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module call cycle",
				Detail:   fmt.Sprintf("The module call %q refers to %s, a module that is already one of its callers. A module cannot call itself, directly or indirectly.", name, sourceDir),
				Subject:  call.SourceRange.Ptr(),
			})
			continue
		}
		if l.box.Set() && !sandbox.Within(l.box.Root(), abs) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module source outside the allowed directory",
				Detail:   fmt.Sprintf("The module source %q resolves to %s, which is outside the directory modules may be read from.", call.SourceAddr, sourceDir),
				Subject:  call.SourceRange.Ptr(),
			})
			continue
		}
		if info, err := l.box.Stat(resolve(l.opts.WorkDir, dir)); err != nil || !info.IsDir() {
			if l.opts.MissingModules == MissingModulesUnknown && IsLocalSource(call.SourceAddr) {
				// A local directory a checkout leaves out until a step of
				// its own fetches it (a git submodule, vendored modules)
				// is as good as not installed.
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Unreadable module directory",
					Detail:   fmt.Sprintf("The directory %s does not exist or cannot be read, so this module's outputs are unknown: tfeval evaluates the rest of the configuration without it (-missing-modules=unknown).", sourceDir),
					Subject:  call.SourceRange.Ptr(),
				})
				parent.NotInstalled = append(parent.NotInstalled, name)
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unreadable module directory",
				Detail:   fmt.Sprintf("The directory %s does not exist or cannot be read.", sourceDir),
				Subject:  call.SourceRange.Ptr(),
			})
			continue
		}
		mod, mDiags := l.module(dir, sourceDir)
		diags = append(diags, mDiags...)
		child := &Config{
			Root:       parent.Root,
			Parent:     parent,
			Path:       childPath,
			Children:   map[string]*Config{},
			Module:     mod,
			CallRange:  call.DeclRange,
			SourceAddr: call.SourceAddr,
			Version:    call.Version,
		}
		parent.Children[name] = child
		diags = append(diags, l.callArgumentDiags(call, mod)...)
		diags = append(diags, checkLegacyProviders(call, child, l.opts.Dialect)...)
		diags = append(diags, overriddenProviders(call, child)...)
		diags = append(diags, unpassedConfigurationAliases(call, child)...)
		diags = append(diags, l.unconfiguredPassedProviders(child)...)
		if parent.Parent == nil {
			diags = append(diags, undeclaredCallerProviders(call, parent, l.opts.Dialect)...)
		}
		diags = append(diags, undeclaredPassedProviders(call, child, l.opts.Dialect)...)
		diags = append(diags, redundantEmptyProviders(child, l.opts.Dialect)...)
		diags = append(diags, l.loadChildren(child, append(ancestors, abs))...)
	}
	return diags
}

// checkLegacyProviders rejects count, for_each and depends_on (and, in
// OpenTofu, enabled) on a call to a module that configures its own
// providers: each instance would need its own provider, which neither tool
// can express. Empty provider blocks only declare what the caller passes
// in, so they do not count.
func checkLegacyProviders(call *ModuleCall, child *Config, d dialect.Dialect) hcl.Diagnostics {
	enabled := d == dialect.Tofu && call.Enabled != nil
	if call.Count == nil && call.ForEach == nil && len(call.DependsOn) == 0 && !enabled {
		return nil
	}
	for _, key := range slices.Sorted(maps.Keys(child.Module.ProviderConfigs)) {
		if isEmptyBody(child.Module.ProviderConfigs[key].Config) {
			continue
		}
		summary, args := "Module is incompatible with count, for_each, and depends_on", "count, for_each, or depends_on"
		if d == dialect.Tofu {
			summary, args = "Module is incompatible with count, for_each, enabled and depends_on", "count, for_each, enabled or depends_on"
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail: fmt.Sprintf("The module at module.%s is a legacy module which contains its own local provider configurations, and so calls to it may not use the %s arguments.\n\nIf you also control the module %q, consider updating this module to instead expect provider configurations to be passed by its caller.",
				strings.Join(child.Path, ".module."), args, call.SourceAddr),
			Subject: call.DeclRange.Ptr(),
		}}
	}
	return nil
}

// undeclaredPassedProviders warns, as Terraform and OpenTofu do, of each
// provider configuration a module call passes under a local name the
// called module does not declare in its required_providers: the tool
// assumes the provider of that name in the default namespace.
func undeclaredPassedProviders(call *ModuleCall, child *Config, d dialect.Dialect) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, pp := range call.Providers {
		if declaresProvider(child.Module, pp.InChild.Name, pp.InChild.Alias) {
			continue
		}
		name := pp.InChild.Name
		if pp.InChild.Alias != "" {
			name += "." + pp.InChild.Alias
		}
		source := "hashicorp/" + pp.InChild.Name
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Reference to undefined provider",
			Detail:   fmt.Sprintf("There is no explicit declaration for local provider name %q in module.%s, so %s is assuming you mean to pass a configuration for %q.\n\nIf you also control the child module, add a required_providers entry named %q with the source address %q.", name, strings.Join(child.Path, ".module."), d.Product(), source, name, source),
			Subject:  pp.InChild.NameRange.Ptr(),
		})
	}
	return diags
}

// undeclaredCallerProviders warns, as Terraform and OpenTofu do, of each
// default provider configuration a module call of module m passes by a
// local name m neither configures nor declares in its required_providers.
func undeclaredCallerProviders(call *ModuleCall, m *Config, d dialect.Dialect) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, pp := range call.Providers {
		if diag := undefinedCallerProvider(m, pp.InParent, d); diag != nil {
			diags = append(diags, diag)
		}
	}
	return diags
}

// undefinedCallerProvider is the warning undeclaredCallerProviders gives of
// ref, nil when module m configures or declares it (or it is an alias). The
// text names m and the module above it (the root module for both, at the
// top), as the tools do.
func undefinedCallerProvider(m *Config, ref ProviderConfigRef, d dialect.Dialect) *hcl.Diagnostic {
	if ref.Alias != "" || m.Module.RequiredProviders[ref.Name] != nil {
		return nil
	}
	if pc := m.Module.ProviderConfigs[ref.Name]; pc != nil && !isProxyProvider(pc) {
		return nil // an empty block does not declare it here
	}
	parentText := "the root module"
	if len(m.Path) > 1 {
		parentText = moduleName(m.Path[:len(m.Path)-1])
	}
	source := "hashicorp/" + ref.Name
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Reference to undefined provider",
		Detail:   fmt.Sprintf("There is no explicit declaration for local provider name %q in %s, so %s is assuming you mean to pass a configuration for provider %q.\n\nTo clarify your intent and silence this warning, add to %s a required_providers entry named %q with source = %q, or a different source address if appropriate.", ref.Name, moduleName(m.Path), d.Product(), source, parentText, ref.Name, source),
		Subject:  ref.NameRange.Ptr(),
	}
}

// declaresProvider reports whether module m declares that it takes the
// provider configuration name (alias "" for the default one) from its
// caller: in required_providers, with alias among the configuration
// aliases, or by an empty ("proxy") provider block of that name. A
// provider block that configures something does not declare it.
func declaresProvider(m *Module, name, alias string) bool {
	key := name
	if alias != "" {
		key += "." + alias
	}
	if pc := m.ProviderConfigs[key]; pc != nil && isProxyProvider(pc) {
		return true
	}
	rp := m.RequiredProviders[name]
	if rp == nil {
		return false
	}
	if alias == "" {
		return true
	}
	return slices.ContainsFunc(rp.ConfigurationAliases, func(r ProviderConfigRef) bool { return r.Alias == alias })
}

// isProxyProvider reports whether a provider block sets nothing but its
// alias: the way modules declared, before configuration_aliases, that
// their caller passes them that configuration.
func isProxyProvider(pc *Provider) bool {
	return !pc.HasVersion && pc.ForEach == nil && isEmptyBody(pc.Config)
}

// overriddenProviders rejects, as Terraform does, each provider
// configuration a module call passes under a name the called module
// configures itself.
func overriddenProviders(call *ModuleCall, child *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, pp := range call.Providers {
		key := pp.InChild.Name
		if pp.InChild.Alias != "" {
			key += "." + pp.InChild.Alias
		}
		pc := child.Module.ProviderConfigs[key]
		if pc == nil || isProxyProvider(pc) {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot override provider configuration",
			Detail:   fmt.Sprintf("The configuration of %s has its own local configuration for %s, and so it cannot accept an overridden configuration provided by %s.", moduleName(child.Path), key, moduleName(child.Path[:len(child.Path)-1])),
			Subject:  pp.InChild.NameRange.Ptr(),
		})
	}
	return diags
}

// unpassedConfigurationAliases reports each configuration alias the called
// module declares in its required_providers that the call's providers
// argument does not pass: Terraform never passes an alias implicitly.
func unpassedConfigurationAliases(call *ModuleCall, child *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(child.Module.RequiredProviders)) {
		rp := child.Module.RequiredProviders[name]
		for _, ca := range rp.ConfigurationAliases {
			if pc := child.Module.ProviderConfigs[name+"."+ca.Alias]; pc != nil && !isProxyProvider(pc) {
				continue // configured by the module itself
			}
			if slices.ContainsFunc(call.Providers, func(pp PassedProvider) bool {
				return pp.InChild.Name == name && pp.InChild.Alias == ca.Alias
			}) {
				continue
			}
			source := providerSourceIn(child.Module, name)
			key := name + "." + ca.Alias
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required provider configuration",
				Detail:   fmt.Sprintf("The child module requires an additional configuration for provider %s, with the local name %q.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for %s in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.", source, key, key),
				Subject:  call.DeclRange.Ptr(),
			})
		}
	}
	return diags
}

// unconfiguredPassedProviders reports what Terraform reports of called
// module m's calls passing, in their providers argument, a provider
// configuration m does not have: m has one where it has a provider block
// of that name, or its caller passes it that name. Where m would pass on
// its default configuration of a provider, its caller is warned that it
// must pass one; Terraform then fails building its graph, at the first
// such configuration it finds (one of them, by its walk's order: here the
// first depth first). The root module's calls are lang's to check, since
// a test file may give the root module provider configurations.
func (l *treeLoader) unconfiguredPassedProviders(m *Config) hcl.Diagnostics {
	var passedIn []PassedProvider
	if call := m.Parent.Module.ModuleCalls[m.Path[len(m.Path)-1]]; call != nil {
		passedIn = call.Providers
	}
	var diags hcl.Diagnostics
	warned := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(m.Module.ModuleCalls)) {
		for _, pp := range m.Module.ModuleCalls[name].Providers {
			ref := pp.InParent
			key := ref.Name
			if ref.Alias != "" {
				key += "." + ref.Alias
			}
			// A default configuration m does not declare is warned of
			// as undefined, whether or not m is passed one, and then
			// not as missing.
			undefined := undefinedCallerProvider(m, ref, l.opts.Dialect)
			if undefined != nil {
				diags = append(diags, undefined)
			}
			if m.Module.ProviderConfigs[key] != nil {
				continue
			}
			if slices.ContainsFunc(passedIn, func(in PassedProvider) bool {
				return in.InChild.Name == ref.Name && in.InChild.Alias == ref.Alias
			}) {
				continue
			}
			if ref.Alias != "" && declaresProvider(m.Module, ref.Name, ref.Alias) {
				continue // its caller is told to pass it (unpassedConfigurationAliases)
			}
			source := providerSourceIn(m.Module, ref.Name)
			if ref.Alias == "" && undefined == nil && !warned[key] {
				warned[key] = true
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Missing required provider configuration",
					Detail:   fmt.Sprintf("The configuration for %s expects to inherit a configuration for provider %s with local name %q, but %s doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for %q to the \"providers\" argument in the module %q block.", moduleName(m.Path), source, ref.Name, moduleName(m.Path[:len(m.Path)-1]), ref.Name, m.Path[len(m.Path)-1]),
					Subject:  m.CallRange.Ptr(),
				})
			}
			if l.missingProvider == nil {
				host := "registry.terraform.io/"
				if l.opts.Dialect == dialect.Tofu {
					host = "registry.opentofu.org/"
				}
				if strings.Count(source, "/") != 1 {
					host = ""
				}
				addr := moduleName(m.Path) + `.provider["` + host + source + `"]`
				if ref.Alias != "" {
					addr += "." + ref.Alias
				}
				l.missingProvider = &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "missing provider " + addr}
			}
		}
	}
	return diags
}

// withMissingProvider adds to the load's diagnostics the error of a
// provider configuration passed but not had, where the configuration has
// no error of its own: Terraform's graph then fails to build, before the
// walk that would find a module call's missing arguments.
func (l *treeLoader) withMissingProvider(diags hcl.Diagnostics) hcl.Diagnostics {
	if l.missingProvider == nil {
		return diags
	}
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary != "Missing required argument" {
			return diags
		}
	}
	kept := slices.DeleteFunc(diags, func(d *hcl.Diagnostic) bool { return d.Summary == "Missing required argument" })
	return append(kept, l.missingProvider)
}

// moduleName is how Terraform names the module at path in a message:
// "the root module", or module.a.module.b.
func moduleName(path []string) string {
	if len(path) == 0 {
		return "the root module"
	}
	return "module." + strings.Join(path, ".module.")
}

// providerSourceIn is the source address of module m's provider local name
// as Terraform shows it: from m's required_providers, else the name in the
// default namespace.
func providerSourceIn(m *Module, name string) string {
	if rp := m.RequiredProviders[name]; rp != nil && rp.Source != "" {
		return displaySource(rp.Source)
	}
	return "hashicorp/" + name
}

// redundantEmptyProviders warns, as Terraform and OpenTofu do, of a called
// module's empty provider blocks, once per provider local name (at its
// first such block), with the required_providers entry that replaces them.
func redundantEmptyProviders(child *Config, d dialect.Dialect) hcl.Diagnostics {
	first := map[string]*Provider{}
	aliases := map[string][]string{}
	for _, pc := range child.Module.ProviderConfigs {
		if !isProxyProvider(pc) {
			continue
		}
		if f := first[pc.Name]; f == nil || rangeBefore(pc.DeclRange, f.DeclRange) {
			first[pc.Name] = pc
		}
		if pc.Alias != "" {
			aliases[pc.Name] = append(aliases[pc.Name], pc.Alias)
		} else if _, ok := aliases[pc.Name]; !ok {
			aliases[pc.Name] = nil
		}
	}
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(first)) {
		source := providerSourceIn(child.Module, name)
		list := aliases[name]
		slices.Sort(list)
		list = slices.Compact(list)
		entry := fmt.Sprintf("    %s = {\n      source = %q\n", name, source)
		if len(list) > 0 {
			entry += "      configuration_aliases = [\n"
			for _, a := range list {
				entry += fmt.Sprintf("        %s.%s,\n", name, a)
			}
			entry += "      ]\n"
		}
		entry += "    }"
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Redundant empty provider block",
			Detail:   fmt.Sprintf("Earlier versions of %s used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider %q blocks and then adding or updating an entry like the following to the required_providers block of %s:\n%s", d.Product(), name, moduleName(child.Path), entry),
			Subject:  first[name].DeclRange.Ptr(),
		})
	}
	return diags
}

// rangeBefore orders ranges by file name, then position.
func rangeBefore(a, b hcl.Range) bool {
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	return a.Start.Byte < b.Start.Byte
}

// displaySource is a provider source address as Terraform shows it: without
// the default registry host, in lower case.
func displaySource(source string) string {
	s := strings.ToLower(source)
	if rest, ok := strings.CutPrefix(s, "registry.terraform.io/"); ok {
		return rest
	}
	if !strings.Contains(s, "/") {
		return "hashicorp/" + s
	}
	return s
}

// isEmptyBody reports whether a body sets no argument and has no block.
func isEmptyBody(body hcl.Body) bool {
	if body == nil {
		return true
	}
	attrs, diags := body.JustAttributes()
	return len(attrs) == 0 && !diags.HasErrors()
}

// sourceWithVersion is the error of a module call that gives a literal
// version argument with a source that is not a module registry address:
// the version makes Terraform and OpenTofu read the source as one before
// the module is looked for (VersionedSourceError). (A version built from
// variables is left as it was: Terraform decides on the constraint it
// evaluates to, which this does not reproduce.)
func sourceWithVersion(call *ModuleCall, d dialect.Dialect) *hcl.Diagnostic {
	return VersionedSourceError(call.SourceAddr, call.SourceRange, d)
}

// childSourceDir finds the directory of a called module: relative to the
// caller for local paths, from init's manifest for anything installed.
func (l *treeLoader) childSourceDir(parent *Config, call *ModuleCall, childPath []string) (string, bool, hcl.Diagnostics) {
	if l.opts.Uninitialized {
		return "", false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Module not installed",
			Detail:   fmt.Sprintf("This module is not yet installed. Run \"%s init\" to install all modules required by this configuration.", l.opts.Dialect.String()),
			Subject:  call.DeclRange.Ptr(),
		}}
	}
	if IsLocalSource(call.SourceAddr) {
		return path.Join(parent.Module.SourceDir, filepath.ToSlash(call.SourceAddr)), true, nil
	}
	key := strings.Join(childPath, ".")
	if l.opts.ManifestKey != "" {
		key = l.opts.ManifestKey + "." + key
	}
	dir, ok := l.manifest[key]
	if !ok {
		command := l.opts.Dialect.String()
		if l.opts.MissingModules == MissingModulesUnknown {
			return "", false, hcl.Diagnostics{{
				Severity: hcl.DiagWarning,
				Summary:  "Module not installed",
				Detail:   fmt.Sprintf("This module is not installed (\"%s init\" installs it), so its outputs are unknown: tfeval evaluates the rest of the configuration without it (-missing-modules=unknown).", command),
				Subject:  call.DeclRange.Ptr(),
			}}
		}
		return "", false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Module not installed",
			Detail:   fmt.Sprintf("This module is not yet installed. Run \"%s init\" to install all modules required by this configuration. (tfeval evaluates the rest of the configuration with this module's outputs unknown when given -missing-modules=unknown.)", command),
			Subject:  call.DeclRange.Ptr(),
		}}
	}
	if !path.IsAbs(dir) {
		dir = path.Join(l.manifestDir, dir)
	}
	return dir, true, nil
}

// checkCallArguments checks a module block's arguments against the called
// module's variables: required ones must be set and no others may be.
func checkCallArguments(call *ModuleCall, child *Module) hcl.Diagnostics {
	if callArgumentsValid(call, child) {
		return nil
	}
	schema := &hcl.BodySchema{}
	names := make([]string, 0, len(child.Variables))
	for name := range child.Variables {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name, Required: child.Variables[name].Required()})
	}
	_, diags := call.Config.Content(schema)
	diagsort.ByPosition(diags)
	return diags
}

// ValidateTime is the Extra of a loader diagnostic that Terraform reports
// when it validates the configuration rather than when it loads it: a
// module block's arguments checked against the called module's variables.
// terraform test loads the configuration once, and fails the command at a
// load error; it validates the configuration for each run, which such an
// error fails.
type ValidateTime struct{}

// LoadTime is diags without those Terraform reports only when it
// validates the configuration (ValidateTime).
func LoadTime(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if _, ok := d.Extra.(ValidateTime); !ok {
			out = append(out, d)
		}
	}
	return out
}

// callArgumentDiags is checkCallArguments, with the missing required
// arguments of the first call that has some in the tree (depth first, by
// call name) alone: terraform validate (v1.11.4) reports those of one call
// of the tree and of no other, which one changing from run to run.
func (l *treeLoader) callArgumentDiags(call *ModuleCall, child *Module) hcl.Diagnostics {
	diags := checkCallArguments(call, child)
	for _, d := range diags {
		d.Extra = ValidateTime{}
	}
	missing := slices.ContainsFunc(diags, func(d *hcl.Diagnostic) bool { return d.Summary == missingArgumentSummary })
	switch {
	case !missing:
	case l.missingArgs:
		diags = slices.DeleteFunc(diags, func(d *hcl.Diagnostic) bool { return d.Summary == missingArgumentSummary })
	default:
		l.missingArgs = true
	}
	return diags
}

// missingArgumentSummary is hcl's summary of a required argument not set.
const missingArgumentSummary = "Missing required argument"

// callArgumentsValid reports whether checkCallArguments finds nothing: the
// body reads as attributes alone, every one a variable of the module, and
// every required variable is set. Most calls are; reading the body as
// attributes is what Content does, less the schema and the remaining
// body it builds (with a set of every name it hid).
func callArgumentsValid(call *ModuleCall, child *Module) bool {
	if _, ok := call.Config.(*hclsyntax.Body); !ok {
		// Other bodies (JSON, merged with an override) report in their
		// own ways: Content tells.
		return false
	}
	attrs, diags := call.Config.JustAttributes()
	if len(diags) != 0 {
		return false
	}
	for name := range attrs {
		if child.Variables[name] == nil {
			return false
		}
	}
	for name, v := range child.Variables {
		if v.Required() && attrs[name] == nil {
			return false
		}
	}
	return true
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// within reports whether path is dir or inside it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
