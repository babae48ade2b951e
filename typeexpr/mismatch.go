package typeexpr

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// MismatchMessage says why a value of type got cannot convert to want, in
// go-cty's words (convert.MismatchMessage, which Terraform prints), but
// always the same words: where go-cty reports the first offending object
// attribute or map element it meets in Go's random map order, this reports
// the first in name order. Messages with a single candidate are go-cty's
// own.
func MismatchMessage(got, want cty.Type) string {
	switch {
	case got.IsObjectType() && want.IsObjectType():
		return objectMismatch(got, want)
	case (got.IsTupleType() || got.IsObjectType()) && want.IsCollectionType() && want.ElementType() != cty.DynamicPseudoType:
		return structuralToCollectionMismatch(got, want)
	case got.IsCollectionType() && want.IsCollectionType():
		return collectionMismatch(got, want)
	}
	return convert.MismatchMessage(got, want)
}

// ConvertValue is convert.Convert with MismatchMessage's message when no
// conversion between the types exists, and with a map's missing or
// incompatible attribute named as mapToObjectError names it.
func ConvertValue(v cty.Value, want cty.Type) (cty.Value, error) {
	if v.IsNull() && !v.IsMarked() && v.Type() == cty.DynamicPseudoType && want != cty.DynamicPseudoType {
		// The literal null (every `default = null`): go-cty gives a null
		// of the wanted type without its optional attributes, after
		// working out a conversion it does not use.
		return cty.NullVal(WithoutOptional(want)), nil
	}
	// convert.Convert's two steps, without its copy of want without
	// optional attributes: a value already of that type is returned as is.
	if equalsWithoutOptional(v.Type(), want) {
		return v, nil
	}
	conv := convert.GetConversionUnsafe(v.Type(), want)
	if conv == nil {
		return cty.NilVal, errors.New(MismatchMessage(v.Type(), want))
	}
	out, err := conv(v)
	if err == nil {
		return out, nil
	}
	if perr, ok := err.(cty.PathError); ok && mapToObjectMessage(perr.Error()) {
		if m, ty, ok := valueAt(v, want, perr.Path); ok {
			if fixed := mapToObjectError(m, ty, perr.Path); fixed != nil {
				return out, fixed
			}
		}
	}
	return out, err
}

// mapToObjectMessage reports whether a conversion error is one of the two
// go-cty gives converting a map to an object.
func mapToObjectMessage(msg string) bool {
	return strings.HasPrefix(msg, "map has no element for required attribute ") ||
		strings.HasPrefix(msg, "map element type is incompatible with attribute ")
}

// mapToObjectError is the error go-cty gives converting map m, all of
// whose elements before the offending one convert, to object type ty: the
// first element, in name order, whose type cannot become its attribute's,
// or else the first required attribute, in name order, the map lacks.
// go-cty looks for the latter in Go's map order. nil when m converts.
func mapToObjectError(m cty.Value, ty cty.Type, path cty.Path) error {
	m, _ = m.Unmark()
	if !m.Type().IsMapType() || !ty.IsObjectType() || !m.IsKnown() || m.IsNull() {
		return nil
	}
	ety := m.Type().ElementType()
	for it := m.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		name := k.AsString()
		if !ty.HasAttribute(name) {
			continue
		}
		aty := ty.AttributeType(name)
		if !ety.Equals(aty) && convert.GetConversionUnsafe(ety, aty) == nil {
			return path.NewErrorf("map element type is incompatible with attribute %q: %s", name, MismatchMessage(ety, aty))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(ty.AttributeTypes())) {
		if !ty.AttributeOptional(name) && m.HasIndex(cty.StringVal(name)).False() {
			return path.NewErrorf("map has no element for required attribute %q", name)
		}
	}
	return nil
}

// valueAt follows a conversion error's path from value v, converted to
// want, to the value it names and the type that value was converted to.
func valueAt(v cty.Value, want cty.Type, path cty.Path) (cty.Value, cty.Type, bool) {
	for _, step := range path {
		v, _ = v.Unmark()
		if !v.IsKnown() || v.IsNull() {
			return cty.NilVal, cty.NilType, false
		}
		var key cty.Value
		switch s := step.(type) {
		case cty.GetAttrStep:
			key = cty.StringVal(s.Name)
		case cty.IndexStep:
			key = s.Key
		default:
			return cty.NilVal, cty.NilType, false
		}
		vty := v.Type()
		switch {
		case vty.IsObjectType() && key.Type() == cty.String && vty.HasAttribute(key.AsString()):
			v = v.GetAttr(key.AsString())
		case (vty.IsMapType() || vty.IsListType() || vty.IsTupleType()) && v.HasIndex(key).True():
			v = v.Index(key)
		default:
			return cty.NilVal, cty.NilType, false
		}
		switch {
		case want.IsObjectType() && key.Type() == cty.String && want.HasAttribute(key.AsString()):
			want = want.AttributeType(key.AsString())
		case want.IsMapType() || want.IsListType():
			want = want.ElementType()
		case want.IsTupleType() && key.Type() == cty.Number:
			i, acc := key.AsBigFloat().Int64()
			if acc != 0 || i < 0 || int(i) >= len(want.TupleElementTypes()) {
				return cty.NilVal, cty.NilType, false
			}
			want = want.TupleElementType(int(i))
		default:
			return cty.NilVal, cty.NilType, false
		}
	}
	return v, want, true
}

