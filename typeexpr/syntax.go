package typeexpr

import (
	"github.com/hashicorp/hcl/v2"
	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// syntaxConstraint reads a type constraint written in native syntax in its
// common forms: the keywords bool, number, string and any, and calls of
// list, set, map and object (with optional attributes and their defaults)
// nested in any way. It gives what hcl's TypeConstraintWithDefaults gives
// for them, which reaches each call through hcl.ExprCall and each object
// through hcl.ExprMap: a copy of the call's arguments and a list of the
// object's items every time, and two maps for every object type, with
// defaults or not. A module's variables are read at every load, so those
// copies were about 2% of what an evaluation of terraform-aws-eks allocated.
//
// ok is false for anything else, and for anything hcl would report a
// problem with: the caller then asks hcl, which reports it. Only the forms
// hcl reads without a diagnostic are taken, so the result, when there is
// one, is hcl's (TestSyntaxConstraintAgreesWithHCL, FuzzSyntaxConstraint).
func syntaxConstraint(expr hcl.Expression) (cty.Type, *hcltypeexpr.Defaults, bool) {
	switch x := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if len(x.Traversal) != 1 {
			return cty.NilType, nil, false
		}
		switch x.Traversal.RootName() {
		case "bool":
			return cty.Bool, nil, true
		case "number":
			return cty.Number, nil, true
		case "string":
			return cty.String, nil, true
		case "any":
			return cty.DynamicPseudoType, nil, true
		}
	case *hclsyntax.FunctionCallExpr:
		if x.ExpandFinal || len(x.Args) != 1 {
			return cty.NilType, nil, false
		}
		switch x.Name {
		case "list", "set", "map":
			ety, d, ok := syntaxConstraint(x.Args[0])
			if !ok {
				return cty.NilType, nil, false
			}
			var ty cty.Type
			switch x.Name {
			case "list":
				ty = cty.List(ety)
			case "set":
				ty = cty.Set(ety)
			default:
				ty = cty.Map(ety)
			}
			if d != nil {
				d = &hcltypeexpr.Defaults{Type: ty, Children: map[string]*hcltypeexpr.Defaults{"": d}}
			}
			return ty, d, true
		case "object":
			return syntaxObject(x.Args[0])
		}
	}
	return cty.NilType, nil, false
}

// syntaxObject is syntaxConstraint of object(ATTRS).
func syntaxObject(expr hclsyntax.Expression) (cty.Type, *hcltypeexpr.Defaults, bool) {
	cons, ok := expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return cty.NilType, nil, false
	}
	atys := make(map[string]cty.Type, len(cons.Items))
	var optional []string
	var values map[string]cty.Value
	var children map[string]*hcltypeexpr.Defaults
	for _, item := range cons.Items {
		name, ok := attributeName(item.KeyExpr)
		if !ok {
			return cty.NilType, nil, false
		}
		if _, dup := atys[name]; dup {
			return cty.NilType, nil, false
		}
		tyExpr := item.ValueExpr
		var defaultExpr hclsyntax.Expression
		if call, ok := tyExpr.(*hclsyntax.FunctionCallExpr); ok && call.Name == "optional" {
			if call.ExpandFinal || len(call.Args) < 1 || len(call.Args) > 2 {
				return cty.NilType, nil, false
			}
			optional = append(optional, name)
			tyExpr = call.Args[0]
			if len(call.Args) == 2 {
				defaultExpr = call.Args[1]
			}
		}
		aty, d, ok := syntaxConstraint(tyExpr)
		if !ok {
			return cty.NilType, nil, false
		}
		if defaultExpr != nil {
			v, diags := defaultExpr.Value(nil)
			if len(diags) != 0 {
				return cty.NilType, nil, false
			}
			v, err := convert.Convert(v, aty)
			if err != nil {
				return cty.NilType, nil, false
			}
			if values == nil {
				values = map[string]cty.Value{}
			}
			values[name] = v
		}
		atys[name] = aty
		if d != nil {
			if children == nil {
				children = map[string]*hcltypeexpr.Defaults{}
			}
			children[name] = d
		}
	}
	ty := cty.ObjectWithOptionalAttrs(atys, optional)
	if values == nil && children == nil {
		return ty, nil, true
	}
	return ty, &hcltypeexpr.Defaults{Type: ty, DefaultValues: values, Children: children}, true
}

// attributeName is the name an object type's key gives its attribute: a
// bare name, as hcl.ExprAsKeyword reads it. Names beyond ASCII are left to
// hcl, since two of them may be one attribute once normalized, which
// go-cty refuses with a panic.
func attributeName(key hclsyntax.Expression) (string, bool) {
	k, ok := key.(*hclsyntax.ObjectConsKeyExpr)
	if !ok || k.ForceNonLiteral {
		return "", false
	}
	t, ok := k.Wrapped.(*hclsyntax.ScopeTraversalExpr)
	if !ok || len(t.Traversal) != 1 {
		return "", false
	}
	name := t.Traversal.RootName()
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return "", false
		}
	}
	return name, name != ""
}
