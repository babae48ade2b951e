// Package marks defines the cty value marks tfeval attaches to values:
// sensitive and ephemeral data, and the console-only type() result. Every
// package that creates or inspects such values uses these, so a mark set by a
// function is recognised by the evaluator and the renderer.
package marks

import "github.com/zclconf/go-cty/cty"

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
)

// Has reports whether v carries mark m at its top level.
func Has(v cty.Value, m valueMark) bool { return v.HasMark(m) }

// Contains reports whether v or any value nested in it carries mark m.
func Contains(v cty.Value, m valueMark) bool {
	if v.HasMark(m) {
		return true
	}
	_, pvm := v.UnmarkDeepWithPaths()
	for _, p := range pvm {
		if _, ok := p.Marks[m]; ok {
			return true
		}
	}
	return false
}
