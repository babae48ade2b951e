package install

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// hostServices are the service maps of the CLI configuration's host
// blocks, by host name:
//
//	host "registry.terraform.io" {
//	  services = { "modules.v1" = "http://mirror.example.com/api/modules/" }
//	}
//
// make Terraform and OpenTofu take that map as the host's service
// discovery document instead of asking https://HOST/.well-known/terraform.json,
// so a company mirror (or a test's loopback registry) serves a public
// registry's addresses. Its URLs may be http://; relative ones are
// resolved against the discovery document's URL, as a fetched document's.
type hostServices map[string]map[string]string

// read takes one host block: its services map's string values (a
// service may be an object, as login.v1 is; installation uses none).
func (h hostServices) read(b *hcl.Block) hcl.Diagnostics {
	attrs, diags := b.Body.JustAttributes()
	if diags.HasErrors() {
		return asWarnings(diags)
	}
	services := map[string]string{}
	if a, ok := attrs["services"]; ok {
		v, vDiags := a.Expr.Value(nil)
		if vDiags.HasErrors() || !(v.Type().IsObjectType() || v.Type().IsMapType()) || v.IsNull() || !v.IsWhollyKnown() {
			return asWarnings(append(vDiags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid services argument",
				Detail:   fmt.Sprintf("The services of host %q must be a map of service identifiers to their URLs.", b.Labels[0]),
				Subject:  a.Expr.Range().Ptr(),
			}))
		}
		for it := v.ElementIterator(); it.Next(); {
			k, sv := it.Element()
			if sv.Type() == cty.String && !sv.IsNull() {
				services[k.AsString()] = sv.AsString()
			}
		}
	}
	h[strings.ToLower(b.Labels[0])] = services
	return nil
}

// modulesBase is the modules.v1 base URL a host block gives host; ok is
// false when no host block names it, and its services are then
// discovered.
func (h hostServices) modulesBase(host string) (base *url.URL, ok bool, err error) {
	services, ok := h[strings.ToLower(host)]
	if !ok {
		return nil, false, nil
	}
	raw, ok := services["modules.v1"]
	if !ok {
		return nil, true, fmt.Errorf("%s does not provide a module registry: the services of its host block in the CLI configuration have no modules.v1", host)
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, true, fmt.Errorf("the modules.v1 URL %q of the host block for %s is not a URL", raw, host)
	}
	doc := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	base, err = serviceBase(doc.ResolveReference(ref), raw, host)
	return base, true, err
}
