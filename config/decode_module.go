package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/dialect"
)

// moduleCall decodes a module block; Config keeps the input arguments.
func (d *decoder) moduleCall(block *hcl.Block) (*ModuleCall, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	mc := &ModuleCall{Name: block.Labels[0], DeclRange: block.DefRange}
	if !validName(mc.Name) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid module instance name",
			Detail:   badIdentifierDetail,
			Subject:  block.LabelRanges[0].Ptr(),
		})
	}
	content, remain, cDiags := block.Body.PartialContent(moduleCallMetaSchema(d.dialect, d.override))
	diags = append(diags, cDiags...)
	mc.Config = remain

	if attr, ok := content.Attributes["source"]; ok && !isConstant(attr.Expr) {
		// Built from variables or locals: resolved while the tree loads.
		mc.SourceExpr, mc.SourceRange = attr.Expr, attr.Expr.Range()
	} else if ok {
		src, sDiags := literalString(attr)
		diags = append(diags, sDiags...)
		mc.SourceAddr, mc.SourceRange = src, attr.Expr.Range()
		if !sDiags.HasErrors() && src == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid module source address",
				Detail:   "The module source address must not be empty.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["version"]; ok && !isConstant(attr.Expr) {
		mc.VersionExpr, mc.VersionRange = attr.Expr, attr.Expr.Range()
	} else if ok {
		v, vDiags := literalString(attr)
		diags = append(diags, vDiags...)
		mc.Version, mc.VersionRange = v, attr.Expr.Range()
	}
	if attr, ok := content.Attributes["count"]; ok {
		mc.Count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		mc.ForEach = attr.Expr
	}
	diags = append(diags, d.repetition(content.Attributes, content.Blocks, "module instances")...)
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, dDiags := dependsOn(attr)
		diags = append(diags, dDiags...)
		mc.DependsOn = deps
	}
	if attr, ok := content.Attributes["providers"]; ok {
		pairs, pDiags := hcl.ExprMap(attr.Expr)
		diags = append(diags, pDiags...)
		for _, pair := range pairs {
			child, cDiags := providerRef(pair.Key, "providers")
			diags = append(diags, cDiags...)
			parent, pDiags := d.providerInstanceRef(pair.Value, "providers")
			diags = append(diags, pDiags...)
			if child != nil && parent != nil {
				mc.Providers = append(mc.Providers, PassedProvider{InChild: *child, InParent: *parent})
			}
		}
	}
	for _, block := range content.Blocks {
		if block.Type == "lifecycle" && d.dialect == dialect.Tofu {
			lc, lDiags := block.Body.Content(moduleLifecycleSchema)
			diags = append(diags, lDiags...)
			if attr, ok := lc.Attributes["enabled"]; ok {
				mc.Enabled = attr.Expr
			}
			mc.Config = withoutBlocks(mc.Config, "lifecycle")
			continue
		}
		diags = append(diags, reservedBlock(block, "module"))
	}
	return mc, diags
}

// withoutBlocks is a parsed body without its blocks of type typ: hcl's
// JustAttributes rejects every block of a body, even one PartialContent
// took, and a module call's arguments are read with it.
func withoutBlocks(body hcl.Body, typ string) hcl.Body {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return body
	}
	c := *sb
	c.Blocks = nil
	for _, b := range sb.Blocks {
		if b.Type != typ {
			c.Blocks = append(c.Blocks, b)
		}
	}
	return &c
}

