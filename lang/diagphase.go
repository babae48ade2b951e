package lang

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
)

// Terraform plans in two walks: one that validates the configuration, each
// block once and before any is expanded, with root variables, count, each
// and every resource unknown; then the plan, instance by instance. An
// error of an expression it can already evaluate in the first walk is
// reported once for the block, however many instances make it; one that
// depends on what only an instance knows is reported by every instance.
// tfeval evaluates once, instance by instance, and tells the two apart by
// what the failing expression reads.

// maxValidateDepth bounds how many locals validatePhase follows from an
// expression.
const maxValidateDepth = 32

// validatePhase reports whether error d, made while evaluating some
// instance, is one Terraform's validate walk finds: the expression that
// failed reads only what that walk knows (constants, path and terraform
// values, and locals made of them). It returns the
// module configuration the expression is in.
func (ev *evaluator) validatePhase(d *hcl.Diagnostic) (*config.Config, bool) {
	if d.Expression == nil || d.Subject == nil {
		return nil, false
	}
	cfg := ev.configOfDiag(d.Subject.Filename)
	if cfg == nil {
		return nil, false
	}
	return cfg, ev.knownAtValidate(cfg, d.Expression, 0)
}

// configOfDiag is the module configuration file name belongs to, for a
// diagnostic made while evaluating ev.node: the node's module, or for a
// module call's arguments (which a child's variables are evaluated from)
// its parent; nil when it is neither.
func (ev *evaluator) configOfDiag(name string) *config.Config {
	if ev.node == nil {
		return nil
	}
	c := ev.node.cfg
	if slices.Contains(c.Module.Files, name) {
		return c
	}
	if c.Parent != nil && slices.Contains(c.Parent.Module.Files, name) {
		return c.Parent
	}
	return nil
}

// knownAtValidate reports whether every value expr reads in module c is
// known in Terraform's validate walk.
func (ev *evaluator) knownAtValidate(c *config.Config, expr hcl.Expression, depth int) bool {
	if depth > maxValidateDepth {
		return false
	}
	for _, t := range expr.Variables() {
		switch t.RootName() {
		case "path", "terraform":
		case "local":
			l := c.Module.Locals[traversalAttr(t)]
			if l == nil || !ev.knownAtValidate(c, l.Expr, depth+1) {
				return false
			}
		default:
			// Variables (a root module's are given only to the plan, a
			// child's come from its call, which the validate walk does
			// not evaluate for it), count, each, self, resources, data
			// sources, module outputs: unknown until an instance is
			// planned.
			return false
		}
	}
	return true
}

// traversalAttr is the name after a traversal's root (var.NAME,
// local.NAME), or "".
func traversalAttr(t hcl.Traversal) string {
	if len(t) < 2 {
		return ""
	}
	if a, ok := t[1].(hcl.TraverseAttr); ok {
		return a.Name
	}
	return ""
}
