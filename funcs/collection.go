package funcs

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/typeexpr"
)

// lengthFunc counts collection elements, structural attributes or string characters.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowMarked:      true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty == cty.String || ty.IsTupleType() || ty.IsObjectType() || ty.IsListType() ||
			ty.IsMapType() || ty.IsSetType() || ty == cty.DynamicPseudoType:
			return cty.Number, nil
		default:
			return cty.Number, errors.New("argument must be a string, a collection type, or a structural type")
		}
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		val, valMarks := args[0].Unmark()
		ty := val.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(valMarks), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))).WithMarks(valMarks), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(valMarks), nil
		case ty == cty.String:
			n, err := stdlib.Strlen(val)
			return n.WithMarks(valMarks), err
		default:
			return val.Length().WithMarks(valMarks), nil
		}
	},
})

// allTrueFunc is true when every element is true (vacuously for none).
var allTrueFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		result := cty.True
		for it := elements.Of(args[0]); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			if v.IsNull() {
				return cty.False, nil
			}
			result = result.And(v)
			if result.False() {
				return cty.False, nil
			}
		}
		return result, nil
	},
})

// anyTrueFunc is true when at least one element is true.
var anyTrueFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		result := cty.False
		sawUnknown := false
		for it := elements.Of(args[0]); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				sawUnknown = true
				continue
			}
			if v.IsNull() {
				continue
			}
			result = result.Or(v)
			if result.True() {
				return cty.True, nil
			}
		}
		if sawUnknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return result, nil
	},
})

// coalesceFunc returns the first argument that is neither null nor "".
var coalesceFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type:         coalesceType,
	RefineResult: refineNotNull,
	Impl:         coalesceImpl,
})

// coalesceType is coalesce()'s result type: the arguments' types unified.
func coalesceType(args []cty.Value) (cty.Type, error) {
	types := make([]cty.Type, len(args))
	for i, v := range args {
		types[i] = v.Type()
	}
	ty, _ := convert.UnifyUnsafe(types)
	if ty == cty.NilType {
		return cty.NilType, errors.New("all arguments must have the same type")
	}
	return ty, nil
}

// coalesceImpl is coalesce() of arguments of result type retType: the first
// argument, converted to it, that is neither null nor the empty string.
func coalesceImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	for _, arg := range args {
		v, err := convert.Convert(arg, retType)
		if err != nil {
			return cty.UnknownVal(retType), errors.New("all arguments must have the same type")
		}
		if !v.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		if v.IsNull() {
			continue
		}
		if retType == cty.String && v.RawEquals(cty.StringVal("")) {
			continue
		}
		return v, nil
	}
	return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
}

// indexFunc finds the position of a value in a list or tuple.
var indexFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !(ty.IsListType() || ty.IsTupleType()) {
			return cty.NilType, errors.New("argument must be a list or tuple")
		}
		return cty.Number, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if args[0].LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := elements.Of(args[0]); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// deprecatedFunc is list() or map(): still registered, but every call fails
// with a message pointing at the replacement syntax.
func (e *env) deprecatedFunc(name, replacement, kind string) function.Function {
	where := "is no longer available"
	if e.tofu() {
		where = "is not available in OpenTofu"
	}
	msg := fmt.Sprintf("the %q function was deprecated in Terraform v0.12 and %s; use %s syntax to write a literal %s", name, where, replacement, kind)
	return function.New(&function.Spec{
		VarParam: &function.Parameter{
			Name:             "vals",
			Type:             cty.DynamicPseudoType,
			AllowUnknown:     true,
			AllowDynamicType: true,
			AllowNull:        true,
		},
		Type: func([]cty.Value) (cty.Type, error) {
			return cty.DynamicPseudoType, errors.New(msg)
		},
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.DynamicVal, errors.New(msg)
		},
	})
}

// lookupFunc reads one element of a map or object, with an optional default.
var lookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{
		Name:             "default",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
		AllowMarked:      true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) < 1 || len(args) > 3 {
			return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			keyVal, _ := args[1].Unmark()
			key := keyVal.AsString()
			if ty.HasAttribute(key) {
				return args[0].GetAttr(key).Type(), nil
			} else if len(args) == 3 {
				return args[2].Type(), nil
			}
			return cty.DynamicPseudoType, function.NewArgErrorf(0, "the given object has no attribute %q", key)
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		default:
			return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
		}
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, collMarks := args[0].Unmark()
		keyVal, keyMarks := args[1].Unmark()
		marks := []cty.ValueMarks{collMarks, keyMarks}
		key := keyVal.AsString()
		// The collection is known (its parameter takes no unknown value);
		// unknown elements are looked up like others, as Terraform does
		// since v1.11.
		if coll.Type().IsObjectType() {
			if coll.Type().HasAttribute(key) {
				return coll.GetAttr(key).WithMarks(marks...), nil
			}
		} else if coll.HasIndex(cty.StringVal(key)) == cty.True {
			return coll.Index(cty.StringVal(key)).WithMarks(marks...), nil
		}
		if len(args) == 3 {
			def, err := typeexpr.ConvertValue(args[2], retType)
			if err != nil {
				return cty.NilVal, err
			}
			return def.WithMarks(marks...), nil
		}
		return cty.UnknownVal(cty.DynamicPseudoType), fmt.Errorf("lookup failed to find key %s", redactIfSensitive(key, keyMarks))
	},
})

