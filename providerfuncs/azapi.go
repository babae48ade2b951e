package providerfuncs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// The resource ID functions of the Azure/azapi provider, as versions 2.9
// to 2.12 compute them (see doc.go for the sources and for what is left
// undetermined).
var azapiFunctions = map[string]function.Function{
	"parse_resource_id": newFunction(stringParams("resource_type", "resource_id"), parsedResourceIDType, parseResourceID),
	"build_resource_id": newFunction(stringParams("parent_id", "resource_type", "name"), cty.String, func(args []cty.Value) (cty.Value, error) {
		id, err := buildResourceID(args[2].AsString(), args[0].AsString(), withAPIVersion(args[1].AsString()), false)
		return cty.StringVal(id), err
	}),
	"resource_group_resource_id": newFunction(resourceNamesParams("subscription_id", "resource_group_name"), cty.String, func(args []cty.Value) (cty.Value, error) {
		return nestedResourceID(args[3], "/subscriptions/"+args[0].AsString()+"/resourceGroups/"+args[1].AsString(), args[2].AsString())
	}),
	"subscription_resource_id": newFunction(resourceNamesParams("subscription_id"), cty.String, func(args []cty.Value) (cty.Value, error) {
		return nestedResourceID(args[2], "/subscriptions/"+args[0].AsString(), args[1].AsString())
	}),
	"tenant_resource_id": newFunction(resourceNamesParams(), cty.String, func(args []cty.Value) (cty.Value, error) {
		return nestedResourceID(args[1], "/", args[0].AsString())
	}),
	"management_group_resource_id": newFunction(resourceNamesParams("management_group_name"), cty.String, func(args []cty.Value) (cty.Value, error) {
		return nestedResourceID(args[2], "/providers/Microsoft.Management/managementGroups/"+args[0].AsString(), args[1].AsString())
	}),
	"extension_resource_id": newFunction(resourceNamesParams("base_resource_id"), cty.String, func(args []cty.Value) (cty.Value, error) {
		return nestedResourceID(args[2], args[0].AsString(), args[1].AsString())
	}),
}

// parsedResourceIDType is the object parse_resource_id returns.
var parsedResourceIDType = cty.Object(map[string]cty.Type{
	"id":                  cty.String,
	"type":                cty.String,
	"name":                cty.String,
	"parent_id":           cty.String,
	"resource_group_name": cty.String,
	"resource_group_id":   cty.String,
	"subscription_id":     cty.String,
	"provider_namespace":  cty.String,
	"parts":               cty.Map(cty.String),
})

// resourceNamesParams are the parameters of the functions that build an ID
// at a scope: the scope's own, then resource_type and resource_names.
func resourceNamesParams(scope ...string) []function.Parameter {
	params := stringParams(append(scope, "resource_type")...)
	return append(params, function.Parameter{Name: "resource_names", Type: cty.List(cty.String)})
}

// errUndetermined is a build or parse whose answer depends on the Azure
// API definitions built into the provider.
var errUndetermined = errors.New("depends on the provider's Azure API definitions")

// errTypeInvalid is a resource type with more than one "@".
var errTypeInvalid = errors.New("`type` is invalid, it should be like `ResourceProvider/resourceTypes@ApiVersion`")

// withAPIVersion gives a resource type without an API version the
// provider's default, "latest", which names no version of its Azure API
// definitions.
func withAPIVersion(resourceType string) string {
	if !strings.Contains(resourceType, "@") {
		return resourceType + "@latest"
	}
	return resourceType
}

// splitResourceType splits TYPE@API_VERSION.
func splitResourceType(resourceType string) (typ, apiVersion string, err error) {
	typ, apiVersion, ok := strings.Cut(resourceType, "@")
	if !ok || strings.Contains(apiVersion, "@") {
		return "", "", errTypeInvalid
	}
	return typ, apiVersion, nil
}

// resourceTypeOf is the type of the resource an ID names, "" when it names
// none.
func resourceTypeOf(id string) string {
	if id == "/" {
		return armTenantType.String()
	}
	t, ok := parseARMType(id)
	if !ok {
		return ""
	}
	return t.String()
}

// parentOf is the ID of the parent of the resource an ID names: "/" for
// the tenant, "" when the ID does not parse.
func parentOf(id string) string {
	p, err := parseARMID(id)
	switch {
	case err != nil:
		return ""
	case p.parent.typ.String() == armTenantType.String():
		return "/"
	}
	return p.parent.text
}

// buildResourceID is the ID of a resource named name of a type given with
// its API version under parentID. With checkScope, the provider checks a
// resource type of one name against the scopes its Azure API definitions
// allow, unless the version is "latest": tfeval does not have those
// definitions, so that case is errUndetermined. A nested type needs a
// parent of the enclosing type.
func buildResourceID(name, parentID, resourceType string, checkScope bool) (string, error) {
	typ, apiVersion, err := splitResourceType(resourceType)
	if err != nil {
		return "", err
	}
	scope := parentID
	if scope == "/" {
		scope = ""
	}
	names := strings.Split(typ, "/")
	switch {
	case len(names) == 1:
		// A resource provider.
		return scope + "/providers/" + name, nil
	case len(names) == 2:
		if checkScope && apiVersion != "latest" {
			return "", errUndetermined
		}
		switch typ {
		case armResourceGroupType.String():
			return parentID + "/resourceGroups/" + name, nil
		case armSubscriptionType.String():
			return "/subscriptions/" + name, nil
		case armTenantType.String():
			return "/", nil
		case armProviderType.String():
			return scope + "/providers/" + name, nil
		}
		return scope + "/providers/" + typ + "/" + name, nil
	}
	enclosing := strings.Join(names[:len(names)-1], "/")
	if !strings.EqualFold(enclosing, resourceTypeOf(parentID)) {
		return "", fmt.Errorf("`parent_id is invalid`: expect ID of `%s`", enclosing)
	}
	return parentID + "/" + names[len(names)-1] + "/" + name, nil
}

