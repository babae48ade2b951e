package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/override"
	"github.com/tfeval/tfeval/typeexpr"
)

// mergeFile lays an override file over the module: each block must match an
// existing one (except non-aliased providers) and replaces only what it sets.
func (m *Module) mergeFile(f *file, d dialect.Dialect) hcl.Diagnostics {
	var diags hcl.Diagnostics

	if len(f.RequiredVersion) > 0 {
		m.RequiredVersion = f.RequiredVersion
	}
	for _, rp := range f.RequiredProviders {
		m.RequiredProviders[rp.Name] = rp
	}
	diags = append(diags, m.mergeBackends(f.Backends)...)

	for _, p := range f.Providers {
		existing, ok := m.ProviderConfigs[p.key()]
		if !ok {
			if p.Alias == "" {
				m.ProviderConfigs[p.key()] = p
				continue
			}
			diags = append(diags, missingBase("Missing base provider configuration for override",
				fmt.Sprintf("There is no %s provider configuration with the alias %q. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.", p.Name, p.Alias),
				p.DeclRange))
			continue
		}
		if p.Version != "" {
			existing.Version = p.Version
		}
		existing.Config = override.MergeBodies(existing.Config, p.Config)
	}
	for _, v := range f.Variables {
		existing, ok := m.Variables[v.Name]
		if !ok {
			diags = append(diags, missingBase("Missing base variable declaration to override",
				fmt.Sprintf("There is no variable named %q. An override file can only override a variable that was already declared in a primary configuration file.", v.Name),
				v.DeclRange))
			continue
		}
		diags = append(diags, mergeVariable(existing, v, d)...)
	}
	for _, l := range f.Locals {
		if _, ok := m.Locals[l.Name]; !ok {
			diags = append(diags, missingBase("Missing base local value definition to override",
				fmt.Sprintf("There is no local value named %q. An override file can only override a local value that was defined in a primary configuration file.", l.Name),
				l.DeclRange))
			continue
		}
		m.Locals[l.Name] = l
	}
	for _, o := range f.Outputs {
		existing, ok := m.Outputs[o.Name]
		if !ok {
			diags = append(diags, missingBase("Missing base output definition to override",
				fmt.Sprintf("There is no output named %q. An override file can only override an output that was defined in a primary configuration file.", o.Name),
				o.DeclRange))
			continue
		}
		diags = append(diags, mergeOutput(existing, o)...)
	}
	for _, mc := range f.ModuleCalls {
		existing, ok := m.ModuleCalls[mc.Name]
		if !ok {
			diags = append(diags, missingBase("Missing module call to override",
				fmt.Sprintf("There is no module call named %q. An override file can only override a module call that was defined in a primary configuration file.", mc.Name),
				mc.DeclRange))
			continue
		}
		diags = append(diags, mergeModuleCall(existing, mc)...)
	}
	for _, r := range f.Resources {
		var summary, detail string
		switch r.Mode {
		case ManagedResourceMode:
			summary = "Missing resource to override"
			detail = fmt.Sprintf("There is no %s resource named %q. An override file can only override a resource block defined in a primary configuration file.", r.Type, r.Name)
		case DataResourceMode:
			summary = "Missing data resource to override"
			detail = fmt.Sprintf("There is no %s data resource named %q. An override file can only override a data block defined in a primary configuration file.", r.Type, r.Name)
		case EphemeralResourceMode:
			// Terraform silently ignores ephemeral blocks in override files.
			if d == dialect.Terraform {
				continue
			}
			summary = "Missing ephemeral resource to override"
			detail = fmt.Sprintf("There is no %s ephemeral resource named %q. An override file can only override an ephemeral block defined in a primary configuration file.", r.Type, r.Name)
		}
		existing, ok := m.resourceMap(r.Mode)[r.Addr()]
		if !ok {
			diags = append(diags, missingBase(summary, detail, r.DeclRange))
			continue
		}
		diags = append(diags, mergeResource(existing, r)...)
	}
	for _, mv := range f.Moved {
		diags = append(diags, missingBase("Cannot override 'moved' blocks",
			"Records of moved objects can appear only in normal files, not in override files.", mv.DeclRange))
	}
	for _, im := range f.Import {
		diags = append(diags, missingBase("Cannot override 'import' blocks",
			"Import blocks can appear only in normal files, not in override files.", im.DeclRange))
	}
	if d == dialect.Tofu {
		for _, rm := range f.Removed {
			diags = append(diags, missingBase("Cannot override 'Removed' blocks",
				"Removed blocks can appear only in normal files, not in override files.", rm.DeclRange))
		}
	}
	// check blocks, removed blocks (Terraform) and provider_meta are not merged.
	return diags
}

func missingBase(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

// mergeBackends applies the backend or cloud block of one override file.
func (m *Module) mergeBackends(backends []*Backend) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var backend, cloud *Backend
	for _, b := range backends {
		first := &backend
		summary, what := "Duplicate backend configuration", "backend"
		if b.Cloud {
			first, summary, what = &cloud, "Duplicate HCP Terraform configurations", "'cloud' block"
		}
		if *first != nil {
			diags = append(diags, duplicate(summary,
				fmt.Sprintf("Each override file may have only one %s configuration. A %s was previously configured at %s.", what, what, (*first).DeclRange),
				b.DeclRange))
			continue
		}
		*first = b
	}
	// The last of them in file order wins, clearing the other kind.
	for _, b := range backends {
		if b == backend || b == cloud {
			m.Backend = b
		}
	}
	return diags
}

