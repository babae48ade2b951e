package format

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/tfvars"
)

// VarsFormatVersion is the version of the `vars -json` document.
const VarsFormatVersion = "1.0"

// VarsDocument is the `vars -json` document: each root module variable
// with its final value and where the value came from.
type VarsDocument struct {
	FormatVersion string       `json:"format_version"`
	Variables     []Variable   `json:"variables"`
	Diagnostics   []Diagnostic `json:"diagnostics"`
}

// Variable is one root module variable.
type Variable struct {
	Name string `json:"name"`
	// Type is the type constraint in the configuration's syntax.
	Type string `json:"type"`
	// Value is absent when the variable is sensitive or ephemeral (secrets
	// never leave the process), unset, or not wholly known.
	Value     json.RawMessage `json:"value,omitempty"`
	Sensitive bool            `json:"sensitive"`
	Ephemeral bool            `json:"ephemeral"`
	Required  bool            `json:"required"`
	Source    VariableSource  `json:"source"`
}

// VariableSource says where a variable's value came from.
type VariableSource struct {
	// Kind is default, env, auto-file, var, var-file, go or none.
	Kind        string `json:"kind"`
	Description string `json:"description"`
	Range       *Range `json:"range,omitempty"`
}

// NewVarsDocument is the document of the variables tfvars.Describe lists,
// with the diagnostics of collecting their values.
func NewVarsDocument(entries []tfvars.Entry, diags hcl.Diagnostics) *VarsDocument {
	doc := &VarsDocument{FormatVersion: VarsFormatVersion, Variables: []Variable{}, Diagnostics: Diagnostics(diags)}
	for _, e := range entries {
		doc.Variables = append(doc.Variables, variable(e))
	}
	return doc
}

// variable is one entry of the document.
func variable(e tfvars.Entry) Variable {
	jv := Variable{
		Name: e.Name, Type: e.TypeString, Sensitive: e.Sensitive, Ephemeral: e.Ephemeral, Required: e.Required,
		Source: VariableSource{Kind: e.Source.Kind.String(), Description: e.Source.String()},
	}
	if e.Source.HasRange() {
		jv.Source.Range = RangeOf(e.Source.Range)
	}
	// Secrets never leave the process; unset and unknown values have no JSON form.
	v := e.Value
	if v.Type() != cty.NilType && v.IsWhollyKnown() && !marks.Contains(v, marks.Sensitive) && !marks.Contains(v, marks.Ephemeral) {
		plain, _ := v.UnmarkDeep()
		if b, err := ctyjson.Marshal(plain, plain.Type()); err == nil {
			jv.Value = b
		}
	}
	return jv
}

// WriteVarsTable writes the variables as `tfeval vars` lists them: a table
// of name, type, value (as the console renders it, on one line) and
// source.
func WriteVarsTable(w io.Writer, entries []tfvars.Entry) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTYPE\tVALUE\tSOURCE")
	for _, e := range entries {
		val := "(not set)"
		if e.Value.Type() != cty.NilType {
			val = render.Value(e.Value)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Name, e.TypeString, oneLine(val), e.Source)
	}
	return tw.Flush()
}

// oneLine folds a rendered value onto one line for the table.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
