package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Provider source addresses are [HOSTNAME/]NAMESPACE/TYPE; a provider's
// local name is a type name too. A type name is lowercase letters, digits
// and dashes, neither starting nor ending with a dash (resource type names
// are the provider's type name, an underscore and the rest), and does not
// start with "terraform-": that is the prefix of the plugin's executable,
// not part of its name.

// providerTypeProblem says why name cannot be a provider type or local
// name, "" when it can.
func providerTypeProblem(name string) string {
	if name == "" {
		return "a provider type name must not be empty"
	}
	if strings.HasPrefix(name, "terraform-provider-") {
		return fmt.Sprintf("the name %q starts with the executable's prefix; the provider's type name is %q", name, strings.TrimPrefix(name, "terraform-provider-"))
	}
	if strings.HasPrefix(name, "terraform-") {
		return fmt.Sprintf("the name %q starts with \"terraform-\", which is reserved; the provider's type name is what follows it", name)
	}
	if name[0] == '-' || name[len(name)-1] == '-' {
		return "a provider type name must not start or end with a dash"
	}
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c >= 'A' && c <= 'Z':
			return fmt.Sprintf("a provider type name must be in lowercase (here, %q)", strings.ToLower(name))
		default:
			return fmt.Sprintf("a provider type name may contain only lowercase letters, digits and dashes, not %q", string(c))
		}
	}
	return ""
}

// localNameDiag is the error for a provider local name that is not a valid
// provider type name, or nil.
func localNameDiag(name string, rng hcl.Range) *hcl.Diagnostic {
	problem := providerTypeProblem(name)
	if problem == "" {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider local name",
		Detail:   fmt.Sprintf("%q is an invalid provider local name: %s.", name, problem),
		Subject:  rng.Ptr(),
	}
}

// sourceAddrDiag checks a required_providers source address.
func sourceAddrDiag(src string, rng hcl.Range) *hcl.Diagnostic {
	parts := strings.Split(src, "/")
	// One part is a type alone, in the default namespace: "test" is
	// hashicorp/test, as Terraform's own fixtures use it.
	if len(parts) > 3 {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider source address",
			Detail:   fmt.Sprintf("The source address %q must be of the form [HOSTNAME/]NAMESPACE/TYPE.", src),
			Subject:  rng.Ptr(),
		}
	}
	for _, p := range parts {
		if p == "" {
			return &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider source address",
				Detail:   fmt.Sprintf("The source address %q has an empty part.", src),
				Subject:  rng.Ptr(),
			}
		}
	}
	typ := parts[len(parts)-1]
	if problem := providerTypeProblem(strings.ToLower(typ)); problem != "" {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider type",
			Detail:   fmt.Sprintf("Invalid provider type %q in source %q: %s.", typ, src, problem),
			Subject:  rng.Ptr(),
		}
	}
	return nil
}