// matchkeysFunc keeps the values whose corresponding key is in the search set.
var matchkeysFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		if ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		elemTy := retType.ElementType()
		if args[0].LengthInt() != args[1].LengthInt() {
			return cty.ListValEmpty(elemTy), errors.New("length of keys and values should be equal")
		}
		ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		keys, _ := convert.Convert(args[1], ty)
		searchset, _ := convert.Convert(args[2], ty)
		if searchset.LengthInt() == 0 {
			return cty.ListValEmpty(elemTy), nil
		}
		values := args[0]
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		var out []cty.Value
		i := 0
		for it := elements.Of(keys); it.Next(); {
			_, key := it.Element()
			for sit := elements.Of(searchset); sit.Next(); {
				_, search := sit.Element()
				eq, err := stdlib.Equal(key, search)
				if err != nil {
					return cty.NilVal, err
				}
				if !eq.IsKnown() {
					return cty.ListValEmpty(elemTy), nil
				}
				if eq.True() {
					out = append(out, values.Index(cty.NumberIntVal(int64(i))))
					break
				}
			}
			i++
		}
		if len(out) == 0 {
			return cty.ListValEmpty(elemTy), nil
		}
		return cty.ListVal(out), nil
	},
})

// oneFunc returns the only element of a zero- or one-element sequence.
var oneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			switch etys := ty.TupleElementTypes(); len(etys) {
			case 0:
				return cty.DynamicPseudoType, nil
			case 1:
				return etys[0], nil
			}
		}
		return cty.NilType, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		val := args[0]
		lenVal := val.Length()
		if !lenVal.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		var l int
		if err := gocty.FromCtyValue(lenVal, &l); err != nil {
			return cty.NilVal, err
		}
		switch {
		case l > 1:
			return cty.NilVal, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
		case l == 0:
			return cty.NullVal(retType), nil
		}
		it := elements.Of(val)
		it.Next()
		_, v := it.Element()
		return v, nil
	},
})

// sumFunc adds up a sequence of numbers (or strings convertible to numbers).
var sumFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (ret cty.Value, err error) {
		if !args[0].CanIterateElements() {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum noniterable")
		}
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		ty := args[0].Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		// big.Float panics on +Inf + -Inf; report that as an ordinary error.
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(big.ErrNaN); !ok {
					panic(r)
				}
				ret, err = cty.NilVal, errors.New("can't compute sum of opposing infinities")
			}
		}()
		notNumbers := function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
		var total cty.Value
		for i, v := range args[0].AsValueSlice() {
			if v.IsNull() {
				return cty.NilVal, notNumbers
			}
			n, err := convert.Convert(v, cty.Number)
			if err != nil {
				return cty.NilVal, notNumbers
			}
			if i == 0 {
				total = n
			} else {
				total = total.Add(n)
			}
		}
		return total, nil
	},
})

// transposeFunc swaps the keys and values of a map of lists of strings.
func (e *env) transposeFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
		Type:         function.StaticReturnType(cty.Map(cty.List(cty.String))),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			in := args[0]
			if !in.IsWhollyKnown() {
				return cty.UnknownVal(retType), nil
			}
			order := []string{}
			tmp := map[string][]cty.Value{}
			for it := elements.Of(in); it.Next(); {
				k, list := it.Element()
				if list.IsNull() {
					if e.tofu() {
						return cty.NilVal, fmt.Errorf("cannot use null list for %s", k.AsString())
					}
					return cty.NilVal, errors.New("input must not contain null list")
				}
				for lit := elements.Of(list); lit.Next(); {
					_, s := lit.Element()
					if s.IsNull() {
						if e.tofu() {
							return cty.NilVal, fmt.Errorf("cannot use null string for %s", k.AsString())
						}
						return cty.NilVal, errors.New("input list must not contain null string")
					}
					out := s.AsString()
					if _, ok := tmp[out]; !ok {
						order = append(order, out)
					}
					tmp[out] = append(tmp[out], k)
				}
			}
			if len(order) == 0 {
				return cty.MapValEmpty(cty.List(cty.String)), nil
			}
			m := make(map[string]cty.Value, len(order))
			for _, k := range order {
				m[k] = cty.ListVal(tmp[k])
			}
			return cty.MapVal(m), nil
		},
	})
}

// containsFunc is go-cty's contains, which since v1.18.1 takes a null
// value to look for; Terraform's contains refuses it.
var containsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return stdlib.ContainsFunc.Call(args)
	},
})
