package marks

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/elements"
)

// valueMark is a distinct type so tfeval's marks never collide with marks
// other libraries put on values.
type valueMark string

func (m valueMark) GoString() string { return "marks." + string(m) }

const (
	// Sensitive marks a value whose content must not be shown.
	Sensitive = valueMark("Sensitive")
	// Ephemeral marks a value that exists only during one run and must not be persisted.
	Ephemeral = valueMark("Ephemeral")
	// TypeType marks the result of the console's type() function.
	TypeType = valueMark("TypeType")
	// Drawn marks a value a test run drew where a provider would draw it
	// at random (hashicorp/random's results): another drawing would give
	// another, so what it decides is not certain.
	Drawn = valueMark("Drawn")
)

// Has reports whether v carries mark m at its top level.
func Has(v cty.Value, m valueMark) bool { return v.HasMark(m) }

// Contains reports whether v or any value nested in it carries mark m. It
// walks the value in place, where UnmarkDeepWithPaths would copy all of it.
func Contains(v cty.Value, m valueMark) bool {
	return elements.Find(v, func(v cty.Value) bool { return v.HasMark(m) })
}

// Any reports whether v or any value nested in it carries any mark at
// all, walking it in place as Contains does.
func Any(v cty.Value) bool {
	return elements.Find(v, cty.Value.IsMarked)
}
