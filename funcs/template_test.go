package funcs

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

func TestTemplates(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"greet.tftpl":     `Hello, ${name}! You are ${upper(role)}.`,
		"bad.tftpl":       `${nope}`,
		"json.tftpl":      `${jsonencode({"items" = items})}`,
		"recursive.tftpl": `${templatefile("greet.tftpl", {name="x", role="y"})}`,
		"core.tftpl":      `${core::templatefile("greet.tftpl", {name="x", role="y"})}`,
		"self.tftpl":      `${templatefile("self.tftpl", {})}`,
		"syntax.tftpl":    `${`,
		"reads.tftpl":     `${file("greet.tftpl")}`,
		// Too long for hcl to parse whole in reasonable time.
		"long.tftpl": strings.Repeat("item: ${name}\n", 12000) + "end: ${last}",
	})
	common := []fnCase{
		{expr: `templatefile("greet.tftpl", { name = "Ann", role = "admin" })`, want: `"Hello, Ann! You are ADMIN."`},
		{expr: `templatefile("json.tftpl", { items = [1, 2] })`, want: `"{\"items\":[1,2]}"`},
		{expr: `templatefile("bad.tftpl", {})`, err: `Invalid value for "vars" parameter: vars map does not contain key "nope", referenced at bad.tftpl:1,3-7.`},
		{expr: `templatefile("greet.tftpl", "notamap")`, err: `invalid vars value: must be a map.`},
		{expr: `templatefile("greet.tftpl", {"not valid" = 1})`, err: `invalid template variable name "not valid": must start with a letter`},
		{expr: `templatefile("nope.tftpl", {})`, err: `Invalid value for "path" parameter: no file exists at "nope.tftpl"`},
		{expr: `templatefile("syntax.tftpl", {})`, err: `syntax.tftpl:1,`},
		{expr: `templatefile("greet.tftpl", { name = unk_str, role = "r" })`, want: `(known after apply)`},
		{expr: `templatefile("greet.tftpl", { name = secret, role = "r" })`, want: `(sensitive value)`},
		{expr: `templatefile(unk_str, {})`, want: `(known after apply)`},
		{expr: `templatefile("reads.tftpl", {})`, want: `"Hello, ${name}! You are ${upper(role)}."`},
		{expr: `length(templatefile("long.tftpl", { name = "a", last = "b" }))`, want: `96006`},
		{expr: `templatefile("long.tftpl", { name = "a" })`, err: `vars map does not contain key "last", referenced at long.tftpl:12001,8-12.`},
	}
	tf := Options{Dialect: dialect.Terraform, BaseDir: dir, ConsoleMode: true}
	tofu := Options{Dialect: dialect.Tofu, BaseDir: dir, ConsoleMode: true}
	runCasesWith(t, tf, common)
	runCasesWith(t, tofu, common)
	runCasesWith(t, tf, []fnCase{
		{expr: `templatefile("recursive.tftpl", {})`, err: `recursive.tftpl:1,3-16: Error in function call; Call to function "templatefile" failed: cannot recursively call templatefile from inside another template function.`},
		{expr: `templatefile("core.tftpl", {})`, err: `cannot recursively call templatefile from inside another template function`},
		{expr: `templatestring(tpl, {name = "World"})`, want: `"Hello, World!"`},
		{expr: `templatestring(tpl_loop, {xs = [1, 2]})`, want: `"1;2;"`},
		{expr: `templatestring(tpls.a, {name = "W"})`, want: `"Hello, W!"`},
		{expr: `templatestring(tpls["a"], {name = "W"})`, want: `"Hello, W!"`},
		{expr: `templatestring(tpl_list[0], {name = "W"})`, want: `"Hello, W!"`},
		{expr: `templatestring(tpl_list[*], {name = "W"})`, err: `invalid template value: a string is required.`},
		{expr: `templatestring({a = tpl}.a, {name = "W"})`, err: `must be a direct reference to a single string`},
		{expr: `templatestring([tpl][0], {name = "W"})`, err: `must be a direct reference to a single string`},
		{expr: `templatestring("x", {})`, err: `invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template`},
		{expr: `templatestring("inline ${1}", {})`, err: `to render an inline template, consider using a plain template string expression.`},
		{expr: `templatestring(upper(tpl), {})`, err: `must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax.`},
		{expr: `templatestring(not_string, {})`, err: `invalid template value: a string is required.`},
		{expr: `templatestring(tpl_file, {})`, err: `cannot use filesystem access functions like file in templatestring templates; consider passing the function result as a template variable instead.`},
		{expr: `templatestring(tpl_nested, {t = "x"})`, err: `cannot recursively call templatestring from inside another template function`},
		{expr: `templatestring(unk_str, {})`, want: `(known after apply)`},
		{expr: `templatestring(tpl, {name = secret})`, want: `(sensitive value)`},
		{expr: `templatestring(secret, {})`, want: `(sensitive value)`},
		{expr: `templatestring(tpl, {})`, err: `vars map does not contain key "name", referenced at <templatestring argument>:1,10-14.`},
	})
	runCasesWith(t, tofu, []fnCase{
		{expr: `templatefile("recursive.tftpl", {})`, want: `"Hello, x! You are Y."`},
		{expr: `templatestring("inline ${1}", {})`, want: `"inline 1"`},
		{expr: `templatestring("x", {})`, want: `"x"`},
		{expr: `templatestring(tpl, {name = "World"})`, want: `"Hello, World!"`},
		{expr: `templatestring(tpl_file, {})`, err: `no file exists at "x"`},
		{expr: `templatestring(tpl_nested, {t = "$${1}"})`, want: `1`},
	})
	t.Setenv("TF_TEMPLATE_RECURSION_DEPTH", "5")
	runCasesWith(t, tofu, []fnCase{
		{expr: `templatefile("self.tftpl", {})`, err: `maximum recursion depth 5 reached in self.tftpl`},
	})
}

