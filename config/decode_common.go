package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/literal"
)

// decoder turns blocks into the typed structures. In override files nothing
// is required and unset arguments keep their zero values, so that merging
// can tell "set" from "unset".
type decoder struct {
	dialect  dialect.Dialect
	override bool
}

// literalBool decodes an argument that must be a literal bool; hcl reports
// variables and function calls as not allowed, as Terraform does.
func literalBool(attr *hcl.Attribute) (bool, hcl.Diagnostics) {
	return literal.Bool(attr.Expr)
}

// literalString decodes an argument that must be a literal string.
func literalString(attr *hcl.Attribute) (string, hcl.Diagnostics) {
	// A quoted string without interpolation, as nearly every description
	// is, is its one literal part: literal.String would evaluate it and convert the
	// result through reflection.
	if t, ok := attr.Expr.(*hclsyntax.TemplateExpr); ok && len(t.Parts) == 1 {
		if lit, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String && lit.Val.IsKnown() && !lit.Val.IsNull() && !lit.Val.IsMarked() {
			return lit.Val.AsString(), nil
		}
	}
	return literal.String(attr.Expr)
}

// repetition reports the mutually exclusive meta-arguments that set how
// many instances a block has: count and for_each, and in OpenTofu also the
// enabled argument of its lifecycle block. what names the instances in
// OpenTofu's text ("resources", "data sources", "ephemeral resources",
// "module instances"). Terraform reports count and for_each at for_each;
// OpenTofu at the span from the first to the last of them, naming all.
func (d *decoder) repetition(attrs hcl.Attributes, blocks hcl.Blocks, what string) hcl.Diagnostics {
	type metaArg struct {
		name string
		rng  hcl.Range
	}
	var found []metaArg
	add := func(name string, attr *hcl.Attribute) {
		if attr != nil {
			found = append(found, metaArg{`"` + name + `"`, attr.NameRange})
		}
	}
	add("count", attrs["count"])
	if d.dialect != dialect.Tofu {
		add("for_each", attrs["for_each"])
		if len(found) < 2 {
			return nil
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Invalid combination of "count" and "for_each"`,
			Detail:   `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.`,
			Subject:  found[1].rng.Ptr(),
		}}
	}
	add("enabled", lifecycleEnabled(blocks))
	add("for_each", attrs["for_each"])
	if len(found) < 2 {
		return nil
	}
	names := make([]string, len(found))
	first, last := found[0].rng, found[0].rng
	for i, a := range found {
		names[i] = a.name
		if a.rng.Start.Byte < first.Start.Byte {
			first = a.rng
		}
		if a.rng.Start.Byte > last.Start.Byte {
			last = a.rng
		}
	}
	list := names[0] + " and " + names[1]
	if len(names) == 3 {
		list = names[0] + ", " + names[1] + ", and " + names[2]
	}
	verb := "may"
	if what == "module instances" {
		verb = "should"
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid combination of " + list,
		Detail:   fmt.Sprintf("The %s meta-arguments are mutually-exclusive. Only one %s be used to be explicit about the number of %s to be created.", list, verb, what),
		Subject:  hcl.RangeBetween(first, last).Ptr(),
	}}
}

// lifecycleEnabled is the enabled argument of the first lifecycle block
// among blocks, nil when there is none.
func lifecycleEnabled(blocks hcl.Blocks) *hcl.Attribute {
	for _, b := range blocks {
		if b.Type != "lifecycle" {
			continue
		}
		content, _, _ := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}})
		return content.Attributes["enabled"]
	}
	return nil
}

// dependsOn decodes a depends_on list of static references to whole objects.
func dependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	var refs []hcl.Traversal
	for _, expr := range exprs {
		trav, tDiags, quoted := quotedTraversal(expr)
		if !quoted {
			trav, tDiags = hcl.AbsTraversalForExpr(expr)
		}
		diags = append(diags, tDiags...)
		if len(trav) == 0 {
			continue
		}
		if rest := referenceRemainder(trav); len(rest) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
				Subject:  rest.SourceRange().Ptr(),
			})
		}
		refs = append(refs, trav)
	}
	return refs, diags
}

// quotedTraversal reads a reference written in quotes, as Terraform 0.11
// required: Terraform still takes it, with a deprecation warning. ok is
// false for anything but a native-syntax string template whose value is
// known without variables; otherwise trav is what parsing the string as a
// reference gave, after any errors of that parse (positions inside the
// quotes), and the warning.
func quotedTraversal(expr hcl.Expression) (trav hcl.Traversal, diags hcl.Diagnostics, ok bool) {
	if _, isTmpl := expr.(*hclsyntax.TemplateExpr); !isTmpl {
		return nil, nil, false
	}
	v, vDiags := expr.Value(nil)
	if vDiags.HasErrors() || v.IsNull() || !v.IsKnown() {
		return nil, nil, false
	}
	rng := expr.Range()
	start := hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + 1, Byte: rng.Start.Byte + 1}
	trav, diags = hclsyntax.ParseTraversalAbs([]byte(v.AsString()), rng.Filename, start)
	return trav, append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Quoted references are deprecated",
		Detail:   "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.",
		Subject:  rng.Ptr(),
	}), true
}

// referenceRemainder returns the steps of trav after the object it names
// (a resource or module call, with an optional instance key, or a variable or
// local value); these are attribute accesses depends_on cannot use.
func referenceRemainder(trav hcl.Traversal) hcl.Traversal {
	n := 2 // TYPE.NAME, var.NAME, local.NAME
	switch trav.RootName() {
	case "data", "resource", "ephemeral":
		n = 3
	case "module":
		n = 2
		// module.NAME[KEY].OUTPUT names an output, itself a whole object.
		if len(trav) > n {
			if _, ok := trav[n].(hcl.TraverseIndex); ok {
				n++
			}
		}
		if len(trav) > n {
			n++
		}
		if len(trav) <= n {
			return nil
		}
		return trav[n:]
	case "var", "local", "count", "each", "path", "terraform", "self":
		if len(trav) <= n {
			return nil
		}
		return trav[n:]
	}
	if len(trav) > n {
		if _, ok := trav[n].(hcl.TraverseIndex); ok {
			n++
		}
	}
	if len(trav) <= n {
		return nil
	}
	return trav[n:]
}

// providerRef decodes a provider reference (NAME or NAME.ALIAS) from a
// provider argument or a providers map key or value.
func providerRef(expr hcl.Expression, argName string) (*ProviderConfigRef, hcl.Diagnostics) {
	trav, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, diags
	}
	invalid := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider configuration reference",
		Detail:   fmt.Sprintf("The %s argument requires a provider type name, optionally followed by a period and then a configuration alias.", argName),
		Subject:  expr.Range().Ptr(),
	}}
	if len(trav) == 0 || len(trav) > 2 {
		return nil, invalid
	}
	ref := &ProviderConfigRef{Name: trav.RootName(), NameRange: trav[0].SourceRange()}
	if d := localNameDiag(ref.Name, ref.NameRange); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	if len(trav) == 2 {
		attr, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			return nil, invalid
		}
		ref.Alias = attr.Name
	}
	return ref, nil
}

// providerInstanceRef is providerRef for an argument that may, in OpenTofu,
// name one instance of a provider configuration with for_each:
// NAME.ALIAS[KEY], the key any expression.
func (d *decoder) providerInstanceRef(expr hcl.Expression, argName string) (*ProviderConfigRef, hcl.Diagnostics) {
	if d.dialect != dialect.Tofu {
		return providerRef(expr, argName)
	}
	if ix, ok := expr.(*hclsyntax.IndexExpr); ok {
		ref, diags := providerRef(ix.Collection, argName)
		if ref != nil {
			ref.KeyExpr = ix.Key
		}
		return ref, diags
	}
	if trav, diags := hcl.AbsTraversalForExpr(expr); !diags.HasErrors() && len(trav) == 3 {
		if idx, ok := trav[2].(hcl.TraverseIndex); ok {
			ref, diags := providerRef(&hclsyntax.ScopeTraversalExpr{Traversal: trav[:2], SrcRange: trav[:2].SourceRange()}, argName)
			if ref != nil {
				ref.KeyExpr = &hclsyntax.LiteralValueExpr{Val: idx.Key, SrcRange: idx.SrcRange}
			}
			return ref, diags
		}
	}
	return providerRef(expr, argName)
}

// checkRule decodes a validation, precondition, postcondition or assert block.
func (d *decoder) checkRule(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	content, diags := block.Body.Content(checkRuleSchema(d.override))
	rule := &CheckRule{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["condition"]; ok {
		rule.Condition = attr.Expr
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		rule.ErrorMessage = attr.Expr
	}
	return rule, diags
}

// reservedBlock reports a nested block type kept for future use.
func reservedBlock(block *hcl.Block, where string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reserved block type name in %s block", where),
		Detail:   fmt.Sprintf("The block type name %q is reserved for use by Terraform in a future version.", block.Type),
		Subject:  block.TypeRange.Ptr(),
	}
}

// blockContent is body.Content(schema) for the body of a block as parsed,
// which hides nothing, with the attributes in a list (blockBody) rather
// than a map: a variable or output block has a few, each looked up once.
// hclsyntax's Content allocates the attribute map, two sets of hidden
// names, a set of wanted block types, a remaining body and one copy per
// attribute; for a body that has only what the schema takes (no
// diagnostic to report) the same content is built here with one
// allocation and the blocks' own. Everything else is hcl's, which reports
// the problems.
func blockContent(body hcl.Body, schema *hcl.BodySchema) (blockBody, hcl.Diagnostics) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok {
		return hclContent(body, schema)
	}
	taken := 0
	for _, as := range schema.Attributes {
		if _, ok := sb.Attributes[as.Name]; ok {
			taken++
		} else if as.Required {
			return hclContent(body, schema)
		}
	}
	if taken != len(sb.Attributes) {
		return hclContent(body, schema) // an argument the schema does not take
	}
	for _, b := range sb.Blocks {
		if !blockTaken(schema, b) {
			return hclContent(body, schema)
		}
	}
	content := blockBody{attrs: make([]hcl.Attribute, 0, taken)}
	for _, as := range schema.Attributes {
		if a, ok := sb.Attributes[as.Name]; ok {
			content.attrs = append(content.attrs, hcl.Attribute{Name: a.Name, Expr: a.Expr, Range: a.SrcRange, NameRange: a.NameRange})
		}
	}
	for _, b := range sb.Blocks {
		content.Blocks = append(content.Blocks, b.AsHCLBlock())
	}
	return content, nil
}

// blockBody is the content of a block's body read with a schema: its
// attributes, in the schema's order, and its blocks.
type blockBody struct {
	attrs  []hcl.Attribute
	Blocks hcl.Blocks
}

// attribute returns the attribute called name, false when the body does
// not set it.
func (c *blockBody) attribute(name string) (*hcl.Attribute, bool) {
	for i := range c.attrs {
		if c.attrs[i].Name == name {
			return &c.attrs[i], true
		}
	}
	return nil, false
}

// hclContent is blockContent by hcl's Content, for a body that is not
// native syntax or has something to report.
func hclContent(body hcl.Body, schema *hcl.BodySchema) (blockBody, hcl.Diagnostics) {
	content, diags := body.Content(schema)
	if content == nil {
		return blockBody{}, diags
	}
	out := blockBody{Blocks: content.Blocks}
	for _, as := range schema.Attributes {
		if a, ok := content.Attributes[as.Name]; ok {
			out.attrs = append(out.attrs, *a)
		}
	}
	return out, diags
}

// blockTaken reports whether schema takes b as written: its type, with as
// many labels as the schema names.
func blockTaken(schema *hcl.BodySchema, b *hclsyntax.Block) bool {
	for _, bs := range schema.Blocks {
		if bs.Type == b.Type {
			return len(b.Labels) == len(bs.LabelNames)
		}
	}
	return false
}
