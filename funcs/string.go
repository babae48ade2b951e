package funcs

import (
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// stringPredicateFunc builds startswith/endswith/strcontains.
func stringPredicateFunc(second string, test func(s, arg string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
			{Name: second, Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(test(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

// startsWithFunc reports whether a string begins with a prefix. An
// unknown string whose refinement knows how it begins ("rg-${id}") may
// still decide it, as Terraform and OpenTofu decide it.
var startsWithFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String, AllowUnknown: true},
		{Name: "prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, prefix := args[0], args[1].AsString()
		if str.IsKnown() {
			return cty.BoolVal(strings.HasPrefix(str.AsString(), prefix)), nil
		}
		known := str.Range().StringPrefix()
		switch {
		case strings.HasPrefix(known, prefix):
			return cty.True, nil
		case len(known) >= len(prefix):
			// Whatever follows, the string begins with known.
			return cty.False, nil
		}
		return cty.UnknownVal(cty.Bool), nil
	},
})

// endsWithFunc reports whether a string ends with a suffix.
var endsWithFunc = stringPredicateFunc("suffix", strings.HasSuffix)

// strContainsFunc reports whether a string contains a substring.
var strContainsFunc = stringPredicateFunc("substr", strings.Contains)

// replaceFunc replaces a substring, or a /regexp/ with $n references, everywhere.
var replaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
			re, err := regexp.Compile(substr[1 : len(substr)-1])
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, repl)), nil
	},
})
