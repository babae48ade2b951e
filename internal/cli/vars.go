package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/config"
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

// runVars lists each root variable with its final value and where it came from.
func runVars(c *common, env Env) int {
	cfg, diags := config.Load(".", config.Options{Dialect: c.dialect, WorkDir: env.WorkDir, Sandbox: c.sandbox, MissingModules: c.missing, Context: c.ctx})
	var entries []tfvars.Entry
	if cfg != nil && cfg.Module != nil {
		final, raw, more := tfvars.Resolve(tfvars.Inputs{Dir: env.WorkDir, Env: env.Environ, Args: c.varArgs, Sandbox: c.sandbox}, cfg.Module.Variables)
		diags = append(diags, more...)
		entries = tfvars.Describe(cfg.Module.Variables, final, raw)
	}
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
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tTYPE\tVALUE\tSOURCE")
		for _, e := range entries {
			val := "(not set)"
			if e.Value.Type() != cty.NilType {
				val = render.Value(e.Value)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Name, e.TypeString, oneLine(val), e.Source)
		}
		tw.Flush()
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

// oneLine folds a rendered value onto one line for the table.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
