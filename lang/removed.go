package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/address"
)

// checkRemoved reports the removed blocks, of every module, whose resource
// or module is still in the configuration: a plan checks that before it
// starts (terraform validate does not). Terraform points at the block
// still declared, OpenTofu at the removed block.
func (ev *evaluator) checkRemoved(c *config.Config) {
	for _, rm := range c.Module.Removed {
		if rm.From == nil {
			continue
		}
		trav, diags := hcl.AbsTraversalForExpr(rm.From)
		if diags.HasErrors() {
			continue // reported while loading
		}
		path, names := removedTarget(trav)
		if names == nil {
			continue
		}
		target := c
		for _, name := range path {
			if target = target.Children[name]; target == nil {
				break
			}
		}
		if target == nil {
			continue
		}
		abs := address.ModulePrefix(append(append([]string(nil), c.Path...), path...))
		var d *hcl.Diagnostic
		switch {
		case len(names) == 0:
			abs = strings.TrimSuffix(abs, ".")
			d = &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Removed module still exists", Detail: fmt.Sprintf("This statement declares that %s was removed, but it is still declared in configuration.", abs), Subject: target.CallRange.Ptr()}
			if ev.texts().tofu() {
				d.Summary, d.Detail = "Removed module block still exists", fmt.Sprintf("This statement declares a removal of the module %s, but this module block still exists in the configuration. Please remove the module block.", abs)
			}
		default:
			res := target.Module.ManagedResources[names[0]+"."+names[1]]
			if res == nil {
				continue
			}
			abs += res.Addr()
			d = &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Removed resource still exists", Detail: fmt.Sprintf("This statement declares that %s was removed, but it is still declared in configuration.", abs), Subject: res.DeclRange.Ptr()}
			if ev.texts().tofu() {
				d.Summary, d.Detail = "Removed resource block still exists", fmt.Sprintf("This statement declares a removal of the resource %s, but this resource block still exists in the configuration. Please remove the resource block.", abs)
			}
		}
		if ev.texts().tofu() {
			d.Subject = rm.DeclRange.Ptr()
		}
		ev.addDiag(d)
	}
	for _, name := range sortedKeys(c.Children) {
		ev.checkRemoved(c.Children[name])
	}
}

// removedTarget reads a removed block's from: the module calls it goes
// through and the managed resource's type and name (empty for a module);
// names is nil for an address that names neither.
func removedTarget(t hcl.Traversal) (path, names []string) {
	var steps []string
	for _, st := range t {
		switch st := st.(type) {
		case hcl.TraverseRoot:
			steps = append(steps, st.Name)
		case hcl.TraverseAttr:
			steps = append(steps, st.Name)
		default:
			return nil, nil // instance keys are refused while loading
		}
	}
	for len(steps) >= 2 && steps[0] == "module" {
		path, steps = append(path, steps[1]), steps[2:]
	}
	switch {
	case len(steps) == 0 && len(path) > 0:
		return path, []string{}
	case len(steps) == 2 && steps[0] != "data" && steps[0] != "module":
		return path, steps
	}
	return nil, nil
}
