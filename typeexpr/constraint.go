package typeexpr

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Summaries of the diagnostics for type expressions written in the pre-0.12 quoted form.
const (
	SummaryQuotedType = "Invalid quoted type constraints"
	SummaryLegacyHint = "Invalid legacy variable type hint"
)

// TypeConstraint decodes a variable or output `type` expression. parseHCL
// reports whether CLI and environment strings for such a variable must be
// parsed as HCL (every type except the primitive ones) rather than taken
// literally. On error the type is cty.DynamicPseudoType so callers can go on.
func TypeConstraint(expr hcl.Expression) (ty cty.Type, defaults *hcltypeexpr.Defaults, parseHCL bool, diags hcl.Diagnostics) {
	// Quoted type names were the 0.11 syntax; Terraform rejects them with a
	// hint rather than silently reading them as a string value.
	if quoted, ok := nativeQuotedString(expr); ok {
		switch quoted {
		case "string":
			return cty.DynamicPseudoType, nil, false, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  SummaryQuotedType,
				Detail:   "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"string\".",
				Subject:  expr.Range().Ptr(),
			}}
		case "list", "map":
			return cty.DynamicPseudoType, nil, true, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  SummaryQuotedType,
				Detail: fmt.Sprintf("Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around %q and write %s(string) instead to explicitly indicate that the %s elements are strings.",
					quoted, quoted, quoted),
				Subject: expr.Range().Ptr(),
			}}
		default:
			return cty.DynamicPseudoType, nil, true, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  SummaryLegacyHint,
				Detail:   "To provide a full type expression, remove the surrounding quotes and give the type expression directly.",
				Subject:  expr.Range().Ptr(),
			}}
		}
	}

	// Bare list and map predate element types; they mean "of any single type".
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil, true, nil
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil, true, nil
	}

	ty, defaults, diags = typeConstraintWithDefaults(expr)
	if diags.HasErrors() {
		return cty.DynamicPseudoType, nil, true, diags
	}
	return ty, defaults, !ty.IsPrimitiveType(), diags
}

// typeConstraintWithDefaults is hcl's, with a panic in building the type
// as an error: go-cty refuses an object type whose attribute names are
// the same in Unicode normal form C, and hcl does not check for that.
func typeConstraintWithDefaults(expr hcl.Expression) (ty cty.Type, defaults *hcltypeexpr.Defaults, diags hcl.Diagnostics) {
	if ty, defaults, ok := syntaxConstraint(expr); ok {
		return ty, defaults, nil
	}
	defer func() {
		if r := recover(); r != nil {
			ty, defaults = cty.DynamicPseudoType, nil
			diags = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid type specification",
				Detail:   fmt.Sprintf("This type cannot be built: %v.", r),
				Subject:  expr.Range().Ptr(),
			}}
		}
	}()
	return hcltypeexpr.TypeConstraintWithDefaults(expr)
}

// nativeQuotedString returns the text of a native-syntax string literal
// without interpolations; JSON strings are type expressions and never match.
func nativeQuotedString(expr hcl.Expression) (string, bool) {
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(tmpl.Parts) != 1 {
		return "", false
	}
	lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || lit.Val.IsNull() {
		return "", false
	}
	return lit.Val.AsString(), true
}
