package config

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/internal/sandbox"
)

// loadModule reads, decodes and merges the files of one module directory,
// or takes the module from opts.Cache (when not nil) if its files are the
// same. dir is relative to opts.WorkDir (or absolute); sourceDir is its
// path.module form. Files outside box are not read.
func loadModule(opts Options, box sandbox.Dir, dir, sourceDir string) (*Module, hcl.Diagnostics) {
	workDir, d, cache := opts.WorkDir, opts.Dialect, opts.Cache
	files, diags := moduleFiles(box, workDir, dir, d)
	srcs := make([][]byte, len(files))
	readErrs := make([]error, len(files))
	for i, cf := range files {
		if d := cancelled(opts.Context); d != nil {
			return newModule(sourceDir), append(diags, d)
		}
		srcs[i], readErrs[i] = limit.ReadSource(box, resolve(workDir, cf.Path), 0, false)
	}
	// Only a module read whole from a listed directory is worth keeping:
	// a read that failed may not fail the next time.
	if cache == nil || diags.HasErrors() || slices.ContainsFunc(readErrs, func(err error) bool { return err != nil }) {
		return decodeModule(opts.Context, sourceDir, files, srcs, readErrs, diags, d)
	}
	full := resolve(workDir, dir)
	if abs, err := filepath.Abs(full); err == nil {
		full = abs
	}
	key := moduleKey{abs: full, dir: dir, sourceDir: sourceDir, dialect: d}
	return cache.load(key, digests(files, srcs), func(i int) parsedFile {
		return parseFileWithin(opts.Context, files[i], srcs[i], readErrs[i])
	}, func(parsed []parsedFile) (*Module, hcl.Diagnostics) {
		return decodeParsed(sourceDir, files, parsed, diags, d)
	})
}

// decodeModule parses and decodes the files of a module directory, read
// into srcs (or failed with readErrs), and merges them into one module;
// diags are the directory's diagnostics so far.
func decodeModule(ctx context.Context, sourceDir string, files []configFile, srcs [][]byte, readErrs []error, diags hcl.Diagnostics, d dialect.Dialect) (*Module, hcl.Diagnostics) {
	parsed := make([]parsedFile, len(files))
	parseEach(parsed, indexes(len(parsed)), func(i int) int64 { return int64(len(srcs[i])) }, func(i int) parsedFile {
		return parseFileWithin(ctx, files[i], srcs[i], readErrs[i])
	})
	return decodeParsed(sourceDir, files, parsed, diags, d)
}

// decodeParsed decodes the parsed files of a module directory and merges
// them into one module; diags are the directory's diagnostics so far.
func decodeParsed(sourceDir string, files []configFile, parsed []parsedFile, diags hcl.Diagnostics, d dialect.Dialect) (*Module, hcl.Diagnostics) {
	m := newModule(sourceDir)
	var decoded []*file
	for i, cf := range files {
		body := parsed[i].body
		diags = append(diags, parsed[i].diags...)
		dec := &decoder{dialect: d, override: cf.Override}
		f, fDiags := dec.decodeFile(cf.Path, body)
		diags = append(diags, fDiags...)
		decoded = append(decoded, f)
		m.Files = append(m.Files, cf.Path)
		m.Bodies = append(m.Bodies, body)
	}
	for _, f := range decoded {
		if !f.Override {
			diags = append(diags, m.appendFile(f)...)
		}
	}
	for _, f := range decoded {
		if f.Override {
			diags = append(diags, m.mergeFile(f, d)...)
		}
	}
	diags = append(diags, m.checkImports()...)
	return m, diags
}

func newModule(sourceDir string) *Module {
	return &Module{
		SourceDir:          sourceDir,
		RequiredProviders:  map[string]*RequiredProvider{},
		Variables:          map[string]*Variable{},
		Locals:             map[string]*Local{},
		Outputs:            map[string]*Output{},
		ModuleCalls:        map[string]*ModuleCall{},
		ProviderConfigs:    map[string]*Provider{},
		ManagedResources:   map[string]*Resource{},
		DataResources:      map[string]*Resource{},
		EphemeralResources: map[string]*Resource{},
		Checks:             map[string]*Check{},
	}
}

// resourceMap returns the map that holds resources of mode.
func (m *Module) resourceMap(mode ResourceMode) map[string]*Resource {
	switch mode {
	case DataResourceMode:
		return m.DataResources
	case EphemeralResourceMode:
		return m.EphemeralResources
	}
	return m.ManagedResources
}

func duplicate(summary, detail string, subject hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject.Ptr()}
}

// declare adds item to m under name, or, when the name is taken, leaves m
// as it is and returns the duplicate-declaration error, whose detail names
// the name and where it was first declared.
func declare[T any](m map[string]T, name string, item T, declRange func(T) hcl.Range, summary, detailf string) *hcl.Diagnostic {
	if existing, ok := m[name]; ok {
		return duplicate(summary, fmt.Sprintf(detailf, name, declRange(existing)), declRange(item))
	}
	m[name] = item
	return nil
}

func appendDiag(diags hcl.Diagnostics, d *hcl.Diagnostic) hcl.Diagnostics {
	if d == nil {
		return diags
	}
	return append(diags, d)
}

