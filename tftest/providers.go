package tftest

import (
	"strings"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
)

// tableVersion is lang.TableVersion: the newest version of provider
// source of which tfeval holds a table that the configuration cfg belongs
// to admits, "" if none.
func tableVersion(cfg *config.Config, source string) string {
	return lang.TableVersion(cfg, source)
}

// providerOf finds the provider configuration a resource of module c
// uses, as the root module names it (NAME or NAME.ALIAS): following the
// providers arguments of the module calls up to the root, and the default
// configuration a module inherits from its caller when none is passed.
// It also returns the provider's source address ("hashicorp/aws").
func providerOf(c *config.Config, res *config.Resource) (key, source string) {
	name, alias := lang.ResourceProviderName(res), ""
	if res.ProviderRef != nil {
		alias = res.ProviderRef.Alias
	}
	source = providerSource(c.Module, name)
	for c.Parent != nil {
		call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		passed := false
		if call != nil {
			for _, pp := range call.Providers {
				if pp.InChild.Name == name && pp.InChild.Alias == alias {
					name, alias, passed = pp.InParent.Name, pp.InParent.Alias, true
					break
				}
			}
		}
		if !passed && alias == "" {
			// The default configuration is inherited: the caller's of the
			// same provider, whatever its local name there.
			name = localName(c.Parent.Module, source, name)
		}
		c = c.Parent
	}
	key = name
	if alias != "" {
		key += "." + alias
	}
	return key, providerSource(c.Module, name)
}

// providerSource is the source address of the provider a module calls by
// a local name, without the default registry host, in lower case.
func providerSource(m *config.Module, local string) string {
	src := ""
	if m != nil {
		if rp, ok := m.RequiredProviders[local]; ok {
			src = rp.Source
		}
	}
	if src == "" {
		src = local
	}
	return normalizeSource(src)
}

// normalizeSource writes a provider source address as tfeval names
// providers: NAMESPACE/TYPE for the default registries.
func normalizeSource(src string) string {
	src = strings.ToLower(src)
	if !strings.Contains(src, "/") {
		return "hashicorp/" + src
	}
	for _, host := range []string{"registry.terraform.io/", "registry.opentofu.org/"} {
		if rest, ok := strings.CutPrefix(src, host); ok {
			return rest
		}
	}
	return src
}

// localName is the local name module m gives the provider with source
// address src; fallback when it declares none for it.
func localName(m *config.Module, src, fallback string) string {
	if m == nil {
		return fallback
	}
	if rp, ok := m.RequiredProviders[fallback]; ok && (rp.Source == "" || normalizeSource(rp.Source) == src) {
		return fallback
	}
	for name, rp := range m.RequiredProviders {
		if rp.Source != "" && normalizeSource(rp.Source) == src {
			return name
		}
	}
	return fallback
}

// builtin reports whether a resource belongs to the built-in terraform provider.
func builtin(res *config.Resource) bool {
	return res.Type == "terraform_data" || res.Type == "terraform_remote_state"
}
