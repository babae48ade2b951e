package providerfuncs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

const (
	sub    = "00000000-0000-0000-0000-000000000000"
	rgID   = "/subscriptions/" + sub + "/resourceGroups/myResourceGroup"
	vnetID = rgID + "/providers/Microsoft.Network/virtualNetworks/myVNet"
)

// parsed is a parse_resource_id result.
func parsed(id, typ, name, parent, rgName, rgID, subID, namespace string, parts map[string]string) cty.Value {
	ps := cty.MapValEmpty(cty.String)
	if len(parts) > 0 {
		m := map[string]cty.Value{}
		for k, v := range parts {
			m[k] = cty.StringVal(v)
		}
		ps = cty.MapVal(m)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id":                  cty.StringVal(id),
		"type":                cty.StringVal(typ),
		"name":                cty.StringVal(name),
		"parent_id":           cty.StringVal(parent),
		"resource_group_name": cty.StringVal(rgName),
		"resource_group_id":   cty.StringVal(rgID),
		"subscription_id":     cty.StringVal(subID),
		"provider_namespace":  cty.StringVal(namespace),
		"parts":               ps,
	})
}

func strs(ss ...string) []cty.Value {
	out := make([]cty.Value, len(ss))
	for i, s := range ss {
		out[i] = cty.StringVal(s)
	}
	return out
}

func list(ss ...string) cty.Value {
	if len(ss) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	return cty.ListVal(strs(ss...))
}

