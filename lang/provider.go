package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/address"
)

// Terraform evaluates the configuration of every provider block that a
// resource uses before it validates or plans that resource: an error there
// (a reference to nothing declared, a function called wrongly, and with the
// provider's schema an argument the provider does not have or a value of
// the wrong type) is reported, and the resources that use the block are not
// evaluated, so report nothing of their own. A provider block no resource
// uses is not evaluated at all. tfeval has no provider to configure: it
// evaluates the block for those errors alone.

// evaluatedProvider reports whether a provider block is one tfeval
// evaluates: not one with OpenTofu's for_each (its instances are chosen by
// a key each resource gives), nor one without a body.
func evaluatedProvider(p *config.Provider) bool {
	return p != nil && p.Config != nil && p.ForEach == nil
}

// providerSpec is the spec a provider block's configuration is decoded
// with: the provider's schema where schemas has it, else what the body's
// syntax implies (every attribute as written).
func providerSpec(schemas *ProviderSchemas, m *config.Module, p *config.Provider) hcldec.Spec {
	if ps := schemas.provider(m, p.Name); ps != nil && ps.Provider != nil {
		return ps.Provider.decoderSpec()
	}
	return impliedSpec(p.Config)
}

// providerBodyVariables are the references of a provider block's
// configuration decoded with spec, dynamic blocks' contents included.
func providerBodyVariables(p *config.Provider, spec hcldec.Spec) []hcl.Traversal {
	return bodyVariablesOf(p.Config, spec, impliedSchema(spec))
}

// evalProvider evaluates, in one module instance, the configuration of the
// provider block of node n, when a resource uses it, for its diagnostics.
// A console session configures no provider, nor does a test file's run for
// a provider block it gives in place of the module's own
// (Options.ProvidersGiven).
func (ev *evaluator) evalProvider(mi *ModuleInstance, n *node) {
	if !n.used || ev.opts.Console || ev.opts.Lazy {
		return
	}
	if mi.parent == nil && ev.opts.ProvidersGiven[n.name] {
		return
	}
	m := mi.Config.Module
	p := m.ProviderConfigs[n.name]
	if !evaluatedProvider(p) {
		return
	}
	spec := providerSpec(ev.opts.Schemas, m, p)
	s := ev.scope(mi)
	ctx, diags := s.evalContext(providerBodyVariables(p, spec))
	ev.addDiags(diags)
	if diags.HasErrors() {
		return
	}
	body := p.Config
	if hasDynamicBlocks(body) {
		body = ev.limits.expandDynamic(body, ctx)
	}
	_, diags = hcldec.Decode(body, spec, ctx)
	diags = onceDynamicBudget(diags)
	detachDiags(diags, ctx)
	ev.addDiags(diags)
}

// connectProviders makes every resource (and check block's data source)
// depend on the provider block whose configuration it uses, and marks that
// block used; the others are not evaluated, as Terraform leaves a provider
// configuration no resource uses out of its graph.
func (g *graph) connectProviders() {
	found := false
	for _, gm := range g.modules {
		if len(gm.objects.module.ProviderConfigs) > 0 {
			found = true
			break
		}
	}
	if !found {
		return
	}
	for _, n := range g.nodes {
		res := providedResource(n)
		if res == nil || res.Mode == config.ManagedResourceMode && isBuiltinType(res.Type) {
			continue
		}
		alias := ""
		if res.ProviderRef != nil {
			alias = res.ProviderRef.Alias
		}
		if p := g.providerNode(n.cfg, resourceProviderName(res), alias); p != nil {
			p.used = true
			g.dependOn(n, p)
		}
	}
}

// providedResource is the resource block of node n that a provider
// configures: a resource's, or a check block's data source; nil for
// other nodes.
func providedResource(n *node) *config.Resource {
	switch n.kind {
	case nodeResource:
		return findResource(n.cfg.Module, n.name)
	case nodeCheck:
		return n.cfg.Module.Checks[n.name].DataResource
	}
	return nil
}

// providerNode is the node of the provider block whose configuration the
// resources of module c use by the local name name (and alias): the
// module's own block, else the one its caller passes in the call's
// providers argument, else, for a default configuration, the caller's of
// the same name and provider (implicit inheritance), and so on up the
// tree. nil when the configuration is no block's (the empty default one).
func (g *graph) providerNode(c *config.Config, name, alias string) *node {
	for c != nil && c.Module != nil {
		key := name
		if alias != "" {
			key = name + "." + alias
		}
		if n := g.get(c, nodeProvider, key); n != nil {
			return n
		}
		parent := c.Parent
		if parent == nil || parent.Module == nil {
			return nil
		}
		call := parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		if call == nil {
			return nil
		}
		passed := false
		for _, pp := range call.Providers {
			if pp.InChild.Name == name && pp.InChild.Alias == alias {
				name, alias, passed = pp.InParent.Name, pp.InParent.Alias, true
				break
			}
		}
		if !passed && (alias != "" || providerKey(providerSource(c.Module, name)) != providerKey(providerSource(parent.Module, name))) {
			return nil
		}
		c = parent
	}
	return nil
}

