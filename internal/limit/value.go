package limit

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// DefaultMaxValueSize bounds, when a limit is 0, the nodes of one value
// counted as a walk over it visits them (ExpandedSize). The largest value
// of a generated tree of 100,000 resource instances has about 800,000.
const DefaultMaxValueSize = 4_000_000

// ExpandedSize counts the values in v, v itself included, as a walk that
// does not notice shared structure visits them: an object whose two
// attributes are the same object of n values counts 2n+1, although it
// takes the memory of n+1. Everything that walks a value (cty's own walks
// for marks, unknowns, equality and conversion, rendering, JSON) takes
// time in proportion to this count, and values that share structure make
// it exponential in their memory: {a = local.x, b = local.x} chained 30
// times is a few hundred bytes of source.
//
// An unknown or null value counts the values of its type instead, for the
// same reason. The walk stops once the count passes max and returns
// max+1, so it never costs more than max steps.
func ExpandedSize(v cty.Value, max int) int {
	w := sizeWalk{left: max + 1}
	w.value(v)
	return max + 1 - w.left
}

// sizeWalk counts down from a budget; once left reaches 0 it stops.
type sizeWalk struct{ left int }

func (w *sizeWalk) value(v cty.Value) {
	if w.left <= 0 {
		return
	}
	if v.IsMarked() {
		v, _ = v.Unmark()
	}
	ty := v.Type()
	if !v.IsKnown() || v.IsNull() {
		w.typ(ty)
		return
	}
	w.left--
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if w.value(v.GetAttr(name)); w.left <= 0 {
				return
			}
		}
	case ty.IsCollectionType() || ty.IsTupleType():
		for it := elements.Of(v); it.Next(); {
			_, e := it.Element()
			if w.value(e); w.left <= 0 {
				return
			}
		}
	}
}

func (w *sizeWalk) typ(ty cty.Type) {
	if w.left <= 0 {
		return
	}
	w.left--
	switch {
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if w.typ(at); w.left <= 0 {
				return
			}
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			if w.typ(et); w.left <= 0 {
				return
			}
		}
	case ty.IsCollectionType():
		w.typ(ty.ElementType())
	}
}

// ValueTooLarge is the diagnostic for a value at rng whose expanded size
// passes max.
func ValueTooLarge(rng hcl.Range, max int) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Value too large",
		Detail:   fmt.Sprintf("This value holds more than %d values counting each nested value every time it appears (values that repeat others, such as {a = local.x, b = local.x}, count them again); working with it could exhaust time and memory, so tfeval refuses it (Limits.MaxValueSize).", max),
		Subject:  rng.Ptr(),
	}
}
