package literal

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Bool decodes expr as a bool; false where it reports an error.
func Bool(expr hcl.Expression) (bool, hcl.Diagnostics) {
	v, diags := decode(expr, cty.Bool)
	if v == cty.NilVal {
		return false, diags
	}
	return v.True(), diags
}

// String decodes expr as a string; "" where it reports an error.
func String(expr hcl.Expression) (string, hcl.Diagnostics) {
	v, diags := decode(expr, cty.String)
	if v == cty.NilVal {
		return "", diags
	}
	return v.AsString(), diags
}

// decode evaluates expr without a context and converts its value to ty;
// cty.NilVal where that gives no known value that is not null.
func decode(expr hcl.Expression, ty cty.Type) (cty.Value, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	v, err := convert.Convert(v, ty)
	switch {
	case err != nil:
		return cty.NilVal, append(diags, unsuitable(expr, err.Error()))
	case v.IsNull():
		return cty.NilVal, append(diags, unsuitable(expr, "null value is not allowed"))
	case !v.IsKnown():
		return cty.NilVal, append(diags, unsuitable(expr, "value must be known"))
	}
	return v, diags
}

func unsuitable(expr hcl.Expression, msg string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsuitable value type",
		Detail:   fmt.Sprintf("Unsuitable value: %s", msg),
		Subject:  expr.StartRange().Ptr(),
		Context:  expr.Range().Ptr(),
	}
}
