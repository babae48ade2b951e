package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ImportTarget is the resource an import block's to names: its module
// path (call names, empty for the root module) and TYPE.NAME address.
type ImportTarget struct {
	Module []string
	// ModuleKeys are the instance keys of the calls in Module, nil for a
	// call without one; Key is the resource instance's. A key is a
	// constant or, with for_each, each.key or each.value.
	ModuleKeys []hcl.Expression
	Addr       string
	Key        hcl.Expression
}

// importTarget reads an import block's to: a resource address whose
// instance keys (and module instance keys) are constants or, with
// for_each, each.key and each.value. JSON gives it as a string.
func importTarget(e hcl.Expression, forEach bool) (*ImportTarget, *hcl.Diagnostic) {
	bad := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid import address expression",
		Detail:   "An import block's to must be the address of a resource, such as aws_instance.web or module.app[\"a\"].aws_instance.web[0]; its keys may be constants or, with for_each, each.key and each.value.",
		Subject:  e.Range().Ptr(),
	}
	x, ok := nativeExpr(e)
	if !ok {
		return nil, bad
	}
	// names are the address's names, "[]" for an index, whose key is in
	// keys at the same place.
	var names []string
	var keys []hcl.Expression
	steps := func(trav hcl.Traversal) bool {
		for _, step := range trav {
			switch s := step.(type) {
			case hcl.TraverseRoot:
				names, keys = append(names, s.Name), append(keys, nil)
			case hcl.TraverseAttr:
				names, keys = append(names, s.Name), append(keys, nil)
			case hcl.TraverseIndex:
				names, keys = append(names, "[]"), append(keys, hcl.StaticExpr(s.Key, s.SrcRange))
			default:
				return false
			}
		}
		return true
	}
	var walk func(x hclsyntax.Expression) bool
	walk = func(x hclsyntax.Expression) bool {
		switch x := x.(type) {
		case *hclsyntax.ScopeTraversalExpr:
			return steps(x.Traversal)
		case *hclsyntax.RelativeTraversalExpr:
			return walk(x.Source) && steps(x.Traversal)
		case *hclsyntax.IndexExpr:
			if !walk(x.Collection) || !importKey(x.Key, forEach) {
				return false
			}
			names, keys = append(names, "[]"), append(keys, x.Key)
			return true
		}
		return false
	}
	if !walk(x) {
		return nil, bad
	}
	t := &ImportTarget{}
	for len(names) >= 2 && names[0] == "module" {
		t.Module = append(t.Module, names[1])
		names, keys = names[2:], keys[2:]
		var key hcl.Expression
		if len(names) > 0 && names[0] == "[]" {
			key, names, keys = keys[0], names[1:], keys[1:]
		}
		t.ModuleKeys = append(t.ModuleKeys, key)
	}
	if len(names) > 0 && names[0] == "resource" {
		names, keys = names[1:], keys[1:]
	}
	if len(names) == 3 && names[2] == "[]" {
		t.Key = keys[2]
		names = names[:2]
	}
	if len(names) != 2 || names[0] == "[]" || names[1] == "[]" || names[0] == "data" {
		return nil, bad
	}
	t.Addr = names[0] + "." + names[1]
	return t, nil
}

// importKey reports whether an index of an import address is allowed.
func importKey(k hclsyntax.Expression, forEach bool) bool {
	switch k := k.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		return k.IsStringLiteral()
	case *hclsyntax.ScopeTraversalExpr:
		t := k.Traversal
		if !forEach || len(t) != 2 || t.RootName() != "each" {
			return false
		}
		name := traversalAttrName(t[1])
		return name == "key" || name == "value"
	}
	return false
}

// checkImports checks a module's import blocks against its resources once
// every file is merged: an import's provider must be its target's.
func (m *Module) checkImports() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, im := range m.Import {
		if im.Target == nil || im.ProviderRef == nil {
			continue
		}
		if len(im.Target.Module) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import provider argument",
				Detail:   "An import block whose target is in a child module cannot choose its provider: the module's resource block does, with the module call's providers argument.",
				Subject:  im.ProviderRef.NameRange.Ptr(),
			})
			continue
		}
		r := m.ManagedResources[im.Target.Addr]
		if r == nil {
			continue
		}
		name, alias := resourceProviderName(r.Type), ""
		if r.ProviderRef != nil {
			name, alias = r.ProviderRef.Name, r.ProviderRef.Alias
		}
		if name != im.ProviderRef.Name || alias != im.ProviderRef.Alias {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import provider argument",
				Detail:   fmt.Sprintf("The import block's provider must be the provider configuration of its target, %s.", r.Addr()),
				Subject:  im.ProviderRef.NameRange.Ptr(),
			})
		}
	}
	return diags
}

// resourceProviderName is the provider local name a resource type implies:
// the part before the first underscore.
func resourceProviderName(typ string) string {
	if i := strings.IndexByte(typ, '_'); i > 0 {
		return typ[:i]
	}
	return typ
}

// nativeExpr is e in native syntax: JSON gives a reference as a string
// holding it, which is parsed where it stands. ok is false for anything
// else.
func nativeExpr(e hcl.Expression) (hclsyntax.Expression, bool) {
	if x, ok := e.(hclsyntax.Expression); ok {
		return x, true
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || v.Type() != cty.String || v.IsNull() {
		return nil, false
	}
	parsed, pDiags := hclsyntax.ParseExpression([]byte(v.AsString()), e.Range().Filename, e.Range().Start)
	if pDiags.HasErrors() {
		return nil, false
	}
	return parsed, true
}
