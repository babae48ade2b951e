package format

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// What a value of a snippet is said to be, in Terraform's words (as
// terraform 1.11.4 printed them): the value itself for primitives, the
// type and length of collections, the attribute of a one-attribute
// object; a sensitive or ephemeral value only when the diagnostic is
// about one, an unknown one by its type unless the diagnostic is about
// it.
func TestValueStatement(t *testing.T) {
	none := lang.ValueCause{}
	cases := []struct {
		name  string
		v     cty.Value
		cause lang.ValueCause
		want  string // "" when left out
	}{
		{"number", cty.NumberIntVal(1), none, "is 1"},
		{"fraction", cty.NumberFloatVal(-0.25), none, "is -0.25"},
		{"million", cty.NumberIntVal(1000000), none, "is 1000000"},
		{"ten significant digits", cty.NumberIntVal(1).Divide(cty.NumberIntVal(3)), none, "is 0.3333333333"},
		{"large", cty.MustParseNumberVal("123456789012345678901234567890"), none, "is 1.23456789e+29"},
		{"small", cty.MustParseNumberVal("0.0000001"), none, "is 1e-07"},
		{"string", cty.StringVal("a"), none, `is "a"`},
		{"escapes", cty.StringVal("q\"uote ${x} é\t\n"), none, `is "q\"uote ${x} é\t\n"`},
		{"hostile string", cty.StringVal(strings.Repeat("é", maxStatementString)), none, `is "` + strings.Repeat("é", maxStatementString/2) + `"…`},
		{"true", cty.True, none, "is true"},
		{"false", cty.False, none, "is false"},
		{"null", cty.NullVal(cty.String), none, "is null"},
		{"empty list", cty.ListValEmpty(cty.String), none, "is empty list of string"},
		{"list", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), none, "is list of string with 2 elements"},
		{"list of lists", cty.ListVal([]cty.Value{cty.ListVal([]cty.Value{cty.StringVal("a")})}), none, "is list of list of string with 1 element"},
		{"set", cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), none, "is set of string with 2 elements"},
		{"empty set", cty.SetValEmpty(cty.DynamicPseudoType), none, "is empty set of dynamic"},
		{"map", cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2"), "c": cty.StringVal("3")}), none, "is map of string with 3 elements"},
		{"map of objects", cty.MapVal(map[string]cty.Value{"a": cty.ObjectVal(map[string]cty.Value{"b": cty.True})}), none, "is map of object with 1 element"},
		{"empty map", cty.MapValEmpty(cty.DynamicPseudoType), none, "is empty map of dynamic"},
		{"tuple", cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True}), none, "is tuple with 2 elements"},
		{"empty tuple", cty.EmptyTupleVal, none, "is empty tuple"},
		{"object", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NumberIntVal(2)}), none, "is object with 2 attributes"},
		{"one attribute", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("1")}), none, `is object with 1 attribute "a"`},
		{"no attributes", cty.EmptyObjectVal, none, "is object with no attributes"},
		{"nested sensitive", cty.ListVal([]cty.Value{cty.StringVal("s").Mark(marks.Sensitive)}), none, "is list of string with 1 element"},
		{"sensitive", cty.StringVal("s").Mark(marks.Sensitive), none, ""},
		{"sensitive cause", cty.StringVal("s").Mark(marks.Sensitive), lang.ValueCause{Sensitive: true}, "has a sensitive value"},
		{"ephemeral", cty.StringVal("e").Mark(marks.Ephemeral), none, ""},
		{"ephemeral cause", cty.StringVal("e").Mark(marks.Ephemeral), lang.ValueCause{Ephemeral: true}, "has an ephemeral value"},
		{"unknown", cty.UnknownVal(cty.String), none, "is a string"},
		{"unknown object", cty.UnknownVal(cty.EmptyObject), none, "is a object"},
		{"unknown list", cty.UnknownVal(cty.List(cty.String)), none, "is a list of string"},
		{"unknown dynamic", cty.DynamicVal, none, ""},
		{"unknown cause", cty.UnknownVal(cty.String), lang.ValueCause{Unknown: true}, "is a string, known only after apply"},
		{"unknown dynamic cause", cty.DynamicVal, lang.ValueCause{Unknown: true}, "will be known only after apply"},
		{"unknown sensitive", cty.UnknownVal(cty.String).Mark(marks.Sensitive), lang.ValueCause{Unknown: true}, ""},
	}
	for _, c := range cases {
		got, ok := valueStatement(c.v, c.cause)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// snippetFixture writes main.tf and returns a diagnostic about expr (the
// first occurrence of its text) evaluated in ctx.
func snippetFixture(t *testing.T, src, exprText string, ctx *hcl.EvalContext) (string, *hcl.Diagnostic) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	at := bytes.Index([]byte(src), []byte(exprText))
	if at < 0 {
		t.Fatalf("%q not in the source", exprText)
	}
	start := hcl.Pos{Line: 1 + bytes.Count([]byte(src[:at]), []byte("\n")), Byte: at}
	start.Column = at - bytes.LastIndexByte([]byte(src[:at]), '\n')
	expr, diags := hclsyntax.ParseExpression([]byte(exprText), "main.tf", start)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return dir, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Test assertion failed", Detail: "wrong", Subject: expr.Range().Ptr(), Expression: expr, EvalContext: ctx}
}

