package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// noun is how diagnostics name a resource mode ("resource", "data resource", ...).
func (m ResourceMode) noun() string {
	switch m {
	case DataResourceMode:
		return "data resource"
	case EphemeralResourceMode:
		return "ephemeral resource"
	}
	return "resource"
}

// instancesNoun names the instances of a resource of mode m, as
// OpenTofu's diagnostics about their number do.
func (m ResourceMode) instancesNoun() string {
	switch m {
	case DataResourceMode:
		return "data sources"
	case EphemeralResourceMode:
		return "ephemeral resources"
	}
	return "resources"
}

// keyword is the block type of a resource mode.
func (m ResourceMode) keyword() string {
	switch m {
	case DataResourceMode:
		return "data"
	case EphemeralResourceMode:
		return "ephemeral"
	}
	return "resource"
}

// resource decodes a resource, data or ephemeral block. Config keeps every
// argument and nested block (including dynamic ones) that is not a
// meta-argument.
func (d *decoder) resource(block *hcl.Block, mode ResourceMode) (*Resource, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	r := &Resource{
		Mode:      mode,
		Type:      block.Labels[0],
		Name:      block.Labels[1],
		DeclRange: block.DefRange,
		TypeRange: block.LabelRanges[0],
	}
	if mode == ManagedResourceMode {
		r.Managed = &ManagedResource{}
	}
	if !validName(r.Type) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid resource type name",
			Detail:   badIdentifierDetail,
			Subject:  block.LabelRanges[0].Ptr(),
		})
	}
	if !validName(r.Name) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Invalid %s name", mode.noun()),
			Detail:   badIdentifierDetail,
			Subject:  block.LabelRanges[1].Ptr(),
		})
	}

	content, remain, cDiags := block.Body.PartialContent(resourceMetaSchema(mode))
	diags = append(diags, cDiags...)
	r.Config = remain
	if sb, ok := block.Body.(*hclsyntax.Body); ok {
		r.syntax, r.meta, r.decoded = sb, resourceMetaSchema(mode), remain
	}

	if attr, ok := content.Attributes["count"]; ok {
		r.Count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		r.ForEach = attr.Expr
	}
	diags = append(diags, d.repetition(content.Attributes, content.Blocks, mode.instancesNoun())...)
	if attr, ok := content.Attributes["provider"]; ok {
		ref, pDiags := d.providerInstanceRef(attr.Expr, "provider")
		diags = append(diags, pDiags...)
		r.ProviderRef = ref
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, dDiags := dependsOn(attr)
		diags = append(diags, dDiags...)
		r.DependsOn = deps
	}

	var seenLifecycle, seenConnection *hcl.Block
	for _, block := range content.Blocks {
		switch block.Type {
		case "lifecycle":
			if seenLifecycle != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate lifecycle block",
					Detail:   fmt.Sprintf("This resource already has a lifecycle block at %s.", seenLifecycle.DefRange),
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			seenLifecycle = block
			diags = append(diags, d.lifecycle(block, r)...)
		case "connection":
			if seenConnection != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate connection block",
					Detail:   fmt.Sprintf("This resource already has a connection block at %s.", seenConnection.DefRange),
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			seenConnection = block
			r.Managed.Connection = &Connection{Config: block.Body, DeclRange: block.DefRange}
		case "provisioner":
			p, pDiags := d.provisioner(block)
			diags = append(diags, pDiags...)
			if removedProvisioners[p.Type] {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("The %q provisioner has been removed", p.Type),
					Detail:   fmt.Sprintf("The %q provisioner is no longer part of Terraform: run the tool with a local-exec or remote-exec provisioner instead.", p.Type),
					Subject:  block.TypeRange.Ptr(),
				})
			}
			r.Managed.Provisioners = append(r.Managed.Provisioners, p)
		default:
			diags = append(diags, reservedBlock(block, "resource"))
		}
	}
	if !d.override {
		diags = append(diags, checkResource(r)...)
	}
	return r, diags
}

// lifecycle decodes a lifecycle block into r. Its values must be literals:
// they are needed before anything can be evaluated.
func (d *decoder) lifecycle(block *hcl.Block, r *Resource) hcl.Diagnostics {
	content, diags := block.Body.Content(managedLifecycleSchema(d.dialect))
	if attr, ok := content.Attributes["enabled"]; ok {
		// Every mode has it: managed, data and ephemeral resources.
		r.Enabled = attr.Expr
	}
	if r.Mode != ManagedResourceMode {
		for _, attr := range sortedAttributes(content.Attributes) {
			if attr.Name == "enabled" {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Invalid %s lifecycle argument", r.Mode.noun()),
				Detail:   fmt.Sprintf("The lifecycle argument %q is defined only for managed resources (\"resource\" blocks), and is not valid for %ss.", attr.Name, r.Mode.noun()),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	} else {
		m := r.Managed
		if attr, ok := content.Attributes["create_before_destroy"]; ok {
			b, bDiags := literalBool(attr)
			diags = append(diags, bDiags...)
			m.CreateBeforeDestroy, m.CreateBeforeDestroySet = b, true
		}
		if attr, ok := content.Attributes["prevent_destroy"]; ok {
			b, bDiags := literalBool(attr)
			diags = append(diags, bDiags...)
			m.PreventDestroy, m.PreventDestroySet = b, true
		}
		if attr, ok := content.Attributes["ignore_changes"]; ok {
			diags = append(diags, ignoreChanges(attr, m)...)
		}
		if attr, ok := content.Attributes["replace_triggered_by"]; ok {
			exprs, eDiags := hcl.ExprList(attr.Expr)
			diags = append(diags, eDiags...)
			m.ReplaceTriggeredBy = exprs
		}
	}
	for _, block := range content.Blocks {
		switch block.Type {
		case "action_trigger":
			if r.Mode != ManagedResourceMode {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unsupported block type",
					Detail:   fmt.Sprintf("Blocks of type \"action_trigger\" are not expected here: actions are triggered only by managed resources, not by %ss.", r.Mode.noun()),
					Subject:  block.TypeRange.Ptr(),
				})
			}
		case "precondition":
			rule, rDiags := d.checkRule(block)
			diags = append(diags, rDiags...)
			r.Preconditions = append(r.Preconditions, rule)
		case "postcondition":
			rule, rDiags := d.checkRule(block)
			diags = append(diags, rDiags...)
			r.Postconditions = append(r.Postconditions, rule)
		}
	}
	return diags
}

