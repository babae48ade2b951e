package funcs

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
)

// jsonEncodeFunc is jsonencode: go-cty's, with the common values encoded
// without its per-number cost. cty writes every number as the shortest
// decimal that reads back at the number's precision, which for a literal
// (512 bits) takes tens of microseconds; a whole number held exactly needs
// only its digits. The parameter rules are go-cty's, so marks, nulls and
// unknowns behave as upstream, and any value this encoder does not cover
// is left to go-cty whole.
var jsonEncodeFunc = function.New(&function.Spec{
	Description: stdlib.JSONEncodeFunc.Description(),
	Params: []function.Parameter{{
		Name:             "val",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		val := args[0]
		if !val.IsWhollyKnown() || val.IsNull() {
			return stdlib.JSONEncodeFunc.Call(args)
		}
		if !val.Type().HasDynamicTypes() {
			if buf, ok := appendJSON(nil, val); ok {
				return cty.StringVal(string(buf)), nil
			}
		}
		buf, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(string(bytes.TrimSpace(buf))), nil
	},
})

// appendJSON appends the JSON encoding of a known, unmarked value whose
// type has no dynamic parts, as go-cty's json.Marshal writes it; false for
// values it leaves to go-cty (capsules, infinities, and anything marked or
// unknown inside the value).
func appendJSON(b []byte, v cty.Value) ([]byte, bool) {
	if v.IsMarked() || !v.IsKnown() {
		return nil, false
	}
	if v.IsNull() {
		return append(b, "null"...), true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return appendJSONString(b, v.AsString())
	case ty == cty.Number:
		f := v.AsBigFloat()
		if f.IsInf() {
			return nil, false
		}
		return numtext.Append(b, f), true
	case ty == cty.Bool:
		return strconv.AppendBool(b, v.True()), true
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		b = append(b, '[')
		i := 0
		for it := elements.Of(v); it.Next(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			_, e := it.Element()
			var ok bool
			if b, ok = appendJSON(b, e); !ok {
				return nil, false
			}
		}
		return append(b, ']'), true
	case ty.IsMapType():
		b = append(b, '{')
		i := 0
		for it := elements.Of(v); it.Next(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			k, e := it.Element()
			var ok bool
			if b, ok = appendJSON(b, k); !ok {
				return nil, false
			}
			b = append(b, ':')
			if b, ok = appendJSON(b, e); !ok {
				return nil, false
			}
		}
		return append(b, '}'), true
	case ty.IsObjectType():
		names := make([]string, 0, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			names = append(names, name)
		}
		sort.Strings(names)
		b = append(b, '{')
		for i, name := range names {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			// Attribute names are normalized already, as StringVal would.
			if b, ok = appendJSONString(b, name); !ok {
				return nil, false
			}
			b = append(b, ':')
			if b, ok = appendJSON(b, v.GetAttr(name)); !ok {
				return nil, false
			}
		}
		return append(b, '}'), true
	}
	return nil, false
}

// appendJSONString appends s quoted as encoding/json writes it. Text with
// nothing to escape (printable ASCII other than quotes, backslashes and
// the HTML characters json escapes) is copied as it is; anything else is
// left to encoding/json, which makes a copy.
func appendJSONString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(s)
			if err != nil {
				return nil, false
			}
			return append(b, q...), true
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}
