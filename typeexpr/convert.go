package typeexpr

import (
	"fmt"
	"strconv"
	"strings"

	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// Convert applies the optional-attribute defaults and then converts val to
// constraint. Defaults never replace a top-level null: a null value stays null
// (Terraform decides separately whether null is allowed). The error is
// go-cty's, usually a cty.PathError; FormatError renders it as Terraform does.
func Convert(val cty.Value, constraint cty.Type, defaults *hcltypeexpr.Defaults) (cty.Value, error) {
	if out, ok := convertFused(val, constraint, defaults); ok {
		return out, nil
	}
	if defaults != nil && !val.IsNull() && needsDefaults(defaults, val) {
		val = defaults.Apply(val)
	}
	return ConvertValue(val, constraint)
}

// needsDefaults reports whether applying d to v would change anything.
// Defaults.Apply rebuilds every collection and object it passes through
// even when it fills nothing in; a value that already went through the
// same type (a module argument passed on from a variable) has nothing to
// fill, and skipping the rebuild also lets the conversion after it see a
// value of the target type and return it as it is. The walk follows
// Apply's: an attribute with a default that is absent, null or unknown
// (which Apply would refine), or a child that needs its own defaults,
// means Apply must run.
func needsDefaults(d *hcltypeexpr.Defaults, v cty.Value) bool {
	if !v.IsKnown() || v.IsNull() || len(d.DefaultValues) == 0 && len(d.Children) == 0 {
		return false
	}
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		i := 0
		for it := elements.Of(v); it.Next(); i++ {
			_, e := it.Element()
			if c := defaultsChild(d, i); c != nil && needsDefaults(c, e) {
				return true
			}
		}
	case ty.IsObjectType() || ty.IsMapType():
		// Reading elements in place: AsValueMap would copy them all.
		for it := elements.Of(v); it.Next(); {
			key, e := it.Element()
			if c := defaultsChild(d, key.AsString()); c != nil && needsDefaults(c, e) {
				return true
			}
		}
		for key := range d.DefaultValues {
			if e, ok := element(v, key); !ok || e.IsNull() || !e.IsKnown() {
				return true
			}
		}
	}
	return false
}

// element is the attribute or map element key of v, if v has it.
func element(v cty.Value, key string) (cty.Value, bool) {
	if v.Type().IsObjectType() {
		if !v.Type().HasAttribute(key) {
			return cty.NilVal, false
		}
		return v.GetAttr(key), true
	}
	k := cty.StringVal(key)
	if !v.HasIndex(k).RawEquals(cty.True) {
		return cty.NilVal, false
	}
	return v.Index(k), true
}

// defaultsChild is the Defaults for an element, found as Defaults.Apply
// finds it: by index in a tuple's defaults, by name in an object's, and
// under "" for the element type of a collection.
func defaultsChild(d *hcltypeexpr.Defaults, key any) *hcltypeexpr.Defaults {
	if d == nil {
		return nil
	}
	switch k := key.(type) {
	case int:
		if d.Type.IsTupleType() {
			return d.Children[strconv.Itoa(k)]
		}
	case string:
		if d.Type.IsObjectType() {
			return d.Children[k]
		}
	}
	return d.Children[""]
}

// FormatError renders a conversion error with its path in front, e.g.
// `.tags["a"]: a number is required`, the form Terraform uses in default-value
// and output-type diagnostics.
func FormatError(err error) string {
	perr, ok := err.(cty.PathError)
	if !ok || len(perr.Path) == 0 {
		return err.Error()
	}
	return fmt.Sprintf("%s: %s", MessagePath(perr.Path), perr.Error())
}

// MessagePath writes a cty.Path as Terraform's diagnostics name a place in
// a value, `.a["k"][0]`, with a leading dot and unknown keys as `[...]`.
// It is wording, not a path syntax to read back: that is the root
// package's FormatPath and ParsePath.
func MessagePath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			switch {
			case !s.Key.IsKnown():
				b.WriteString("[...]")
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}

// WithoutOptional is ty.WithoutOptionalAttributesDeep(), which builds every
// object, collection and tuple type inside ty anew even when none has an
// optional attribute: such a type is returned as it is.
func WithoutOptional(ty cty.Type) cty.Type {
	if !hasOptional(ty) {
		return ty
	}
	return ty.WithoutOptionalAttributesDeep()
}

// equalsWithoutOptional reports whether have equals
// WithoutOptional(want), without building that type: want is usually a
// variable's constraint, met once for every value converted to it, and
// the copy go-cty makes rebuilds every object type in it.
func equalsWithoutOptional(have, want cty.Type) bool {
	switch {
	case want.IsObjectType():
		if !have.IsObjectType() || len(have.OptionalAttributes()) > 0 {
			return false
		}
		haveAttrs, wantAttrs := have.AttributeTypes(), want.AttributeTypes()
		if len(haveAttrs) != len(wantAttrs) {
			return false
		}
		for name, wantAttr := range wantAttrs {
			haveAttr, ok := haveAttrs[name]
			if !ok || !equalsWithoutOptional(haveAttr, wantAttr) {
				return false
			}
		}
		return true
	case want.IsListType():
		return have.IsListType() && equalsWithoutOptional(have.ElementType(), want.ElementType())
	case want.IsMapType():
		return have.IsMapType() && equalsWithoutOptional(have.ElementType(), want.ElementType())
	case want.IsSetType():
		return have.IsSetType() && equalsWithoutOptional(have.ElementType(), want.ElementType())
	case want.IsTupleType():
		if !have.IsTupleType() {
			return false
		}
		haveElems, wantElems := have.TupleElementTypes(), want.TupleElementTypes()
		if len(haveElems) != len(wantElems) {
			return false
		}
		for i := range wantElems {
			if !equalsWithoutOptional(haveElems[i], wantElems[i]) {
				return false
			}
		}
		return true
	}
	return have.Equals(want)
}

// hasOptional reports whether ty or a type inside it is an object type
// with optional attributes.
func hasOptional(ty cty.Type) bool {
	switch {
	case ty.IsObjectType():
		if len(ty.OptionalAttributes()) > 0 {
			return true
		}
		for _, aty := range ty.AttributeTypes() {
			if hasOptional(aty) {
				return true
			}
		}
	case ty.IsCollectionType():
		return hasOptional(ty.ElementType())
	case ty.IsTupleType():
		for _, ety := range ty.TupleElementTypes() {
			if hasOptional(ety) {
				return true
			}
		}
	}
	return false
}
