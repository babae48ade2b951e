package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/tfvars"
)

// jsonVariable is one entry of `tfeval vars -json`.
type jsonVariable struct {
	Name      string          `json:"name"`
	Type      string          `json:"type"`
	Value     json.RawMessage `json:"value,omitempty"`
	Sensitive bool            `json:"sensitive"`
	Ephemeral bool            `json:"ephemeral"`
	Required  bool            `json:"required"`
	Source    jsonSource      `json:"source"`
}

type jsonSource struct {
	Kind        string          `json:"kind"`
	Description string          `json:"description"`
	Range       *lang.RangeJSON `json:"range,omitempty"`
}

// runVars lists each root variable with its final value and where it came
// from. It runs the same evaluation as eval (tfeval.Evaluate), so the
// values are those eval uses; when a required variable has no value the
// evaluation stops there, as terraform plan does, and the others are
// still listed with theirs.
func runVars(c *common, env Env) int {
	ev, err := evaluate(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	entries, diags := ev.Variables(), ev.Diagnostics
	if c.json {
		out := struct {
			Variables   []jsonVariable        `json:"variables"`
			Diagnostics []lang.DiagnosticJSON `json:"diagnostics"`
		}{Variables: []jsonVariable{}, Diagnostics: lang.DiagnosticsJSON(diags)}
		for _, e := range entries {
			out.Variables = append(out.Variables, variableJSON(e))
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintln(env.Stdout, string(b))
	} else {
		newDiagPrinter(env.Stderr, c, env).print(diags)
		writeVariables(env.Stdout, entries, terminalWidth(env))
	}
	if diags.HasErrors() {
		return exitError
	}
	return exitOK
}

func variableJSON(e tfvars.Entry) jsonVariable {
	jv := jsonVariable{
		Name: e.Name, Type: e.TypeString, Sensitive: e.Sensitive, Ephemeral: e.Ephemeral, Required: e.Required,
		Source: jsonSource{Kind: e.Source.Kind.String(), Description: e.Source.String()},
	}
	if e.Source.HasRange() {
		jv.Source.Range = lang.RangeOf(e.Source.Range)
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

// writeVariables lists variables for a person: one block each, its name,
// then its type, value, source and description on labelled lines, long
// ones wrapped to width and values laid out as the console prints them.
func writeVariables(w io.Writer, entries []tfvars.Entry, width int) {
	const label = "  %-8s"
	indent := strings.Repeat(" ", len(fmt.Sprintf(label, "")))
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, e.Name)
		line := func(name, text string) {
			fmt.Fprintf(w, label+"%s\n", name+":", strings.ReplaceAll(text, "\n", "\n"+indent))
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

// terminalWidth is the width to wrap text for: the terminal's, else the
// COLUMNS variable, else 80.
func terminalWidth(env Env) int {
	if env.Width > 0 {
		return env.Width
	}
	if n, err := strconv.Atoi(lookupEnv(env.Environ, "COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}
