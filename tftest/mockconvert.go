package tftest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/typeexpr"
)

// mockMismatch is a mock or override value that does not fit the type of
// the computed attribute it is for: the attribute's path (".id",
// ".block[0].name"), its type, and why.
type mockMismatch struct {
	path string
	ty   cty.Type
	err  error
}

// mockConvert makes a mock or override value one of type ty, as
// Terraform's mocked providers make it: an object (or a map) gives an
// object type's attributes, each converted in turn, and those it lacks
// are generated; a list, set or tuple gives a collection of objects its
// elements; anything else converts as a value converts. The error is a
// cty.PathError, its path relative to the attribute.
func mockConvert(in cty.Value, ty cty.Type, gen generator, path string, rel cty.Path) (cty.Value, error) {
	got := in.Type()
	incompatible := func() error {
		return rel.NewErrorf("incompatible types; expected %s, found %s", ty.FriendlyName(), got.FriendlyName())
	}
	switch {
	case ty.IsObjectType():
		if !got.IsObjectType() && !got.IsMapType() {
			return cty.NilVal, incompatible()
		}
		names := make([]string, 0, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			names = append(names, name)
		}
		if len(names) == 0 {
			return cty.EmptyObjectVal, nil
		}
		sort.Strings(names)
		attrs := make(map[string]cty.Value, len(names))
		for _, name := range names {
			at := ty.AttributeType(name)
			var child cty.Value
			switch {
			case got.IsObjectType() && got.HasAttribute(name):
				child = in.GetAttr(name)
			case got.IsMapType() && !in.IsNull() && in.IsKnown() && in.HasIndex(cty.StringVal(name)).True():
				child = in.Index(cty.StringVal(name))
			default:
				attrs[name] = gen.value(at, path+"."+name)
				continue
			}
			v, err := mockConvert(child, at, gen, path+"."+name, rel.Index(cty.StringVal(name)))
			if err != nil {
				return cty.NilVal, err
			}
			attrs[name] = v
		}
		return cty.ObjectVal(attrs), nil
	case ty.IsCollectionType() && ty.ElementType().IsObjectType():
		et := ty.ElementType()
		if ty.IsMapType() {
			if !got.IsMapType() && !got.IsObjectType() {
				return cty.NilVal, incompatible()
			}
			if in.IsNull() || !in.IsKnown() || in.LengthInt() == 0 {
				return cty.MapValEmpty(et), nil
			}
			m := map[string]cty.Value{}
			for k, e := range in.AsValueMap() {
				v, err := mockConvert(e, et, gen, fmt.Sprintf("%s[%q]", path, k), rel.Index(cty.StringVal(k)))
				if err != nil {
					return cty.NilVal, err
				}
				m[k] = v
			}
			return cty.MapVal(m), nil
		}
		if !got.IsListType() && !got.IsSetType() && !got.IsTupleType() {
			return cty.NilVal, incompatible()
		}
		var elems []cty.Value
		if !in.IsNull() && in.IsKnown() {
			for i, e := range in.AsValueSlice() {
				v, err := mockConvert(e, et, gen, fmt.Sprintf("%s[%d]", path, i), rel.Index(cty.NumberIntVal(int64(i))))
				if err != nil {
					return cty.NilVal, err
				}
				elems = append(elems, v)
			}
		}
		switch {
		case len(elems) == 0 && ty.IsListType():
			return cty.ListValEmpty(et), nil
		case len(elems) == 0:
			return cty.SetValEmpty(et), nil
		case ty.IsListType():
			return cty.ListVal(elems), nil
		}
		return cty.SetVal(elems), nil
	case ty.IsTupleType() && got.IsTupleType():
		if ty.Length() != got.Length() {
			return cty.NilVal, rel.NewErrorf("incompatible types; expected %s with length %d, found %s with length %d", ty.FriendlyName(), ty.Length(), got.FriendlyName(), got.Length())
		}
		if ty.Length() == 0 {
			return cty.EmptyTupleVal, nil
		}
		elems := make([]cty.Value, ty.Length())
		for i, e := range in.AsValueSlice() {
			v, err := mockConvert(e, ty.TupleElementType(i), gen, fmt.Sprintf("%s[%d]", path, i), rel.Index(cty.NumberIntVal(int64(i))))
			if err != nil {
				return cty.NilVal, err
			}
			elems[i] = v
		}
		return cty.TupleVal(elems), nil
	}
	v, err := typeexpr.ConvertValue(in, ty)
	if err != nil {
		return cty.NilVal, rel.NewError(err)
	}
	return v, nil
}

// mockMismatchDiags are the errors of mock or override values that do not
// fit their attributes, in each dialect's words. Terraform's mocked
// provider reports each as "Failed to compute attribute" of the plan,
// apply or read that uses it, naming where the values were given
// (mockRange: a mock block's defaults argument, an override block's
// header), at the resource block (the attribute, computed, is not in it);
// OpenTofu names the object and the field.
func mockMismatchDiags(ms []mockMismatch, terraform bool, addr string, res hcl.Range, mockRange hcl.Range, override *hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range ms {
		msg := m.err.Error()
		path := m.path
		if pe, ok := m.err.(cty.PathError); ok {
			path += formatPath(pe.Path)
		}
		if terraform {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to compute attribute",
				Detail:   fmt.Sprintf("Terraform could not compute a value for the target type %s with the mocked data defined at %s with the attribute %q: %s.", m.ty.FriendlyName(), mockRange, path, msg),
				Subject:  res.Ptr(),
			})
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid mock/override field",
			Detail:   fmt.Sprintf("%s: Values provided for override / mock must match resource fields: %s: %s.", addr, strings.TrimPrefix(path, "."), msg),
			Subject:  override,
		})
	}
	return diags
}

// formatPath writes a path as Terraform writes one in its messages:
// .name for an attribute, [0] or ["key"] for an index.
func formatPath(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			k := s.Key
			switch {
			case k.IsNull():
				b.WriteString("[null]")
			case !k.IsKnown():
				b.WriteString("[(not yet known)]")
			case k.Type() == cty.Number:
				b.WriteString("[" + k.AsBigFloat().Text('g', -1) + "]")
			case k.Type() == cty.String:
				b.WriteString(fmt.Sprintf("[%q]", k.AsString()))
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}

// tableMismatches are the mock or override values (with) given for the
// top-level attributes that the table of the provider's schema (tb) says
// the provider computes and the configuration (args) does not set, which
// the mocked provider fills, that do not fit the attribute's type.
func tableMismatches(tb *lang.Block, args, with cty.Value, gen generator) []mockMismatch {
	if with == cty.NilVal {
		return nil
	}
	w, _ := with.Unmark()
	if !w.IsKnown() || w.IsNull() || !w.Type().IsObjectType() {
		return nil
	}
	var out []mockMismatch
	for _, name := range sortedKeys(tb.Attributes) {
		a := tb.Attributes[name]
		if !a.Computed || !w.Type().HasAttribute(name) {
			continue
		}
		if arg := attrOf(args, name); arg != cty.NilVal && !arg.IsNull() {
			continue
		}
		if _, err := mockConvert(w.GetAttr(name), a.Type, gen, "."+name, nil); err != nil {
			out = append(out, mockMismatch{path: "." + name, ty: a.Type, err: err})
		}
	}
	return out
}
