package limit

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// DefaultMaxValueSize bounds, when a limit is 0, the size of one value as
// ExpandedSize counts it. The largest value of a generated tree of
// 100,000 resource instances counts under a thousand; a million is a
// resource of 100,000 instances of four attributes taken whole. cty's deep
// walks copy a value (UnmarkDeep), which at that size takes about 100 MB,
// and its indented JSON as much.
const DefaultMaxValueSize = 1_000_000

// ExpandedSize measures v as the work of walking it and of printing it
// grows: each value in v counts once for every time it appears (a walk
// does not notice shared structure) and as many times more as it is
// nested deep (each printed line is indented by its depth). An object
// whose two attributes are the same object counts that object twice,
// although it takes its memory once: values that repeat others,
// {a = local.x, b = local.x} chained 30 times, are a few hundred bytes of
// source and would otherwise take exponential time to walk or print.
//
// An unknown or null value counts the values of its type instead, for the
// same reason. The walk stops once the count passes max and returns
// max+1, so it never visits more than max values.
func ExpandedSize(v cty.Value, max int) int {
	w := sizeWalk{left: max + 1}
	w.value(v, 1)
	return min(max+1-w.left, max+1)
}

// sizeWalk counts down from a budget; once left reaches 0 it stops.
type sizeWalk struct{ left int }

// value counts v, at depth (1 for the value itself), and what it holds.
func (w *sizeWalk) value(v cty.Value, depth int) {
	if w.left <= 0 {
		return
	}
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	ty := v.Type()
	if !v.IsKnown() || v.IsNull() {
		w.typ(ty, depth)
		return
	}
	w.left -= depth
	switch {
	case ty.IsObjectType():
		// An attribute whose type is small and holds no collection counts
		// the same known or not, so its type is counted and its value not
		// read: GetAttr normalizes the name three times.
		for name, at := range ty.AttributeTypes() {
			if n, ok := fixedSize(at, depth+1); ok {
				w.left -= n
			} else {
				w.value(v.GetAttr(name), depth+1)
			}
			if w.left <= 0 {
				return
			}
		}
	case ty.IsTupleType():
		for i, et := range ty.TupleElementTypes() {
			if n, ok := fixedSize(et, depth+1); ok {
				w.left -= n
			} else {
				w.value(v.Index(elements.Index(i)), depth+1)
			}
			if w.left <= 0 {
				return
			}
		}
	case ty.IsCollectionType() && ty.ElementType().IsPrimitiveType():
		// Every element counts depth+1, known or not: no need to visit
		// them (cty's iterators over maps and sets allocate).
		w.left -= v.LengthInt() * (depth + 1)
	case ty.IsCollectionType():
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			if w.value(e, depth+1); w.left <= 0 {
				return
			}
		}
	}
}

// maxFixedType bounds the types fixedSize counts, so that a large type is
// not scanned again at every level of the walk above it.
const maxFixedType = 16

// fixedSize is what a value of type ty counts at depth when that does not
// depend on the value: ty holds no list, map or set (whose elements a
// known value has any number of) and has at most maxFixedType types in
// it. Known or unknown, null or not, such a value counts its type.
func fixedSize(ty cty.Type, depth int) (int, bool) {
	budget := maxFixedType
	return fixedSizeWithin(ty, depth, &budget)
}

func fixedSizeWithin(ty cty.Type, depth int, budget *int) (int, bool) {
	if *budget--; *budget < 0 {
		return 0, false
	}
	n := depth
	switch {
	case ty.IsPrimitiveType() || ty == cty.DynamicPseudoType:
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			m, ok := fixedSizeWithin(at, depth+1, budget)
			if !ok {
				return 0, false
			}
			n += m
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			m, ok := fixedSizeWithin(et, depth+1, budget)
			if !ok {
				return 0, false
			}
			n += m
		}
	default:
		return 0, false
	}
	return n, true
}

func (w *sizeWalk) typ(ty cty.Type, depth int) {
	if w.left <= 0 {
		return
	}
	w.left -= depth
	switch {
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if w.typ(at, depth+1); w.left <= 0 {
				return
			}
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			if w.typ(et, depth+1); w.left <= 0 {
				return
			}
		}
	case ty.IsCollectionType():
		w.typ(ty.ElementType(), depth+1)
	}
}

// ValueTooLarge is the diagnostic for a value at rng whose expanded size
// passes max.
func ValueTooLarge(rng hcl.Range, max int) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Value too large",
		Detail:   fmt.Sprintf("This value is larger than %d, counting each value in it every time it appears and once more for each level it is nested (values that repeat others, such as {a = local.x, b = local.x}, count them again); walking or printing it could exhaust time and memory, so tfeval refuses it (Limits.MaxValueSize).", max),
		Subject:  rng.Ptr(),
	}
}

// CompareCost is the work, in evaluation steps, of comparing v with
// another value: cty walks a structure whole for marks and unknowns
// before comparing it, and again at each of its levels, which is what
// ExpandedSize counts. A primitive value costs one.
func CompareCost(v cty.Value) int64 {
	v, _ = v.Unmark()
	if v.Type().IsPrimitiveType() || !v.IsKnown() || v.IsNull() {
		return 1
	}
	return int64(ExpandedSize(v, DefaultMaxValueSize))
}

// EqualityCost is the work, in evaluation steps, of a == b or a != b
// beyond the one step of the expression; 0 for two primitive values.
// Comparing two structures takes about twice as long as walking them.
func EqualityCost(a, b cty.Value) int64 {
	ca, cb := CompareCost(a), CompareCost(b)
	if ca <= 1 && cb <= 1 {
		return 0
	}
	return 2 * (ca + cb)
}

// TypeValues counts the values of any value of type ty, each every time
// it appears (as TypeSize, without the weight of depth), stopping past
// max and returning max+1.
func TypeValues(ty cty.Type, max int) int {
	n := 0
	var walk func(cty.Type)
	walk = func(ty cty.Type) {
		if n++; n > max {
			return
		}
		switch {
		case ty.IsObjectType():
			for _, at := range ty.AttributeTypes() {
				if walk(at); n > max {
					return
				}
			}
		case ty.IsTupleType():
			for _, et := range ty.TupleElementTypes() {
				if walk(et); n > max {
					return
				}
			}
		case ty.IsCollectionType():
			walk(ty.ElementType())
		}
	}
	walk(ty)
	return min(n, max+1)
}
