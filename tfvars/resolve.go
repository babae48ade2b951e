package tfvars

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// Resolve does for a root module what terraform plan does before it
// evaluates anything: Collect, then "No value for required variable" for
// every required variable left unset, and only when all of that succeeded,
// Prepare for every declared variable (so a collection error hides type
// errors, as in Terraform).
//
// final holds a value for every declared variable: the prepared value, or
// an unknown placeholder of the variable's type where something failed.
// raw is what Collect returned.
func Resolve(in Inputs, decls map[string]*config.Variable) (final map[string]cty.Value, raw map[string]*Value, diags hcl.Diagnostics) {
	raw, diags = Collect(in, decls)
	names := sortedNames(decls)
	diags = append(diags, Missing(raw, decls)...)

	final = make(map[string]cty.Value, len(decls))
	if diags.HasErrors() {
		for _, name := range names {
			final[name] = cty.UnknownVal(concreteType(decls[name]))
		}
		return final, raw, diags
	}
	for _, name := range names {
		v, moreDiags := Prepare(decls[name], raw[name], "var."+name)
		diags = append(diags, moreDiags...)
		final[name] = v
	}
	return final, raw, diags
}

// Missing reports, in name order, every required root variable raw (what
// Collect returned) has no value for: "No value for required variable",
// which stops terraform plan before it evaluates anything.
func Missing(raw map[string]*Value, decls map[string]*config.Variable) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedNames(decls) {
		decl := decls[name]
		if _, ok := raw[name]; !ok && decl.Required() {
			diags = append(diags, missingDiag(decl, "var."+name))
		}
	}
	return diags
}

func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// InitValues are the root variable values init reads for module sources
// and versions built from variables: those given, prepared for their
// declarations. Unlike Resolve, a variable left unset is no error here (it
// is left out): only one that a module source needs is, and the loader
// reports it.
func InitValues(in Inputs, decls map[string]*config.Variable) map[string]cty.Value {
	raw, _ := Collect(in, decls)
	vals := make(map[string]cty.Value, len(raw))
	for _, name := range sortedNames(raw) {
		decl, given := decls[name], raw[name]
		if decl == nil {
			continue
		}
		if v, diags := Prepare(decl, given, "var."+name); !diags.HasErrors() {
			vals[name] = v
		} else if !given.Unparsed {
			// Prepare's error is reported where the value is used.
			vals[name] = given.Value
		}
	}
	return vals
}

// MissingVariables says what a required root variable given no value is.
type MissingVariables string

const (
	// MissingVariablesError is Terraform's answer (also the zero value):
	// "No value for required variable", and nothing is evaluated.
	MissingVariablesError MissingVariables = "error"
	// MissingVariablesUnknown evaluates with such a variable unknown
	// (marked as unread, see marks.Unread), with a warning naming it:
	// a scan of example roots then reports what is wrong in the code,
	// not what the scan could not give.
	MissingVariablesUnknown MissingVariables = "unknown"
)

// ParseMissingVariables reads the -missing-variables option: error or unknown.
func ParseMissingVariables(s string) (MissingVariables, error) {
	switch MissingVariables(s) {
	case "", MissingVariablesError:
		return MissingVariablesError, nil
	case MissingVariablesUnknown:
		return MissingVariablesUnknown, nil
	}
	return "", fmt.Errorf("-missing-variables must be error or unknown, not %q", s)
}

// UnknownMissing gives every required root variable that raw (what
// Collect returned) has no value for an unknown value, marked unread with
// the cause marks.NoValue, and returns a warning for each, in name order.
func UnknownMissing(raw map[string]*Value, decls map[string]*config.Variable) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedNames(decls) {
		decl := decls[name]
		if _, ok := raw[name]; ok || !decl.Required() {
			continue
		}
		mark := marks.Unread{Cause: marks.NoValue, Addr: "var." + name}
		raw[name] = &Value{Value: cty.DynamicVal.Mark(mark), Source: Source{Kind: SourceNone, Name: name}}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "No value for required variable",
			Detail:   fmt.Sprintf("The root module input variable %q is not set, and has no default value; it is unknown in this evaluation (-missing-variables=unknown), so what depends on it is unknown too. Use a -var or -var-file command line argument to provide a value for this variable.", name),
			Subject:  decl.DeclRange.Ptr(),
		})
	}
	return diags
}
