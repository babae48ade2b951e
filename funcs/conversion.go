package funcs

import (
	"reflect"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
	tfevaltype "github.com/tfeval/tfeval/typeexpr"
)

// TypeType is the capsule type of console type() results (render.TypeType,
// so the renderer and the console recognise it); the value holds a *cty.Type
// and is marked marks.TypeType.
var TypeType = render.TypeType

// TypeFromVal returns the type a type() result holds, ok false for any other value.
func TypeFromVal(v cty.Value) (cty.Type, bool) { return render.TypeOf(v) }

// typeFunc (console only) returns the type of its argument as a TypeType capsule.
var typeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
	}},
	Type: function.StaticReturnType(TypeType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return render.TypeValue(args[0].Type()), nil
	},
})

// toFunc builds tostring/tonumber/tobool/tolist/toset/tomap: conversion to
// want with the tools' friendlier messages for the usual failures.
func (e *env) toFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "v",
			Type:             cty.DynamicPseudoType,
			AllowNull:        true,
			AllowMarked:      true,
			AllowDynamicType: true,
			AllowUnknown:     true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			got := args[0].Type()
			if got.Equals(want) {
				return want, nil
			}
			if ty, ok := uniformCollection(got, want); ok {
				return ty, nil
			}
			if convert.GetConversionUnsafe(got, want) == nil {
				switch {
				case got.IsTupleType() && want.IsTupleType():
					return cty.NilType, function.NewArgErrorf(0, "incompatible tuple type for conversion: %s", tfevaltype.MismatchMessage(got, want))
				case got.IsObjectType() && want.IsObjectType():
					return cty.NilType, function.NewArgErrorf(0, "incompatible object type for conversion: %s", tfevaltype.MismatchMessage(got, want))
				default:
					return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
				}
			}
			return want, nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if v := args[0]; want == cty.String && v.Type() == cty.Number && plain(v) {
				// go-cty writes the number as big.Float's Text('f', -1)
				// does, which numtext does without its allocations.
				return cty.StringVal(numtext.String(v)), nil
			}
			if ret, ok := convertUniform(args[0], want); ok {
				return ret, nil
			}
			ret, err := convert.Convert(args[0], want)
			if err == nil {
				return ret, nil
			}
			val, _ := args[0].UnmarkDeep()
			got := val.Type()
			switch {
			case marks.Contains(args[0], marks.Sensitive):
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			case e.tofu() && marks.Contains(args[0], marks.Ephemeral):
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this ephemeral %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			case got == cty.String && (want == cty.Bool || want == cty.Number):
				what := "string"
				if !val.IsNull() {
					what = strconv.Quote(val.AsString())
				}
				if want == cty.Bool {
					return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, what)
				}
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to number; given string must be a decimal representation of a number`, what)
			default:
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			}
		},
	})
}

// typeConstraint is what a convert() type argument decodes to.
type typeConstraint struct {
	Type     cty.Type
	Defaults *typeexpr.Defaults
}

// typeConstraintType is a capsule whose arguments are decoded from the type
// expression itself (customdecode), so convert(x, list(string)) needs no quoting.
var typeConstraintType cty.Type

// init builds typeConstraintType here because its decoder refers to the type itself.
func init() {
	typeConstraintType = cty.CapsuleWithOps("type constraint", reflect.TypeOf(typeConstraint{}), &cty.CapsuleOps{
		ExtensionData: func(key interface{}) interface{} {
			if key != customdecode.CustomExpressionDecoder {
				return nil
			}
			return customdecode.CustomExpressionDecoderFunc(func(expr hcl.Expression, _ *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
				ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
				if diags.HasErrors() {
					return cty.NilVal, diags
				}
				return cty.CapsuleVal(typeConstraintType, &typeConstraint{Type: ty, Defaults: defaults}), nil
			})
		},
	})
}

// convertFunc (Terraform only) converts a value to a type constraint
// expression, applying optional-attribute defaults.
func newConvertFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{
				Name:             "value",
				Type:             cty.DynamicPseudoType,
				AllowNull:        true,
				AllowMarked:      true,
				AllowUnknown:     true,
				AllowDynamicType: true,
			},
			{Name: "type", Type: typeConstraintType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			tc := args[1].EncapsulatedValue().(*typeConstraint)
			if !tc.Type.HasDynamicTypes() {
				return tc.Type.WithoutOptionalAttributesDeep(), nil
			}
			if !args[0].IsWhollyKnown() {
				return cty.DynamicPseudoType, nil
			}
			v, err := convertWithDefaults(args[0], tc)
			if err != nil {
				return cty.NilType, err
			}
			return v.Type(), nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v, err := convertWithDefaults(args[0], args[1].EncapsulatedValue().(*typeConstraint))
			if err != nil {
				return cty.NilVal, err
			}
			if !v.IsKnown() && retType != cty.DynamicPseudoType {
				return cty.UnknownVal(retType).WithSameMarks(v), nil
			}
			return v, nil
		},
	})
}

func convertWithDefaults(v cty.Value, tc *typeConstraint) (cty.Value, error) {
	out, err := tfevaltype.ConvertValue(v, tc.Type)
	if err != nil {
		return cty.NilVal, function.NewArgError(0, err)
	}
	if tc.Defaults != nil {
		out = tc.Defaults.Apply(out)
	}
	return out, nil
}

// ephemeralAsNullFunc replaces every ephemeral part of a value with a null of
// the same type, keeping the rest (and other marks) as they are.
var ephemeralAsNullFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return removeEphemeral(args[0]), nil
	},
})

func removeEphemeral(v cty.Value) cty.Value {
	v, m := v.Unmark()
	if _, ok := m[marks.Ephemeral]; ok {
		delete(m, marks.Ephemeral)
		return cty.NullVal(v.Type()).WithMarks(m)
	}
	if !marks.Contains(v, marks.Ephemeral) || !v.IsKnown() || v.IsNull() {
		return v.WithMarks(m)
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]cty.Value, 0, v.LengthInt())
		for it := elements.Of(v); it.Next(); {
			_, ev := it.Element()
			elems = append(elems, removeEphemeral(ev))
		}
		switch {
		case ty.IsListType():
			v = cty.ListVal(elems)
		case ty.IsSetType():
			v = cty.SetVal(elems)
		default:
			v = cty.TupleVal(elems)
		}
	case ty.IsMapType() || ty.IsObjectType():
		attrs := make(map[string]cty.Value, v.LengthInt())
		for it := elements.Of(v); it.Next(); {
			k, ev := it.Element()
			attrs[k.AsString()] = removeEphemeral(ev)
		}
		if ty.IsMapType() {
			v = cty.MapVal(attrs)
		} else {
			v = cty.ObjectVal(attrs)
		}
	}
	return v.WithMarks(m)
}

// uniformCollection is the type of converting a tuple (to a list or set)
// or an object (to a map) whose elements all have one type, to a
// collection of any element type: a collection of that type. go-cty finds
// it by unifying the element types, which sorts them in time that grows
// with the square of their number: toset([for ...]) of 20,000 elements, a
// common for_each, took seconds.
func uniformCollection(got, want cty.Type) (cty.Type, bool) {
	if !want.IsCollectionType() || want.ElementType() != cty.DynamicPseudoType {
		return cty.NilType, false
	}
	var elems []cty.Type
	switch {
	case got.IsTupleType() && (want.IsListType() || want.IsSetType()):
		elems = got.TupleElementTypes()
	case got.IsObjectType() && want.IsMapType():
		for _, at := range got.AttributeTypes() {
			elems = append(elems, at)
		}
	default:
		return cty.NilType, false
	}
	// Too few elements to matter, or none to take a type from.
	if len(elems) < 16 {
		return cty.NilType, false
	}
	et := elems[0]
	if et == cty.DynamicPseudoType || !et.IsPrimitiveType() && !et.IsObjectType() && !et.IsCollectionType() {
		return cty.NilType, false
	}
	for _, t := range elems[1:] {
		if !t.Equals(et) {
			return cty.NilType, false
		}
	}
	switch {
	case want.IsListType():
		return cty.List(et), true
	case want.IsSetType():
		return cty.Set(et), true
	}
	return cty.Map(et), true
}

// convertUniform converts v as convert.Convert(v, want) does, when
// uniformCollection gives the result's type: the elements are taken as
// they are.
func convertUniform(v cty.Value, want cty.Type) (cty.Value, bool) {
	uv, m := v.Unmark()
	if !uv.IsKnown() || uv.IsNull() {
		return cty.NilVal, false
	}
	ty, ok := uniformCollection(uv.Type(), want)
	if !ok {
		return cty.NilVal, false
	}
	var out cty.Value
	switch {
	case ty.IsMapType():
		out = cty.MapVal(uv.AsValueMap())
	case ty.IsListType():
		out = cty.ListVal(uv.AsValueSlice())
	default:
		out = elements.Set(uv.AsValueSlice())
	}
	return out.WithMarks(m), true
}
