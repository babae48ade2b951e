package funcs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
)

// UnknownFunctionDiags rewrites HCL's "Call to unknown function" diagnostics
// for namespaced names into the texts the dialect prints. fns is the table
// the expression was evaluated with; declared reports whether a provider
// local name is declared in the module's required_providers (nil: none is).
// Other diagnostics pass through unchanged.
func UnknownFunctionDiags(d dialect.Dialect, fns map[string]function.Function, declared func(local string) bool, diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(diags))
	for _, diag := range diags {
		extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallUnknownDiagExtra](diag)
		if !ok {
			out = append(out, diag)
			continue
		}
		rewritten := *diag
		name, ns := extra.CalledFunctionName(), extra.CalledFunctionNamespace()
		if d == dialect.Tofu {
			rewriteTofu(&rewritten, name, ns, fns, declared)
		} else {
			rewriteTerraform(&rewritten, name, ns, fns)
		}
		out = append(out, &rewritten)
	}
	return out
}

func rewriteTerraform(diag *hcl.Diagnostic, name, ns string, fns map[string]function.Function) {
	switch {
	case ns == "":
		if strings.Contains(diag.Detail, "Did you mean") {
			return
		}
		// A provider function called without its namespace.
		var candidates []string
		for full := range fns {
			if strings.HasPrefix(full, ProviderNamespace) && strings.HasSuffix(full, "::"+name) {
				candidates = append(candidates, full)
			}
		}
		if len(candidates) > 0 {
			sort.Strings(candidates)
			diag.Detail = fmt.Sprintf("There is no function named %q. Did you mean %q?", name, candidates[0])
		}
	case ns == ProviderNamespace:
		diag.Summary = "Unknown provider function"
		diag.Detail = `The function call must include the provider name after the "provider::" prefix.`
	case strings.HasPrefix(ns, ProviderNamespace):
		provider := strings.TrimSuffix(strings.TrimPrefix(ns, ProviderNamespace), "::")
		diag.Summary = "Unknown provider function"
		if namespaceHasFunctions(fns, ns) {
			diag.Detail = fmt.Sprintf("The function %q is not available from the provider %q.", name, provider)
		} else {
			diag.Detail = fmt.Sprintf("There is no function named \"%s%s\". Ensure that provider name %q is declared in this module's required_providers block, and that this provider offers a function named %q.", ns, name, provider, name)
		}
	default:
		diag.Summary = "Unknown provider function"
		diag.Detail = fmt.Sprintf("The function namespace %q is not valid. Provider function calls must use the \"provider::\" namespace prefix.", strings.TrimSuffix(ns, "::"))
	}
}

func rewriteTofu(diag *hcl.Diagnostic, name, ns string, fns map[string]function.Function, declared func(string) bool) {
	switch {
	case ns == "":
		return
	case ns == CoreNamespace:
		diag.Detail = fmt.Sprintf("There is no builtin (core::) function named %q.", name)
	case strings.HasPrefix(ns, ProviderNamespace):
		parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(ns, ProviderNamespace), "::"), "::")
		full := ns + name
		if ns == ProviderNamespace || len(parts) > 2 || parts[0] == "" {
			diag.Summary = "Invalid function format"
			diag.Detail = fmt.Sprintf("invalid provider function %q: expected provider::<name>::<function> or provider::<name>::<alias>::<function>", full)
			return
		}
		if declared != nil && declared(parts[0]) {
			diag.Summary = "Function not found in provider"
			diag.Detail = fmt.Sprintf("Function %q was not registered by provider", full)
			return
		}
		diag.Summary = "Unknown function provider"
		diag.Detail = fmt.Sprintf("Provider %q does not exist within the required_providers of this module", parts[0])
	default:
		diag.Summary = "Unknown function namespace"
		diag.Detail = fmt.Sprintf("Function %q does not exist within a valid namespace (provider,core)", ns+name)
	}
}

func namespaceHasFunctions(fns map[string]function.Function, ns string) bool {
	for full := range fns {
		if strings.HasPrefix(full, ns) {
			return true
		}
	}
	return false
}
