package tfvars

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/typeexpr"
)

// Prepare turns the raw value given for a variable into its final value, as
// Terraform core does before anything can refer to var.NAME: default when
// unset, the type's optional-attribute defaults, conversion to the type
// constraint, the nullable rule, then the sensitive and ephemeral marks.
//
// addr is the variable's address as messages show it: "var.NAME" for the
// root module, "module.X.var.NAME" inside a module. A root variable that is
// required and unset gets "No value for required variable"; a module one
// gets "Required variable not set". given may be nil (not set at all).
//
// On error the result is an unknown value of the variable's type, so that
// callers can go on without cascading errors.
func Prepare(decl *config.Variable, given *Value, addr string) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	constraint := constraintType(decl)
	placeholder := cty.UnknownVal(concreteType(decl))

	var defaultVal cty.Value
	if decl.Default != cty.NilVal {
		var err error
		defaultVal, err = typeexpr.Convert(decl.Default, constraint, decl.TypeDefaults)
		if err != nil {
			return placeholder, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid default value for module argument",
				Detail:   fmt.Sprintf("The default value for variable %q is incompatible with its type constraint: %s.", decl.Name, err),
				Subject:  decl.DeclRange.Ptr(),
			})
		}
	}

	var src Source
	val := cty.NilVal
	noEphemeral := false
	if given != nil {
		noEphemeral = given.NoEphemeral
		g := *given // parsing must not change the caller's raw value
		src = g.Source
		if src.Name == "" {
			src.Name = decl.Name
		}
		parseDiags := g.parse(decl.Name, decl.ParsingMode)
		diags = append(diags, parseDiags...)
		if parseDiags.HasErrors() {
			return placeholder, diags
		}
		val = g.Value
	}
	fromFile := src.HasRange()
	valueRange := decl.DeclRange
	if fromFile {
		valueRange = src.Range
	}

	if val == cty.NilVal {
		if decl.Required() {
			return placeholder, append(diags, missingDiag(decl, addr))
		}
		val = defaultVal
	}

	// Conversion adds no marks (the defaults it fills in are literals), so
	// whether the value can hold an ephemeral one is decided here, where a
	// module argument is still the object its expression built: walking an
	// object is free, while the map it may become makes a value of each key.
	mayBeEphemeral := !decl.Ephemeral && !noEphemeral && marks.Contains(val, marks.Ephemeral)

	// Optional-attribute defaults go in before conversion, but never onto a
	// top-level null, which must stay assignable to a nullable variable.
	converted, err := typeexpr.Convert(val, constraint, decl.TypeDefaults)
	if err != nil {
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for input variable",
		}
		switch {
		case !fromFile:
			d.Detail = fmt.Sprintf("Unsuitable value for %s %s: %s.", addr, src.nonFileSource(), err)
			d.Subject = decl.DeclRange.Ptr()
		case decl.Sensitive:
			// The range points at the secret without showing it.
			d.Detail = fmt.Sprintf("The given value is not suitable for %s, which is sensitive: %s. Invalid value defined at %s.", addr, err, valueRange)
			d.Subject = decl.DeclRange.Ptr()
		default:
			d.Detail = fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", addr, decl.DeclRange, err)
			d.Subject = valueRange.Ptr()
		}
		return placeholder, append(diags, d)
	}
	val = converted

	// Only non-nullable variables treat null as "use the default".
	if val.IsNull() && !decl.Nullable {
		if defaultVal != cty.NilVal {
			val = defaultVal
		} else {
			d := &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Required variable not set",
			}
			if fromFile {
				d.Detail = fmt.Sprintf("The given value is not suitable for %s defined at %s: required variable may not be set to null.", addr, decl.DeclRange)
				d.Subject = valueRange.Ptr()
			} else {
				d.Detail = fmt.Sprintf("Unsuitable value for %s %s: required variable may not be set to null.", addr, src.nonFileSource())
				d.Subject = decl.DeclRange.Ptr()
			}
			return placeholder, append(diags, d)
		}
	}

	if mayBeEphemeral {
		if d := ephemeralDiag(decl, val, valueRange); d != nil {
			return placeholder, append(diags, d)
		}
	}
	return markValue(decl, val), diags
}

// IsRootAddr reports whether addr names a root module variable ("var.NAME").
func IsRootAddr(addr string) bool {
	return !strings.HasPrefix(addr, "module.")
}

// missingDiag is the error for a required variable without a value; the
// root module's version points the user at -var and -var-file.
func missingDiag(decl *config.Variable, addr string) *hcl.Diagnostic {
	if IsRootAddr(addr) {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "No value for required variable",
			Detail:   fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", decl.Name),
			Subject:  decl.DeclRange.Ptr(),
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Required variable not set",
		Detail:   fmt.Sprintf("The variable %q is required, but is not set.", decl.Name),
		Subject:  decl.DeclRange.Ptr(),
	}
}

func ephemeralDiag(decl *config.Variable, val cty.Value, rng hcl.Range) *hcl.Diagnostic {
	if val.HasMark(marks.Ephemeral) {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Ephemeral value not allowed",
			Detail:   fmt.Sprintf("The input variable %q does not accept ephemeral values.", decl.Name),
			Subject:  rng.Ptr(),
		}
	}
	if !marks.Contains(val, marks.Ephemeral) {
		return nil // without copying the value to find the path
	}
	_, pvms := val.UnmarkDeepWithPaths()
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[marks.Ephemeral]; ok {
			return &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ephemeral value not allowed",
				Detail:   fmt.Sprintf("The input variable %q does not accept ephemeral values, so the value for %s is not compatible.", decl.Name, typeexpr.MessagePath(pvm.Path)),
				Subject:  rng.Ptr(),
			}
		}
	}
	return nil
}

// markValue applies the marks a declaration puts on every value of the variable.
// Unknown is a variable's value where Terraform does not know it, as in
// its validate walk: unknown of the variable's type, marked sensitive or
// ephemeral as declared.
func Unknown(decl *config.Variable) cty.Value {
	return markValue(decl, cty.UnknownVal(concreteType(decl)))
}

func markValue(decl *config.Variable, val cty.Value) cty.Value {
	if decl.Sensitive {
		val = val.Mark(marks.Sensitive)
	}
	if decl.Ephemeral {
		val = val.Mark(marks.Ephemeral)
	}
	return val
}

// constraintType is the declared type constraint; a hand-built declaration
// without one accepts anything, like a variable block without a type.
func constraintType(decl *config.Variable) cty.Type {
	if decl.ConstraintType == cty.NilType {
		return cty.DynamicPseudoType
	}
	return decl.ConstraintType
}

func concreteType(decl *config.Variable) cty.Type {
	if decl.Type != cty.NilType {
		return decl.Type
	}
	return typeexpr.WithoutOptional(constraintType(decl))
}
