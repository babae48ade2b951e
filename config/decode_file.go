package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/diagsort"
)

// file is the decoded content of one configuration file, in source order.
type file struct {
	Path     string
	Override bool

	RequiredVersion        []hcl.Expression
	RequiredProviders      []*RequiredProvider
	RequiredProvidersBlock []hcl.Range // one per required_providers block
	Backends               []*Backend

	Variables   []*Variable
	Locals      []*Local
	Outputs     []*Output
	ModuleCalls []*ModuleCall
	Providers   []*Provider
	Resources   []*Resource // all modes
	Checks      []*Check
	Moved       []*Moved
	Removed     []*Removed
	Import      []*Import
}

// decodeFile decodes every top-level block of a parsed file.
func (d *decoder) decodeFile(path string, body hcl.Body) (*file, hcl.Diagnostics) {
	f := &file{Path: path, Override: d.override}
	// A file's body as parsed hides nothing: with only blocks the schema
	// takes, its content is read without hcl's copies (blockContent).
	content, diags := blockContent(body, fileSchema(d.dialect))
	for _, block := range content.Blocks {
		var bDiags hcl.Diagnostics
		switch block.Type {
		case "terraform":
			bDiags = d.terraformBlock(block, f)
		case "required_providers":
			bDiags = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid required_providers block",
				Detail:   "A \"required_providers\" block must be nested inside a \"terraform\" block.",
				Subject:  block.DefRange.Ptr(),
			}}
		case "variable":
			var v *Variable
			v, bDiags = d.variable(block)
			f.Variables = append(f.Variables, v)
		case "locals":
			var ls []*Local
			ls, bDiags = d.locals(block)
			f.Locals = append(f.Locals, ls...)
		case "output":
			var o *Output
			o, bDiags = d.output(block)
			f.Outputs = append(f.Outputs, o)
		case "module":
			var mc *ModuleCall
			mc, bDiags = d.moduleCall(block)
			f.ModuleCalls = append(f.ModuleCalls, mc)
		case "provider":
			var p *Provider
			p, bDiags = d.provider(block)
			f.Providers = append(f.Providers, p)
		case "resource", "data", "ephemeral":
			mode := map[string]ResourceMode{"resource": ManagedResourceMode, "data": DataResourceMode, "ephemeral": EphemeralResourceMode}[block.Type]
			var r *Resource
			r, bDiags = d.resource(block, mode)
			f.Resources = append(f.Resources, r)
		case "check":
			var c *Check
			c, bDiags = d.check(block)
			f.Checks = append(f.Checks, c)
		case "moved":
			var m *Moved
			m, bDiags = d.moved(block)
			f.Moved = append(f.Moved, m)
		case "import":
			var im *Import
			im, bDiags = d.importBlock(block)
			f.Import = append(f.Import, im)
		case "removed":
			var rm *Removed
			rm, bDiags = d.removed(block)
			f.Removed = append(f.Removed, rm)
		case "language":
			bDiags = d.languageBlock(block)
		case "action":
			// Terraform actions run only on apply; nothing here evaluates them.
		}
		diags = append(diags, bDiags...)
	}
	diagsort.ByPosition(diags)
	return f, diags
}

// terraformBlock decodes a terraform block into f.
func (d *decoder) terraformBlock(block *hcl.Block, f *file) hcl.Diagnostics {
	content, diags := block.Body.Content(terraformBlockSchema(d.dialect))
	if attr, ok := content.Attributes["required_version"]; ok {
		f.RequiredVersion = append(f.RequiredVersion, attr.Expr)
	}
	// OpenTofu accepts both arguments in a terraform block and ignores
	// them (its own language settings have a block of their own).
	if attr, ok := content.Attributes["language"]; ok && d.dialect != dialect.Tofu {
		diags = append(diags, languageEdition(attr)...)
	}
	if attr, ok := content.Attributes["experiments"]; ok && d.dialect != dialect.Tofu {
		diags = append(diags, experiments(attr))
	}
	for _, block := range content.Blocks {
		switch block.Type {
		case "backend":
			f.Backends = append(f.Backends, &Backend{Type: block.Labels[0], Config: block.Body, DeclRange: block.DefRange})
		case "cloud":
			f.Backends = append(f.Backends, &Backend{Type: "cloud", Cloud: true, Config: block.Body, DeclRange: block.DefRange})
		case "state_store":
			f.Backends = append(f.Backends, &Backend{Type: block.Labels[0], StateStore: true, Config: block.Body, DeclRange: block.DefRange})
		case "provider_meta":
			diags = append(diags, providerMeta(block)...)
		case "required_providers":
			f.RequiredProvidersBlock = append(f.RequiredProvidersBlock, block.DefRange)
			rps, rDiags := requiredProviders(block)
			diags = append(diags, rDiags...)
			f.RequiredProviders = append(f.RequiredProviders, rps...)
		}
	}
	return diags
}