// The references of the expression are listed once each, by name; one
// that does not resolve as its longest part that does; one of a single
// name (a for expression's symbol) not at all.
func TestSnippetValues(t *testing.T) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var":   cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1), "o": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})}),
		"local": cty.ObjectVal(map[string]cty.Value{"t": cty.TupleVal([]cty.Value{cty.StringVal("a")}), "m": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})}),
	}}
	src := "output \"x\" {\n  value = var.x == 2 && var.x > 0 && var.o.nope && local.t[0] == local.m[\"k\"] && [for v in local.t : v]\n}\n"
	_, d := snippetFixture(t, src, `var.x == 2 && var.x > 0 && var.o.nope && local.t[0] == local.m["k"] && [for v in local.t : v]`, ctx)
	got := snippetValues(d)
	want := []SnippetValue{
		{"local.m[\"k\"]", `is "v"`},
		{"local.t", "is tuple with 1 element"},
		{"local.t[0]", `is "a"`},
		{"var.o", `is object with 1 attribute "a"`},
		{"var.x", "is 1"},
	}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Errorf("values\n%s\nwant\n%s", g, w)
	}
	// Without an expression or a context there are none, and the JSON
	// still has the empty list, as Terraform writes it.
	if got := mustJSON(t, snippetValues(&hcl.Diagnostic{})); got != "[]" {
		t.Errorf("no expression: %s", got)
	}
}

// The code of a snippet is every line its range and its context overlap,
// but empty ones, which Terraform leaves out; the highlight is counted in
// bytes from the start of the code. The text layout numbers the lines on
// from the first, as Terraform does, and lists the values under them.
func TestSnippetCode(t *testing.T) {
	src := "locals {\n  obj = { b = \"x\" }\n}\noutput \"p\" {\n  value = upper(\r\n\n\n    local.obj)\n}\n"
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{"obj": cty.ObjectVal(map[string]cty.Value{"b": cty.StringVal("x")})})}}
	dir, d := snippetFixture(t, src, "local.obj", ctx)
	call := bytes.Index([]byte(src), []byte("upper("))
	d.Summary, d.Detail = "Invalid function argument", `Invalid value for "str" parameter: string required.`
	d.Context = &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 5, Column: 11, Byte: call}, End: d.Subject.End}
	src2 := NewSources(DiagnosticOptions{WorkDir: dir})
	sn := src2.Snippet(d)
	if sn == nil {
		t.Fatal("no snippet")
	}
	got := mustJSON(t, sn)
	// The offsets count the bytes left out (a carriage return, empty
	// lines), and the end is brought back within the code, as Terraform
	// has them.
	want := `{"context":"output \"p\"","code":"  value = upper(\n    local.obj)","start_line":5,"highlight_start_offset":` +
		`24,"highlight_end_offset":31,"values":[{"traversal":"local.obj","statement":"is object with 1 attribute \"b\""}]}`
	if got != want {
		t.Errorf("snippet\n%s\nwant\n%s", got, want)
	}

	var b bytes.Buffer
	NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: dir}).Print(hcl.Diagnostics{d})
	wantText := `
Error: Invalid function argument

  on main.tf line 8, in output "p":
   5:   value = upper(
   6:     local.obj)
    ├────────────────
    │ local.obj is object with 1 attribute "b"

Invalid value for "str" parameter: string required.
`
	if b.String() != wantText {
		t.Errorf("text\n%s\nwant\n%s", b.String(), wantText)
	}

	// JSON diagnostics have it only when written with the sources.
	if Diagnostics(hcl.Diagnostics{d})[0].Snippet != nil || src2.Diagnostics(hcl.Diagnostics{d})[0].Snippet == nil {
		t.Error("Diagnostics wrote a snippet, or Sources.Diagnostics none")
	}
	// Nor where the file cannot be read.
	if NewSources(DiagnosticOptions{WorkDir: t.TempDir()}).Snippet(d) != nil {
		t.Error("a snippet of a file that is not there")
	}
}

