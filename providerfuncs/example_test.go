package providerfuncs_test

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/providerfuncs"
)

// A module that declares Azure/azapi, under any local name, calls
// provider::LOCAL::parse_resource_id; Lookup finds it by the source.
func ExampleLookup() {
	parse, ok := providerfuncs.Lookup("registry.terraform.io/Azure/azapi", "parse_resource_id")
	fmt.Println(ok)

	id := "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1/providers/Microsoft.Network/virtualNetworks/vnet1"
	v, err := parse.Call([]cty.Value{cty.StringVal("Microsoft.Network/virtualNetworks"), cty.StringVal(id)})
	fmt.Println(v.GetAttr("name").AsString(), v.GetAttr("parent_id").AsString(), err)

	// The wrong type is the provider's error.
	_, err = parse.Call([]cty.Value{cty.StringVal("Microsoft.Resources/resourceGroups"), cty.StringVal(id)})
	fmt.Println(err)

	// With an explicit API version the provider checks the scope against
	// definitions only it holds: unknown, marked Undetermined.
	v, _ = parse.Call([]cty.Value{cty.StringVal("Microsoft.Network/virtualNetworks@2024-05-01"), cty.StringVal(id)})
	fmt.Println(v.IsKnown(), v.HasMark(providerfuncs.Undetermined))

	fmt.Println(providerfuncs.Names("hashicorp/aws"))
	// Output:
	// true
	// vnet1 /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1 <nil>
	// failed to parse resource ID(resourceType: Microsoft.Resources/resourceGroups@latest, resourceId: /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1/providers/Microsoft.Network/virtualNetworks/vnet1): `resource_id` and `type` are not matched, expect `type` to be Microsoft.Network/virtualNetworks, but got Microsoft.Resources/resourceGroups
	// false true
	// [arn_build arn_parse trim_iam_role_path user_agent]
}
