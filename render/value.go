package render

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
	"github.com/tfeval/tfeval/internal/numtext"
	"github.com/tfeval/tfeval/marks"
)

// Value renders v as terraform console prints it.
func Value(v cty.Value) string {
	s, _ := ValueWithin(v, 0)
	return s
}

// ValueWithin is Value that stops once the rendering passes max bytes (0
// for no bound), returning what it has and false: a value whose parts
// repeat one another, or nest deeply, renders to far more text than it
// takes memory.
func ValueWithin(v cty.Value, max int) (string, bool) {
	b := buffers.Get().(*output)
	b.Reset()
	b.max, b.over = max, false
	writeValue(b, v, 0)
	s, ok := b.String(), !b.over
	if b.Cap() <= maxPooledBuffer {
		buffers.Put(b)
	}
	return s, ok
}

// output is a buffer that a rendering writes to, with the bound on its size.
type output struct {
	bytes.Buffer
	max  int  // bytes; 0 for no bound
	over bool // set once the rendering has passed max
}

// full reports whether the rendering has passed its bound; the writers
// check it at every value, so a rendering passes max by at most one
// string or one line of indentation.
func (b *output) full() bool {
	if b.max > 0 && b.Len() > b.max {
		b.over = true
	}
	return b.over
}

// buffers hold the rendering of one value each: a large plan renders one
// value per resource instance, and a buffer grown from nothing for each
// would leave its smaller copies behind as garbage.
var buffers = sync.Pool{New: func() any { return new(output) }}

// maxPooledBuffer bounds the buffers kept for reuse, so that one huge
// value does not pin its buffer.
const maxPooledBuffer = 1 << 20

func writeValue(b *output, v cty.Value, indent int) {
	if b.full() {
		return
	}
	// Unknown is checked before marks, so an unknown secret still prints as unknown.
	if !v.IsKnown() {
		b.WriteString("(known after apply)")
		return
	}
	if v.HasMark(marks.Sensitive) {
		b.WriteString("(sensitive value)")
		return
	}
	if v.HasMark(marks.Ephemeral) {
		b.WriteString("(ephemeral value)")
		return
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if v.IsNull() {
		writeNull(b, ty)
		return
	}
	switch {
	case ty == cty.String:
		writeString(b, v.AsString(), indent)
	case ty == cty.Number:
		var buf [24]byte
		b.Write(numtext.Append(buf[:0], v.AsBigFloat()))
	case ty == cty.Bool:
		b.WriteString(strconv.FormatBool(v.True()))
	case ty.IsObjectType():
		writeObject(b, v, indent)
	case ty.IsTupleType():
		writeSequence(b, v, indent)
	case ty.IsListType():
		b.WriteString("tolist(")
		writeSequence(b, v, indent)
		b.WriteString(")")
	case ty.IsSetType():
		b.WriteString("toset(")
		writeSequence(b, v, indent)
		b.WriteString(")")
	case ty.IsMapType():
		b.WriteString("tomap(")
		writeMapping(b, v, indent)
		b.WriteString(")")
	case ty.IsCapsuleType():
		if t, ok := TypeOf(v); ok {
			b.WriteString(Type(t))
			return
		}
		b.WriteString(ty.FriendlyName())
	default:
		b.WriteString(v.GoString())
	}
}

func writeNull(b *output, ty cty.Type) {
	switch {
	case ty == cty.DynamicPseudoType:
		b.WriteString("null")
	case ty == cty.String:
		b.WriteString("tostring(null)")
	case ty == cty.Number:
		b.WriteString("tonumber(null)")
	case ty == cty.Bool:
		b.WriteString("tobool(null)")
	case ty.IsListType():
		b.WriteString("tolist(null) /* of " + ty.ElementType().FriendlyName() + " */")
	case ty.IsSetType():
		b.WriteString("toset(null) /* of " + ty.ElementType().FriendlyName() + " */")
	case ty.IsMapType():
		b.WriteString("tomap(null) /* of " + ty.ElementType().FriendlyName() + " */")
	default:
		b.WriteString("null /* " + ty.FriendlyName() + " */")
	}
}

// spaces is indentation to slice from, so that deep values need no
// strings.Repeat per line.
var spaces = strings.Repeat(" ", 128)

// writeNewline starts a new line indented by indent spaces.
func writeNewline(b *output, indent int) {
	b.WriteByte('\n')
	if indent <= len(spaces) {
		b.WriteString(spaces[:indent])
		return
	}
	b.WriteString(strings.Repeat(" ", indent))
}

func writeString(b *output, s string, indent int) {
	if !strings.Contains(s, "\n") {
		// Quoting into a stack buffer: most strings fit, and then nothing
		// is allocated for them.
		var buf [128]byte
		b.Write(strconv.AppendQuote(buf[:0], s))
		return
	}
	lines := strings.Split(s, "\n")
	delim := "EOT"
	for clash := true; clash; {
		clash = false
		for _, l := range lines {
			if strings.TrimSpace(l) == delim {
				delim += "_"
				clash = true
				break
			}
		}
	}
	pad := strings.Repeat(" ", indent)
	if indent > 0 {
		b.WriteString("<<-")
	} else {
		b.WriteString("<<")
	}
	b.WriteString(delim)
	for _, l := range lines {
		b.WriteString("\n" + pad + l)
	}
	b.WriteString("\n" + pad + delim)
}

// sortedNames lists an object type's attribute names in order.
func sortedNames(attrs map[string]cty.Type) []string {
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// writeObject is writeMapping for an object, in the same (sorted) order:
// cty's iterator would make a string value of every attribute name only
// for it to be written out again.
func writeObject(b *output, v cty.Value, indent int) {
	names := sortedNames(v.Type().AttributeTypes())
	b.WriteString("{")
	for _, name := range names {
		writeNewline(b, indent+2)
		writeString(b, name, indent+2)
		b.WriteString(" = ")
		writeValue(b, v.GetAttr(name), indent+2)
	}
	if len(names) > 0 {
		writeNewline(b, indent)
	}
	b.WriteString("}")
}

func writeMapping(b *output, v cty.Value, indent int) {
	b.WriteString("{")
	n := 0
	for it := elements.Of(v); it.Next(); n++ {
		k, ev := it.Element()
		writeNewline(b, indent+2)
		writeValue(b, k, indent+2)
		b.WriteString(" = ")
		writeValue(b, ev, indent+2)
	}
	if n > 0 {
		writeNewline(b, indent)
	}
	b.WriteString("}")
}

func writeSequence(b *output, v cty.Value, indent int) {
	b.WriteString("[")
	n := 0
	for it := elements.Of(v); it.Next(); n++ {
		_, ev := it.Element()
		writeNewline(b, indent+2)
		writeValue(b, ev, indent+2)
		b.WriteString(",")
	}
	if n > 0 {
		writeNewline(b, indent)
	}
	b.WriteString("]")
}
