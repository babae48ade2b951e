package render

import (
	"reflect"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

// TypeType is the capsule type of the console's type() result: a value that
// holds a cty.Type so the console can print the type instead of a value.
var TypeType = cty.Capsule("type", reflect.TypeOf(cty.Type{}))

// TypeValue wraps t as the result of type(t), marked so the console can tell
// it apart from an ordinary value.
func TypeValue(t cty.Type) cty.Value {
	return cty.CapsuleVal(TypeType, &t).Mark(marks.TypeType)
}

// TypeOf returns the type held by a type() result.
func TypeOf(v cty.Value) (cty.Type, bool) {
	v, _ = v.Unmark()
	if v.Type() != TypeType || v.IsNull() || !v.IsKnown() {
		return cty.NilType, false
	}
	return *v.EncapsulatedValue().(*cty.Type), true
}

// Type renders t as the console's type() function prints it.
func Type(t cty.Type) string {
	var b strings.Builder
	writeType(&b, t, 0)
	return b.String()
}

func writeType(b *strings.Builder, t cty.Type, indent int) {
	switch {
	case t == cty.NilType:
		// No type at all (cty.NilType); FriendlyName would panic.
		b.WriteString("(no type)")
	case t == cty.DynamicPseudoType:
		b.WriteString("dynamic")
	case t.IsPrimitiveType():
		b.WriteString(t.FriendlyName())
	case t.IsObjectType():
		atys := t.AttributeTypes()
		if len(atys) == 0 {
			b.WriteString("object({})")
			return
		}
		names := sortedNames(atys)
		b.WriteString("object({\n")
		for _, n := range names {
			b.WriteString(strings.Repeat(" ", indent+4) + n + ": ")
			writeType(b, atys[n], indent+4)
			b.WriteString(",\n")
		}
		b.WriteString(strings.Repeat(" ", indent) + "})")
	case t.IsTupleType():
		etys := t.TupleElementTypes()
		if len(etys) == 0 {
			b.WriteString("tuple([])")
			return
		}
		b.WriteString("tuple([\n")
		for _, et := range etys {
			b.WriteString(strings.Repeat(" ", indent+4))
			writeType(b, et, indent+4)
			b.WriteString(",\n")
		}
		b.WriteString(strings.Repeat(" ", indent) + "])")
	case t.IsListType(), t.IsSetType(), t.IsMapType():
		kind := "list"
		if t.IsSetType() {
			kind = "set"
		} else if t.IsMapType() {
			kind = "map"
		}
		et := t.ElementType()
		b.WriteString(kind + "(")
		// Structural element types go on their own line, as the console does.
		if et.IsObjectType() || et.IsTupleType() {
			b.WriteString("\n" + strings.Repeat(" ", indent+4))
			writeType(b, et, indent+4)
			b.WriteString(",\n" + strings.Repeat(" ", indent) + ")")
			return
		}
		writeType(b, et, indent)
		b.WriteString(")")
	default:
		b.WriteString(t.FriendlyName())
	}
}