func TestAzapiParseResourceID(t *testing.T) {
	lock := vnetID + "/providers/Microsoft.Authorization/locks/mylock"
	subnet := vnetID + "/subnets/mySubnet"
	runCases(t, "azure/azapi", []callCase{
		{name: "parse_resource_id", comment: "(the documented example)",
			args: strs("Microsoft.Network/virtualNetworks", vnetID),
			want: parsed(vnetID, "Microsoft.Network/virtualNetworks", "myVNet", rgID, "myResourceGroup", rgID, sub, "Microsoft.Network",
				map[string]string{"subscriptions": sub, "resourceGroups": "myResourceGroup", "providers": "Microsoft.Network", "virtualNetworks": "myVNet"})},
		{name: "parse_resource_id", comment: "(a resource group, as modules validate parent_id)",
			args: strs("Microsoft.Resources/resourceGroups", rgID),
			want: parsed(rgID, "Microsoft.Resources/resourceGroups", "myResourceGroup", "/subscriptions/"+sub, "myResourceGroup", rgID, sub, "Microsoft.Resources",
				map[string]string{"subscriptions": sub, "resourceGroups": "myResourceGroup"})},
		{name: "parse_resource_id", comment: "(a nested type, the parent its enclosing resource)",
			args: strs("Microsoft.Network/virtualNetworks/subnets", subnet),
			want: parsed(subnet, "Microsoft.Network/virtualNetworks/subnets", "mySubnet", vnetID, "myResourceGroup", rgID, sub, "Microsoft.Network",
				map[string]string{"subscriptions": sub, "resourceGroups": "myResourceGroup", "providers": "Microsoft.Network", "virtualNetworks": "myVNet", "subnets": "mySubnet"})},
		{name: "parse_resource_id", comment: "(an extension resource: its own providers part)",
			args: strs("Microsoft.Authorization/locks", lock),
			want: parsed(lock, "Microsoft.Authorization/locks", "mylock", vnetID, "myResourceGroup", rgID, sub, "Microsoft.Authorization",
				map[string]string{"subscriptions": sub, "resourceGroups": "myResourceGroup", "providers": "Microsoft.Authorization", "virtualNetworks": "myVNet", "locks": "mylock"})},
		{name: "parse_resource_id", comment: "(a subscription)",
			args: strs("Microsoft.Resources/subscriptions", "/subscriptions/"+sub),
			want: parsed("/subscriptions/"+sub, "Microsoft.Resources/subscriptions", sub, "/", "", "", sub, "Microsoft.Resources", map[string]string{"subscriptions": sub})},
		{name: "parse_resource_id", comment: "(a tenant resource)",
			args: strs("Microsoft.Billing/billingAccounts", "/providers/Microsoft.Billing/billingAccounts/ba1"),
			want: parsed("/providers/Microsoft.Billing/billingAccounts/ba1", "Microsoft.Billing/billingAccounts", "ba1", "/", "", "", "", "Microsoft.Billing",
				map[string]string{"providers": "Microsoft.Billing", "billingAccounts": "ba1"})},
		{name: "parse_resource_id", comment: "(a management group)",
			args: strs("Microsoft.Management/managementGroups", "/providers/Microsoft.Management/managementGroups/mg1"),
			want: parsed("/providers/Microsoft.Management/managementGroups/mg1", "Microsoft.Management/managementGroups", "mg1", "/", "", "", "", "Microsoft.Management",
				map[string]string{"providers": "Microsoft.Management", "managementGroups": "mg1"})},
		{name: "parse_resource_id", comment: "(the type matched ignoring case, returned as written)",
			args: strs("microsoft.network/VIRTUALNETWORKS", vnetID),
			want: parsed(vnetID, "microsoft.network/VIRTUALNETWORKS", "myVNet", rgID, "myResourceGroup", rgID, sub, "Microsoft.Network",
				map[string]string{"subscriptions": sub, "resourceGroups": "myResourceGroup", "providers": "Microsoft.Network", "virtualNetworks": "myVNet"})},
		{name: "parse_resource_id", comment: "(a nested type with an API version: no definitions needed)",
			args: strs("Microsoft.Network/virtualNetworks/subnets@2024-01-01", subnet),
			want: parsed(subnet, "Microsoft.Network/virtualNetworks/subnets", "mySubnet", vnetID, "myResourceGroup", rgID, sub, "Microsoft.Network",
				map[string]string{"subscriptions": sub, "resourceGroups": "myResourceGroup", "providers": "Microsoft.Network", "virtualNetworks": "myVNet", "subnets": "mySubnet"})},
		{name: "parse_resource_id", comment: "(another type)",
			args: strs("Microsoft.Resources/resourceGroups", vnetID),
			err:  "failed to parse resource ID(resourceType: Microsoft.Resources/resourceGroups@latest, resourceId: " + vnetID + "): `resource_id` and `type` are not matched, expect `type` to be Microsoft.Network/virtualNetworks, but got Microsoft.Resources/resourceGroups"},
		{name: "parse_resource_id", comment: "(an empty ID, as the provider's test has it)",
			args: strs("Microsoft.Network/virtualNetworks", ""),
			err:  "failed to parse resource ID(resourceType: Microsoft.Network/virtualNetworks@latest, resourceId: ): `resource_id` and `type` are not matched, expect `type` to be , but got Microsoft.Network/virtualNetworks"},
		{name: "parse_resource_id", comment: "(not an ID)",
			args: strs("Microsoft.Resources/resourceGroups", "my-rg"),
			err:  "failed to parse resource ID(resourceType: Microsoft.Resources/resourceGroups@latest, resourceId: my-rg): `resource_id` and `type` are not matched, expect `type` to be Microsoft.Resources/my-rg, but got Microsoft.Resources/resourceGroups"},
		{name: "parse_resource_id", comment: "(a type with two versions)",
			args: strs("Microsoft.Network/virtualNetworks@1@2", vnetID),
			err:  "failed to parse resource ID(resourceType: Microsoft.Network/virtualNetworks@1@2, resourceId: " + vnetID + "): `type` is invalid, it should be like `ResourceProvider/resourceTypes@ApiVersion`"},
		{name: "parse_resource_id", comment: "(a provider registration for a resource type)",
			args: strs("Microsoft.Network/virtualNetworks", "/subscriptions/"+sub+"/providers/Microsoft.Network"),
			err:  "failed to parse resource ID(resourceType: Microsoft.Network/virtualNetworks@latest, resourceId: /subscriptions/" + sub + "/providers/Microsoft.Network): `resource_id` and `type` are not matched, expect `type` to be a provider type, but got Microsoft.Network/virtualNetworks"},
		{name: "parse_resource_id", comment: "(a provider registration)",
			args: strs("Microsoft.Network", "/subscriptions/"+sub+"/providers/Microsoft.Network"),
			want: parsed("/subscriptions/"+sub+"/providers/Microsoft.Network", "Microsoft.Network", "Microsoft.Network", "/subscriptions/"+sub, "", "", sub, "Microsoft.Resources",
				map[string]string{"subscriptions": sub, "providers": "Microsoft.Network"})},
	})

	// A resource type of one name with an explicit API version: the
	// provider checks the scope against its Azure API definitions.
	got, err := call(t, "azure/azapi", "parse_resource_id", strs("Microsoft.Network/virtualNetworks@2024-01-01", vnetID)...)
	if err != nil || got.IsKnown() || !got.HasMark(Undetermined) || !got.Type().Equals(parsedResourceIDType) {
		t.Errorf("explicit API version: %#v, %v", got, err)
	}
	// The type check comes first, and needs no definitions.
	if _, err := call(t, "azure/azapi", "parse_resource_id", strs("Microsoft.Resources/resourceGroups@2024-01-01", vnetID)...); err == nil {
		t.Error("a mismatched type with an API version passed")
	}
}

