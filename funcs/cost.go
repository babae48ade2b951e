package funcs

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/limit"
)

// What a call costs before it returns. A call is one step of the
// evaluation budget and what it builds is charged by chargeResult; the
// functions here do work their result does not show (counting the
// characters of a long string, hashing it, matching a pattern along it,
// comparing a value with every element of a list, bcrypt's rounds), which
// is charged before the call, so that a call the budget cannot pay for is
// refused rather than run. A step is what the evaluator spends on one
// expression, about 300 ns; the rates below come from measuring each
// function's CPU time for each unit of its input, rounded towards
// charging more.
const (
	// graphemeBytesPerStep: length, substr and strrev split text into
	// grapheme clusters (Unicode's user-perceived characters), about
	// 50 ns a byte.
	graphemeBytesPerStep = 4
	// hashBytesPerStep: md5, sha1, sha256, sha512 and their file and
	// base64 forms, 1.5 to 2.5 ns a byte.
	hashBytesPerStep = 128
	// regexBytesPerStep: Go's regular expressions take up to about 80 ns
	// a byte for a small pattern, and more as the compiled pattern grows
	// (each instruction may be live at every byte); see regexCost.
	regexBytesPerStep = 4
	// valuesPerStep: a call through cty's generic path walks each
	// argument whole (for marks, unknowns and the parameter's type),
	// some tens of nanoseconds a value.
	valuesPerStep = 16
	// bcryptStepsPerRound: bcrypt runs 2^cost rounds of about 60 µs per
	// thousand.
	bcryptStepsPerRound = 128
)

// maxCostWalk bounds the values a cost estimate visits: the arguments
// were each bounded by Limits.MaxValueSize when they were made.
const maxCostWalk = limit.DefaultMaxValueSize

// costOf returns, for a function whose work can far exceed its result,
// the steps a call costs with the given arguments (before any result is
// charged); nil for the others.
func (e *env) costOf(name string) func(args []cty.Value) int64 {
	switch name {
	case "length":
		return func(args []cty.Value) int64 { return stringCost(args, 0, graphemeBytesPerStep) }
	case "strrev":
		return func(args []cty.Value) int64 { return stringCost(args, 0, graphemeBytesPerStep) }
	case "substr":
		// The length of the whole string first, then the substring.
		return func(args []cty.Value) int64 { return 2 * stringCost(args, 0, graphemeBytesPerStep) }
	case "md5", "sha1", "sha256", "sha512", "base64sha256", "base64sha512":
		return func(args []cty.Value) int64 { return stringCost(args, 0, hashBytesPerStep) }
	case "regex", "regexall":
		// regexall counts its matches first (preCheck), then makes them.
		passes := int64(1)
		if name == "regexall" {
			passes = 2
		}
		return func(args []cty.Value) int64 {
			if len(args) != 2 {
				return 0
			}
			p, ok := knownString(args[0])
			if !ok {
				return 0
			}
			s, _ := knownString(args[1])
			return passes * e.regexCost(p, len(s))
		}
	case "replace":
		return func(args []cty.Value) int64 {
			if len(args) != 3 {
				return 0
			}
			p, ok := knownString(args[1])
			if !ok || len(p) < 2 || p[0] != '/' || p[len(p)-1] != '/' {
				return 0
			}
			// replace finds every match once to bound its result
			// (preCheck), then once more to build it.
			s, _ := knownString(args[0])
			return 2 * e.regexCost(p[1:len(p)-1], len(s))
		}
	case "contains", "index":
		return func(args []cty.Value) int64 {
			if len(args) != 2 {
				return 0
			}
			l, _ := args[0].Unmark()
			if !l.IsKnown() || l.IsNull() || !l.CanIterateElements() {
				return 0
			}
			per := limit.CompareCost(args[1])
			if l.Type().IsSetType() {
				return per // a set finds an element by its hash
			}
			return 2 * int64(l.LengthInt()) * per
		}
	case "bcrypt":
		return func(args []cty.Value) int64 {
			cost := int64(bcryptDefaultCost)
			if len(args) > 1 {
				c, _ := args[1].Unmark()
				if c.Type() != cty.Number || !c.IsKnown() || c.IsNull() {
					return 0
				}
				n, _ := c.AsBigFloat().Int64()
				if n < bcryptMinCost || n > int64(e.limits.MaxBcryptCost) {
					return 0 // refused by preCheck or by bcrypt itself
				}
				cost = n
			}
			return bcryptStepsPerRound << cost
		}
	}
	return nil
}

// stringCost is the steps of work over argument i when it is a known
// string: one for every perStep bytes.
func stringCost(args []cty.Value, i, perStep int) int64 {
	if i >= len(args) {
		return 0
	}
	s, _ := knownString(args[i])
	return int64(len(s) / perStep)
}

// knownString is v's text when it is a known string. It looks at v's type
// first: an estimate must not walk a large argument of another type.
func knownString(v cty.Value) (string, bool) {
	v, _ = v.Unmark() // a string has no marks inside it
	if v.Type() != cty.String || !v.IsKnown() || v.IsNull() {
		return "", false
	}
	return v.AsString(), true
}

// regexCost is the steps of matching pattern along n bytes: Go's engine
// takes time in proportion to the text times, at worst, the instructions
// of the compiled pattern. A pattern that does not compile costs nothing:
// the function reports it.
func (e *env) regexCost(pattern string, n int) int64 {
	if n < regexBytesPerStep {
		return 0
	}
	insts := e.patterns.get(pattern).insts
	if insts < 0 {
		return 0
	}
	return int64(n) * int64(16+insts) / 16 / regexBytesPerStep
}

// argumentsCost is the steps of cty's generic call path over args: it
// walks every argument whole, for marks, for unknowns and to convert it to
// its parameter's type.
func argumentsCost(args []cty.Value) int64 {
	var n int64
	for _, a := range args {
		if a.Type().IsPrimitiveType() {
			continue
		}
		n += int64(limit.ExpandedSize(a, maxCostWalk))
	}
	return n / valuesPerStep
}

// splitCount is how many parts split(sep, s) makes, counted without
// making them.
func splitCount(args []cty.Value) int {
	if len(args) != 2 {
		return 0
	}
	sep, ok := knownString(args[0])
	s, ok2 := knownString(args[1])
	if !ok || !ok2 {
		return 0
	}
	if sep == "" {
		return len(s)
	}
	return strings.Count(s, sep) + 1
}
