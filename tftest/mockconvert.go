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
// ".block[0].name"; at, the same as Terraform has it, a set's element
// indexed by a value that is neither number nor string), its type, and
// why. With notObject, it is instead a value that is not an object where
// Terraform looks for the values of a nested block's or nested
// attribute's objects: at is the path of the object, found the type of
// the value.
type mockMismatch struct {
	path      string
	at        cty.Path
	ty        cty.Type
	err       error
	notObject bool
	found     cty.Type
}

// setKey is the key tfeval gives an element of a set in a cty.Path of
// its diagnostics: Terraform indexes one by its value, which it writes
// as "[...]" and does not look up in the configuration.
var setKey = cty.EmptyObjectVal

// notAnObject is the mismatch of with, the mocked data of the object at
// path at, if Terraform would not find an object there (a tuple for the
// objects of a list, a map, a string, a null), nil otherwise.
func notAnObject(with cty.Value, at cty.Path) *mockMismatch {
	if with == cty.NilVal {
		return nil
	}
	w, _ := with.Unmark()
	if w.Type().IsObjectType() {
		return nil
	}
	return &mockMismatch{notObject: true, at: at, found: w.Type()}
}

// extend is p with step appended, in a new backing array.
func extend(p cty.Path, steps ...cty.PathStep) cty.Path {
	out := make(cty.Path, 0, len(p)+len(steps))
	return append(append(out, p...), steps...)
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
// header), at the place of the configuration Terraform finds for the
// attribute's path (subjectAt: the resource block for an attribute it
// does not set, a nested block it writes for one of its objects). A
// value that is not an object where Terraform looks for a nested
// object's values it reports with the path of that object. OpenTofu
// names the object and the field (and tfeval leaves its nested objects
// as they were: notObject mismatches are Terraform's only).
func mockMismatchDiags(ms []mockMismatch, terraform bool, addr string, body hcl.Body, mockRange hcl.Range, override *hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range ms {
		if terraform && m.notObject {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to compute attribute",
				Detail:   fmt.Sprintf("Terraform expected an object type for attribute %q defined within the mocked data at %s, but found %s.", formatPath(m.at), mockRange, m.found.FriendlyName()),
				Subject:  subjectAt(body, m.at).Ptr(),
			})
			continue
		}
		if m.notObject {
			continue
		}
		msg := m.err.Error()
		rel := ""
		if pe, ok := m.err.(cty.PathError); ok {
			rel = formatPath(pe.Path)
		}
		path := m.path + rel
		if terraform {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Failed to compute attribute",
				Detail:   fmt.Sprintf("Terraform could not compute a value for the target type %s with the mocked data defined at %s with the attribute %q: %s.", m.ty.FriendlyName(), mockRange, formatPath(m.at)+rel, msg),
				Subject:  subjectAt(body, m.at).Ptr(),
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
// attributes that the table of the provider's schema (tb) says the
// provider computes and the configuration (args) does not set, which the
// mocked provider fills, that do not fit the attribute's type (once
// final), and, walk set, the values given for the objects of the nested
// blocks the configuration writes that are not objects (notAnObject),
// one for each computed attribute of the object, as Terraform reports
// them.
func tableMismatches(tb *lang.Block, args, with cty.Value, gen generator, final, walk bool) []mockMismatch {
	if with == cty.NilVal {
		return nil
	}
	w, _ := with.Unmark()
	if !w.IsKnown() || w.IsNull() || !w.Type().IsObjectType() {
		return nil
	}
	return tableObjectMismatches(tb, args, with, gen, "", nil, final, walk, nil)
}

// tableObjectMismatches are tableMismatches of an object of schema b at
// path (at, as Terraform has it), args as the configuration writes it;
// bad, if not nil, the mismatch of a value given above it that is not an
// object.
func tableObjectMismatches(b *lang.Block, args, with cty.Value, gen generator, path string, at cty.Path, final, walk bool, bad *mockMismatch) []mockMismatch {
	if bad == nil && len(at) > 0 {
		bad = notAnObject(with, at)
	}
	if bad != nil {
		with = cty.NilVal
	}
	names := make([]string, 0, len(b.Attributes)+len(b.BlockTypes))
	for name := range b.Attributes {
		names = append(names, name)
	}
	for name := range b.BlockTypes {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []mockMismatch
	for _, name := range names {
		arg := attrOf(args, name)
		if a, ok := b.Attributes[name]; ok {
			if !a.Computed || arg != cty.NilVal && !arg.IsNull() {
				continue
			}
			if bad != nil {
				if walk {
					out = append(out, *bad)
				}
				continue
			}
			wv := attrOf(with, name)
			if !final || wv == cty.NilVal {
				continue
			}
			if _, err := mockConvert(wv, a.Type, gen, path+"."+name, nil); err != nil {
				out = append(out, mockMismatch{path: path + "." + name, at: extend(at, cty.GetAttrStep{Name: name}), ty: a.Type, err: err})
			}
			continue
		}
		nb, ok := b.BlockTypes[name]
		if !ok || arg == cty.NilVal {
			continue
		}
		av, _ := arg.Unmark()
		if !av.IsKnown() || av.IsNull() {
			continue
		}
		wv := attrOf(with, name)
		bat := extend(at, cty.GetAttrStep{Name: name})
		ty := av.Type()
		switch nb.Nesting {
		case lang.NestingSingle, lang.NestingGroup:
			if ty.IsObjectType() {
				out = append(out, tableObjectMismatches(nb.Block, av, wv, gen, path+"."+name, bat, final, walk, bad)...)
			}
		case lang.NestingList, lang.NestingSet:
			if !ty.IsListType() && !ty.IsTupleType() && !ty.IsSetType() {
				continue
			}
			for i, e := range av.AsValueSlice() {
				key := cty.NumberIntVal(int64(i))
				if nb.Nesting == lang.NestingSet {
					key = setKey
				}
				out = append(out, tableObjectMismatches(nb.Block, e, wv, gen, fmt.Sprintf("%s.%s[%d]", path, name, i), extend(bat, cty.IndexStep{Key: key}), final, walk, bad)...)
			}
		case lang.NestingMap:
			if !ty.IsMapType() && !ty.IsObjectType() {
				continue
			}
			m := av.AsValueMap()
			for _, k := range sortedKeys(m) {
				out = append(out, tableObjectMismatches(nb.Block, m[k], wv, gen, fmt.Sprintf("%s.%s[%q]", path, name, k), extend(bat, cty.IndexStep{Key: cty.StringVal(k)}), final, walk, bad)...)
			}
		}
	}
	return out
}
