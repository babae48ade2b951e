package tftest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// An apply run plans each object again before it applies it, and the new
// plan must agree with the first one where that one was known. Terraform's
// mocks (a mock_resource, an override_resource) that fill a created
// object's computed attributes while planning (override_during = plan)
// fill them again in the second plan: what the values given hold is the
// same, but each string they do not give is drawn at random again, so the
// two plans disagree on it and the apply of that object fails with
// "Provider produced inconsistent final plan", one error for each
// attribute (numbers and booleans are generated as 0 and false, and
// collections empty, both times). OpenTofu generates its values from a
// seed of the resource type, the same in both plans.

// finalPlanProvider is how Terraform names the provider of an object in
// the error: its fully qualified source address.
func finalPlanProvider(res *config.Resource, source string) string {
	if builtin(res) {
		return "terraform.io/builtin/terraform"
	}
	if strings.Count(source, "/") == 1 {
		return "registry.terraform.io/" + source
	}
	return source
}

// inconsistentFinalPlan is the errors of an apply whose second plan of
// the object at addr gives again where the first gave planned.
func inconsistentFinalPlan(b *lang.Block, addr, provider string, planned, again cty.Value) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, e := range objectIncompatible(b, planned, again, "") {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider produced inconsistent final plan",
			Detail: fmt.Sprintf("When expanding the plan for %s to include new values learned so far during apply, provider %q produced an invalid new value for %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
				addr, provider, e),
		})
	}
	return diags
}

// objectIncompatible lists, as "PATH: what", where actual is not what
// planned (an object of schema b at path) said it would be: its
// attributes in the order of their names, then its nested blocks.
// Terraform walks both in no fixed order.
func objectIncompatible(b *lang.Block, planned, actual cty.Value, path string) []string {
	planned, _ = planned.Unmark()
	actual, _ = actual.Unmark()
	if !planned.IsKnown() || !actual.IsKnown() || !planned.Type().IsObjectType() || !actual.Type().IsObjectType() {
		return nil
	}
	if planned.IsNull() || actual.IsNull() {
		switch {
		case planned.IsNull() && !actual.IsNull():
			return []string{path + ": was absent, but now present"}
		case !planned.IsNull() && actual.IsNull():
			return []string{path + ": was present, but now absent"}
		}
		return nil
	}
	var errs []string
	for _, name := range sortedKeys(b.Attributes) {
		if !planned.Type().HasAttribute(name) || !actual.Type().HasAttribute(name) {
			continue
		}
		a := b.Attributes[name]
		p, pm := planned.GetAttr(name).UnmarkDeep()
		v, am := actual.GetAttr(name).UnmarkDeep()
		at := path + "." + name
		more := valueIncompatible(p, v, at)
		if len(more) > 0 && (a.Sensitive || pm.Has(marks.Sensitive) || am.Has(marks.Sensitive)) {
			// The values stay undisclosed.
			more = []string{at + ": inconsistent values for sensitive attribute"}
		}
		errs = append(errs, more...)
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		if !planned.Type().HasAttribute(name) || !actual.Type().HasAttribute(name) {
			continue
		}
		nb := b.BlockTypes[name]
		p, _ := planned.GetAttr(name).Unmark()
		v, _ := actual.GetAttr(name).Unmark()
		at := path + "." + name
		if !p.IsKnown() || !v.IsKnown() || p.IsNull() || v.IsNull() {
			if nb.Nesting == lang.NestingSingle || nb.Nesting == lang.NestingGroup {
				errs = append(errs, objectIncompatible(nb.Block, p, v, at)...)
			}
			continue
		}
		ty := p.Type()
		switch {
		case nb.Nesting == lang.NestingSingle || nb.Nesting == lang.NestingGroup:
			errs = append(errs, objectIncompatible(nb.Block, p, v, at)...)
		case ty.IsSetType():
			errs = append(errs, setIncompatible(p, v, at, func(pe, ve cty.Value) bool {
				return len(objectIncompatible(nb.Block, pe, ve, at)) == 0
			})...)
			if p.LengthInt() < v.LengthInt() {
				errs = append(errs, fmt.Sprintf("%s: block set length changed from %d to %d", at, p.LengthInt(), v.LengthInt()))
			}
		case ty.IsListType() || ty.IsTupleType():
			if p.LengthInt() != v.LengthInt() {
				errs = append(errs, fmt.Sprintf("%s: block count changed from %d to %d", at, p.LengthInt(), v.LengthInt()))
				continue
			}
			pe, ve := p.AsValueSlice(), v.AsValueSlice()
			for i := range pe {
				errs = append(errs, objectIncompatible(nb.Block, pe[i], ve[i], fmt.Sprintf("%s[%d]", at, i))...)
			}
		case ty.IsMapType() || ty.IsObjectType():
			pm, vm := p.AsValueMap(), v.AsValueMap()
			for _, k := range sortedKeys(pm) {
				ve, ok := vm[k]
				if !ok {
					errs = append(errs, fmt.Sprintf("%s: block key %q has vanished", at, k))
					continue
				}
				errs = append(errs, objectIncompatible(nb.Block, pm[k], ve, fmt.Sprintf("%s[%q]", at, k))...)
			}
			for _, k := range sortedKeys(vm) {
				if _, ok := pm[k]; !ok {
					errs = append(errs, fmt.Sprintf("%s: new block key %q has appeared", at, k))
				}
			}
		}
	}
	return errs
}