// appendFile adds the declarations of a primary file, rejecting duplicates.
func (m *Module) appendFile(f *file) hcl.Diagnostics {
	var diags hcl.Diagnostics
	m.RequiredVersion = append(m.RequiredVersion, f.RequiredVersion...)

	for _, rng := range f.RequiredProvidersBlock {
		if m.requiredProvidersRange != nil {
			diags = append(diags, duplicate("Duplicate required providers configuration",
				fmt.Sprintf("A module may have only one required providers configuration. The required providers were previously configured at %s.", m.requiredProvidersRange),
				rng))
			continue
		}
		r := rng
		m.requiredProvidersRange = &r
	}
	for _, rp := range f.RequiredProviders {
		if existing, ok := m.RequiredProviders[rp.Name]; ok {
			diags = append(diags, duplicate("Duplicate required provider",
				fmt.Sprintf("Provider %s was already required at %s. A provider may only be required once per module.", rp.Name, existing.DeclRange),
				rp.DeclRange))
			continue
		}
		m.RequiredProviders[rp.Name] = rp
	}
	for _, b := range f.Backends {
		if m.Backend != nil && (b.StateStore || m.Backend.StateStore) {
			if b.StateStore && m.Backend.StateStore {
				diags = append(diags, duplicate("Duplicate state_store configuration",
					fmt.Sprintf("A module may have only one state_store block. State storage was previously configured at %s.", m.Backend.DeclRange),
					b.DeclRange))
			} else {
				diags = append(diags, duplicate("Conflicting state storage configuration",
					fmt.Sprintf("A module may configure state storage with one state_store, backend or cloud block, not several. The other is at %s.", m.Backend.DeclRange),
					b.DeclRange))
			}
			continue
		}
		if m.Backend != nil {
			if b.Cloud || m.Backend.Cloud {
				if b.Cloud && m.Backend.Cloud {
					diags = append(diags, duplicate("Duplicate HCP Terraform configurations",
						fmt.Sprintf("A module may have only one 'cloud' block configuring HCP Terraform. HCP Terraform was previously configured at %s.", m.Backend.DeclRange),
						b.DeclRange))
				} else {
					diags = append(diags, duplicate("Both a backend and HCP Terraform configuration are present",
						fmt.Sprintf("A module may declare either one 'cloud' block configuring HCP Terraform OR one 'backend' block configuring a state backend. HCP Terraform is configured at %s; a backend is configured at %s. Remove the backend block to configure HCP Terraform.", m.Backend.DeclRange, b.DeclRange),
						b.DeclRange))
				}
				continue
			}
			diags = append(diags, duplicate("Duplicate backend configuration",
				fmt.Sprintf("A module may have only one backend configuration. The backend was previously configured at %s.", m.Backend.DeclRange),
				b.DeclRange))
			continue
		}
		m.Backend = b
	}

	for _, v := range f.Variables {
		diags = appendDiag(diags, declare(m.Variables, v.Name, v, func(x *Variable) hcl.Range { return x.DeclRange },
			"Duplicate variable declaration", "A variable named %q was already declared at %s. Variable names must be unique within a module."))
	}
	for _, l := range f.Locals {
		diags = appendDiag(diags, declare(m.Locals, l.Name, l, func(x *Local) hcl.Range { return x.DeclRange },
			"Duplicate local value definition", "A local value named %q was already defined at %s. Local value names must be unique within a module."))
	}
	for _, o := range f.Outputs {
		diags = appendDiag(diags, declare(m.Outputs, o.Name, o, func(x *Output) hcl.Range { return x.DeclRange },
			"Duplicate output definition", "An output named %q was already defined at %s. Output names must be unique within a module."))
	}
	for _, mc := range f.ModuleCalls {
		diags = appendDiag(diags, declare(m.ModuleCalls, mc.Name, mc, func(x *ModuleCall) hcl.Range { return x.DeclRange },
			"Duplicate module call", "A module call named %q was already defined at %s. Module calls must have unique names within a module."))
	}
	for _, p := range f.Providers {
		if existing, ok := m.ProviderConfigs[p.key()]; ok {
			detail := fmt.Sprintf("A default (non-aliased) provider configuration for %q was already given at %s. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", p.Name, existing.DeclRange)
			if p.Alias != "" {
				detail = fmt.Sprintf("A provider configuration for %q with alias %q was already given at %s. Each configuration for the same provider must have a distinct alias.", p.Name, p.Alias, existing.DeclRange)
			}
			diags = append(diags, duplicate("Duplicate provider configuration", detail, p.DeclRange))
			continue
		}
		m.ProviderConfigs[p.key()] = p
	}
	for _, r := range f.Resources {
		diags = append(diags, m.addResource(r)...)
	}
	for _, c := range f.Checks {
		if existing, ok := m.Checks[c.Name]; ok {
			diags = append(diags, duplicate(fmt.Sprintf("Duplicate check %q configuration", c.Name),
				fmt.Sprintf("A check block named %q was already declared at %s. Check blocks must have unique names within a module.", c.Name, existing.DeclRange),
				c.DeclRange))
			continue
		}
		m.Checks[c.Name] = c
		// A scoped data block is still a data resource of the module.
		if c.DataResource != nil {
			diags = append(diags, m.addResource(c.DataResource)...)
		}
	}
	m.Moved = append(m.Moved, f.Moved...)
	m.Removed = append(m.Removed, f.Removed...)
	m.Import = append(m.Import, f.Import...)
	return diags
}

func (m *Module) addResource(r *Resource) hcl.Diagnostics {
	resources := m.resourceMap(r.Mode)
	key := r.Addr()
	if existing, ok := resources[key]; ok {
		return hcl.Diagnostics{duplicate(fmt.Sprintf("Duplicate %s %q configuration", r.Mode.keyword(), r.Type),
			fmt.Sprintf("A %s %s named %q was already declared at %s. Resource names must be unique per type in each module.", r.Type, r.Mode.noun(), r.Name, existing.DeclRange),
			r.DeclRange)}
	}
	resources[key] = r
	return nil
}
