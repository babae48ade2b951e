package providerfuncs

import (
	"errors"
	"fmt"
	"strings"
)

// Azure Resource Manager resource IDs, read as the azapi provider reads
// them: through the Azure SDK for Go's arm package (ParseResourceID,
// ParseResourceType), whose behaviour this file reproduces, quirks
// included, since the provider's answers follow from it.

// armType is an Azure resource type: a provider namespace and one or more
// type names ("Microsoft.Network", ["virtualNetworks", "subnets"]).
type armType struct {
	namespace string
	names     []string
}

func (t armType) String() string {
	return t.namespace + "/" + strings.Join(t.names, "/")
}

func (t armType) last() string {
	return t.names[len(t.names)-1]
}

// child is the type of a resource nested in one of type t.
func (t armType) child(name string) armType {
	return armType{t.namespace, append(t.names[:len(t.names):len(t.names)], name)}
}

// The built-in types of the Microsoft.Resources namespace.
var (
	armTenantType        = armType{"Microsoft.Resources", []string{"tenants"}}
	armSubscriptionType  = armType{"Microsoft.Resources", []string{"subscriptions"}}
	armResourceGroupType = armType{"Microsoft.Resources", []string{"resourceGroups"}}
	armProviderType      = armType{"Microsoft.Resources", []string{"providers"}}
)

// armID is a parsed resource ID: the resource, its type and name, and the
// subscription and resource group it lies in ("" where it lies in none).
type armID struct {
	parent        *armID // nil only for the tenant
	typ           armType
	name          string
	subscription  string
	resourceGroup string
	text          string // the ID as the SDK writes it back
}

// armTenant is the root every parsed ID descends from.
var armTenant = &armID{typ: armTenantType}

func (id *armID) isTenant() bool {
	return id != nil && id.parent == nil && strings.EqualFold(id.typ.String(), armTenantType.String())
}

func (id *armID) isSubscription() bool {
	return id != nil && strings.EqualFold(id.typ.String(), armSubscriptionType.String()) && id.parent.isTenant()
}

func (id *armID) isResourceGroup() bool {
	return id != nil && strings.EqualFold(id.typ.String(), armResourceGroupType.String()) && id.parent.isSubscription()
}

// nest is a resource of type typ named name under id. A nested resource
// ("child") is written as its last type name and its name after its
// parent; a provider resource as /providers/NAMESPACE/TYPE/NAME.
func (id *armID) nest(typ armType, name string, child bool) *armID {
	n := &armID{parent: id, typ: typ, name: name, subscription: id.subscription, resourceGroup: id.resourceGroup}
	// The SDK compares these with the case of its own constants.
	switch typ.String() {
	case armSubscriptionType.String():
		n.subscription = name
	case armResourceGroupType.String():
		n.resourceGroup = name
	}
	if child {
		n.text = id.text + "/" + typ.last()
		if name != "" {
			n.text += "/" + name
		}
	} else {
		n.text = id.text + "/providers/" + typ.String() + "/" + name
	}
	return n
}

// childType is the type of a resource written as NAME/... under id:
// resourceGroups under a subscription and subscriptions under the tenant
// are the built-in types, anything else nests in id's type.
func (id *armID) childType(name string) armType {
	switch {
	case strings.EqualFold(name, "resourcegroups") && id.isSubscription():
		return armResourceGroupType
	case strings.EqualFold(name, "subscriptions") && id.isTenant():
		return armSubscriptionType
	}
	return id.typ.child(name)
}

// parseARMID parses a resource ID, with the SDK's error texts.
func parseARMID(s string) (*armID, error) {
	if s == "" {
		return nil, errors.New("invalid resource ID: id cannot be empty")
	}
	if !strings.HasPrefix(s, "/") {
		return nil, fmt.Errorf("invalid resource ID: resource id '%s' must start with '/'", s)
	}
	invalid := fmt.Errorf("invalid resource ID: %s", s)
	parts := segments(s)
	if len(parts) < 2 || !strings.EqualFold(parts[0], "subscriptions") && !strings.EqualFold(parts[0], "providers") {
		return nil, invalid
	}
	id := armTenant
	for len(parts) > 0 {
		isProviders := strings.EqualFold(parts[0], "providers")
		switch {
		case len(parts) == 1:
			// A lone type name: subscriptions and resourceGroups need
			// their names, and a resource group holds only resources.
			if strings.EqualFold(parts[0], "subscriptions") && id.isTenant() ||
				strings.EqualFold(parts[0], "resourcegroups") && id.isSubscription() ||
				id.isResourceGroup() {
				return nil, invalid
			}
			return id.nest(id.childType(parts[0]), "", true), nil
		case isProviders && (len(parts) == 2 || strings.EqualFold(parts[2], "providers")):
			// A resource provider registration, only at the tenant or a
			// subscription.
			if !id.isSubscription() && !id.isTenant() {
				return nil, invalid
			}
			id, parts = id.nest(armProviderType, parts[1], true), parts[2:]
		case isProviders && len(parts) > 3:
			id, parts = id.nest(armType{parts[1], []string{parts[2]}}, parts[3], false), parts[4:]
		case !isProviders:
			id, parts = id.nest(id.childType(parts[0]), parts[1], true), parts[2:]
		default:
			return nil, invalid
		}
	}
	return id, nil
}

// parseARMType reads a resource type, or the type of a resource ID, as
// the SDK's ParseResourceType does: a single name is a Microsoft.Resources
// type, a first segment with a dot is a namespace, anything else is an ID.
func parseARMType(s string) (armType, bool) {
	parts := segments(s)
	switch {
	case len(parts) == 0:
		return armType{}, false
	case len(parts) == 1:
		return armType{"Microsoft.Resources", parts}, true
	case strings.Contains(parts[0], "."):
		return armType{parts[0], parts[1:]}, true
	}
	id, err := parseARMID(s)
	if err != nil {
		return armType{}, false
	}
	return id.typ, true
}

// segments are the non-empty parts of a path.
func segments(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "/") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
