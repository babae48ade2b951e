package providerfuncs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestAssertFunctions(t *testing.T) {
	yes, no := cty.True, cty.False
	cases := []callCase{
		{name: "cidr", args: strs("10.0.0.0/16"), want: yes},
		{name: "cidr", args: strs("2001:db8::/32"), want: yes},
		{name: "cidr", args: strs("10.0.0.0/56"), want: no},
		{name: "cidr", args: strs("10.0.0.0"), want: no},
		{name: "cidrv4", args: strs("10.0.0.0/16"), want: yes},
		{name: "cidrv4", args: strs("10.1.2.3/32"), want: yes},
		{name: "cidrv4", args: strs("2001:db8::/32"), want: no},
		{name: "cidrv4", args: strs("456.127.89.0"), want: no},
		{name: "cidrv4", args: strs("10.0.0.0/56"), want: no},
		{name: "cidrv6", args: strs("2001:db8::/32"), want: yes},
		{name: "cidrv6", args: strs("10.0.0.0/16"), want: no},
		{name: "cidrv6", args: strs("nope"), want: no},
		{name: "ip", args: strs("192.168.0.1"), want: yes},
		{name: "ip", args: strs("::1"), want: yes},
		{name: "ip", args: strs("192.168.0.256"), want: no},
		{name: "ipv4", args: strs("192.168.0.1"), want: yes},
		{name: "ipv4", comment: "(an IPv4 address in its IPv6 form)", args: strs("::ffff:192.168.0.1"), want: yes},
		{name: "ipv4", args: strs("::1"), want: no},
		{name: "ipv4", args: strs("10.0.0.0=10.0.0.23"), want: no},
		{name: "ipv6", args: strs("2001:db8::1"), want: yes},
		{name: "ipv6", args: strs("192.168.0.1"), want: no},
		{name: "ipv6", args: strs("::ffff:192.168.0.1"), want: no},
		{name: "ipv6", args: strs(""), want: no},
	}
	runCases(t, "hashicorp/assert", cases)
}

func TestAssertChecks(t *testing.T) {
	yes, no := cty.True, cty.False
	num := func(ns ...float64) []cty.Value {
		out := make([]cty.Value, len(ns))
		for i, n := range ns {
			out[i] = cty.NumberFloatVal(n)
		}
		return out
	}
	tags := cty.MapVal(map[string]cty.Value{"team": cty.StringVal("core"), "tier": cty.StringVal("3")})
	cases := []callCase{
		{name: "empty", args: strs(""), want: yes},
		{name: "empty", args: strs(" "), want: no},
		{name: "not_empty", args: strs(" "), want: yes},
		{name: "not_empty", args: strs(""), want: no},
		{name: "starts_with", args: strs("ab", "abc"), want: yes},
		{name: "starts_with", args: strs("", "abc"), want: yes},
		{name: "starts_with", args: strs("bc", "abc"), want: no},
		{name: "ends_with", args: strs("bc", "abc"), want: yes},
		{name: "ends_with", args: strs("abcd", "abc"), want: no},
		{name: "lowercased", args: strs("web-01.example"), want: yes},
		{name: "lowercased", args: strs("Web"), want: no},
		{name: "lowercased", comment: "(no letters)", args: strs("42"), want: yes},
		{name: "uppercased", args: strs("PROD_1"), want: yes},
		{name: "uppercased", args: strs("PROd"), want: no},
		{name: "regex", args: strs("[0-9]+$", "vm-17"), want: yes},
		{name: "regex", args: strs("^vm$", "vm-17"), want: no},
		{name: "regex", args: strs("(", "x"), err: "error parsing regexp: missing closing ): `(`"},
		{name: "valid_json", args: strs(`{"a": [1, 2]}`), want: yes},
		{name: "valid_json", comment: "(an array is not an object)", args: strs(`[1]`), err: "json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{name: "valid_json", args: strs(`{"a":`), err: "unexpected end of JSON input"},
		{name: "equal", args: num(2, 2.0), want: yes},
		{name: "not_equal", args: num(2, 2.5), want: yes},
		{name: "greater", comment: "(the number checked is second)", args: num(10, 11), want: yes},
		{name: "greater", args: num(10, 10), want: no},
		{name: "greater_or_equal", args: num(10, 10), want: yes},
		{name: "less", args: num(10, 9.5), want: yes},
		{name: "less", args: num(10, 10), want: no},
		{name: "less_or_equal", args: num(10, 10), want: yes},
		{name: "between", args: num(1, 3, 1), want: yes},
		{name: "between", args: num(1, 3, 3), want: yes},
		{name: "between", args: num(1, 3, 3.01), want: no},
		{name: "positive", args: num(0.5), want: yes},
		{name: "positive", args: num(0), want: no},
		{name: "negative", args: num(0), want: no},
		{name: "negative", args: num(-0.5), want: yes},
		{name: "true", args: []cty.Value{cty.True}, want: yes},
		{name: "false", args: []cty.Value{cty.True}, want: no},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String)}, want: yes},
		{name: "null", args: []cty.Value{cty.EmptyObjectVal}, want: no},
		{name: "not_null", args: []cty.Value{cty.NullVal(cty.DynamicPseudoType)}, want: no},
		{name: "not_null", args: []cty.Value{cty.ListValEmpty(cty.String)}, want: yes},
		{name: "contains", args: []cty.Value{list("1", "2"), cty.StringVal("2")}, want: yes},
		{name: "contains", args: []cty.Value{list("a", "b"), cty.StringVal("c")}, want: no},
		{name: "key", args: []cty.Value{cty.StringVal("team"), tags}, want: yes},
		{name: "key", args: []cty.Value{cty.StringVal("core"), tags}, want: no},
		{name: "key", args: []cty.Value{cty.StringVal("a"), cty.MapValEmpty(cty.String)}, want: no},
		{name: "value", args: []cty.Value{cty.StringVal("3"), tags}, want: yes},
		{name: "value", args: []cty.Value{cty.StringVal("team"), tags}, want: no},
		{name: "empty", args: []cty.Value{cty.NullVal(cty.String)}, err: "argument must not be null", argErr: true},
	}
	runCases(t, "hashicorp/assert", cases)

	// Unknown arguments give unknown answers; null is the only unknown
	// null and not_null do not answer.
	for _, name := range []string{"empty", "null"} {
		if got, err := call(t, "hashicorp/assert", name, cty.UnknownVal(cty.String)); err != nil || got.IsKnown() {
			t.Errorf("%s(unknown) = %#v, %v", name, got, err)
		}
	}
	for _, name := range []string{"expired", "valid_yaml", "http_success"} {
		if _, ok := Lookup("hashicorp/assert", name); ok {
			t.Errorf("%s is in the table, but its answer is not certain", name)
		}
	}
}