// nestedResourceID builds the ID of a resource of a possibly nested type
// from the names of it and of each resource enclosing it, under parentID.
func nestedResourceID(names cty.Value, parentID, resourceType string) (cty.Value, error) {
	if names.LengthInt() == 0 {
		return cty.NilVal, errors.New("resource names cannot be empty")
	}
	resourceType = withAPIVersion(resourceType)
	typ, apiVersion, err := splitResourceType(resourceType)
	if err != nil {
		return cty.NilVal, err
	}
	typeNames := strings.Split(typ, "/")
	if len(typeNames) < 2 {
		return cty.NilVal, errors.New("invalid azure resource type, it should be like `ResourceProvider/resourceTypes`")
	}
	if names.LengthInt() != len(typeNames)-1 {
		return cty.NilVal, fmt.Errorf("number of resource names does not match the number of resource type parts, expected %d, got %d", len(typeNames)-1, names.LengthInt())
	}
	// Each enclosing resource is built without the scope check, the last
	// with it, under the type given.
	vals := names.AsValueSlice()
	current := typeNames[0]
	for i, name := range vals[:len(vals)-1] {
		current += "/" + typeNames[i+1]
		if parentID, err = buildResourceID(listString(name), parentID, current+"@"+apiVersion, false); err != nil {
			return cty.NilVal, err
		}
	}
	id, err := buildResourceID(listString(vals[len(vals)-1]), parentID, resourceType, true)
	if errors.Is(err, errUndetermined) {
		return undeterminedVal(cty.String), nil
	}
	return cty.StringVal(id), err
}

// listString is an element of a list of strings as the plugin framework
// hands it over: "" for null.
func listString(v cty.Value) string {
	if v.IsNull() {
		return ""
	}
	return v.AsString()
}

// parseResourceID is parse_resource_id: an ID checked against the type it
// should have, and its parts.
func parseResourceID(args []cty.Value) (cty.Value, error) {
	resourceType, id := withAPIVersion(args[0].AsString()), args[1].AsString()
	failed := func(err error) error {
		return fmt.Errorf("failed to parse resource ID(resourceType: %s, resourceId: %s): %w", resourceType, id, err)
	}
	typ, _, err := splitResourceType(resourceType)
	if err != nil {
		return cty.NilVal, failed(err)
	}
	idType := resourceTypeOf(id)
	switch {
	case strings.EqualFold(idType, armProviderType.String()):
		if strings.Contains(typ, "/") && !strings.EqualFold(typ, armProviderType.String()) {
			return cty.NilVal, failed(fmt.Errorf("`resource_id` and `type` are not matched, expect `type` to be a provider type, but got %s", typ))
		}
	case !strings.EqualFold(typ, idType):
		return cty.NilVal, failed(fmt.Errorf("`resource_id` and `type` are not matched, expect `type` to be %s, but got %s", idType, typ))
	}
	name := ""
	if p, err := parseARMID(id); err == nil {
		name = p.name
	}
	parentID := parentOf(id)
	if _, err := buildResourceID(name, parentID, resourceType, true); errors.Is(err, errUndetermined) {
		return undeterminedVal(parsedResourceIDType), nil
	} else if err != nil {
		return cty.NilVal, failed(err)
	}

	parsed := armTenant
	if id != "/" {
		if parsed, err = parseARMID(id); err != nil {
			return cty.NilVal, err
		}
	}
	// The parts are the ID's segments in pairs, a later key replacing an
	// earlier one ("providers" of an extension resource is its own).
	parts := map[string]cty.Value{}
	segs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(id, "/"), "/"), "/")
	for i := 0; i+1 < len(segs); i += 2 {
		parts[segs[i]] = cty.StringVal(segs[i+1])
	}
	partsVal := cty.MapValEmpty(cty.String)
	if len(parts) > 0 {
		partsVal = cty.MapVal(parts)
	}
	resourceGroupID := ""
	if parsed.resourceGroup != "" {
		resourceGroupID = "/subscriptions/" + parsed.subscription + "/resourceGroups/" + parsed.resourceGroup
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id":                  cty.StringVal(id),
		"type":                cty.StringVal(typ),
		"name":                cty.StringVal(name),
		"parent_id":           cty.StringVal(parentID),
		"resource_group_name": cty.StringVal(parsed.resourceGroup),
		"resource_group_id":   cty.StringVal(resourceGroupID),
		"subscription_id":     cty.StringVal(parsed.subscription),
		"provider_namespace":  cty.StringVal(parsed.typ.namespace),
		"parts":               partsVal,
	}), nil
}
