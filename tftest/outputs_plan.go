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
	case ty.IsObjectType():
		attrs := inner.AsValueMap()
		for k, a := range attrs {
			attrs[k] = unknownsAsNull(a)
		}
		return cty.ObjectVal(attrs).WithMarks(vm)
	case ty.IsMapType():
		elems := inner.AsValueMap()
		for k, e := range elems {
			elems[k] = unknownsAsNull(e)
		}
		return cty.MapVal(elems).WithMarks(vm)
	case ty.IsTupleType():
		elems := inner.AsValueSlice()
		for i, e := range elems {
			elems[i] = unknownsAsNull(e)
		}
		return cty.TupleVal(elems).WithMarks(vm)
	case ty.IsListType():
		elems := inner.AsValueSlice()
		for i, e := range elems {
			elems[i] = unknownsAsNull(e)
		}
		return cty.ListVal(elems).WithMarks(vm)
	}
	// A set with unknowns: its elements cannot be told apart; it stays.
	return v
}