func TestTemplateDefaultDepthLimitTerminates(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{"self.tftpl": `${templatefile("self.tftpl", {})}`})
	_, diags := evalWith(Options{Dialect: dialect.Tofu, BaseDir: dir}, `templatefile("self.tftpl", {})`)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "maximum recursion depth 1024 reached") {
		t.Fatalf("want depth error, got %v", diags)
	}
}

func TestProviderFunctions(t *testing.T) {
	upper := function.New(&function.Spec{
		Params: []function.Parameter{{Name: "s", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(strings.ToUpper(args[0].AsString())), nil
		},
	})
	dir := testfiles.Dir(t, map[string]string{"p.tftpl": `${provider::mock::upper(x)}`})
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		opts := Options{Dialect: d, BaseDir: dir, ProviderFunctions: map[string]map[string]function.Function{"mock": {"upper": upper}}}
		runCasesWith(t, opts, []fnCase{
			{expr: `provider::mock::upper("a")`, want: `"A"`},
			{expr: `provider::mock::upper(unk_str)`, want: `(known after apply)`},
			{expr: `provider::mock::lower("a")`, err: `Call to unknown function`},
			{expr: `templatefile("p.tftpl", {x = "b"})`, want: `"B"`},
		})
	}
}

// literalTemplateCases are texts without template sequences, whose
// templatefile result the literal path computes without hcl's parser.
var literalTemplateCases = []string{
	"", "plain", "{\n  \"a\": [1, 2],\n  \"b\": \"$x %y\"\n}\n", "windows\r\nlines\r\n",
	"$", "%", "$$", "%%", "ends with $", "ends with %", "$ {not} % {either}", "{}~}", "~}",
	"e\u0301 decomposed", "tab\there", "\x00nul", "emoji \U0001F600 and 한국어",
	"\"quoted\" \\backslash\\ \\n", "<<EOT\nheredoc-looking\nEOT\n", "#comment\n//other\n/* block */",
}

// TestLiteralTemplate: for a text without "${" or "%{", the literal path
// gives exactly what parsing and rendering it as a template gives.
func TestLiteralTemplate(t *testing.T) {
	for _, src := range literalTemplateCases {
		checkLiteralTemplate(t, src)
	}
	for _, src := range []string{"${x}", "a %{if true}b%{endif}", "$${x}", "%%{x}"} {
		if _, ok := literalTemplate(src, "t.tftpl"); ok {
			t.Errorf("%q is taken as a literal", src)
		}
	}
}

// FuzzLiteralTemplate checks the literal path against hcl's parser on
// arbitrary texts.
func FuzzLiteralTemplate(f *testing.F) {
	for _, src := range literalTemplateCases {
		f.Add(src)
	}
	f.Fuzz(checkLiteralTemplate)
}

func checkLiteralTemplate(t *testing.T, src string) {
	fast, ok := literalTemplate(src, "t.tftpl")
	if !ok {
		return
	}
	parsed, diags := hclsyntax.ParseTemplate([]byte(src), "t.tftpl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%q is taken as a literal, but hcl does not parse it: %s", src, diags)
	}
	want, diags := parsed.Value(&hcl.EvalContext{})
	if diags.HasErrors() {
		t.Fatalf("%q is taken as a literal, but hcl does not render it: %s", src, diags)
	}
	got, _ := fast.Value(&hcl.EvalContext{})
	if !got.RawEquals(want) {
		t.Errorf("literal %q renders %#v, hcl renders %#v", src, got, want)
	}
	if len(parsed.Variables()) != 0 {
		t.Errorf("%q is taken as a literal, but hcl finds references in it", src)
	}
}