// A provider configuration other than a module's default one exists only
// where a provider block declares it (or, in the root module, a test file
// gives it), and the root module's default one also where its
// required_providers names the provider: Terraform fails to build its
// graph where the root module passes a module call a configuration it does
// not have, and reports every
// resource whose aliased configuration is no block's as "Provider
// configuration not present", a message written for state (it is what
// validating a module with configuration_aliases on its own gives).

// checkProviderConfigs reports, before the walk, the provider
// configurations used but not configured; false when Terraform could not
// build its graph, so that nothing is evaluated. A called module's calls
// were checked while loading (config), where a test file changes nothing.
func (ev *evaluator) checkProviderConfigs(g *graph) bool {
	m := ev.cfg.Module
	for _, name := range sortedKeys(m.ModuleCalls) {
		for _, pp := range m.ModuleCalls[name].Providers {
			ref := pp.InParent
			key := ref.Name
			if ref.Alias != "" {
				key += "." + ref.Alias
			}
			if m.ProviderConfigs[key] != nil || ev.opts.ProvidersGiven[key] {
				continue
			}
			if ref.Alias == "" && m.RequiredProviders[ref.Name] != nil {
				continue // the root module's default configuration, empty
			}
			addr := `provider["` + providerAddress(m, ref.Name, ev.opts.Dialect) + `"]`
			if ref.Alias != "" {
				addr += "." + ref.Alias
			}
			ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "missing provider " + addr})
			return false
		}
	}
	for _, n := range g.nodes {
		res := providedResource(n)
		if res == nil || res.ProviderRef == nil || res.ProviderRef.Alias == "" {
			continue
		}
		at, name, alias, ok := g.configuredAlias(n.cfg, res.ProviderRef.Name, res.ProviderRef.Alias, ev.opts.ProvidersGiven)
		if ok {
			continue
		}
		addr := address.ModulePrefix(n.cfg.Path) + res.Addr()
		provider := address.ModulePrefix(at.Path) + `provider["` + providerAddress(at.Module, name, ev.opts.Dialect) + `"].` + alias
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provider configuration not present", Detail: fmt.Sprintf("To work with %s its original provider configuration at %s is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy %s, after which you can remove the provider configuration again.", addr, provider, addr)})
		if ev.unconfigured == nil {
			ev.unconfigured = map[*node]bool{}
		}
		ev.unconfigured[n] = true
	}
	return true
}

// configuredAlias follows the aliased provider configuration name.alias of
// module c up the calls that pass it, to the provider block that gives it
// (ok), or to the module where it is no block's nor passed: that module
// and the configuration's name there. A test file's configurations
// (given) stand for root module blocks.
func (g *graph) configuredAlias(c *config.Config, name, alias string, given map[string]bool) (*config.Config, string, string, bool) {
	for {
		if alias == "" {
			return c, name, alias, true
		}
		key := name + "." + alias
		if c.Module.ProviderConfigs[key] != nil {
			return c, name, alias, true
		}
		parent := c.Parent
		if parent == nil || parent.Module == nil {
			return c, name, alias, given[key]
		}
		call := parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		if call == nil {
			return c, name, alias, false
		}
		passed := false
		for _, pp := range call.Providers {
			if pp.InChild.Name == name && pp.InChild.Alias == alias {
				name, alias, passed = pp.InParent.Name, pp.InParent.Alias, true
				break
			}
		}
		if !passed {
			return c, name, alias, false
		}
		c = parent
	}
}

// providerAddress is the whole address of module m's provider local, with
// the dialect's registry host where its source names none:
// registry.terraform.io/hashicorp/aws.
func providerAddress(m *config.Module, local string, d dialect.Dialect) string {
	source := providerKey(providerSource(m, local))
	if strings.Count(source, "/") != 1 {
		return source
	}
	if d == dialect.Tofu {
		return "registry.opentofu.org/" + source
	}
	return "registry.terraform.io/" + source
}

// providerNodeName is how Terraform names a provider configuration in a
// cycle: provider["registry.terraform.io/hashicorp/aws"].alias, after its
// module's address.
func providerNodeName(n *node, d dialect.Dialect) string {
	name, alias, _ := strings.Cut(n.name, ".")
	out := address.ModulePrefix(n.cfg.Path) + `provider["` + providerAddress(n.cfg.Module, name, d) + `"]`
	if alias != "" {
		out += "." + alias
	}
	return out
}

// DecodeProviderConfig decodes a provider configuration body with the
// schema schemas has for the provider module m calls local, as Terraform
// does before it configures the provider (an argument the schema lacks is
// "Unsupported argument", a value of the wrong type an error), with the
// variables and functions of ctx. ok is false where schemas has no
// complete schema for the provider, and the body is not decoded.
func DecodeProviderConfig(schemas *ProviderSchemas, m *config.Module, local string, body hcl.Body, ctx *hcl.EvalContext) (diags hcl.Diagnostics, ok bool) {
	ps := schemas.provider(m, local)
	if ps == nil || ps.Partial || ps.Provider == nil {
		return nil, false
	}
	_, diags = hcldec.Decode(body, ps.Provider.decoderSpec(), ctx)
	return diags, true
}
