package elements

import "github.com/zclconf/go-cty/cty"

// Find reports whether has holds for v or any value nested in it, marked
// or not. It walks the value in place, where cty's deep unmarking and
// walking copy it or make a path for every step.
func Find(v cty.Value, has func(cty.Value) bool) bool {
	if has(v) {
		return true
	}
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if Find(v.GetAttr(name), has) {
				return true
			}
		}
	case ty.IsCollectionType() || ty.IsTupleType():
		for it := Of(v); it.Next(); {
			if _, e := it.Element(); Find(e, has) {
				return true
			}
		}
	}
	return false
}

// Set returns cty.SetVal(vals). cty unmarks every element deeply to move
// its marks to the set, copying elements that have none; when no element
// has a mark and all have one type, the set is built without that.
func Set(vals []cty.Value) cty.Value {
	if len(vals) == 0 {
		return cty.SetVal(vals)
	}
	ety := vals[0].Type()
	if ety == cty.DynamicPseudoType {
		return cty.SetVal(vals)
	}
	for _, v := range vals {
		if !v.Type().Equals(ety) || Find(v, cty.Value.IsMarked) {
			return cty.SetVal(vals)
		}
	}
	s := cty.NewValueSet(ety)
	for _, v := range vals {
		s.Add(v)
	}
	return cty.SetValFromValueSet(s)
}