func TestAzapiBuildResourceIDs(t *testing.T) {
	const rg1 = "/subscriptions/" + sub + "/resourceGroups/rg1"
	const vm = rgID + "/providers/Microsoft.Compute/virtualMachines/myVM"
	mismatch := func(want, got int) string {
		return "number of resource names does not match the number of resource type parts, expected " + string(rune('0'+want)) + ", got " + string(rune('0'+got))
	}
	runCases(t, "azure/azapi", []callCase{
		// The documented examples.
		{name: "build_resource_id", args: strs(rgID, "Microsoft.Network/virtualNetworks", "myVNet"), want: cty.StringVal(vnetID)},
		{name: "resource_group_resource_id", args: append(strs(sub, "rg1", "Microsoft.Network/virtualNetworks/subnets"), list("vnet1", "subnet1")),
			want: cty.StringVal(rg1 + "/providers/Microsoft.Network/virtualNetworks/vnet1/subnets/subnet1")},
		{name: "subscription_resource_id", args: append(strs(sub, "Microsoft.Resources/resourceGroups"), list("rg1")), want: cty.StringVal(rg1)},
		{name: "tenant_resource_id", args: append(strs("Microsoft.Billing/billingAccounts/billingProfiles"), list("ba1", "bp1")),
			want: cty.StringVal("/providers/Microsoft.Billing/billingAccounts/ba1/billingProfiles/bp1")},
		{name: "management_group_resource_id", args: append(strs("mg1", "Microsoft.Billing/billingAccounts/billingProfiles"), list("ba1", "bp1")),
			want: cty.StringVal("/providers/Microsoft.Management/managementGroups/mg1/providers/Microsoft.Billing/billingAccounts/ba1/billingProfiles/bp1")},
		{name: "extension_resource_id", args: append(strs(vnetID, "Microsoft.Authorization/locks"), list("mylock")),
			want: cty.StringVal(vnetID + "/providers/Microsoft.Authorization/locks/mylock")},

		// build_resource_id at each scope, and its special types.
		{name: "build_resource_id", args: strs("/subscriptions/"+sub, "Microsoft.Resources/resourceGroups", "rg1"), want: cty.StringVal(rg1)},
		{name: "build_resource_id", args: strs("/", "Microsoft.Billing/billingAccounts", "MyInvoice"), want: cty.StringVal("/providers/Microsoft.Billing/billingAccounts/MyInvoice")},
		{name: "build_resource_id", args: strs("/", "Microsoft.Resources/subscriptions", sub), want: cty.StringVal("/subscriptions/" + sub)},
		{name: "build_resource_id", args: strs(vm, "Microsoft.Chaos/targets", "t1"), want: cty.StringVal(vm + "/providers/Microsoft.Chaos/targets/t1")},
		{name: "build_resource_id", args: strs(vnetID, "Microsoft.Network/virtualNetworks/subnets@2024-01-01", "s1"), want: cty.StringVal(vnetID + "/subnets/s1")},
		{name: "build_resource_id", comment: "(no scope check, even with a version)", args: strs("/subscriptions/"+sub, "Microsoft.Network/virtualNetworks@2024-01-01", "v"),
			want: cty.StringVal("/subscriptions/" + sub + "/providers/Microsoft.Network/virtualNetworks/v")},
		{name: "build_resource_id", comment: "(a nested type under another parent)", args: strs(rgID, "Microsoft.Network/virtualNetworks/subnets", "s1"),
			err: "`parent_id is invalid`: expect ID of `Microsoft.Network/virtualNetworks`"},
		{name: "build_resource_id", args: strs(rgID, "Microsoft.Network/virtualNetworks@1@2", "v"), err: "`type` is invalid, it should be like `ResourceProvider/resourceTypes@ApiVersion`"},

		// The name lists.
		{name: "subscription_resource_id", args: append(strs(sub, "Microsoft.Sql/locations/usages"), list("loc1", "usage1")),
			want: cty.StringVal("/subscriptions/" + sub + "/providers/Microsoft.Sql/locations/loc1/usages/usage1")},
		{name: "tenant_resource_id", args: append(strs("Microsoft.Billing/billingAccounts/billingProfiles/invoiceSections@2020-05-01"), list("ba1", "bp1", "is1")),
			want: cty.StringVal("/providers/Microsoft.Billing/billingAccounts/ba1/billingProfiles/bp1/invoiceSections/is1")},
		{name: "resource_group_resource_id", args: append(strs(sub, "rg1", "Microsoft.Network/virtualNetworks"), list("vnet1", "subnet1")), err: mismatch(1, 2)},
		{name: "extension_resource_id", args: append(strs(vm, "Microsoft.Chaos/targets/capabilities"), list("t1")), err: mismatch(2, 1)},
		{name: "management_group_resource_id", args: append(strs("mg1", ""), list("ba1")), err: "invalid azure resource type, it should be like `ResourceProvider/resourceTypes`"},
		{name: "tenant_resource_id", args: append(strs("Microsoft.Billing/billingAccounts"), list()), err: "resource names cannot be empty"},
		{name: "subscription_resource_id", comment: "(a null name is empty)", args: []cty.Value{cty.StringVal(sub), cty.StringVal("Microsoft.Sql/locations"), cty.ListVal([]cty.Value{cty.NullVal(cty.String)})},
			want: cty.StringVal("/subscriptions/" + sub + "/providers/Microsoft.Sql/locations/")},
	})

	// A resource type of one name with an explicit API version: the scope
	// check needs the provider's Azure API definitions.
	got, err := call(t, "azure/azapi", "resource_group_resource_id", append(strs(sub, "rg1", "Microsoft.Network/virtualNetworks@2024-01-01"), list("vnet1"))...)
	if err != nil || got.IsKnown() || !got.HasMark(Undetermined) {
		t.Errorf("explicit API version: %#v, %v", got, err)
	}
}

