package funcs

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"golang.org/x/text/unicode/norm"

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
		f := elements.BigFloat(v)
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
		return appendJSONObject(b, names, func(i int) cty.Value { return v.GetAttr(names[i]) })
	}
	return nil, false
}

// appendJSONObject is appendJSON of an object whose attributes are names,
// sorted, with values attr(i).
func appendJSONObject(b []byte, names []string, attr func(i int) cty.Value) ([]byte, bool) {
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
		if b, ok = appendJSON(b, attr(i)); !ok {
			return nil, false
		}
	}
	return append(b, '}'), true
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

// decodeJSON is jsondecode's result in one pass over the document, or
// false where go-cty must answer: a document that is not valid JSON, has
// data after its value, repeats a property with values of different types,
// names a property other than in normal form NFC or holds a number go-cty
// refuses. go-cty finds the result type in one
// pass and then decodes every nested value again from its raw text, so a
// document nested n deep is read n times; for the documents this decoder
// takes it gives what go-cty gives, from the same tokens.
func decodeJSON(s string) (cty.Value, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return cty.NilVal, false
	}
	v, ok := decodeJSONValue(dec, tok)
	if !ok || dec.More() {
		return cty.NilVal, false
	}
	return v, true
}

// decodeJSONValue decodes the value tok begins.
func decodeJSONValue(dec *json.Decoder, tok json.Token) (cty.Value, bool) {
	switch t := tok.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType), true
	case bool:
		return cty.BoolVal(t), true
	case string:
		return cty.StringVal(t), true
	case json.Number:
		v, err := cty.ParseNumberVal(string(t))
		return v, err == nil
	case json.Delim:
		switch t {
		case '{':
			return decodeJSONObject(dec)
		case '[':
			return decodeJSONArray(dec)
		}
	}
	return cty.NilVal, false
}

func decodeJSONObject(dec *json.Decoder) (cty.Value, bool) {
	var attrs map[string]cty.Value
	for {
		tok, err := dec.Token()
		if err != nil {
			return cty.NilVal, false
		}
		if tok == json.Delim('}') {
			break
		}
		key, ok := tok.(string)
		// go-cty names attributes in normal form NFC, and then fails to
		// find a property whose name is not.
		if !ok || !norm.NFC.IsNormalString(key) {
			return cty.NilVal, false
		}
		if tok, err = dec.Token(); err != nil {
			return cty.NilVal, false
		}
		v, ok := decodeJSONValue(dec, tok)
		if !ok {
			return cty.NilVal, false
		}
		if attrs == nil {
			attrs = map[string]cty.Value{}
		}
		// A repeated property: the last one wins when the types agree;
		// go-cty refuses the document otherwise.
		if old, seen := attrs[key]; seen && !old.Type().Equals(v.Type()) {
			return cty.NilVal, false
		}
		attrs[key] = v
	}
	if len(attrs) == 0 {
		return cty.EmptyObjectVal, true
	}
	return cty.ObjectVal(attrs), true
}

func decodeJSONArray(dec *json.Decoder) (cty.Value, bool) {
	var elems []cty.Value
	for {
		tok, err := dec.Token()
		if err != nil {
			return cty.NilVal, false
		}
		if tok == json.Delim(']') {
			break
		}
		v, ok := decodeJSONValue(dec, tok)
		if !ok {
			return cty.NilVal, false
		}
		elems = append(elems, v)
	}
	if len(elems) == 0 {
		return cty.EmptyTupleVal, true
	}
	return cty.TupleVal(elems), true
}
