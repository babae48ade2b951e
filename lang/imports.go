package lang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/internal/elements"
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
		exp, diags := s.expandImport(im.ForEach)
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

// expandImport evaluates an import block's for_each. Terraform and
// OpenTofu take any collection there, unlike a resource's for_each: a list
// or tuple imports one instance per element, each.key its index, a set of
// any element type one per element, and null imports nothing; a value that
// is not a collection is an error of its own. What is not wholly known is
// left to the resource rules (a placeholder when tfeval alone cannot know).
func (s *scope) expandImport(forEach hcl.Expression) (expansion, hcl.Diagnostics) {
	if forEach == nil {
		return s.expand(nil, nil, "import")
	}
	v, ctx, diags := s.evalExprIn(forEach, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return expansion{mode: expandUnknown}, diags
	}
	u, ms := v.Unmark()
	switch {
	case u.IsNull():
		return s.checkedOnly(forEach, expansion{mode: expandForEach}), diags
	case !u.IsWhollyKnown():
		return s.expand(nil, forEach, "import")
	case !u.CanIterateElements():
		return expansion{mode: expandUnknown}, append(diags, withExpression(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid for_each argument",
			Detail:   `The "for_each" expression must be a collection.`,
			Subject:  forEach.Range().Ptr(),
		}, forEach, ctx))
	}
	n := u.LengthInt()
	exp := expansion{mode: expandForEach, keys: make([]cty.Value, 0, n), values: make([]cty.Value, 0, n)}
	for it := elements.Of(u); it.Next(); {
		k, e := it.Element()
		exp.keys = append(exp.keys, k)
		exp.values = append(exp.values, e.WithMarks(ms))
	}
	return s.ev.limits.boundExpansion(s.checkedOnly(forEach, exp), diags, nil, forEach, "import")
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

// Import is what an import block brings under management for one resource
// instance: the object the block's id names is read, and the plan changes
// it (or leaves it as it is) instead of creating one. tfeval imports the
// built-in terraform_data only: other objects are their provider's to read.
type Import struct {
	// ID is the import block's id.
	ID string
	// Prior is the object the import reads, before the plan changes it.
	Prior cty.Value
	// ReplacePaths are the attributes whose planned change replaces the
	// object instead of updating it; empty when it is updated in place or
	// left as it is.
	ReplacePaths []cty.Path
}

// importIDs are the ids the root module's import blocks give instances of
// resource res of module c, by instance address. An import whose address
// or id cannot be evaluated, or is not known, gives none; checkImports
// reports why once evaluation is done.
func (ev *evaluator) importIDs(c *config.Config, res *config.Resource) map[string]string {
	var out map[string]string
	for _, im := range ev.cfg.Module.Import {
		if im.Target == nil || im.ID == nil || im.Target.Addr != res.Addr() || !slices.Equal(im.Target.Module, c.Path) {
			continue
		}
		s := ev.scope(ev.root)
		exp, diags := s.expandImport(im.ForEach)
		if diags.HasErrors() || exp.mode != expandSingle && exp.mode != expandForEach {
			continue
		}
		for i := range exp.keys {
			is := s.withKeys(exp, i)
			addr, ok := is.importAddr(im.Target)
			if !ok {
				continue
			}
			id, diags := is.evalExpr(im.ID, cty.String)
			if diags.HasErrors() || !id.IsWhollyKnown() || id.IsNull() {
				continue
			}
			if out == nil {
				out = map[string]string{}
			}
			id, _ = id.Unmark()
			out[addr] = id.AsString()
		}
	}
	return out
}

// importAddr evaluates an import block's to: the address of the resource
// instance it names, its keys evaluated in s.
func (s *scope) importAddr(t *config.ImportTarget) (string, bool) {
	key := func(prefix string, e hcl.Expression) (string, bool) {
		if e == nil {
			return prefix, true
		}
		k, diags := s.evalExpr(e, cty.DynamicPseudoType)
		if diags.HasErrors() || !k.IsWhollyKnown() || k.IsNull() {
			return "", false
		}
		k, _ = k.Unmark()
		if k.Type() != cty.String && k.Type() != cty.Number {
			return "", false
		}
		return instanceAddr(prefix, k), true
	}
	var b strings.Builder
	for i, name := range t.Module {
		call, ok := key("module."+name, t.ModuleKeys[i])
		if !ok {
			return "", false
		}
		b.WriteString(call)
		b.WriteByte('.')
	}
	addr, ok := key(t.Addr, t.Key)
	if !ok {
		return "", false
	}
	b.WriteString(addr)
	return b.String(), true
}

// importRefs lists what the root module's import blocks refer to, by the
// resource block each imports into: evaluating the block needs them.
func (ev *evaluator) importRefs(im *config.Import) []parsedRef {
	var refs []parsedRef
	add := func(e hcl.Expression) {
		if e != nil {
			refs = append(refs, ev.exprRefs(ev.cfg.Module, e)...)
		}
	}
	add(im.ID)
	add(im.ForEach)
	if t := im.Target; t != nil {
		for _, k := range t.ModuleKeys {
			add(k)
		}
		add(t.Key)
	}
	return refs
}

// importTerraformData plans a terraform_data instance that imp imports:
// the object read has the id and nothing else, so setting
// triggers_replace replaces it (its new id unknown until apply), and
// anything else keeps it, updated in place when input is set (its output
// then unknown until apply). It records the object read in imp.
func importTerraformData(imp *Import) func(attrs map[string]cty.Value) {
	return func(attrs map[string]cty.Value) {
		planTerraformData(attrs)
		imp.Prior = cty.ObjectVal(map[string]cty.Value{
			"id":               cty.StringVal(imp.ID),
			"input":            cty.NullVal(cty.DynamicPseudoType),
			"output":           cty.NullVal(cty.DynamicPseudoType),
			"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
		})
		if !attrs["triggers_replace"].IsNull() {
			imp.ReplacePaths = []cty.Path{cty.GetAttrPath("triggers_replace")}
			return
		}
		attrs["id"] = cty.StringVal(imp.ID)
	}
}
