package shape

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/marks"
)

// Known is the JSON form of a value (nil, bool, string, json.Number,
// []any, map[string]any) with unknown parts left out of objects and
// written as null in sequences.
func Known(v cty.Value) any {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Bool:
		return v.True()
	case ty == cty.Number:
		return json.Number(numtext.String(v))
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			out = append(out, Known(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		EachElement(v, func(name string, e cty.Value) {
			if eu, _ := e.Unmark(); !eu.IsKnown() {
				return
			}
			out[name] = Known(e)
		})
		return out
	}
	return nil
}

// Unknown describes where a value is unknown: true for an unknown value,
// false for a known one, and for collections the same shape with known
// parts left out of objects.
func Unknown(v cty.Value) any {
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return true
	}
	if v.IsNull() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			out = append(out, Unknown(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		EachElement(v, func(name string, e cty.Value) {
			if b := Unknown(e); b != false {
				out[name] = b
			}
		})
		return out
	}
	return false
}

// Sensitive describes where a value is sensitive (marks.Sensitive), shaped
// as Unknown.
func Sensitive(v cty.Value) any {
	if v.HasMark(marks.Sensitive) {
		return true
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if v.IsNull() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		return false
	}
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		if !v.IsKnown() {
			return out
		}
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			out = append(out, Sensitive(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		if !v.IsKnown() {
			return out
		}
		EachElement(v, func(name string, e cty.Value) {
			if b := Sensitive(e); b != false {
				out[name] = b
			}
		})
		return out
	}
	return false
}

// EachElement calls fn for every element of a known, non-null map or
// object, with its key; objects are walked without sorting attribute names,
// which an element iterator does on every call.
func EachElement(v cty.Value, fn func(name string, e cty.Value)) {
	ty := v.Type()
	if ty.IsObjectType() {
		for name := range ty.AttributeTypes() {
			fn(name, v.GetAttr(name))
		}
		return
	}
	keyed := ty.IsMapType()
	for it := elements.Of(v); it.Next(); {
		k, e := it.Element()
		name := ""
		if keyed {
			name = k.AsString()
		}
		fn(name, e)
	}
}