// ignoreChanges decodes `all` or a list of relative attribute paths.
func ignoreChanges(attr *hcl.Attribute, m *ManagedResource) hcl.Diagnostics {
	if hcl.ExprAsKeyword(attr.Expr) == "all" {
		m.IgnoreAllChanges = true
		return nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	var star *hcl.Range // the last "*" of the list
	for _, expr := range exprs {
		if v, vDiags := expr.Value(nil); !vDiags.HasErrors() && v.Type() == cty.String && !v.IsNull() && v.AsString() == "*" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid ignore_changes wildcard",
				Detail:   "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
				Subject:  attr.Expr.Range().Ptr(),
			})
			star = expr.Range().Ptr()
			continue
		}
		// A quoted attribute name, as Terraform 0.11 wrote it, is still
		// taken, with the deprecation warning depends_on gives too.
		var trav hcl.Traversal
		abs, tDiags, quoted := quotedTraversal(expr)
		if quoted {
			diags = append(diags, tDiags...)
			if len(abs) > 0 {
				trav, tDiags = hcl.RelTraversalForExpr(&hclsyntax.ScopeTraversalExpr{Traversal: abs, SrcRange: abs.SourceRange()})
				diags = append(diags, tDiags...)
			}
		} else {
			trav, tDiags = hcl.RelTraversalForExpr(expr)
			diags = append(diags, tDiags...)
		}
		if len(trav) > 0 {
			m.IgnoreChanges = append(m.IgnoreChanges, trav)
		}
	}
	if star != nil && len(m.IgnoreChanges) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes ruleset",
			Detail:   "Cannot mix wildcard string \"*\" with non-wildcard references.",
			Subject:  star,
			Context:  attr.Expr.Range().Ptr(),
		})
	}
	return diags
}

// provisionerKeyword reads the keyword of a provisioner's when or
// on_failure. Terraform 0.11 wrote it in quotes ("destroy"), and Terraform
// still takes a quoted one, whose string is then the keyword, with a
// deprecation warning (an unknown keyword in quotes is both warned about
// and an error); anything else that is not a bare keyword reads as "".
func provisionerKeyword(expr hcl.Expression) (string, hcl.Diagnostics) {
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		return kw, nil
	}
	if _, isTmpl := expr.(*hclsyntax.TemplateExpr); !isTmpl {
		return "", nil
	}
	v, vDiags := expr.Value(nil)
	if vDiags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", nil
	}
	return v.AsString(), hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Quoted keywords are deprecated",
		Detail:   "In this context, keywords are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this keyword to silence this warning.",
		Subject:  expr.Range().Ptr(),
	}}
}

// provisioner decodes a provisioner block.
func (d *decoder) provisioner(block *hcl.Block) (*Provisioner, hcl.Diagnostics) {
	p := &Provisioner{Type: block.Labels[0], When: "create", OnFailure: "fail", DeclRange: block.DefRange}
	content, remain, diags := block.Body.PartialContent(provisionerMetaSchema)
	p.Config = remain
	if attr, ok := content.Attributes["when"]; ok {
		kw, kwDiags := provisionerKeyword(attr.Expr)
		diags = append(diags, kwDiags...)
		switch kw {
		case "create", "destroy":
			p.When = kw
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "when" keyword`,
				Detail:   `The "when" argument requires one of the following keywords: create or destroy.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		kw, kwDiags := provisionerKeyword(attr.Expr)
		diags = append(diags, kwDiags...)
		switch kw {
		case "continue", "fail":
			p.OnFailure = kw
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "on_failure" keyword`,
				Detail:   `The "on_failure" argument requires one of the following keywords: continue or fail.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	for _, block := range content.Blocks {
		switch block.Type {
		case "connection":
			if p.Connection != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate connection block",
					Detail:   fmt.Sprintf("This provisioner already has a connection block at %s.", p.Connection.DeclRange),
					Subject:  block.DefRange.Ptr(),
				})
				continue
			}
			p.Connection = &Connection{Config: block.Body, DeclRange: block.DefRange}
		default:
			diags = append(diags, reservedBlock(block, "provisioner"))
		}
	}
	diags = append(diags, checkDestroyProvisionerRefs(p)...)
	return p, diags
}

// sortedAttributes returns attrs in source order.
func sortedAttributes(attrs hcl.Attributes) []*hcl.Attribute {
	list := make([]*hcl.Attribute, 0, len(attrs))
	for _, attr := range attrs {
		list = append(list, attr)
	}
	sortAttributes(list)
	return list
}
