package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// signumFunc is the sign of a whole number. Terraform's signum takes only
// numbers that fit Go's int (go-cty's did before v1.20): anything else,
// -0.5 among them, is an error.
var signumFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "num", Type: cty.Number}},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var num int
		if err := gocty.FromCtyValue(args[0], &num); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		switch {
		case num < 0:
			return cty.NumberIntVal(-1), nil
		case num > 0:
			return cty.NumberIntVal(+1), nil
		}
		return cty.NumberIntVal(0), nil
	},
})
