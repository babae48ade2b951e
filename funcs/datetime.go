package funcs

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// timestampFunc returns the current time (opts.Now) in UTC as RFC 3339.
func (e *env) timestampFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.StringVal(e.opts.Now().UTC().Format(time.RFC3339)), nil
		},
	})
}

// planTimestampFunc returns opts.PlanTimestamp, unknown while there is none.
func (e *env) planTimestampFunc() function.Function {
	ts := e.opts.PlanTimestamp
	return function.New(&function.Spec{
		Params:       []function.Parameter{},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			if ts.IsZero() {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(ts.Format(time.RFC3339)), nil
		},
	})
}

// timeCmpFunc compares two RFC 3339 timestamps: -1, 0 or 1.
var timeCmpFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		a, err := parseTimestamp(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(0, err)
		}
		b, err := parseTimestamp(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Number), function.NewArgError(1, err)
		}
		return cty.NumberIntVal(int64(a.Compare(b))), nil
	},
})

// parseTimestamp parses RFC 3339, describing failures by timestamp part
// (year, month, ...) instead of Go's reference-time layout.
func parseTimestamp(ts string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, ts)
	if err == nil {
		return t, nil
	}
	perr, ok := err.(*time.ParseError)
	if !ok {
		return time.Time{}, err
	}
	if perr.LayoutElem == "" && perr.ValueElem == "" && perr.Message != "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp%s", perr.Message)
	}
	var what string
	switch perr.LayoutElem {
	case "2006":
		what = "year"
	case "01":
		what = "month"
	case "02":
		what = "day of month"
	case "15":
		what = "hour"
	case "04":
		what = "minute"
	case "05":
		what = "second"
	case "Z07:00":
		what = "UTC offset"
	case "T":
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: missing required time introducer 'T'")
	case ":", "-":
		if perr.ValueElem == "" {
			return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string where %q is expected", perr.LayoutElem)
		}
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: found %q where %q is expected", perr.ValueElem, perr.LayoutElem)
	default:
		what = "timestamp segment"
	}
	if perr.ValueElem == "" {
		return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: end of string before %s", what)
	}
	return time.Time{}, fmt.Errorf("not a valid RFC3339 timestamp: cannot use %q as %s", perr.ValueElem, what)
}
