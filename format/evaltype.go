package format

import (
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// appendTypeJSON appends ty as cty's Type.MarshalJSON writes it, byte for
// byte, in time linear in what it writes. Type.MarshalJSON has
// encoding/json marshal the attribute and element types of objects and
// tuples, which calls it again for each and then copies and checks the
// text it returns at every level: time and memory grow with the depth
// times the size, and a type whose parts repeat one another (the type of
// {a = local.x, b = local.x} chained) is already large for its depth.
func appendTypeJSON(b []byte, ty cty.Type) ([]byte, error) {
	switch {
	case ty == cty.String:
		return append(b, `"string"`...), nil
	case ty == cty.Number:
		return append(b, `"number"`...), nil
	case ty == cty.Bool:
		return append(b, `"bool"`...), nil
	case ty == cty.DynamicPseudoType:
		return append(b, `"dynamic"`...), nil
	case ty.IsListType() || ty.IsMapType() || ty.IsSetType():
		kind := `["list",`
		if ty.IsMapType() {
			kind = `["map",`
		} else if ty.IsSetType() {
			kind = `["set",`
		}
		b, err := appendTypeJSON(append(b, kind...), ty.ElementType())
		return append(b, ']'), err
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		names := make([]string, 0, len(attrs))
		for name := range attrs {
			names = append(names, name)
		}
		sort.Strings(names)
		b = append(b, `["object",{`...)
		var err error
		for i, name := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendJSONString(b, name), ':')
			if b, err = appendTypeJSON(b, attrs[name]); err != nil {
				return b, err
			}
		}
		b = append(b, '}')
		if optional := ty.OptionalAttributes(); len(optional) > 0 {
			names = names[:0]
			for name := range optional {
				names = append(names, name)
			}
			sort.Strings(names)
			b = append(b, ",["...)
			for i, name := range names {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendJSONString(b, name)
			}
			b = append(b, ']')
		}
		return append(b, ']'), nil
	case ty.IsTupleType():
		b = append(b, `["tuple",[`...)
		var err error
		for i, et := range ty.TupleElementTypes() {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendTypeJSON(b, et); err != nil {
				return b, err
			}
		}
		return append(b, "]]"...), nil
	}
	return b, fmt.Errorf("type not allowed: %s", ty.FriendlyName())
}

// outputValueJSON is ctyjson.Marshal(v, ty) for a wholly known, unmarked
// output value, written by the document's own writer where it can be:
// ctyjson writes every number through big.Float's shortest-decimal search,
// which allocates about a kilobyte per number. Types with a dynamic part,
// which ctyjson writes with their types, and numbers the writer leaves to
// ctyjson go through ctyjson.
func outputValueJSON(v cty.Value, ty cty.Type) ([]byte, error) {
	if !hasDynamic(ty) {
		w := documentWriters.Get().(*documentWriter)
		defer documentWriters.Put(w)
		if b, ok := w.known(nil, v, 0); ok {
			return b, nil
		}
	}
	return ctyjson.Marshal(v, ty)
}

// hasDynamic reports whether ty is or holds cty.DynamicPseudoType.
func hasDynamic(ty cty.Type) bool {
	switch {
	case ty == cty.DynamicPseudoType:
		return true
	case ty.IsCollectionType():
		return hasDynamic(ty.ElementType())
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if hasDynamic(at) {
				return true
			}
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			if hasDynamic(et) {
				return true
			}
		}
	}
	return false
}
