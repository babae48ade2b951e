package tfvars

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/limit"
)

// ParseString turns a command-line or environment string into a value the
// way the variable's parsing mode says: literally as a string, or as a
// constant HCL expression in a pseudo-file named "<value for var.NAME>".
func ParseString(name, s string, mode config.VariableParsingMode) (cty.Value, hcl.Diagnostics) {
	if mode != config.VariableParseHCL {
		return cty.StringVal(s), nil
	}
	if diags := limit.CheckSource([]byte(s), valueFilename(name), hcl.InitialPos, limit.Expression, 0); diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	expr, diags := hclsyntax.ParseExpression([]byte(s), valueFilename(name), hcl.InitialPos)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, valDiags := expr.Value(nil)
	return v, append(diags, valDiags...)
}

// ParseVarFlag splits the text of a -var option into name and value,
// reporting Terraform's "Invalid -var option" errors.
func ParseVarFlag(text string) (name, value string, diags hcl.Diagnostics) {
	eq := strings.IndexByte(text, '=')
	if eq < 0 {
		return "", "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid -var option",
			Detail:   fmt.Sprintf("The given -var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", text),
		}}
	}
	name, value = text[:eq], text[eq+1:]
	if strings.HasSuffix(name, " ") {
		return "", "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid -var option",
			Detail: fmt.Sprintf("Variable name %q is invalid due to trailing space. Did you mean -var=\"%s=%s\"?",
				name, strings.TrimSuffix(name, " "), strings.TrimPrefix(value, " ")),
		}}
	}
	return name, value, nil
}
