package lang

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/internal/address"
)

// EvalExpr evaluates an expression in the scope of a module (the root
// module when modulePath is nil; the first instance of a module with
// count or for_each), as terraform console does.
func (r *Result) EvalExpr(expr hcl.Expression, modulePath []string) (cty.Value, hcl.Diagnostics) {
	if r == nil || r.ev == nil || len(r.Modules) == 0 {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No configuration", Detail: "There is no evaluated configuration to evaluate the expression in."}}
	}
	if lz := r.ev.lazy; lz != nil {
		lz.mu.Lock()
		defer lz.mu.Unlock()
		if len(modulePath) > 0 {
			// The module's instances exist once its calls are evaluated.
			r.ev.limits.reset()
			r.ensureAll()
		}
	}
	for _, mi := range r.Modules {
		if slices.Equal(mi.Path, modulePath) || (len(modulePath) == 0 && len(mi.Path) == 0) {
			r.ev.limits.reset()
			var diags hcl.Diagnostics
			if r.ev.lazy != nil {
				if diags = r.ensureFor(mi.Config, expr); diags.HasErrors() {
					return cty.DynamicVal, diags
				}
			}
			v, more := r.ev.scope(mi).evalExpr(expr, cty.DynamicPseudoType)
			if !more.HasErrors() {
				// What the expression observes of a whole object without
				// schema is not known (see openobj.go).
				if addr, ok := r.observedWhole(mi, expr); ok {
					v = openStandIn(addr, deepMarks(v, nil))
				}
			}
			return v, append(diags, more...)
		}
	}
	return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No such module", Detail: "The module " + address.ModulePrefix(modulePath) + " has no instances."}}
}
