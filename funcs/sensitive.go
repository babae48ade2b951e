package funcs

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/marks"
)

// sensitiveFunc marks its argument sensitive, keeping any other marks.
var sensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
		AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0].Mark(marks.Sensitive), nil
	},
})

// nonsensitiveFunc removes the top-level sensitive mark; a value that was not
// sensitive passes through unchanged in both dialects' current versions.
var nonsensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
		AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, m := args[0].Unmark()
		delete(m, marks.Sensitive)
		return v.WithMarks(m), nil
	},
})

// isSensitiveFunc reports whether the argument itself is marked sensitive.
// Terraform answers true for a sensitive unknown; OpenTofu answers unknown
// for any unknown argument.
func (e *env) isSensitiveFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "value",
			Type:             cty.DynamicPseudoType,
			AllowUnknown:     !e.tofu(),
			AllowNull:        true,
			AllowMarked:      true,
			AllowDynamicType: true,
		}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v := args[0]
			switch {
			case v.HasMark(marks.Sensitive):
				return cty.True, nil
			case !v.IsKnown():
				return cty.UnknownVal(cty.Bool), nil
			default:
				return cty.False, nil
			}
		},
	})
}

// redactIfSensitive quotes s for an error message, or hides it when any of
// the given mark sets says it is sensitive.
func redactIfSensitive(s string, markSets ...cty.ValueMarks) string {
	for _, m := range markSets {
		if _, ok := m[marks.Sensitive]; ok {
			return "(sensitive value)"
		}
	}
	return fmt.Sprintf("%q", s)
}