// requiredProviders decodes the entries of a required_providers block.
func requiredProviders(block *hcl.Block) ([]*RequiredProvider, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	var list []*RequiredProvider
	for _, attr := range sortedAttributes(attrs) {
		rp := &RequiredProvider{Name: attr.Name, DeclRange: attr.Range}
		if !validName(attr.Name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider local name",
				Detail:   fmt.Sprintf("%q is an invalid provider local name. %s", attr.Name, badIdentifierDetail),
				Subject:  attr.NameRange.Ptr(),
			})
		} else if d := localNameDiag(attr.Name, attr.NameRange); d != nil {
			diags = append(diags, d)
		}
		pairs, mDiags := hcl.ExprMap(attr.Expr)
		if mDiags.HasErrors() {
			// The legacy form is a bare version constraint string.
			val, vDiags := attr.Expr.Value(nil)
			if vDiags.HasErrors() || val.Type() != cty.String || val.IsNull() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid required_providers object",
					Detail:   "required_providers entries must be strings or objects.",
					Subject:  attr.Expr.Range().Ptr(),
				})
				continue
			}
			rp.Version = val.AsString()
			list = append(list, rp)
			continue
		}
		for _, pair := range pairs {
			key := hcl.ExprAsKeyword(pair.Key)
			if key == "" {
				if k, kDiags := pair.Key.Value(nil); !kDiags.HasErrors() && k.Type() == cty.String && !k.IsNull() {
					key = k.AsString()
				}
			}
			switch key {
			case "source", "version":
				val, vDiags := pair.Value.Value(nil)
				diags = append(diags, vDiags...)
				if vDiags.HasErrors() {
					continue
				}
				if val.Type() != cty.String || val.IsNull() {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid required_providers object",
						Detail:   fmt.Sprintf("The %s attribute must be a string.", key),
						Subject:  pair.Value.Range().Ptr(),
					})
					continue
				}
				if key == "source" {
					rp.Source = val.AsString()
					if d := sourceAddrDiag(rp.Source, pair.Value.Range()); d != nil {
						diags = append(diags, d)
					}
				} else {
					rp.Version = val.AsString()
				}
			case "configuration_aliases":
				exprs, eDiags := hcl.ExprList(pair.Value)
				diags = append(diags, eDiags...)
				for _, expr := range exprs {
					ref, rDiags := providerRef(expr, "configuration_aliases")
					diags = append(diags, rDiags...)
					if ref != nil {
						rp.ConfigurationAliases = append(rp.ConfigurationAliases, *ref)
					}
				}
			default:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid required_providers object",
					Detail:   `required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block.`,
					Subject:  pair.Key.Range().Ptr(),
				})
			}
		}
		list = append(list, rp)
	}
	return list, diags
}

// languageEdition checks the terraform block's language argument: a bare
// keyword naming an edition this version supports, of which there is one.
func languageEdition(attr *hcl.Attribute) hcl.Diagnostics {
	kw := hcl.ExprAsKeyword(attr.Expr)
	switch {
	case kw == "":
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid language edition",
			Detail:   "The language argument takes a language edition keyword, such as TF2021, without quotes.",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	case kw != "TF2021":
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported language edition",
			Detail:   fmt.Sprintf("The language edition %s is not supported; this version supports only TF2021.", kw),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	return nil
}

// experiments rejects the terraform block's experiments argument: a
// release build of Terraform allows no experiment, and says so once for the
// argument, whatever it holds (an empty list, a keyword, anything else),
// without reading its elements.
func experiments(attr *hcl.Attribute) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Module uses experimental features",
		Detail:   "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.",
		Subject:  attr.NameRange.Ptr(),
	}
}

// providerMeta checks a provider_meta block: its arguments are given to
// the provider before anything is evaluated, so they may not refer to
// anything.
func providerMeta(block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if d := localNameDiag(block.Labels[0], block.LabelRanges[0]); d != nil {
		diags = append(diags, d)
	}
	attrs, aDiags := block.Body.JustAttributes()
	diags = append(diags, aDiags...)
	for _, attr := range sortedAttributes(attrs) {
		if len(attr.Expr.Variables()) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider_meta argument",
				Detail:   "The arguments of a provider_meta block may not refer to variables or other objects: they are read before anything is evaluated.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	return diags
}
