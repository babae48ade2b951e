package funcs

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

// fnCase is one expression and what it must produce: a rendered value
// (want) or an error whose "summary: detail" contains err.
type fnCase struct {
	expr string
	want string
	err  string
}

// testVars are the variables every case may use to pass unknown, marked or
// otherwise awkward arguments.
var testVars = map[string]cty.Value{
	"unk_str":    cty.UnknownVal(cty.String),
	"unk_num":    cty.UnknownVal(cty.Number),
	"unk_bool":   cty.UnknownVal(cty.Bool),
	"unk_list":   cty.UnknownVal(cty.List(cty.String)),
	"dyn":        cty.DynamicVal,
	"secret":     cty.StringVal("hunter2").Mark(marks.Sensitive),
	"secret_num": cty.NumberIntVal(5).Mark(marks.Sensitive),
	"secret_map": cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x")}).Mark(marks.Sensitive),
	"eph":        cty.StringVal("e").Mark(marks.Ephemeral),
	"tpl":        cty.StringVal("Hello, ${name}!"),
	"tpls":       cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("Hello, ${name}!")}),
	"tpl_list":   cty.ListVal([]cty.Value{cty.StringVal("Hello, ${name}!")}),
	"tpl_loop":   cty.StringVal("%{ for x in xs }${x};%{ endfor }"),
	"tpl_file":   cty.StringVal(`${file("x")}`),
	"tpl_nested": cty.StringVal(`${templatestring(t, {})}`),
	"not_string": cty.NumberIntVal(1),
}

// evalWith evaluates src with the functions of opts and testVars.
func evalWith(opts Options, src string) (cty.Value, hcl.Diagnostics) {
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	ctx := &hcl.EvalContext{Variables: testVars, Functions: Functions(opts)}
	v, diags := expr.Value(ctx)
	return v, diags
}

// runCases checks each case in the given dialect (console mode, so type() is available).
func runCases(t *testing.T, d dialect.Dialect, cases []fnCase) {
	t.Helper()
	runCasesWith(t, Options{Dialect: d, ConsoleMode: true}, cases)
}

func runCasesWith(t *testing.T, opts Options, cases []fnCase) {
	t.Helper()
	for _, c := range cases {
		v, diags := evalWith(opts, c.expr)
		if c.err != "" {
			if !diags.HasErrors() {
				t.Errorf("%s [%s]: want error containing %q, got %s", c.expr, opts.Dialect, c.err, render.Value(v))
				continue
			}
			got := diags[0].Summary + ": " + diags[0].Detail
			if !strings.Contains(got, c.err) {
				t.Errorf("%s [%s]: want error containing %q, got %q", c.expr, opts.Dialect, c.err, got)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("%s [%s]: unexpected error: %s", c.expr, opts.Dialect, diags.Error())
			continue
		}
		got := render.Value(v)
		if ty, ok := render.TypeOf(v); ok {
			got = render.Type(ty)
		}
		if got != c.want {
			t.Errorf("%s [%s]:\nwant %s\n got %s", c.expr, opts.Dialect, c.want, got)
		}
	}
}

// bothDialects runs the same cases in Terraform and OpenTofu.
func bothDialects(t *testing.T, cases []fnCase) {
	t.Helper()
	runCases(t, dialect.Terraform, cases)
	runCases(t, dialect.Tofu, cases)
}
