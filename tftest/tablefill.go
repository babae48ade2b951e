package tftest

import (
	"fmt"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/typeexpr"
)

// This file fills the object of a mocked resource or data source without
// schema where the table of the provider's schema (lang.TableSchema)
// knows its type, as Terraform's mocks do with the schema (each rule
// checked with terraform test v1.11.4 and the aws provider v5.100.0): an
// attribute the configuration does not set is, if the provider computes
// it, unknown of its type while planning and, once final, the value a mock
// or override gives (converted to its type) or the generated one (an
// empty collection for a collection type); if not computed, null. A nested
// block the configuration does not write is an empty list or set of its
// objects, or null (nesting single), already in the plan; the objects of
// one it writes are filled the same way, attribute by attribute and
// block by block.

// tableValue is the value of attribute or block name of an object of
// schema b: planned is tfeval's plan of it without schema, arg the
// configuration's value (cty.NilVal if none), set whether the
// configuration sets it, with what a mock or override gives it. ok is
// false where the table does not decide it (the schema has no such
// name, a value given does not convert, a block tfeval planned in another
// shape), which leaves it to the caller.
func tableValue(b *lang.Block, name string, planned, arg cty.Value, set bool, with cty.Value, gen generator, path string, final bool) (cty.Value, bool) {
	if a, ok := b.Attributes[name]; ok {
		if set {
			if !planned.IsKnown() && !planned.IsMarked() {
				return planned, false
			}
			// Terraform decodes the configuration by the schema: an
			// argument is of its attribute's type.
			if cv, ok := convertTo(planned, a.Type); ok {
				return cv, true
			}
			return planned, false
		}
		if planned.IsKnown() && !planned.IsNull() {
			return planned, false
		}
		if !a.Computed {
			return cty.NullVal(a.Type), true
		}
		if !final {
			return cty.UnknownVal(a.Type), true
		}
		if with != cty.NilVal {
			cv, ok := convertTo(with, a.Type)
			return cv, ok
		}
		return gen.value(a.Type, path), true
	}
	nb, ok := b.BlockTypes[name]
	if !ok {
		return planned, false
	}
	if a, _ := arg.Unmark(); set && a.IsKnown() && (a.Type().IsTupleType() || a.Type().IsListType()) && a.LengthInt() == 0 {
		// A dynamic block without elements: no block written.
		set = false
	}
	if !set {
		ty := nb.Block.ImpliedType()
		switch nb.Nesting {
		case lang.NestingList:
			return cty.ListValEmpty(ty), true
		case lang.NestingSet:
			return cty.SetValEmpty(ty), true
		case lang.NestingSingle:
			return cty.NullVal(ty), true
		}
		return planned, false
	}
	return tableBlock(nb, planned, arg, with, gen, path, final)
}

// tableBlock is a nested block the configuration writes, its objects
// filled by the block's schema.
func tableBlock(nb *lang.NestedBlock, planned, arg, with cty.Value, gen generator, path string, final bool) (cty.Value, bool) {
	p, pm := planned.Unmark()
	a, _ := arg.Unmark()
	if !p.IsKnown() || p.IsNull() || !a.IsKnown() || a.IsNull() {
		return planned, false
	}
	pt, at := p.Type(), a.Type()
	switch nb.Nesting {
	case lang.NestingSingle:
		if !pt.IsObjectType() || !at.IsObjectType() {
			return planned, false
		}
		v, ok := tableObject(nb.Block, p, a, with, gen, path, final)
		return v.WithMarks(pm), ok
	case lang.NestingList, lang.NestingSet:
	default:
		return planned, false
	}
	isSeq := func(t cty.Type) bool { return t.IsTupleType() || t.IsListType() }
	if !isSeq(pt) || !isSeq(at) || p.LengthInt() != a.LengthInt() {
		return planned, false
	}
	elems, args := p.AsValueSlice(), a.AsValueSlice()
	if len(elems) == 0 {
		if nb.Nesting == lang.NestingSet {
			return cty.SetValEmpty(nb.Block.ImpliedType()).WithMarks(pm), true
		}
		return cty.ListValEmpty(nb.Block.ImpliedType()).WithMarks(pm), true
	}
	for i, e := range elems {
		nv, ok := tableObject(nb.Block, e, args[i], with, gen, fmt.Sprintf("%s[%d]", path, i), final)
		if !ok {
			return planned, false
		}
		elems[i] = nv
	}
	ty := nb.Block.ImpliedType()
	for _, e := range elems {
		if !e.Type().Equals(ty) {
			return planned, false
		}
	}
	if nb.Nesting == lang.NestingSet {
		return cty.SetVal(elems).WithMarks(pm), true
	}
	return cty.ListVal(elems).WithMarks(pm), true
}

// tableObject is one object of a nested block the configuration writes:
// e as tfeval planned it, arg as written.
func tableObject(b *lang.Block, e, arg, with cty.Value, gen generator, path string, final bool) (cty.Value, bool) {
	inner, em := e.Unmark()
	a, _ := arg.Unmark()
	if !inner.IsKnown() || inner.IsNull() || !inner.Type().IsObjectType() || !a.IsKnown() || a.IsNull() || !a.Type().IsObjectType() {
		return e, false
	}
	have := inner.AsValueMap()
	for name := range have {
		if _, ok := b.Attributes[name]; ok {
			continue
		}
		if _, ok := b.BlockTypes[name]; ok {
			continue
		}
		// Not of the schema: Terraform rejects the configuration or the
		// reference; tfeval leaves it to the schema.
		return e, false
	}
	out := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	names := slices.Collect(maps.Keys(b.Attributes))
	for name := range b.BlockTypes {
		names = append(names, name)
	}
	for _, name := range names {
		pv, ok := have[name]
		if !ok {
			pv = cty.DynamicVal
		}
		av := attrOf(a, name)
		set := av != cty.NilVal && !av.IsNull()
		nv, ok := tableValue(b, name, pv, av, set, attrOf(with, name), gen, path+"."+name, final)
		if !ok {
			return e, false
		}
		out[name] = nv
	}
	return cty.ObjectVal(out).WithMarks(em), true
}

// convertTo is v converted to ty, ok false if it does not convert.
func convertTo(v cty.Value, ty cty.Type) (out cty.Value, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = v, false
		}
	}()
	cv, err := typeexpr.ConvertValue(v, ty)
	if err != nil {
		return v, false
	}
	return cv, true
}