// A diagnostic about a function call shows the function's signature, the
// result type the built-in declares, under the excerpt and in the JSON;
// on a terminal, its range is underlined.
func TestSnippetFunctionCall(t *testing.T) {
	src := "output \"o\" {\n  value = max(local.obj...)\n}\n"
	fns := funcs.Functions(funcs.Options{})
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{"obj": cty.ObjectVal(map[string]cty.Value{"b": cty.StringVal("x")})})},
		Functions: fns,
	}
	dir, _ := snippetFixture(t, src, "local.obj", ctx)
	expr, _ := hclsyntax.ParseExpression([]byte("max(local.obj...)"), "main.tf", hcl.Pos{Line: 2, Column: 11, Byte: 23})
	_, diags := expr.Value(ctx)
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v", diags)
	}
	var b bytes.Buffer
	p := NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: dir, Color: true})
	p.Print(diags)
	for _, want := range []string{
		"   2:   value = max(\x1b[4mlocal.obj\x1b[0m...)\n",
		"│\x1b[0m     \x1b[90m├────────────────\x1b[0m\n",
		"│\x1b[0m     \x1b[90m│\x1b[0m while calling \x1b[1mmax\x1b[0m(numbers...)\n",
		"│\x1b[0m     \x1b[90m│\x1b[0m \x1b[1mlocal.obj\x1b[0m is object with 1 attribute \"b\"\n",
	} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("text\n%q\nlacks\n%q", b.String(), want)
		}
	}
	call := mustJSON(t, p.Sources().Snippet(diags[0]).FunctionCall)
	wantCall := `{"called_as":"max","signature":{"name":"max","params":[],"variadic_param":{"name":"numbers","type":"number"},"return_type":"number"}}`
	if call != wantCall {
		t.Errorf("function call\n%s\nwant\n%s", call, wantCall)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A reference's index key is named as Terraform (1.11.4) names it among
// the values: a string in Go's quoting, so "<" is not written \u003c.
func TestSnippetValueTraversal(t *testing.T) {
	m := cty.MapVal(map[string]cty.Value{"k": cty.NumberIntVal(1), "a<b&c>": cty.NumberIntVal(2), "q\"x": cty.NumberIntVal(3), "é\x01": cty.NumberIntVal(4)})
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"local": cty.ObjectVal(map[string]cty.Value{"m": m, "l": cty.TupleVal([]cty.Value{cty.True, cty.False})}),
	}}
	cases := []struct{ expr, want string }{
		{`local.m["k"]`, `local.m["k"]`},
		{`local.m["a<b&c>"]`, `local.m["a<b&c>"]`},
		{`local.m["q\"x"]`, `local.m["q\"x"]`},
		{`local.m["é\u0001"]`, `local.m["é\x01"]`},
		{`local.l[1]`, `local.l[1]`},
	}
	for _, c := range cases {
		src := "output \"x\" {\n  value = " + c.expr + "\n}\n"
		_, d := snippetFixture(t, src, c.expr, ctx)
		got := snippetValues(d)
		if len(got) != 1 || got[0].Traversal != c.want {
			t.Errorf("%s: %+v, want traversal %s", c.expr, got, c.want)
		}
	}
}

