package config

import (
	"github.com/hashicorp/hcl/v2"
	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
)

// output decodes an output block.
func (d *decoder) output(block *hcl.Block) (*Output, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	o := &Output{Name: block.Labels[0], DeclRange: block.DefRange}
	if !validName(o.Name) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid output name",
			Detail:   badIdentifierDetail,
			Subject:  block.LabelRanges[0].Ptr(),
		})
	}
	content, cDiags := blockContent(block.Body, outputBlockSchema(d.dialect, d.override))
	diags = append(diags, cDiags...)

	if attr, ok := content.attribute("description"); ok {
		var dDiags hcl.Diagnostics
		o.Description, dDiags = literalString(attr)
		diags = append(diags, dDiags...)
	}
	if attr, ok := content.attribute("value"); ok {
		o.Expr = attr.Expr
	}
	if attr, ok := content.attribute("type"); ok {
		ty, defaults, tDiags := hcltypeexpr.TypeConstraintWithDefaults(attr.Expr)
		diags = append(diags, tDiags...)
		if !tDiags.HasErrors() {
			o.ConstraintType, o.TypeDefaults = ty, defaults
		}
	}
	for _, flag := range []struct {
		name     string
		val, set *bool
	}{
		{"sensitive", &o.Sensitive, &o.SensitiveSet},
		{"ephemeral", &o.Ephemeral, &o.EphemeralSet},
	} {
		if attr, ok := content.attribute(flag.name); ok {
			b, bDiags := literalBool(attr)
			diags = append(diags, bDiags...)
			*flag.val, *flag.set = b, true
		}
	}
	if attr, ok := content.attribute("deprecated"); ok {
		var dDiags hcl.Diagnostics
		o.Deprecated, dDiags = literalString(attr)
		diags = append(diags, dDiags...)
	}
	if attr, ok := content.attribute("depends_on"); ok {
		deps, dDiags := dependsOn(attr)
		diags = append(diags, dDiags...)
		o.DependsOn = deps
	}
	for _, block := range content.Blocks {
		switch block.Type {
		case "precondition":
			rule, rDiags := d.checkRule(block)
			diags = append(diags, rDiags...)
			if dg := ConstantCondition(rule, "precondition"); dg != nil && !d.override {
				diags = append(diags, dg)
			}
			o.Preconditions = append(o.Preconditions, rule)
		case "postcondition":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Postconditions are not allowed",
				Detail:   "Output values can only have preconditions, not postconditions.",
				Subject:  block.TypeRange.Ptr(),
			})
		}
	}
	return o, diags
}

// locals decodes the entries of one locals block.
func (d *decoder) locals(block *hcl.Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	names := make([]*hcl.Attribute, 0, len(attrs))
	for _, attr := range attrs {
		names = append(names, attr)
	}
	sortAttributes(names)
	var locals []*Local
	for _, attr := range names {
		if !validName(attr.Name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid local value name",
				Detail:   badIdentifierDetail,
				Subject:  attr.NameRange.Ptr(),
			})
		}
		locals = append(locals, &Local{Name: attr.Name, Expr: attr.Expr, DeclRange: attr.Range})
	}
	return locals, diags
}