// maxListedAttributes bounds the missing attributes a message names; go-cty
// names every one, as Terraform's messages do up to this many.
const maxListedAttributes = 20

// objectMismatch explains an object that cannot become another: missing
// required attributes first, then the first attribute that cannot convert
// even unsafely, then the first that cannot convert safely.
func objectMismatch(got, want cty.Type) string {
	gotAtys := got.AttributeTypes()
	var missing []string
	var unsafeMismatch, safeMismatch string
	for _, name := range slices.Sorted(maps.Keys(want.AttributeTypes())) {
		wantAty := want.AttributeType(name)
		gotAty, ok := gotAtys[name]
		switch {
		case !ok:
			if !want.AttributeOptional(name) {
				missing = append(missing, name)
			}
			continue
		case gotAty.Equals(wantAty) || unsafeMismatch != "":
			continue
		}
		if convert.GetConversionUnsafe(gotAty, wantAty) == nil {
			unsafeMismatch = fmt.Sprintf("attribute %q: %s", name, MismatchMessage(gotAty, wantAty))
		}
		if safeMismatch == "" && convert.GetConversion(gotAty, wantAty) == nil {
			safeMismatch = fmt.Sprintf("attribute %q: %s", name, MismatchMessage(gotAty, wantAty))
		}
	}
	switch {
	case len(missing) == 1:
		return fmt.Sprintf("attribute %q is required", missing[0])
	case len(missing) == 2:
		return fmt.Sprintf("attributes %q and %q are required", missing[0], missing[1])
	case len(missing) > maxListedAttributes:
		// An object type of a provider schema (or a -schemas document) may
		// have thousands of attributes; every diagnostic naming them all
		// would make output of gigabytes.
		quoted := make([]string, maxListedAttributes)
		for i, m := range missing[:maxListedAttributes] {
			quoted[i] = fmt.Sprintf("%q", m)
		}
		return fmt.Sprintf("attributes %s, and %d others are required", strings.Join(quoted, ", "), len(missing)-maxListedAttributes)
	case len(missing) > 2:
		quoted := make([]string, len(missing))
		for i, m := range missing {
			quoted[i] = fmt.Sprintf("%q", m)
		}
		return fmt.Sprintf("attributes %s, and %s are required", strings.Join(quoted[:len(quoted)-1], ", "), quoted[len(quoted)-1])
	case unsafeMismatch != "":
		return unsafeMismatch
	case safeMismatch != "":
		return safeMismatch
	}
	return "incorrect object attributes"
}

// structuralToCollectionMismatch explains a tuple or object that cannot
// become a list, set or map of a known element type: the first element
// that cannot convert, by index or by name.
func structuralToCollectionMismatch(got, want cty.Type) string {
	wantEty := want.ElementType()
	// Kinds that can never match are named as go-cty names them.
	if want.IsMapType() != got.IsObjectType() {
		return convert.MismatchMessage(got, want)
	}
	fails := func(ety cty.Type) bool {
		return !ety.Equals(wantEty) && convert.GetConversionUnsafe(ety, wantEty) == nil
	}
	if got.IsTupleType() {
		for i, ety := range got.TupleElementTypes() {
			if fails(ety) {
				return fmt.Sprintf("element %d: %s", i, MismatchMessage(ety, wantEty))
			}
		}
	} else {
		atys := got.AttributeTypes()
		for _, name := range slices.Sorted(maps.Keys(atys)) {
			if fails(atys[name]) {
				return fmt.Sprintf("element %q: %s", name, MismatchMessage(atys[name], wantEty))
			}
		}
	}
	return fmt.Sprintf("all elements must be %s", wantEty.FriendlyNameForConstraint())
}

// collectionMismatch explains a collection whose element type cannot
// convert, with the element types explained in turn.
func collectionMismatch(got, want cty.Type) string {
	var noun string
	switch {
	case want.IsListType() && (got.IsListType() || got.IsSetType()):
		noun = "list element type"
	case want.IsSetType() && (got.IsListType() || got.IsSetType()):
		noun = "set element type"
	case want.IsMapType() && got.IsMapType():
		noun = "map element type"
	default:
		return convert.MismatchMessage(got, want)
	}
	return fmt.Sprintf("incorrect %s: %s", noun, MismatchMessage(got.ElementType(), want.ElementType()))
}
