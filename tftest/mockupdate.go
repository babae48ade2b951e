package tftest

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/lang"
)

// mockUpdate is what Terraform's mocked provider plans and applies for an
// object the state already holds (an update): the object Terraform
// proposes from the prior state and the configuration, unchanged. The
// mock fills nothing on update (it fills computed attributes only when it
// creates an object), so a computed attribute the configuration leaves
// unset keeps its prior value, and one of a nested object that has no
// prior object (a block added since) stays null.
//
// The proposal correlates nested objects as Terraform does: a list
// block's by index, a map block's by key, a single block with the prior
// one, and a set block's object with a prior object it could have come
// from (its configured values equal, where it leaves a computed
// attribute unset the prior value anything). planned is the value
// tfeval planned (the configuration's values known, the computed ones
// unknown where the configuration does not set them), args the
// configuration's arguments at the top level (an attribute not set there
// is unset, whatever planned holds).
func mockUpdate(b *lang.Block, planned, prior, args cty.Value) cty.Value {
	pv, pm := planned.Unmark()
	ov, _ := prior.Unmark()
	if !pv.IsKnown() || pv.IsNull() || !pv.Type().IsObjectType() || !ov.IsKnown() || ov.IsNull() || !ov.Type().IsObjectType() {
		return planned
	}
	unset := func(name string, v cty.Value) bool {
		if args.IsKnown() && !args.IsNull() && args.Type().IsObjectType() && args.Type().HasAttribute(name) {
			return args.GetAttr(name).IsNull()
		}
		return configUnset(v)
	}
	return proposeObject(b, pv, ov, unset).WithMarks(pm)
}

// configUnset says whether a value of a nested object tfeval planned is
// one the configuration leaves unset: null, or unknown as what the
// provider computes.
func configUnset(v cty.Value) bool {
	u, _ := v.Unmark()
	return u.IsNull() || !u.IsKnown()
}

// proposeObject is one object's proposal: prior may be null (no prior
// object), which leaves every unset computed attribute null.
func proposeObject(b *lang.Block, planned, prior cty.Value, unset func(string, cty.Value) bool) cty.Value {
	pu, pm := planned.Unmark()
	if !pu.IsKnown() || pu.IsNull() || !pu.Type().IsObjectType() {
		return planned
	}
	ou, _ := prior.Unmark()
	hasPrior := ou.IsKnown() && !ou.IsNull() && ou.Type().IsObjectType()
	priorAttr := func(name string, ty cty.Type) cty.Value {
		if hasPrior && ou.Type().HasAttribute(name) {
			return ou.GetAttr(name)
		}
		return cty.NullVal(ty)
	}
	attrs := pu.AsValueMap()
	for name, v := range attrs {
		if a, ok := b.Attributes[name]; ok {
			switch {
			case a.Computed && unset(name, v):
				attrs[name] = priorAttr(name, v.Type())
			case a.NestedType != nil:
				// A nested attribute's objects are proposed as a nested
				// block's.
				nb := &lang.NestedBlock{Nesting: a.NestedType.Nesting, Block: &lang.Block{Attributes: a.NestedType.Attributes}}
				attrs[name] = proposeBlock(nb, v, priorAttr(name, v.Type()))
			}
			continue
		}
		nb, ok := b.BlockTypes[name]
		if !ok || nb.Block == nil {
			continue
		}
		attrs[name] = proposeBlock(nb, v, priorAttr(name, v.Type()))
	}
	return cty.ObjectVal(attrs).WithMarks(pm)
}