// mergeVariable applies an override variable block, then re-checks the
// default against the type because either may have changed.
func mergeVariable(v, o *Variable, d dialect.Dialect) hcl.Diagnostics {
	if o.DescriptionSet {
		v.Description, v.DescriptionSet = o.Description, true
	}
	if o.Default != cty.NilVal {
		v.Default = o.Default
	}
	if o.TypeSet {
		// Terraform keeps the base's optional-attribute defaults here.
		v.Type, v.ConstraintType, v.ParsingMode, v.TypeSet = o.Type, o.ConstraintType, o.ParsingMode, true
	}
	if o.SensitiveSet {
		v.Sensitive, v.SensitiveSet = o.Sensitive, true
	}
	if o.EphemeralSet {
		v.Ephemeral, v.EphemeralSet = o.Ephemeral, true
	}
	if o.ConstSet {
		v.Const, v.ConstSet = o.Const, true
	}
	if o.NullableSet {
		v.Nullable, v.NullableSet = o.Nullable, true
	}
	if d == dialect.Tofu && o.Deprecated != "" {
		v.Deprecated = o.Deprecated
	}

	var diags hcl.Diagnostics
	if v.Default == cty.NilVal {
		return nil
	}
	val, err := typeexpr.Convert(v.Default, v.ConstraintType, v.TypeDefaults)
	if err != nil {
		var detail string
		switch {
		case o.TypeSet && o.Default != cty.NilVal:
			detail = "This variable's default value is not compatible with its type constraint: %s."
		case o.TypeSet:
			detail = "Overriding this variable's type constraint has made its default value invalid: %s."
		default:
			detail = "The overridden default value for this variable is not compatible with the variable's type constraint: %s."
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid default value for variable",
			Detail:   fmt.Sprintf(detail, typeexpr.FormatError(err)),
			Subject:  o.DeclRange.Ptr(),
		})
	} else {
		v.Default = val
	}
	if !v.Nullable && v.Default.IsNull() {
		diags = append(diags, nullDefaultDiag(o.DeclRange))
	}
	return diags
}

func unsupportedDependsOn(deps []hcl.Traversal) hcl.Diagnostics {
	if len(deps) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported override",
		Detail:   "The depends_on argument may not be overridden.",
		Subject:  deps[0].SourceRange().Ptr(),
	}}
}

func mergeOutput(out, o *Output) hcl.Diagnostics {
	if o.Description != "" {
		out.Description = o.Description
	}
	if o.Expr != nil {
		out.Expr = o.Expr
	}
	if o.SensitiveSet {
		out.Sensitive, out.SensitiveSet = o.Sensitive, true
	}
	if o.EphemeralSet {
		out.Ephemeral, out.EphemeralSet = o.Ephemeral, true
	}
	if o.ConstraintType != cty.NilType {
		out.ConstraintType, out.TypeDefaults = o.ConstraintType, o.TypeDefaults
	}
	return unsupportedDependsOn(o.DependsOn)
}

func mergeModuleCall(mc, o *ModuleCall) hcl.Diagnostics {
	if o.SourceAddr != "" || o.SourceExpr != nil {
		mc.SourceAddr, mc.SourceExpr, mc.SourceRange = o.SourceAddr, o.SourceExpr, o.SourceRange
	}
	if o.Count != nil {
		mc.Count = o.Count
	}
	if o.ForEach != nil {
		mc.ForEach = o.ForEach
	}
	if o.Enabled != nil {
		mc.Enabled = o.Enabled
	}
	if o.Version != "" || o.VersionExpr != nil {
		mc.Version, mc.VersionExpr, mc.VersionRange = o.Version, o.VersionExpr, o.VersionRange
	}
	mc.Config = override.MergeBodies(mc.Config, o.Config)
	if len(o.Providers) != 0 {
		mc.Providers = o.Providers
	}
	return unsupportedDependsOn(o.DependsOn)
}

func mergeResource(r, o *Resource) hcl.Diagnostics {
	if o.Count != nil {
		r.Count = o.Count
	}
	if o.ForEach != nil {
		r.ForEach = o.ForEach
	}
	if o.Enabled != nil {
		r.Enabled = o.Enabled
	}
	if o.ProviderRef != nil {
		r.ProviderRef = o.ProviderRef
	}
	if len(o.Preconditions) != 0 {
		r.Preconditions = o.Preconditions
	}
	if len(o.Postconditions) != 0 {
		r.Postconditions = o.Postconditions
	}
	if r.Managed != nil && o.Managed != nil {
		m, om := r.Managed, o.Managed
		if om.Connection != nil {
			m.Connection = om.Connection
		}
		if om.CreateBeforeDestroySet {
			m.CreateBeforeDestroy, m.CreateBeforeDestroySet = om.CreateBeforeDestroy, true
		}
		if om.PreventDestroySet {
			m.PreventDestroy, m.PreventDestroySet = om.PreventDestroy, true
		}
		if len(om.IgnoreChanges) != 0 {
			m.IgnoreChanges = om.IgnoreChanges
		}
		if om.IgnoreAllChanges {
			m.IgnoreAllChanges = true
		}
		if len(om.ReplaceTriggeredBy) != 0 {
			m.ReplaceTriggeredBy = om.ReplaceTriggeredBy
		}
		if len(om.Provisioners) != 0 {
			m.Provisioners = om.Provisioners
		}
	}
	r.Config = override.MergeBodies(r.Config, o.Config)
	return unsupportedDependsOn(o.DependsOn)
}
