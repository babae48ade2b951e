package config

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/typeexpr"
)

// variable decodes a variable block and checks its default against its type.
func (d *decoder) variable(block *hcl.Block) (*Variable, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	v := &Variable{Name: block.Labels[0], DeclRange: block.DefRange, Nullable: true}
	if !d.override {
		v.Type, v.ConstraintType = cty.DynamicPseudoType, cty.DynamicPseudoType
		v.ParsingMode = VariableParseLiteral
	}
	switch {
	case !validName(v.Name):
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable name",
			Detail:   badIdentifierDetail,
			Subject:  block.LabelRanges[0].Ptr(),
		})
	case reservedVariableName(d.dialect, v.Name):
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable name",
			Detail:   fmt.Sprintf("The variable name %q is reserved due to its special meaning inside module blocks.", v.Name),
			Subject:  block.LabelRanges[0].Ptr(),
		})
	}

	content, cDiags := blockContent(block.Body, variableBlockSchema())
	diags = append(diags, cDiags...)

	if attr, ok := content.attribute("description"); ok {
		var dDiags hcl.Diagnostics
		v.Description, dDiags = literalString(attr)
		diags = append(diags, dDiags...)
		v.DescriptionSet = true
	}
	if attr, ok := content.attribute("type"); ok {
		ty, defaults, parseHCL, tDiags := typeexpr.TypeConstraint(attr.Expr)
		diags = append(diags, tDiags...)
		v.ConstraintType, v.TypeDefaults = ty, defaults
		v.Type = typeexpr.WithoutOptional(ty)
		v.ParsingMode = VariableParseLiteral
		if parseHCL {
			v.ParsingMode = VariableParseHCL
		}
		v.TypeSet = true
	}
	for _, flag := range []struct {
		name     string
		val, set *bool
	}{
		{"sensitive", &v.Sensitive, &v.SensitiveSet},
		{"ephemeral", &v.Ephemeral, &v.EphemeralSet},
		{"const", &v.Const, &v.ConstSet},
		{"nullable", &v.Nullable, &v.NullableSet},
	} {
		if attr, ok := content.attribute(flag.name); ok {
			b, bDiags := literalBool(attr)
			diags = append(diags, bDiags...)
			if !bDiags.HasErrors() {
				*flag.val = b
			}
			*flag.set = true
		}
	}
	if attr, ok := content.attribute("deprecated"); ok {
		var dDiags hcl.Diagnostics
		v.Deprecated, dDiags = literalString(attr)
		diags = append(diags, dDiags...)
	}
	if v.Const && v.Sensitive {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Const variable cannot be sensitive",
			Detail:   "A const variable's value is used while loading the configuration, so it cannot be marked as sensitive.",
			Subject:  v.DeclRange.Ptr(),
		})
	}
	if v.Const && v.Ephemeral {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Const variable cannot be ephemeral",
			Detail:   "A const variable's value is used while loading the configuration, so it cannot be marked as ephemeral.",
			Subject:  v.DeclRange.Ptr(),
		})
	}

	if attr, ok := content.attribute("default"); ok {
		val, vDiags := attr.Expr.Value(nil)
		diags = append(diags, vDiags...)
		// An override without a type leaves checking to the merge, which knows the final type.
		v.DefaultRange = attr.Expr.Range()
		if v.ConstraintType != cty.NilType {
			if v.ConstraintType.IsObjectType() && val.IsKnown() && !val.IsNull() && val.Type().IsObjectType() {
				for _, name := range slices.Sorted(maps.Keys(val.Type().AttributeTypes())) {
					if !v.ConstraintType.HasAttribute(name) {
						v.IgnoredDefaultAttrs = append(v.IgnoredDefaultAttrs, name)
					}
				}
			}
			conv, err := typeexpr.Convert(val, v.ConstraintType, v.TypeDefaults)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid default value for variable",
					Detail:   fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", typeexpr.FormatError(err)),
					Subject:  attr.Expr.Range().Ptr(),
				})
				conv = cty.DynamicVal
			}
			val = conv
		}
		if !d.override && v.NullableSet && !v.Nullable && val.IsNull() {
			diags = append(diags, nullDefaultDiag(attr.Expr.Range()))
		}
		v.Default = val
	}

	for _, block := range content.Blocks {
		rule, rDiags := d.checkRule(block)
		diags = append(diags, rDiags...)
		if rule.Condition != nil && !refersToVariable(rule.Condition, v.Name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid variable validation condition",
				Detail:   fmt.Sprintf("The condition for variable %q must refer to var.%s in order to test incoming values.", v.Name, v.Name),
				Subject:  rule.Condition.Range().Ptr(),
			})
		}
		v.Validations = append(v.Validations, rule)
	}
	return v, diags
}

func nullDefaultDiag(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid default value for variable",
		Detail:   "A null default value is not valid when nullable=false.",
		Subject:  rng.Ptr(),
	}
}

// refersToVariable reports whether expr mentions var.name.
func refersToVariable(expr hcl.Expression, name string) bool {
	for _, trav := range expr.Variables() {
		if trav.RootName() != "var" || len(trav) < 2 {
			continue
		}
		if attr, ok := trav[1].(hcl.TraverseAttr); ok && attr.Name == name {
			return true
		}
	}
	return false
}

// DecodeVariable decodes a variable block outside a module's files, as
// Terraform (1.13 on) reads the variable blocks of a test file: the same
// arguments, checks and diagnostics as a module's own variable block.
func DecodeVariable(block *hcl.Block, d dialect.Dialect) (*Variable, hcl.Diagnostics) {
	return (&decoder{dialect: d}).variable(block)
}