// proposeBlock is the proposal for the objects of a nested block.
func proposeBlock(nb *lang.NestedBlock, planned, prior cty.Value) cty.Value {
	pu, pm := planned.Unmark()
	if !pu.IsKnown() || pu.IsNull() {
		return planned
	}
	ou, _ := prior.Unmark()
	priorOK := ou.IsKnown() && !ou.IsNull()
	inner := func(name string, v cty.Value) bool { return configUnset(v) }
	switch nb.Nesting {
	case lang.NestingSingle, lang.NestingGroup:
		return proposeObject(nb.Block, planned, prior, inner)
	case lang.NestingList:
		if !pu.CanIterateElements() || pu.LengthInt() == 0 {
			return planned
		}
		var priors []cty.Value
		if priorOK && ou.CanIterateElements() {
			priors = ou.AsValueSlice()
		}
		var out []cty.Value
		for i, e := range pu.AsValueSlice() {
			p := cty.NullVal(e.Type())
			if i < len(priors) {
				p = priors[i]
			}
			out = append(out, proposeObject(nb.Block, e, p, inner))
		}
		return rebuild(pu, out).WithMarks(pm)
	case lang.NestingMap:
		if !pu.CanIterateElements() || pu.LengthInt() == 0 {
			return planned
		}
		priors := map[string]cty.Value{}
		if priorOK && ou.CanIterateElements() {
			priors = ou.AsValueMap()
		}
		out := map[string]cty.Value{}
		for k, e := range pu.AsValueMap() {
			p, ok := priors[k]
			if !ok {
				p = cty.NullVal(e.Type())
			}
			out[k] = proposeObject(nb.Block, e, p, inner)
		}
		if pu.Type().IsObjectType() {
			return cty.ObjectVal(out).WithMarks(pm)
		}
		return cty.MapVal(out).WithMarks(pm)
	case lang.NestingSet:
		if !pu.CanIterateElements() || pu.LengthInt() == 0 {
			return planned
		}
		var priors []cty.Value
		if priorOK && ou.CanIterateElements() {
			priors = ou.AsValueSlice()
		}
		used := make([]bool, len(priors))
		var out []cty.Value
		for _, e := range pu.AsValueSlice() {
			p := cty.NullVal(e.Type())
			for i, c := range priors {
				if !used[i] && fromConfig(nb.Block, c, e) {
					p, used[i] = c, true
					break
				}
			}
			out = append(out, proposeObject(nb.Block, e, p, inner))
		}
		return cty.SetVal(out).WithMarks(pm)
	}
	return planned
}

// rebuild is a list block's value of the objects out, of the collection
// type planned has (a tuple where the objects' types differ).
func rebuild(planned cty.Value, out []cty.Value) cty.Value {
	if planned.Type().IsTupleType() {
		return cty.TupleVal(out)
	}
	return cty.ListVal(out)
}

// fromConfig says whether the prior object of a set block could have
// come from the configured object: every value the configuration sets is
// the prior one, and where it leaves a computed attribute unset the
// prior may have any value. A nested set must be equal as a whole.
func fromConfig(b *lang.Block, prior, planned cty.Value) bool {
	pu, _ := planned.UnmarkDeep()
	ou, _ := prior.UnmarkDeep()
	if !pu.IsKnown() || !ou.IsKnown() || pu.IsNull() || ou.IsNull() || !pu.Type().IsObjectType() || !ou.Type().IsObjectType() {
		return pu.RawEquals(ou)
	}
	for name, v := range pu.AsValueMap() {
		if !ou.Type().HasAttribute(name) {
			return false
		}
		o := ou.GetAttr(name)
		if a, ok := b.Attributes[name]; ok {
			if a.Computed && configUnset(v) {
				continue
			}
			if !v.RawEquals(o) {
				return false
			}
			continue
		}
		nb, ok := b.BlockTypes[name]
		if !ok || nb.Block == nil {
			if !v.RawEquals(o) {
				return false
			}
			continue
		}
		if !blockFromConfig(nb, o, v) {
			return false
		}
	}
	return true
}

// blockFromConfig is fromConfig for the objects of a nested block.
func blockFromConfig(nb *lang.NestedBlock, prior, planned cty.Value) bool {
	if !planned.IsKnown() || !prior.IsKnown() || planned.IsNull() || prior.IsNull() {
		return planned.RawEquals(prior)
	}
	switch nb.Nesting {
	case lang.NestingSingle, lang.NestingGroup:
		return fromConfig(nb.Block, prior, planned)
	case lang.NestingList:
		if planned.LengthInt() != prior.LengthInt() {
			return false
		}
		ps, os := planned.AsValueSlice(), prior.AsValueSlice()
		for i := range ps {
			if !fromConfig(nb.Block, os[i], ps[i]) {
				return false
			}
		}
		return true
	case lang.NestingMap:
		pm, om := planned.AsValueMap(), prior.AsValueMap()
		if len(pm) != len(om) {
			return false
		}
		for k, v := range pm {
			o, ok := om[k]
			if !ok || !fromConfig(nb.Block, o, v) {
				return false
			}
		}
		return true
	}
	return planned.RawEquals(prior)
}
