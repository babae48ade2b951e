package tftest

import (
	"math/big"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/lang"
)

// randomSource is the provider whose resources an apply creates without
// it: hashicorp/random reads nothing outside Terraform and needs no
// account, so creating its objects cannot fail for any reason but the
// arguments it rejects, and what it creates is random, unknown to tfeval
// as it would be to anyone before the apply. tfeval applies them with their
// computed attributes unknown (and marked as the provider's), so a run
// whose assertions do not read the random values passes or fails as it
// would with the provider, and one that reads them is skipped.
const randomSource = "hashicorp/random"

// randomAppliesOffline reports whether an apply can create a random
// resource instance without the provider: the arguments its validators and
// its Create check are known and accepted. Where they are not, the run
// needs the provider, whose own diagnostics tfeval does not invent.
func randomAppliesOffline(pi *lang.PlannedInstance) bool {
	args, _ := pi.Arguments.UnmarkDeep()
	if !args.IsKnown() || args.IsNull() || !args.Type().IsObjectType() {
		return false
	}
	switch pi.Resource.Type {
	case "random_string", "random_password":
		return randomStringValid(args)
	case "random_integer":
		lo, okLo := knownNumber(args, "min")
		hi, okHi := knownNumber(args, "max")
		return okLo && okHi && lo.Cmp(hi) <= 0
	case "random_bytes":
		n, ok := knownNumber(args, "length")
		return ok && n.Cmp(big.NewFloat(1)) >= 0
	case "random_id", "random_pet", "random_shuffle", "random_uuid", "random_uuid4", "random_uuid7":
		// Nothing they are given is rejected once it has the schema's type.
		return true
	}
	return false
}

// randomStringValid checks a random_string's or random_password's
// arguments as the provider does: length at least 1 and at least the sum
// of the min_* counts given; numeric (or number) set to false only with one
// of special, upper and lower not set to false. A min_* count for a
// character class that is turned off is not checked by the provider's
// validators, and what it then generates tfeval does not know: the run
// needs the provider.
func randomStringValid(args cty.Value) bool {
	length, ok := knownNumber(args, "length")
	if !ok || length.Cmp(big.NewFloat(1)) < 0 {
		return false
	}
	sum := new(big.Float)
	classes := map[string]string{"min_upper": "upper", "min_lower": "lower", "min_numeric": "numeric", "min_special": "special"}
	for minName, class := range classes {
		v := attr(args, minName)
		if v.IsNull() {
			continue
		}
		n, ok := knownNumber(args, minName)
		if !ok {
			return false
		}
		sum.Add(sum, n)
		if n.Sign() > 0 && (isFalse(attr(args, class)) || (class == "numeric" && isFalse(attr(args, "number")))) {
			return false
		}
	}
	if length.Cmp(sum) < 0 {
		return false
	}
	for _, name := range []string{"special", "upper", "lower", "numeric", "number"} {
		if !attr(args, name).IsKnown() {
			return false
		}
	}
	if isFalse(attr(args, "numeric")) || isFalse(attr(args, "number")) {
		// A class left unset keeps its default, true.
		return !isFalse(attr(args, "special")) || !isFalse(attr(args, "upper")) || !isFalse(attr(args, "lower"))
	}
	return true
}

// attr is an attribute of an object, null where it has none.
func attr(obj cty.Value, name string) cty.Value {
	if v := attrOf(obj, name); v != cty.NilVal {
		return v
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// knownNumber is an attribute's value as a number, if it is a known one.
func knownNumber(obj cty.Value, name string) (*big.Float, bool) {
	v := attr(obj, name)
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
		return nil, false
	}
	return v.AsBigFloat(), true
}

// isFalse reports whether v is a known false.
func isFalse(v cty.Value) bool {
	return v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool && v.False()
}
