package providerfuncs

import (
	"net"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The network checks of the hashicorp/assert provider, whose functions
// modules call in variable validation rules. Each answers whether its
// string argument parses as Go's net package parses it; a string that does
// not parse is false, not an error.
var assertFunctions = map[string]function.Function{
	"cidr": addressCheck("prefix", func(s string) bool {
		_, _, err := net.ParseCIDR(s)
		return err == nil
	}),
	"cidrv4": addressCheck("prefix", func(s string) bool {
		ip, _, err := net.ParseCIDR(s)
		return err == nil && ip.To4() != nil
	}),
	"cidrv6": addressCheck("prefix", func(s string) bool {
		ip, _, err := net.ParseCIDR(s)
		return err == nil && ip.To4() == nil
	}),
	"ip": addressCheck("ip_address", func(s string) bool {
		return net.ParseIP(s) != nil
	}),
	"ipv4": addressCheck("ip_address", func(s string) bool {
		return net.ParseIP(s).To4() != nil
	}),
	"ipv6": addressCheck("ip_address", func(s string) bool {
		// An IPv4 address has a 16-byte form too: it is not an IPv6 one.
		ip := net.ParseIP(s)
		return ip != nil && ip.To4() == nil
	}),
}

// addressCheck is a function of one string parameter answering check.
func addressCheck(param string, check func(string) bool) function.Function {
	return newFunction(stringParams(param), cty.Bool, func(args []cty.Value) (cty.Value, error) {
		return cty.BoolVal(check(args[0].AsString())), nil
	})
}