// In a JSON file, the context is the property path hcl's JSON navigation
// gives for the byte before the range, as terraform (1.11.4) names it.
func TestSnippetJSONContext(t *testing.T) {
	src := `{
  "variable": {"j": {"default": "abc"}},
  "check": {"c": {"assert": [{"condition": "${var.j == \"x\"}", "error_message": "bad c"}]}},
  "output": {"o": {"value": "${var.j}", "precondition": {"condition": "${length(var.j) > 5}", "error_message": "bad o"}}}
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf.json"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ at, want string }{
		{`"${var.j == \"x\"}"`, "check.c.assert[0]"},
		{`"${length(var.j) > 5}"`, "output.o.precondition"},
		{`{"default"`, "variable"},
		{`{`, ""},
	}
	for _, c := range cases {
		at := strings.Index(src, c.at)
		line := 1 + strings.Count(src[:at], "\n")
		col := at - strings.LastIndexByte(src[:at], '\n')
		rng := hcl.Range{Filename: "main.tf.json", Start: hcl.Pos{Line: line, Column: col, Byte: at}, End: hcl.Pos{Line: line, Column: col + len(c.at), Byte: at + len(c.at)}}
		sn := NewSources(DiagnosticOptions{WorkDir: dir}).Snippet(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "s", Subject: &rng})
		if sn == nil {
			t.Fatalf("%s: no snippet", c.at)
		}
		got := ""
		if sn.Context != nil {
			got = *sn.Context
		}
		if got != c.want {
			t.Errorf("%s: context %q, want %q", c.at, got, c.want)
		}
	}
}

// Saying what a value is costs the same whatever its size: a diagnostic
// about a reference to a large collection does not copy it (thousands of
// diagnostics may name it), nested marks or not.
func TestValueStatementCost(t *testing.T) {
	elems := make([]cty.Value, 10000)
	for i := range elems {
		elems[i] = cty.StringVal("x")
	}
	marked := append([]cty.Value{cty.StringVal("s").Mark(marks.Sensitive)}, elems[1:]...)
	cases := []struct {
		name string
		v    cty.Value
		want string
	}{
		{"list", cty.ListVal(elems), "is list of string with 10000 elements"},
		{"nested mark", cty.ListVal(marked), "is list of string with 10000 elements"},
		{"object", cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal(elems)}), `is object with 1 attribute "l"`},
	}
	for _, c := range cases {
		var got string
		allocs := testing.AllocsPerRun(5, func() { got, _ = valueStatement(c.v, lang.ValueCause{}) })
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if allocs > 20 {
			t.Errorf("%s: %v allocations", c.name, allocs)
		}
	}
}

// A range without an end is taken as the byte where it starts, as
// Terraform takes it: its line is the code, the byte highlighted.
func TestSnippetRangeWithoutEnd(t *testing.T) {
	dir := t.TempDir()
	src := "locals {\n  a = 1\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		start hcl.Pos
		want  string
	}{
		{"second line", hcl.Pos{Line: 2, Column: 3, Byte: 11}, `{"context":"locals","code":"  a = 1","start_line":2,"highlight_start_offset":2,"highlight_end_offset":3,"values":[]}`},
		{"first byte", hcl.Pos{Line: 1, Column: 1, Byte: 0}, `{"context":null,"code":"locals {","start_line":1,"highlight_start_offset":0,"highlight_end_offset":1,"values":[]}`},
	}
	for _, c := range cases {
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "s", Subject: &hcl.Range{Filename: "main.tf", Start: c.start}}
		if got := mustJSON(t, NewSources(DiagnosticOptions{WorkDir: dir}).Snippet(d)); got != c.want {
			t.Errorf("%s: %s\nwant %s", c.name, got, c.want)
		}
	}
}

// The text layout shows every line of the snippet, as terraform test
// (v1.11.4) printed this nine-line condition, not its first five.
func TestSnippetTextAllLines(t *testing.T) {
	expr := "(\n    var.x == 2\n    &&\n    var.x == 3\n    &&\n    var.x == 4\n    &&\n    var.x == 5\n  )"
	src := "output \"o\" {\n  value = " + expr + "\n}\n"
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)})}}
	dir, d := snippetFixture(t, src, expr, ctx)
	var b bytes.Buffer
	NewDiagnosticPrinter(&b, DiagnosticOptions{WorkDir: dir}).Print(hcl.Diagnostics{d})
	want := `
Error: Test assertion failed

  on main.tf line 2, in output "o":
   2:   value = (
   3:     var.x == 2
   4:     &&
   5:     var.x == 3
   6:     &&
   7:     var.x == 4
   8:     &&
   9:     var.x == 5
  10:   )
    ├────────────────
    │ var.x is 1

wrong
`
	if b.String() != want {
		t.Errorf("text\n%s\nwant\n%s", b.String(), want)
	}
}
