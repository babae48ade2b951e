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
