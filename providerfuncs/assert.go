package providerfuncs

import (
	"encoding/json"
	"math/big"
	"net"
	"regexp"
	"strings"
	"unicode"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The checks of the hashicorp/assert provider, whose functions modules call
// in variable validation rules and test files call in assertions. Each
// answers true or false; none of them guesses: those whose answer depends
// on the clock (expired), on a YAML reader's leniency (valid_yaml) or on
// the provider's list of named HTTP status codes (http_*) are left out.
var assertFunctions = map[string]function.Function{
	// A string that does not parse as Go's net package parses it is false,
	// not an error.
	"cidr": stringCheck(func(s []string) bool {
		_, _, err := net.ParseCIDR(s[0])
		return err == nil
	}, "prefix"),
	"cidrv4": stringCheck(func(s []string) bool {
		ip, _, err := net.ParseCIDR(s[0])
		return err == nil && ip.To4() != nil
	}, "prefix"),
	"cidrv6": stringCheck(func(s []string) bool {
		ip, _, err := net.ParseCIDR(s[0])
		return err == nil && ip.To4() == nil
	}, "prefix"),
	"ip": stringCheck(func(s []string) bool {
		return net.ParseIP(s[0]) != nil
	}, "ip_address"),
	"ipv4": stringCheck(func(s []string) bool {
		return net.ParseIP(s[0]).To4() != nil
	}, "ip_address"),
	"ipv6": stringCheck(func(s []string) bool {
		// An IPv4 address has a 16-byte form too: it is not an IPv6 one.
		ip := net.ParseIP(s[0])
		return ip != nil && ip.To4() == nil
	}, "ip_address"),

	// Strings: "   " is not empty; a string is lowercased when none of its
	// letters is anything but lower case (digits and marks do not count,
	// so "" and "123" are both lowercased and uppercased).
	"empty":       stringCheck(func(s []string) bool { return s[0] == "" }, "s"),
	"not_empty":   stringCheck(func(s []string) bool { return s[0] != "" }, "s"),
	"starts_with": stringCheck(func(s []string) bool { return strings.HasPrefix(s[1], s[0]) }, "prefix", "string"),
	"ends_with":   stringCheck(func(s []string) bool { return strings.HasSuffix(s[1], s[0]) }, "suffix", "string"),
	"lowercased":  stringCheck(func(s []string) bool { return lettersAre(s[0], unicode.IsLower) }, "string"),
	"uppercased":  stringCheck(func(s []string) bool { return lettersAre(s[0], unicode.IsUpper) }, "string"),
	// regex matches anywhere in the string, with Go's regexp syntax; a
	// pattern Go cannot compile fails the call with Go's message.
	"regex": newFunction(stringParams("pattern", "s"), cty.Bool, func(args []cty.Value) (cty.Value, error) {
		re, err := regexp.Compile(args[0].AsString())
		if err != nil {
			return cty.NilVal, err
		}
		return cty.BoolVal(re.MatchString(args[1].AsString())), nil
	}),
	// valid_json accepts only a JSON object: anything else, an array as
	// much as a syntax error, fails the call with encoding/json's message
	// rather than answering false.
	"valid_json": newFunction(stringParams("json"), cty.Bool, func(args []cty.Value) (cty.Value, error) {
		var obj map[string]any
		if err := json.Unmarshal([]byte(args[0].AsString()), &obj); err != nil {
			return cty.NilVal, err
		}
		return cty.True, nil
	}),

	// Numbers: the number checked comes last, after what it is compared
	// against (greater(100, x) is x > 100); between includes both ends.
	"equal":            numberCheck(func(n []*big.Float) bool { return n[1].Cmp(n[0]) == 0 }, "compare_against", "number"),
	"not_equal":        numberCheck(func(n []*big.Float) bool { return n[1].Cmp(n[0]) != 0 }, "compare_against", "number"),
	"greater":          numberCheck(func(n []*big.Float) bool { return n[1].Cmp(n[0]) > 0 }, "compare_against", "number"),
	"greater_or_equal": numberCheck(func(n []*big.Float) bool { return n[1].Cmp(n[0]) >= 0 }, "compare_against", "number"),
	"less":             numberCheck(func(n []*big.Float) bool { return n[1].Cmp(n[0]) < 0 }, "compare_against", "number"),
	"less_or_equal":    numberCheck(func(n []*big.Float) bool { return n[1].Cmp(n[0]) <= 0 }, "compare_against", "number"),
	"between": numberCheck(func(n []*big.Float) bool {
		return n[2].Cmp(n[0]) >= 0 && n[2].Cmp(n[1]) <= 0
	}, "begin", "end", "number"),
	"positive": numberCheck(func(n []*big.Float) bool { return n[0].Sign() > 0 }, "number"),
	"negative": numberCheck(func(n []*big.Float) bool { return n[0].Sign() < 0 }, "number"),

	"true":  boolCheck(func(b bool) bool { return b }),
	"false": boolCheck(func(b bool) bool { return !b }),

	// null and not_null take any value, null included.
	"null":     nullCheck(func(null bool) bool { return null }),
	"not_null": nullCheck(func(null bool) bool { return !null }),

	// Collections, their elements converted to strings as the provider's
	// parameter types (list and map of string) make Terraform convert them.
	"contains": newFunction([]function.Parameter{
		{Name: "list", Type: cty.List(cty.String)},
		{Name: "element", Type: cty.String},
	}, cty.Bool, func(args []cty.Value) (cty.Value, error) {
		want := args[1].AsString()
		for it := args[0].ElementIterator(); it.Next(); {
			if _, v := it.Element(); v.AsString() == want {
				return cty.True, nil
			}
		}
		return cty.False, nil
	}),
	"key": newFunction(mapParams("key"), cty.Bool, func(args []cty.Value) (cty.Value, error) {
		return cty.BoolVal(args[1].HasIndex(args[0]).True()), nil
	}),
	"value": newFunction(mapParams("value"), cty.Bool, func(args []cty.Value) (cty.Value, error) {
		want := args[0].AsString()
		for it := args[1].ElementIterator(); it.Next(); {
			if _, v := it.Element(); v.AsString() == want {
				return cty.True, nil
			}
		}
		return cty.False, nil
	}),
}

// stringCheck is a function of string parameters answering check.
func stringCheck(check func([]string) bool, params ...string) function.Function {
	return newFunction(stringParams(params...), cty.Bool, func(args []cty.Value) (cty.Value, error) {
		s := make([]string, len(args))
		for i, a := range args {
			s[i] = a.AsString()
		}
		return cty.BoolVal(check(s)), nil
	})
}

// numberCheck is a function of number parameters answering check.
func numberCheck(check func([]*big.Float) bool, names ...string) function.Function {
	params := make([]function.Parameter, len(names))
	for i, name := range names {
		params[i] = function.Parameter{Name: name, Type: cty.Number}
	}
	return newFunction(params, cty.Bool, func(args []cty.Value) (cty.Value, error) {
		n := make([]*big.Float, len(args))
		for i, a := range args {
			n[i] = a.AsBigFloat()
		}
		return cty.BoolVal(check(n)), nil
	})
}

// boolCheck is a function of one bool parameter answering check.
func boolCheck(check func(bool) bool) function.Function {
	return newFunction([]function.Parameter{{Name: "bool", Type: cty.Bool}}, cty.Bool, func(args []cty.Value) (cty.Value, error) {
		return cty.BoolVal(check(args[0].True())), nil
	})
}

// nullCheck is a function of one parameter of any type, null allowed,
// answering check of whether the argument is null.
func nullCheck(check func(bool) bool) function.Function {
	// The literal null has no type: AllowDynamicType lets it through.
	params := []function.Parameter{{Name: "argument", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true}}
	return newFunction(params, cty.Bool, func(args []cty.Value) (cty.Value, error) {
		return cty.BoolVal(check(args[0].IsNull())), nil
	})
}

// mapParams are a string parameter named first and a map of strings.
func mapParams(first string) []function.Parameter {
	return []function.Parameter{{Name: first, Type: cty.String}, {Name: "map", Type: cty.Map(cty.String)}}
}

// lettersAre reports whether every letter of s is of the case is tells.
func lettersAre(s string, is func(rune) bool) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !is(r) {
			return false
		}
	}
	return true
}
