package format

import (
	"encoding/json"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/marks"
)

// The three shapes below are how terraform show -json describes a planned
// value that may be partly unknown and partly sensitive: the known parts
// (after), where it is unknown (after_unknown) and where it is sensitive
// (after_sensitive). Every document of this package that reports planned
// values uses them.

// knownJSON is the JSON form of a value with unknown parts left out of
// objects and written as null in sequences (show -json's after).
func knownJSON(v cty.Value) any {
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
			out = append(out, knownJSON(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		eachElement(v, func(name string, e cty.Value) {
			if eu, _ := e.Unmark(); !eu.IsKnown() {
				return
			}
			out[name] = knownJSON(e)
		})
		return out
	}
	return nil
}

// unknownAsBool describes where a value is unknown: true for an unknown
// value, false for a known one, and for collections the same shape with
// known parts left out of objects (show -json's after_unknown).
func unknownAsBool(v cty.Value) any {
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
			out = append(out, unknownAsBool(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		eachElement(v, func(name string, e cty.Value) {
			if b := unknownAsBool(e); b != false {
				out[name] = b
			}
		})
		return out
	}
	return false
}

// sensitiveAsBool describes where a value is sensitive, shaped as
// unknownAsBool (show -json's after_sensitive).
func sensitiveAsBool(v cty.Value) any {
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
			out = append(out, sensitiveAsBool(e))
		}
		return out
	case ty.IsMapType() || ty.IsObjectType():
		out := map[string]any{}
		if !v.IsKnown() {
			return out
		}
		eachElement(v, func(name string, e cty.Value) {
			if b := sensitiveAsBool(e); b != false {
				out[name] = b
			}
		})
		return out
	}
	return false
}

// eachElement calls fn for every element of a known, non-null map or
// object, with its key; objects are walked without sorting attribute names,
// which an element iterator does on every call.
func eachElement(v cty.Value, fn func(name string, e cty.Value)) {
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

// typedJSON is a wholly known value with its type as cty's JSON encoding
// writes them (terraform output -json's "type" and "value"): null is of
// type "dynamic". ok is false for a value that is not wholly known or
// cannot be encoded.
func typedJSON(v cty.Value) (typ, val json.RawMessage, ok bool) {
	if !v.IsWhollyKnown() {
		return nil, nil, false
	}
	uv, _ := v.UnmarkDeep()
	ty := uv.Type()
	if uv.IsNull() {
		ty = cty.DynamicPseudoType
		uv = cty.NullVal(ty)
	}
	tj, err := ctyjson.MarshalType(ty)
	if err != nil {
		return nil, nil, false
	}
	vj, err := ctyjson.Marshal(uv, ty)
	if err != nil {
		return nil, nil, false
	}
	return tj, vj, true
}

// plainJSON is a wholly known value in JSON without its type (a variable's
// value or default); ok is false when it is not wholly known.
func plainJSON(v cty.Value) (json.RawMessage, bool) {
	_, vj, ok := typedJSON(v)
	return vj, ok
}

// sortedKeys returns a map's keys in order.
func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
