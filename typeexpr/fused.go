package typeexpr

import (
	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/internal/attrmap"
	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
)

// convertFused is Convert in one pass, for the common case: a known,
// unmarked value converted to a type without `any` or tuples, with no null
// element in a list, set or map. Applying the defaults and then converting
// builds every object and collection twice, and go-cty works its conversion
// out anew on every call; here each is built once. The result is what the
// two steps give (TestConvertFused and FuzzTypeConstraint compare them);
// ok is false for anything outside that case, or that would be an error,
// and the caller then takes the two steps.
func convertFused(v cty.Value, ty cty.Type, d *hcltypeexpr.Defaults) (cty.Value, bool) {
	if !v.IsKnown() || v.IsMarked() || v.IsNull() {
		return cty.NilVal, false
	}
	vty := v.Type()
	switch {
	case ty == cty.DynamicPseudoType:
		// Converting to any type gives the value as it is; a collection
		// of any element type then takes the elements' one type when they
		// agree (below), where go-cty unifies the types of all of them,
		// in time that grows with the square of their number.
		return v, true
	case ty.IsPrimitiveType():
		if !vty.IsPrimitiveType() {
			return cty.NilVal, false
		}
		if vty == ty {
			return v, true
		}
		if ty == cty.String && vty == cty.Number {
			// go-cty writes the number with big.Float's Text('f', -1),
			// tens of microseconds for a literal's 512 bits; numtext
			// writes the same text.
			return cty.StringVal(numtext.String(v)), true
		}
		out, err := convert.Convert(v, ty)
		return out, err == nil
	case vty.Equals(ty):
		// A value's type has no optional attributes, so neither has ty, and
		// there are no defaults to fill in.
		return v, true
	case ty.IsObjectType():
		return objectFused(v, ty, d)
	case ty.IsMapType():
		if !vty.IsObjectType() && !vty.IsMapType() || d != nil && len(d.DefaultValues) > 0 {
			return cty.NilVal, false
		}
		ety := ty.ElementType()
		if v.LengthInt() == 0 {
			return cty.MapValEmpty(emptyElementType(vty, ety)), true
		}
		child := defaultsChild(d, "")
		// cty.MapVal copies the elements: the map they are gathered in is
		// lent, and given back once the map value is made.
		n := v.LengthInt()
		elems := attrmap.New(n)
		defer attrmap.Release(elems, n)
		var first cty.Type
		add := func(k string, e cty.Value) bool {
			out, ok := convertFused(e, ety, child)
			if !ok || first != cty.NilType && !out.Type().Equals(first) {
				return false
			}
			first = out.Type()
			elems[k] = out
			return true
		}
		if vty.IsObjectType() {
			// By name: an object's iterator makes a string value of each.
			for name := range vty.AttributeTypes() {
				if !add(name, v.GetAttr(name)) {
					return cty.NilVal, false
				}
			}
			return cty.MapVal(elems), true
		}
		for it := elements.Of(v); it.Next(); {
			if k, e := it.Element(); !add(k.AsString(), e) {
				return cty.NilVal, false
			}
		}
		return cty.MapVal(elems), true
	case ty.IsListType() || ty.IsSetType():
		// A set's elements would be applied in one order and converted in
		// another; only lists and tuples are taken here.
		if !vty.IsTupleType() && !vty.IsListType() || d != nil && len(d.DefaultValues) > 0 {
			return cty.NilVal, false
		}
		ety := ty.ElementType()
		if v.LengthInt() == 0 {
			if ty.IsSetType() {
				return cty.SetValEmpty(emptyElementType(vty, ety)), true
			}
			return cty.ListValEmpty(emptyElementType(vty, ety)), true
		}
		child := defaultsChild(d, "")
		elems := make([]cty.Value, 0, v.LengthInt())
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			out, ok := convertFused(e, ety, child)
			if !ok || len(elems) > 0 && !out.Type().Equals(elems[0].Type()) {
				return cty.NilVal, false
			}
			elems = append(elems, out)
		}
		if ty.IsSetType() {
			return elements.Set(elems), true
		}
		return cty.ListVal(elems), true
	}
	return cty.NilVal, false
}

// emptyElementType is the element type of an empty collection of type
// vty converted to a collection of ety. A collection of any element type
// keeps the element type an empty list, set or map already had, as go-cty
// does: distinct(var.names) of an empty list(string) is a list(string),
// equal to var.names. An empty tuple or object has none to keep.
func emptyElementType(vty, ety cty.Type) cty.Type {
	if ety == cty.DynamicPseudoType && vty.IsCollectionType() {
		return vty.ElementType()
	}
	return WithoutOptional(ety)
}

// objectFused is convertFused for an object type: each attribute of ty is
// taken from v, or from its default when v's is absent or null, and
// converted; an absent optional attribute is null; v's other attributes
// are dropped, as conversion drops them.
func objectFused(v cty.Value, ty cty.Type, d *hcltypeexpr.Defaults) (cty.Value, bool) {
	vty := v.Type()
	if !vty.IsObjectType() {
		return cty.NilVal, false
	}
	have := vty.AttributeTypes()
	// cty.ObjectVal copies the attributes: the map they are gathered in is
	// lent, and given back once the object is made.
	n := len(ty.AttributeTypes())
	attrs := attrmap.New(n)
	defer attrmap.Release(attrs, n)
	for name, aty := range ty.AttributeTypes() {
		var e cty.Value
		_, has := have[name]
		if has {
			e = v.GetAttr(name)
		}
		if (!has || e.IsNull()) && d != nil {
			if def, ok := d.DefaultValues[name]; ok {
				e, has = def, true
			}
		}
		switch {
		case !has && ty.AttributeOptional(name):
			attrs[name] = cty.NullVal(WithoutOptional(aty))
		case !has:
			return cty.NilVal, false
		case e.IsKnown() && !e.IsMarked() && e.IsNull():
			attrs[name] = cty.NullVal(WithoutOptional(aty))
		default:
			out, ok := convertFused(e, aty, defaultsChild(d, name))
			if !ok {
				return cty.NilVal, false
			}
			attrs[name] = out
		}
	}
	return cty.ObjectVal(attrs), true
}
