package format

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

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

// WriteVars writes the variables as `tfeval vars` lists them for a
// person: one block each, its name, then its type, value (laid out as the
// console prints it), source and description on labelled lines, long ones
// wrapped to width columns.
func WriteVars(w io.Writer, entries []tfvars.Entry, width int) error {
	const label = "  %-8s"
	indent := strings.Repeat(" ", len(fmt.Sprintf(label, "")))
	bw := bufio.NewWriter(w)
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintln(bw, e.Name)
		line := func(name, text string) {
			fmt.Fprintf(bw, label+"%s\n", name+":", strings.ReplaceAll(text, "\n", "\n"+indent))
		}
		line("type", wrap(e.TypeString, width-len(indent)))
		val := "(not set)"
		if e.Value.Type() != cty.NilType {
			val = render.Value(e.Value)
		}
		line("value", val)
		line("source", wrap(e.Source.String(), width-len(indent)))
		if e.Description != "" {
			line("about", wrap(strings.Join(strings.Fields(e.Description), " "), width-len(indent)))
		}
	}
	return bw.Flush()
}

// wrap breaks text at spaces into lines of at most width characters where
// it can (a longer word stays whole).
func wrap(text string, width int) string {
	if width < 20 {
		width = 20
	}
	var b strings.Builder
	n := 0
	for i, word := range strings.Split(text, " ") {
		switch {
		case i == 0:
		case n+1+utf8.RuneCountInString(word) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += utf8.RuneCountInString(word)
	}
	return b.String()
}
