package funcs

import (
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/tfeval/tfeval/dialect"
)

func TestCIDR(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `cidrhost("10.12.112.0/20", 268)`, want: `"10.12.113.12"`},
		{expr: `cidrhost("010.001.0.0/16", 1)`, want: `"10.1.0.1"`},
		{expr: `cidrhost("192.168.1.0/24", -1)`, want: `"192.168.1.255"`},
		{expr: `cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`, want: `"fd00:fd12:3456:7890::22"`},
		{expr: `cidrnetmask("010.0.0.0/8")`, want: `"255.0.0.0"`},
		{expr: `cidrhost("10.12.112.0/20", 5000)`, err: `Error in function call: Call to function "cidrhost" failed: prefix of 20 does not accommodate a host numbered 5000.`},
		{expr: `cidrhost("not-a-cidr", 1)`, err: `invalid CIDR expression: invalid CIDR address: not-a-cidr.`},
		{expr: `cidrhost("10.0.0.256/8", 1)`, err: `invalid CIDR address: 10.0.0.256/8`},
		{expr: `cidrhost(unk_str, 1)`, want: `(known after apply)`},
		{expr: `cidrhost(unk_str, 1) == null`, want: `false`},
		{expr: `cidrhost(secret, 1)`, err: `invalid CIDR address: hunter2`},
		{expr: `cidrnetmask("172.16.0.0/12")`, want: `"255.240.0.0"`},
		{expr: `cidrnetmask("fd00::/64")`, err: `IPv6 addresses cannot have a netmask: fd00::/64.`},
		{expr: `cidrnetmask(sensitive("10.0.0.0/8"))`, want: `(sensitive value)`},
		{expr: `cidrsubnet("172.16.0.0/12", 4, 2)`, want: `"172.18.0.0/16"`},
		{expr: `cidrsubnet("10.1.2.0/24", 4, 16)`, err: `prefix extension of 4 does not accommodate a subnet numbered 16.`},
		{expr: `cidrsubnet("192.168.0.0/16", 8, 1.5)`, err: `value must be a whole number.`},
		// The arguments read without gocty (wholeInt, wholeBigInt) and
		// those left to it for its errors.
		{expr: `cidrsubnet("10.0.0.0/8", 8, 255)`, want: `"10.255.0.0/16"`},
		{expr: `cidrsubnet("10.0.0.0/8", 8.0, 3)`, want: `"10.3.0.0/16"`},
		{expr: `cidrsubnet("fd00::/16", 100, 1208925819614629174706175)`, want: `"fd00:0:fff:ffff:ffff:ffff:ffff:f000/116"`},
		{expr: `cidrsubnet("10.0.0.0/8", sensitive(8), 3)`, want: `(sensitive value)`},
		{expr: `cidrsubnet("192.168.0.0/16", 4.5, 1)`, err: `value must be a whole number, between -9223372036854775808 and 9223372036854775807.`},
		{expr: `cidrsubnet("192.168.0.0/16", 99999999999999999999, 1)`, err: `value must be a whole number, between -9223372036854775808 and 9223372036854775807.`},
		{expr: `cidrsubnet("10.0.0.0/8", 1/0, 3)`, err: `value must be a whole number, between -9223372036854775808 and 9223372036854775807.`},
		{expr: `cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, want: "tolist([\n  \"10.1.0.0/20\",\n  \"10.1.16.0/20\",\n  \"10.1.32.0/24\",\n  \"10.1.48.0/20\",\n])"},
		{expr: `cidrsubnets("10.1.0.0/16")`, want: `tolist([])`},
		{expr: `cidrsubnets("10.0.0.0/24", 1, 1, 1)`, err: `Invalid function argument: Invalid value for "newbits" parameter: not enough remaining address space for a subnet with a prefix of 25 bits after 10.0.0.128/25.`},
		{expr: `cidrsubnets("10.0.0.0/24", 0)`, err: `must extend prefix by at least one bit.`},
		{expr: `cidrsubnets("10.0.0.0/24", 9)`, err: `would extend prefix to 33 bits, which is too long for an IPv4 address.`},
		{expr: `cidrsubnets("bad", 1)`, err: `Invalid value for "prefix" parameter: invalid CIDR expression`},
	})
	runCases(t, dialect.Tofu, []fnCase{
		{expr: `cidrcontains("192.168.2.0/20", "192.168.2.1")`, want: `true`},
		{expr: `cidrcontains("192.168.2.0/20", "192.126.2.1")`, want: `false`},
		{expr: `cidrcontains("10.0.0.0/8", "10.1.0.0/16")`, want: `true`},
		{expr: `cidrcontains("10.0.0.0/16", "10.0.0.0/8")`, want: `false`},
		{expr: `cidrcontains("10.0.0.0/8", "010.1.2.3")`, want: `true`},
		{expr: `cidrcontains("fe80::/48", "10.0.0.1")`, err: `address family mismatch`},
		{expr: `cidrcontains("10.0.0.0/8", "nope")`, err: `invalid IP address or prefix: nope`},
	})
	runCases(t, dialect.Terraform, []fnCase{
		{expr: `cidrcontains("10.0.0.0/8", "10.1.2.3")`, err: `Call to unknown function: There is no function named "cidrcontains".`},
	})
}

// TestWholeNumbersAsGocty holds wholeInt and wholeBigInt to what
// gocty.FromCtyValue makes of the same numbers: the same whole numbers,
// and false wherever gocty returns an error.
func TestWholeNumbersAsGocty(t *testing.T) {
	huge, _ := new(big.Float).SetString("1208925819614629174706175")
	for _, v := range []cty.Value{
		cty.Zero, cty.NumberIntVal(3), cty.NumberIntVal(-7), cty.NumberIntVal(255), cty.NumberIntVal(1 << 40),
		cty.NumberFloatVal(8.0), cty.NumberFloatVal(4.5), cty.NumberFloatVal(-0.25),
		cty.NumberVal(huge), cty.PositiveInfinity, cty.NegativeInfinity,
	} {
		var wantInt int
		intErr := gocty.FromCtyValue(v, &wantInt)
		gotInt, ok := wholeInt(v)
		if ok != (intErr == nil) || ok && gotInt != wantInt {
			t.Errorf("wholeInt(%#v) = %d, %t; gocty: %d, %v", v, gotInt, ok, wantInt, intErr)
		}
		var wantBig *big.Int
		bigErr := gocty.FromCtyValue(v, &wantBig)
		gotBig, ok := wholeBigInt(v)
		if ok != (bigErr == nil) || ok && gotBig.Cmp(wantBig) != 0 {
			t.Errorf("wholeBigInt(%#v) = %v, %t; gocty: %v, %v", v, gotBig, ok, wantBig, bigErr)
		}
	}
}
