package funcs

import (
	"errors"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
)

// BuiltinProviderSource is the source address of the provider built into
// Terraform and OpenTofu. A module that declares it in required_providers
// can call its functions as provider::LOCAL::NAME.
const BuiltinProviderSource = "terraform.io/builtin/terraform"

// BuiltinProviderFunctions are the functions of the built-in provider,
// by name: encode_tfvars, decode_tfvars and encode_expr (Terraform 1.8,
// OpenTofu 1.10). Both dialects write values as hcl's writer formats them (hclvalue.go); they
// differ in how decode_tfvars reports content it cannot decode.
func BuiltinProviderFunctions(d dialect.Dialect) map[string]function.Function {
	return map[string]function.Function{
		"encode_tfvars": encodeTfvarsFunc,
		"decode_tfvars": decodeTfvarsFunc(d),
		"encode_expr":   encodeExprFunc,
	}
}

// encodeTfvarsFunc writes an object or map as the attributes of a .tfvars
// file, in name order, formatted.
var encodeTfvarsFunc = encoderFunc(func(args []cty.Value, _ cty.Type) (cty.Value, error) {
	v := args[0]
	ty := v.Type()
	if ty != cty.DynamicPseudoType && !ty.IsObjectType() && !ty.IsMapType() {
		return cty.NilVal, errors.New("invalid value to encode: must be an object whose attribute names will become the encoded variable names")
	}
	if v.IsKnown() && v.IsNull() {
		return cty.NilVal, errors.New("cannot encode a null value in tfvars syntax")
	}
	if !v.IsWhollyKnown() {
		return cty.UnknownVal(cty.String), nil
	}
	attrs := v.AsValueMap()
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !hclsyntax.ValidIdentifier(name) {
			return cty.NilVal, fmt.Errorf("invalid variable name %q: must be a valid identifier, per Terraform's rules for input variable declarations", name)
		}
	}
	return cty.StringVal(hclAttributes(names, attrs)), nil
})

// encodeExprFunc writes any value as an expression that would produce a
// similar value. Of a value not wholly known only the first character of
// the result can be known, from the value's type.
var encodeExprFunc = encoderFunc(func(args []cty.Value, _ cty.Type) (cty.Value, error) {
	v := args[0]
	if v.IsWhollyKnown() {
		return cty.StringVal(hclValueExpr(v)), nil
	}
	result := cty.UnknownVal(cty.String).Refine().NotNull()
	if v.IsKnown() || v.Range().DefinitelyNotNull() {
		// A null would be written "null": only a value that is not
		// null has a known first character.
		switch ty := v.Type(); {
		case ty == cty.String:
			result = result.StringPrefixFull(`"`)
		case ty.IsObjectType() || ty.IsMapType():
			result = result.StringPrefixFull("{")
		case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
			result = result.StringPrefixFull("[")
		}
	}
	return result.NewValue(), nil
})

// encoderFunc is a function of one value of any kind (null and unknown
// included) whose result is a string that is never null.
func encoderFunc(impl function.ImplFunc) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true}},
		Type:   function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: impl,
	})
}

// decodeTfvarsFilename names the text decode_tfvars parses in its errors.
const decodeTfvarsFilename = "<decode_tfvars argument>"

// decodeTfvarsFunc reads the constant attributes of .tfvars content into
// an object, each value of the most general type its syntax gives.
func decodeTfvarsFunc(d dialect.Dialect) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "src", Type: cty.String, AllowNull: true, AllowUnknown: true}},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			src := args[0]
			if !src.IsKnown() {
				return cty.DynamicVal, nil
			}
			if src.IsNull() {
				return cty.NilVal, errors.New("cannot decode tfvars from a null value")
			}
			f, diags := hclsyntax.ParseConfig([]byte(src.AsString()), decodeTfvarsFilename, hcl.InitialPos)
			if diags.HasErrors() {
				return cty.NilVal, decodeTfvarsError(d, "invalid tfvars syntax: %s", diags)
			}
			attrs, diags := f.Body.JustAttributes()
			if diags.HasErrors() {
				return cty.NilVal, decodeTfvarsError(d, "invalid tfvars content: %s", diags)
			}
			names := make([]string, 0, len(attrs))
			for name := range attrs {
				names = append(names, name)
			}
			sort.Strings(names)
			vals := make(map[string]cty.Value, len(attrs))
			for _, name := range names {
				v, diags := attrs[name].Expr.Value(nil)
				if diags.HasErrors() {
					return cty.NilVal, decodeTfvarsError(d, fmt.Sprintf("invalid expression for variable %q: %%s", name), diags)
				}
				vals[name] = v
			}
			return cty.ObjectVal(vals), nil
		},
	})
}

// decodeTfvarsError is the error of decode_tfvars for content it cannot
// use. OpenTofu's begins with one sentence of its own whatever the
// problem, followed by each diagnostic on its own line.
func decodeTfvarsError(d dialect.Dialect, format string, diags hcl.Diagnostics) error {
	if d == dialect.Tofu {
		errs := []error{errors.New("failed to decode tfvars content")}
		errs = append(errs, diags.Errs()...)
		return errors.Join(errs...)
	}
	return fmt.Errorf(format, diags.Error())
}
