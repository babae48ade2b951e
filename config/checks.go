package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Checks a resource block gets once it is decoded: Terraform makes them
// while loading the configuration, before anything is evaluated.

// checkResource makes the static checks of a decoded resource block.
func checkResource(r *Resource) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, rule := range r.Preconditions {
		diags = append(diags, checkConditionRule(r, rule, "precondition")...)
	}
	for _, rule := range r.Postconditions {
		diags = append(diags, checkConditionRule(r, rule, "postcondition")...)
	}
	if r.Managed != nil {
		diags = append(diags, checkDestroyConnection(r)...)
		for _, e := range r.Managed.ReplaceTriggeredBy {
			if d := checkReplaceTriggeredBy(e); d != nil {
				diags = append(diags, d)
			}
		}
	}
	return diags
}

// checkConditionRule reports a condition that refers to nothing (it checks
// nothing) or to its own resource by name (self is the way to).
func checkConditionRule(r *Resource, rule *CheckRule, kind string) hcl.Diagnostics {
	if rule == nil || rule.Condition == nil {
		return nil
	}
	if d := ConstantCondition(rule, kind); d != nil {
		return hcl.Diagnostics{d}
	}
	var diags hcl.Diagnostics
	for _, t := range rule.Condition.Variables() {
		if refersTo(t, r) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference in " + kind,
				Detail:   fmt.Sprintf("Configuration for %s may not refer to itself; a %s reads the resource's own attributes through self.", r.Addr(), kind),
				Subject:  t.SourceRange().Ptr(),
			})
		}
	}
	return diags
}

// constantCondition is the error for a pre- or postcondition that refers to
// no object: its result is the same whatever the configuration does.
func ConstantCondition(rule *CheckRule, kind string) *hcl.Diagnostic {
	if rule == nil || rule.Condition == nil || len(rule.Condition.Variables()) > 0 {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + kind + " expression",
		Detail:   "The condition must refer to at least one object of the configuration: a condition that refers to none has the same result every time, and so checks nothing.",
		Subject:  rule.Condition.Range().Ptr(),
	}
}

// refersTo reports whether a reference names the resource r.
func refersTo(t hcl.Traversal, r *Resource) bool {
	names := make([]string, 0, 3)
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			names = append(names, s.Name)
		case hcl.TraverseAttr:
			names = append(names, s.Name)
		}
		if len(names) == 3 {
			break
		}
	}
	switch r.Mode {
	case DataResourceMode:
		return len(names) >= 3 && names[0] == "data" && names[1] == r.Type && names[2] == r.Name
	case EphemeralResourceMode:
		return len(names) >= 3 && names[0] == "ephemeral" && names[1] == r.Type && names[2] == r.Name
	}
	if len(names) >= 3 && names[0] == "resource" {
		names = names[1:]
	}
	return len(names) >= 2 && names[0] == r.Type && names[1] == r.Name
}

// checkReplaceTriggeredBy reports an entry of replace_triggered_by that
// is not a reference to a managed resource (or an attribute of one), with
// only count.index, each.key or literal keys in its indexes.
func checkReplaceTriggeredBy(e hcl.Expression) *hcl.Diagnostic {
	bad := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid replace_triggered_by expression",
		Detail:   "A replace_triggered_by entry must refer to a managed resource, or to an attribute of one; its indexes may use only count.index, each.key or constant keys.",
		Subject:  e.Range().Ptr(),
	}
	x, ok := nativeExpr(e)
	if !ok {
		return bad
	}
	root, ok := triggerRoot(x)
	if !ok || len(root) < 2 {
		return bad
	}
	switch root[0] {
	case "resource":
		if len(root) < 3 {
			return bad
		}
	case "var", "local", "module", "data", "ephemeral", "count", "each", "path", "terraform", "self":
		return bad
	}
	return nil
}

// triggerRoot returns the leading attribute names of a replace_triggered_by
// reference, or false when the expression is not one.
func triggerRoot(x hclsyntax.Expression) ([]string, bool) {
	switch x := x.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		var names []string
		for _, step := range x.Traversal {
			switch s := step.(type) {
			case hcl.TraverseRoot:
				names = append(names, s.Name)
			case hcl.TraverseAttr:
				names = append(names, s.Name)
			case hcl.TraverseIndex:
				return names, true
			}
		}
		return names, true
	case *hclsyntax.RelativeTraversalExpr:
		return triggerRoot(x.Source)
	case *hclsyntax.IndexExpr:
		if !triggerKey(x.Key) {
			return nil, false
		}
		return triggerRoot(x.Collection)
	}
	return nil, false
}

// triggerKey reports whether an index of a replace_triggered_by reference
// is allowed: a literal, count.index or each.key.
func triggerKey(k hclsyntax.Expression) bool {
	switch k := k.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		return k.IsStringLiteral()
	case *hclsyntax.ScopeTraversalExpr:
		t := k.Traversal
		if len(t) != 2 {
			return false
		}
		name := traversalAttrName(t[1])
		return t.RootName() == "count" && name == "index" || t.RootName() == "each" && name == "key"
	}
	return false
}

func traversalAttrName(s hcl.Traverser) string {
	if a, ok := s.(hcl.TraverseAttr); ok {
		return a.Name
	}
	return ""
}

// removedProvisioners are the vendor provisioners Terraform no longer has.
var removedProvisioners = map[string]bool{"chef": true, "habitat": true, "puppet": true, "salt-masterless": true}
