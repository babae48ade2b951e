package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
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
			diags = append(diags, checkReplaceTriggeredBy(e)...)
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
		Detail:   "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
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

// checkReplaceTriggeredBy reports what Terraform and OpenTofu refuse in
// an entry of replace_triggered_by: a reference to anything but resources,
// count.index and each.key (each reported), and an entry without exactly
// one resource reference.
func checkReplaceTriggeredBy(e hcl.Expression) hcl.Diagnostics {
	diag := func(summary, detail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: e.Range().Ptr()}
	}
	var diags hcl.Diagnostics
	resources := 0
	if x, ok := nativeExpr(e); ok {
		for _, t := range x.Variables() {
			root := t.RootName()
			attr := ""
			if len(t) > 1 {
				attr = traversalAttrName(t[1])
			}
			switch root {
			case "count":
				if attr != "index" {
					diags = append(diags, diag("Invalid count reference in replace_triggered_by expression", "Only count.index may be used in replace_triggered_by."))
				}
			case "each":
				if attr != "key" {
					diags = append(diags, diag("Invalid each reference in replace_triggered_by expression", "Only each.key may be used in replace_triggered_by."))
				}
			case "var", "local", "module", "path", "terraform", "self", "tofu", "run", "template", "lazy", "arg":
				diags = append(diags, diag("Invalid reference in replace_triggered_by expression", "Only resources, count.index, and each.key may be used in replace_triggered_by."))
			case "data", "ephemeral", "resource":
				if len(t) < 3 {
					what := map[string]string{"data": "data source type", "resource": "resource type", "ephemeral": "ephemeral resource type"}[root]
					return append(diags, diag("Invalid reference", fmt.Sprintf("The %q object must be followed by two attribute names: the %s and the resource name.", root, what)))
				}
				resources++
			default:
				if attr == "" {
					return append(diags, diag("Invalid reference", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name."))
				}
				resources++
			}
		}
	}
	switch {
	case resources == 0:
		diags = append(diags, diag("Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression."))
	case resources > 1:
		diags = append(diags, diag("Invalid replace_triggered_by expression", "Multiple resource references in replace_triggered_by expression."))
	}
	return diags
}

func traversalAttrName(s hcl.Traverser) string {
	if a, ok := s.(hcl.TraverseAttr); ok {
		return a.Name
	}
	return ""
}

// removedProvisioners are the vendor provisioners Terraform no longer has.
var removedProvisioners = map[string]bool{"chef": true, "habitat": true, "puppet": true, "salt-masterless": true}
