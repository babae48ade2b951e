package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// checkImports makes the checks terraform plan makes of the root module's
// import blocks once everything is evaluated: the target's configuration
// must exist, and each instance's import id must be known.
func (ev *evaluator) checkImports(root *ModuleInstance) {
	for _, im := range root.Config.Module.Import {
		if im.Target == nil {
			continue
		}
		if !importTargetExists(root.Config, im.Target) {
			addr := im.Target.Addr
			for i := len(im.Target.Module) - 1; i >= 0; i-- {
				addr = "module." + im.Target.Module[i] + "." + addr
			}
			ev.addDiag(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Configuration for import target does not exist",
				Detail:   fmt.Sprintf("The configuration for the given import target %s does not exist. If you wish to automatically generate config for this resource, use the -generate-config-out option within terraform plan. Otherwise, make sure the target resource exists within your configuration. For example:\n\n  terraform plan -generate-config-out=generated.tf", addr),
				Subject:  im.To.Range().Ptr(),
			})
			continue
		}
		if im.ID == nil {
			continue
		}
		s := ev.scope(root)
		exp, diags := s.expand(nil, im.ForEach, "import")
		ev.addDiags(diags)
		if exp.mode != expandSingle && exp.mode != expandForEach {
			continue
		}
		for i := range exp.keys {
			id, diags := s.withKeys(exp, i).evalExpr(im.ID, cty.String)
			ev.addDiags(diags)
			if diags.HasErrors() || id.IsKnown() || marks.HasUnread(id) {
				continue
			}
			ev.addDiag(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import id argument",
				Detail:   `The import block "id" argument depends on values that cannot be determined until apply, so Terraform cannot plan to import this resource.`,
				Subject:  im.ID.Range().Ptr(),
			})
			break
		}
	}
}

// importTargetExists reports whether the resource an import names is in
// the configuration.
func importTargetExists(c *config.Config, t *config.ImportTarget) bool {
	for _, name := range t.Module {
		c = c.Children[name]
		if c == nil {
			// A module that is not installed may well have it.
			return true
		}
	}
	return c.Module != nil && c.Module.ManagedResources[t.Addr] != nil
}