// TestARMIDs: IDs parse into types, names, parents and scopes as the
// Azure SDK's parser has them.
func TestARMIDs(t *testing.T) {
	for _, tc := range []struct {
		id, typ, name, parent, sub, rg string
	}{
		{"/subscriptions/s1", "Microsoft.Resources/subscriptions", "s1", "", "s1", ""},
		{"/subscriptions/s1/resourcegroups/rg", "Microsoft.Resources/resourceGroups", "rg", "/subscriptions/s1", "s1", "rg"},
		{"/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm", "Microsoft.Compute/virtualMachines", "vm", "/subscriptions/s1/resourceGroups/rg", "s1", "rg"},
		{"/subscriptions/s1/locations/westeurope", "Microsoft.Resources/subscriptions/locations", "westeurope", "/subscriptions/s1", "s1", ""},
		{"/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/", "Microsoft.Network/virtualNetworks/subnets", "", "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v", "s1", "rg"},
		{"/providers/Microsoft.Billing/subscriptions/s1/resourceGroups/x", "Microsoft.Billing/subscriptions/resourceGroups", "x", "/providers/Microsoft.Billing/subscriptions/s1", "", ""},
	} {
		id, err := parseARMID(tc.id)
		if err != nil {
			t.Errorf("%s: %v", tc.id, err)
			continue
		}
		parent := id.parent.text
		if id.typ.String() != tc.typ || id.name != tc.name || parent != tc.parent || id.subscription != tc.sub || id.resourceGroup != tc.rg {
			t.Errorf("%s: %s %q parent %q sub %q rg %q", tc.id, id.typ, id.name, parent, id.subscription, id.resourceGroup)
		}
	}
	for _, bad := range []string{"", "x", "/", "//", "/providers", "/subscription/x", "/subscriptions/s1/resourceGroups", "/subscriptions/s1/resourceGroups/rg/x", "/providers/Microsoft.Foo/bar", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network"} {
		if _, err := parseARMID(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
