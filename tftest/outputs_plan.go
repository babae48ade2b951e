package tftest

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// plannedOutputs is the output object of a command = plan run as
// Terraform's assertions read it (output.NAME, and run.NAME.NAME in later
// runs): an output whose value is unknown is unknown, but in one that is
// known, what the plan leaves unknown inside it reads as null (terraform
// test v1.11.4 with a mocked aws: output.o.a == null holds in a plan run
// for o = { a = aws_lb_target_group.tg.arn }, while output.arn == null for
// the arn alone is "Unknown condition value"). An unknown tfeval made for
// want of something (marks.Unread) stays unknown: Terraform may know it.
func plannedOutputs(outputs cty.Value) cty.Value {
	if !outputs.IsKnown() || outputs.IsNull() || !outputs.Type().IsObjectType() {
		return outputs
	}
	vals := outputs.AsValueMap()
	for name, v := range vals {
		if v.IsKnown() {
			vals[name] = unknownsAsNull(v)
		}
	}
	return objectOf(vals)
}

// unknownsAsNull is v with every unknown in it that carries no Unread
// mark null, of its type, with its marks.
func unknownsAsNull(v cty.Value) cty.Value {
	if v.IsWhollyKnown() {
		return v
	}
	inner, vm := v.Unmark()
	if !inner.IsKnown() {
		if marks.HasUnread(v) {
			return v
		}
		return cty.NullVal(inner.Type()).WithMarks(vm)
	}
	ty := inner.Type()
	switch {
	case inner.IsNull():
		return v
	// A collection here is not empty (an empty one is wholly known), so
	// the constructors below have elements to type it by.
	case ty.IsObjectType() || ty.IsMapType():
		elems := inner.AsValueMap()
		for k, e := range elems {
			elems[k] = unknownsAsNull(e)
		}
		if ty.IsMapType() {
			return cty.MapVal(elems).WithMarks(vm)
		}
		return cty.ObjectVal(elems).WithMarks(vm)
	case ty.IsTupleType() || ty.IsListType():
		elems := inner.AsValueSlice()
		for i, e := range elems {
			elems[i] = unknownsAsNull(e)
		}
		if ty.IsListType() {
			return cty.ListVal(elems).WithMarks(vm)
		}
		return cty.TupleVal(elems).WithMarks(vm)
	}
	// A set with unknowns: its elements cannot be told apart; it stays.
	return v
}