// valueIncompatible is objectIncompatible for an attribute's value.
func valueIncompatible(planned, actual cty.Value, path string) []string {
	if planned.Type() == cty.DynamicPseudoType || !planned.IsKnown() || !actual.IsKnown() {
		return nil
	}
	if !actual.Type().Equals(planned.Type()) {
		return nil
	}
	switch {
	case actual.IsNull() && planned.IsNull():
		return nil
	case actual.IsNull():
		return []string{fmt.Sprintf("%s: was %#v, but now null", path, planned)}
	case planned.IsNull():
		return []string{fmt.Sprintf("%s: was null, but now %#v", path, actual)}
	}
	ty := planned.Type()
	var errs []string
	switch {
	case ty.IsPrimitiveType():
		if !actual.Equals(planned).True() {
			errs = append(errs, fmt.Sprintf("%s: was %#v, but now %#v", path, planned, actual))
		}
	case ty.IsListType() || ty.IsTupleType():
		pe, ve := planned.AsValueSlice(), actual.AsValueSlice()
		for i := range pe {
			if i >= len(ve) {
				errs = append(errs, fmt.Sprintf("%s: element %d has vanished", path, i))
				continue
			}
			errs = append(errs, valueIncompatible(pe[i], ve[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		for i := len(pe); i < len(ve); i++ {
			errs = append(errs, fmt.Sprintf("%s: new element %d has appeared", path, i))
		}
	case ty.IsMapType():
		pm, vm := planned.AsValueMap(), actual.AsValueMap()
		for _, k := range sortedKeys(pm) {
			ve, ok := vm[k]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: element %q has vanished", path, k))
				continue
			}
			errs = append(errs, valueIncompatible(pm[k], ve, fmt.Sprintf("%s[%q]", path, k))...)
		}
		for _, k := range sortedKeys(vm) {
			if _, ok := pm[k]; !ok {
				errs = append(errs, fmt.Sprintf("%s: new element %q has appeared", path, k))
			}
		}
	case ty.IsObjectType():
		names := make([]string, 0, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			errs = append(errs, valueIncompatible(planned.GetAttr(name), actual.GetAttr(name), path+"."+name)...)
		}
	case ty.IsSetType():
		errs = append(errs, setIncompatible(planned, actual, path, func(pe, ve cty.Value) bool {
			return len(valueIncompatible(pe, ve, path)) == 0
		})...)
		if planned.LengthInt() < actual.LengthInt() {
			errs = append(errs, fmt.Sprintf("%s: length changed from %d to %d", path, planned.LengthInt(), actual.LengthInt()))
		}
	}
	return errs
}

// setIncompatible lists the elements of either set that agree with none
// of the other's: the planned set's, or if they all agree, the actual's.
func setIncompatible(planned, actual cty.Value, path string, agree func(pe, ve cty.Value) bool) []string {
	ps, vs := planned.AsValueSlice(), actual.AsValueSlice()
	pok, vok := make([]bool, len(ps)), make([]bool, len(vs))
	for i, pe := range ps {
		for j, ve := range vs {
			if pok[i] && vok[j] {
				continue
			}
			if agree(pe, ve) {
				pok[i], vok[j] = true, true
			}
		}
	}
	var errs []string
	for i, ok := range pok {
		if !ok {
			pe, _ := ps[i].UnmarkDeep()
			errs = append(errs, fmt.Sprintf("%s: planned set element %#v does not correlate with any element in actual", path, pe))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	for j, ok := range vok {
		if !ok {
			ve, _ := vs[j].UnmarkDeep()
			errs = append(errs, fmt.Sprintf("%s: actual set element %#v does not correlate with any element in plan", path, ve))
		}
	}
	return errs
}

// tableReplanned is the object of a created resource without schema as
// the mocks fill it with gen, every attribute and nested block of tb
// (the table's schema of its type) decided: before is tfeval's plan of
// it before filling, args its configuration, with the values given. ok
// is false where the table does not decide one of them.
func tableReplanned(tb *lang.Block, before, args, with cty.Value, gen generator) (cty.Value, bool) {
	inner, _ := before.Unmark()
	if !inner.IsKnown() || inner.IsNull() || !inner.Type().IsObjectType() {
		return cty.NilVal, false
	}
	attrs := map[string]cty.Value{}
	decide := func(name string) bool {
		pv := cty.DynamicVal
		if inner.Type().HasAttribute(name) {
			pv = inner.GetAttr(name)
		}
		a := attrOf(args, name)
		set := a != cty.NilVal && !a.IsNull()
		if set {
			pv = keptEmpty(pv, a)
		}
		nv, ok := tableValue(tb, name, pv, a, set, attrOf(with, name), gen, "."+name, true)
		attrs[name] = nv
		return ok
	}
	for _, name := range sortedKeys(tb.Attributes) {
		if !decide(name) {
			return cty.NilVal, false
		}
	}
	for _, name := range sortedKeys(tb.BlockTypes) {
		if !decide(name) {
			return cty.NilVal, false
		}
	}
	return cty.ObjectVal(attrs), true
}