// provider decodes a provider block.
func (d *decoder) provider(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	p := &Provider{Name: block.Labels[0], DeclRange: block.DefRange}
	if !validName(p.Name) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider local name",
			Detail:   fmt.Sprintf("%q is an invalid provider local name. %s", p.Name, badIdentifierDetail),
			Subject:  block.LabelRanges[0].Ptr(),
		})
	} else if d := localNameDiag(p.Name, block.LabelRanges[0]); d != nil {
		diags = append(diags, d)
	}
	content, remain, cDiags := block.Body.PartialContent(providerMetaSchema)
	diags = append(diags, cDiags...)
	p.Config = remain
	if attr, ok := content.Attributes["for_each"]; ok && d.dialect == dialect.Tofu {
		p.ForEach = attr.Expr
	}
	for _, name := range []string{"count", "depends_on", "for_each", "source"} {
		if name == "for_each" && p.ForEach != nil {
			continue
		}
		if attr, ok := content.Attributes[name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved argument name in provider block",
				Detail:   fmt.Sprintf("The provider argument name %q is reserved for use by Terraform in a future version.", name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["alias"]; ok {
		alias, aDiags := literalString(attr)
		diags = append(diags, aDiags...)
		if !aDiags.HasErrors() && !validName(alias) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider configuration alias",
				Detail:   "An alias must be a valid name. " + badIdentifierDetail,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
		p.Alias = alias
	}
	if attr, ok := content.Attributes["version"]; ok {
		v, vDiags := literalString(attr)
		diags = append(diags, vDiags...)
		p.Version = v
		p.HasVersion = true
		product := d.dialect.Product()
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Version constraints inside provider configuration blocks are deprecated",
			Detail:   product + " 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of " + product + ". To silence this warning, move the provider version constraint into the required_providers block.",
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	for _, block := range content.Blocks {
		diags = append(diags, reservedBlock(block, "provider"))
	}
	return p, diags
}

// key is the provider configuration's key in Module.ProviderConfigs.
func (p *Provider) key() string {
	if p.Alias != "" {
		return p.Name + "." + p.Alias
	}
	return p.Name
}

// check decodes a check block with its optional scoped data block.
func (d *decoder) check(block *hcl.Block) (*Check, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	c := &Check{Name: block.Labels[0], DeclRange: block.DefRange}
	if !validName(c.Name) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid check block name",
			Detail:   badIdentifierDetail,
			Subject:  block.LabelRanges[0].Ptr(),
		})
	}
	content, cDiags := block.Body.Content(checkBlockSchema)
	diags = append(diags, cDiags...)
	for _, block := range content.Blocks {
		switch block.Type {
		case "data":
			if c.DataResource != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Multiple data resource blocks",
					Detail:   fmt.Sprintf("This check block already has a data resource defined at %s.", c.DataResource.DeclRange),
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			r, rDiags := d.resource(block, DataResourceMode)
			diags = append(diags, rDiags...)
			r.Check = c.Name
			c.DataResource = r
		case "assert":
			rule, rDiags := d.checkRule(block)
			diags = append(diags, rDiags...)
			c.Asserts = append(c.Asserts, rule)
		}
	}
	if len(c.Asserts) == 0 && !d.override {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Zero assert blocks",
			Detail:   "Check blocks must have at least one assert block.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return c, diags
}

// moved decodes a moved block.
func (d *decoder) moved(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedBlockSchema)
	m := &Moved{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["from"]; ok {
		m.From = attr.Expr
	}
	if attr, ok := content.Attributes["to"]; ok {
		m.To = attr.Expr
	}
	return m, diags
}

// importBlock decodes an import block.
func (d *decoder) importBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importBlockSchema(d.dialect))
	im := &Import{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["id"]; ok {
		im.ID = attr.Expr
	}
	if attr, ok := content.Attributes["identity"]; ok {
		im.Identity = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		im.ForEach = attr.Expr
	}
	if attr, ok := content.Attributes["to"]; ok {
		im.To = attr.Expr
		target, d := importTarget(attr.Expr, im.ForEach != nil)
		if d != nil {
			diags = append(diags, d)
		}
		im.Target = target
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, pDiags := providerRef(attr.Expr, "provider")
		diags = append(diags, pDiags...)
		im.ProviderRef = ref
	}
	return im, diags
}

// removed decodes a removed block; Config is the whole body.
func (d *decoder) removed(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	content, _, diags := block.Body.PartialContent(removedMetaSchema)
	rm := &Removed{Config: block.Body, DeclRange: block.DefRange}
	if attr, ok := content.Attributes["from"]; ok {
		rm.From = attr.Expr
	}
	// Terraform decodes a removed block's provisioners as a resource's, and
	// runs only destroy-time ones: any other is an error there. (OpenTofu's
	// answer is not recorded here; its removed blocks are left unchecked.)
	if d.dialect != dialect.Tofu {
		for _, b := range content.Blocks {
			if b.Type != "provisioner" {
				continue
			}
			p, pDiags := d.provisioner(b)
			diags = append(diags, pDiags...)
			if p.When != "destroy" {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provisioner block",
					Detail:   "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a destroy-time provisioner, use:\n    when = destroy",
					Subject:  b.DefRange.Ptr(),
				})
			}
		}
	}
	return rm, diags
}

// isConstant reports whether an expression has a value without any
// variable or function: a literal, or a template of literals.
func isConstant(expr hcl.Expression) bool {
	_, diags := expr.Value(nil)
	return !diags.HasErrors()
}
