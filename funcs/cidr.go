package funcs

import (
	"fmt"
	"math/big"
	"net"
	"strings"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/tfeval/tfeval/internal/elements"
)

// cidrHostFunc computes the address of host number N within a prefix.
var cidrHostFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var hostNum *big.Int
		if err := gocty.FromCtyValue(args[1], &hostNum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		_, network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %s", err)
		}
		ip, err := cidr.HostBig(network, hostNum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(ip.String()), nil
	},
})

// cidrNetmaskFunc renders the netmask of an IPv4 prefix in dotted form.
var cidrNetmaskFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		_, network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %s", err)
		}
		if network.IP.To4() == nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// cidrSubnetFunc computes subnet number N of a prefix extended by newbits.
var cidrSubnetFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		newbits, ok := wholeInt(args[1])
		if !ok {
			if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
				return cty.UnknownVal(cty.String), err
			}
		}
		netnum, ok := wholeBigInt(args[2])
		if !ok {
			if err := gocty.FromCtyValue(args[2], &netnum); err != nil {
				return cty.UnknownVal(cty.String), err
			}
		}
		_, network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("invalid CIDR expression: %s", err)
		}
		subnet, err := cidr.SubnetBig(network, newbits, netnum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(subnet.String()), nil
	},
})

// wholeInt is the number v as an int when it is a whole number that fits
// one: what gocty.FromCtyValue gives, without its reflection and, for the
// small numbers evaluation shares, without a copy of the number. false
// leaves v to gocty, which reports why it does not fit.
func wholeInt(v cty.Value) (int, bool) {
	f := elements.BigFloat(v)
	if !f.IsInt() {
		return 0, false
	}
	i, acc := f.Int64()
	if acc != big.Exact || int64(int(i)) != i {
		return 0, false
	}
	return int(i), true
}

// wholeBigInt is wholeInt for a number of any size, as a new big.Int.
func wholeBigInt(v cty.Value) (*big.Int, bool) {
	f := elements.BigFloat(v)
	if !f.IsInt() {
		return nil, false
	}
	i, acc := f.Int(nil)
	return i, acc == big.Exact
}

// cidrSubnetsFunc allocates consecutive subnets of the given extra sizes.
var cidrSubnetsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
	},
	VarParam:     &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:         function.StaticReturnType(cty.List(cty.String)),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		_, network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(0, "invalid CIDR expression: %s", err)
		}
		startLen, _ := network.Mask.Size()
		lengths := args[1:]
		if len(lengths) == 0 {
			return cty.ListValEmpty(cty.String), nil
		}
		var first int
		if err := gocty.FromCtyValue(lengths[0], &first); err != nil {
			return cty.UnknownVal(cty.List(cty.String)), function.NewArgError(1, err)
		}
		// Start "before" the network so the first NextSubnet lands on its start.
		current, _ := cidr.PreviousSubnet(network, first+startLen)
		out := make([]cty.Value, len(lengths))
		for i, lv := range lengths {
			var length int
			if err := gocty.FromCtyValue(lv, &length); err != nil {
				return cty.UnknownVal(cty.List(cty.String)), function.NewArgError(i+1, err)
			}
			if length < 1 {
				return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
			}
			length += startLen
			if length > len(network.IP)*8 {
				proto := "IPv4"
				if len(network.IP) == net.IPv6len {
					proto = "IPv6"
				}
				return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an %s address", length, proto)
			}
			next, rollover := cidr.NextSubnet(current, length)
			if rollover || !network.Contains(next.IP) {
				return cty.UnknownVal(cty.List(cty.String)), function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", length, current.String())
			}
			current = next
			out[i] = cty.StringVal(current.String())
		}
		return cty.ListVal(out), nil
	},
})

// cidrContainsFunc (OpenTofu) reports whether an address or prefix lies in a prefix.
var cidrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "containing_prefix", Type: cty.String},
		{Name: "contained_ip_or_prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		_, container, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.Bool), fmt.Errorf("invalid CIDR expression: %s", err)
		}
		contained := args[1].AsString()
		var first, last net.IP
		if ip := parseIP(contained); ip != nil {
			first, last = ip, ip
		} else {
			_, sub, err := parseCIDR(contained)
			if err != nil {
				return cty.UnknownVal(cty.Bool), fmt.Errorf("invalid IP address or prefix: %s", contained)
			}
			first, last = cidr.AddressRange(sub)
		}
		if (container.IP.To4() == nil) != (first.To4() == nil) {
			return cty.UnknownVal(cty.Bool), fmt.Errorf("address family mismatch: %s vs. %s", args[0].AsString(), contained)
		}
		return cty.BoolVal(container.Contains(first) && container.Contains(last)), nil
	},
})

// parseCIDR is net.ParseCIDR that, like both tools (which kept Go 1.16's
// parser), accepts IPv4 octets with leading zeros, reading them as decimal.
func parseCIDR(s string) (net.IP, *net.IPNet, error) {
	addr, bits, found := strings.Cut(s, "/")
	if !found {
		return nil, nil, &net.ParseError{Type: "CIDR address", Text: s}
	}
	norm, ok := normalizeIPv4Octets(addr)
	if !ok {
		return nil, nil, &net.ParseError{Type: "CIDR address", Text: s}
	}
	ip, network, err := net.ParseCIDR(norm + "/" + bits)
	if err != nil {
		return nil, nil, &net.ParseError{Type: "CIDR address", Text: s}
	}
	return ip, network, nil
}

// parseIP is net.ParseIP with the same leading-zero tolerance as parseCIDR.
func parseIP(s string) net.IP {
	norm, ok := normalizeIPv4Octets(s)
	if !ok {
		return nil
	}
	return net.ParseIP(norm)
}

// normalizeIPv4Octets strips leading zeros from a trailing dotted-quad (a
// plain IPv4 address or the IPv4 tail of an IPv6 one); ok is false for a
// dotted part that is not four decimal octets.
func normalizeIPv4Octets(addr string) (string, bool) {
	if !strings.Contains(addr, ".") {
		return addr, true
	}
	head, quad := "", addr
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		head, quad = addr[:i+1], addr[i+1:]
	}
	parts := strings.Split(quad, ".")
	if len(parts) != 4 {
		return addr, false
	}
	for i, p := range parts {
		if p == "" || len(p) > 16 {
			return addr, false
		}
		n := 0
		for _, c := range p {
			if c < '0' || c > '9' {
				return addr, false
			}
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return addr, false
		}
		parts[i] = fmt.Sprint(n)
	}
	return head + strings.Join(parts, "."), true
}
