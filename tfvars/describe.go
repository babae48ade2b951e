package tfvars

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
)

// Entry describes one root module variable for `tfeval vars`.
type Entry struct {
	Name        string
	Description string
	// Type is the declared type constraint (cty.DynamicPseudoType when none).
	Type cty.Type
	// TypeString is Type in type-constraint syntax, optional attributes included.
	TypeString string
	// Value is the final value, carrying the sensitive and ephemeral marks:
	// renderers must not show a sensitive value's content. It is cty.NilVal
	// for a required variable nobody set, and unknown (of the variable's
	// type) for a value that could not be used.
	Value cty.Value
	// Source says where Value came from; SourceDefault when the default
	// applied, SourceNone for a required variable nobody set.
	Source    Source
	Required  bool
	Sensitive bool
	Ephemeral bool
}

// Describe lists every declared variable sorted by name, with the final
// values (as Resolve or an evaluation made them; a variable without one
// is unknown, or cty.NilVal when it is required and unset) and the raw
// values Collect returned.
func Describe(decls map[string]*config.Variable, final map[string]cty.Value, raw map[string]*Value) []Entry {
	out := make([]Entry, 0, len(decls))
	for _, name := range sortedNames(decls) {
		decl := decls[name]
		e := Entry{
			Name:        name,
			Description: decl.Description,
			Type:        constraintType(decl),
			TypeString:  TypeString(constraintType(decl)),
			Value:       final[name],
			Required:    decl.Required(),
			Sensitive:   decl.Sensitive,
			Ephemeral:   decl.Ephemeral,
		}
		rv := raw[name]
		if e.Value == cty.NilVal && (rv != nil || !decl.Required()) {
			e.Value = cty.UnknownVal(concreteType(decl))
		}
		switch {
		case rv != nil:
			e.Source = rv.Source
		case decl.Required():
			e.Source = Source{Kind: SourceNone, Name: name}
		default:
			e.Source = Source{Kind: SourceDefault, Name: name, Range: decl.DeclRange}
		}
		out = append(out, e)
	}
	return out
}

// TypeString writes a type constraint in Terraform's type syntax, keeping
// optional(...) object attributes (their defaults are not shown).
func TypeString(ty cty.Type) string {
	switch {
	case ty == cty.NilType:
		return "any"
	case ty == cty.DynamicPseudoType:
		return "any"
	case ty.IsPrimitiveType():
		return ty.FriendlyName()
	case ty.IsListType():
		return "list(" + TypeString(ty.ElementType()) + ")"
	case ty.IsSetType():
		return "set(" + TypeString(ty.ElementType()) + ")"
	case ty.IsMapType():
		return "map(" + TypeString(ty.ElementType()) + ")"
	case ty.IsTupleType():
		parts := make([]string, 0, len(ty.TupleElementTypes()))
		for _, et := range ty.TupleElementTypes() {
			parts = append(parts, TypeString(et))
		}
		return "tuple([" + strings.Join(parts, ", ") + "])"
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		if len(attrs) == 0 {
			return "object({})"
		}
		parts := make([]string, 0, len(attrs))
		for _, name := range sortedNames(attrs) {
			key := name
			if !hclsyntax.ValidIdentifier(name) {
				key = fmt.Sprintf("%q", name)
			}
			at := TypeString(attrs[name])
			if ty.AttributeOptional(name) {
				at = "optional(" + at + ")"
			}
			parts = append(parts, key+" = "+at)
		}
		return "object({ " + strings.Join(parts, ", ") + " })"
	}
	return ty.FriendlyName()
}
