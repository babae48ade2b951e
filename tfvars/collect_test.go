package tfvars

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// source sets variable x to value in one way; files may be shared between sources.
type source struct {
	name string
	kind SourceKind
	add  func(files map[string]string, in *Inputs, value string)
}

var sourcesLowToHigh = []source{
	{"env", SourceEnv, func(_ map[string]string, in *Inputs, v string) {
		in.Env = append(in.Env, "TF_VAR_x="+v)
	}},
	{"terraform.tfvars", SourceAutoFile, func(f map[string]string, _ *Inputs, v string) {
		f["terraform.tfvars"] = fmt.Sprintf("x = %q\n", v)
	}},
	{"terraform.tfvars.json", SourceAutoFile, func(f map[string]string, _ *Inputs, v string) {
		f["terraform.tfvars.json"] = fmt.Sprintf(`{"x": %q}`, v)
	}},
	{"a.auto.tfvars.json", SourceAutoFile, func(f map[string]string, _ *Inputs, v string) {
		f["a.auto.tfvars.json"] = fmt.Sprintf(`{"x": %q}`, v)
	}},
	{"b.auto.tfvars", SourceAutoFile, func(f map[string]string, _ *Inputs, v string) {
		f["b.auto.tfvars"] = fmt.Sprintf("x = %q\n", v)
	}},
	{"-var first", SourceVarFlag, func(_ map[string]string, in *Inputs, v string) {
		in.Args = append(in.Args, Arg{Kind: VarFlag, Text: "x=" + v})
	}},
	{"-var-file", SourceVarFile, func(f map[string]string, in *Inputs, v string) {
		f["extra.tfvars"] = fmt.Sprintf("x = %q\n", v)
		in.Args = append(in.Args, Arg{Kind: VarFileFlag, Text: "extra.tfvars"})
	}},
	{"-var last", SourceVarFlag, func(_ map[string]string, in *Inputs, v string) {
		in.Args = append(in.Args, Arg{Kind: VarFlag, Text: "x=" + v})
	}},
	{"Go API", SourceGo, func(_ map[string]string, in *Inputs, v string) {
		in.Values = map[string]cty.Value{"x": cty.StringVal(v)}
	}},
}

func TestCollectPrecedenceEveryPair(t *testing.T) {
	decls := map[string]*config.Variable{"x": declare(t, "x", "string", "")}
	for i, low := range sourcesLowToHigh {
		for _, high := range sourcesLowToHigh[i+1:] {
			t.Run(low.name+" < "+high.name, func(t *testing.T) {
				files := map[string]string{}
				var in Inputs
				// Added in precedence order so command-line order matches too.
				low.add(files, &in, "low")
				high.add(files, &in, "high")
				in.Dir = testfiles.Dir(t, files)
				got, diags := Collect(in, decls)
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				if v := got["x"]; v == nil || !v.Value.RawEquals(cty.StringVal("high")) || v.Source.Kind != high.kind {
					t.Fatalf("got %#v", v)
				}
			})
		}
	}
}

func TestCollectCommandLineOrder(t *testing.T) {
	decls := map[string]*config.Variable{"x": declare(t, "x", "", "")}
	dir := testfiles.Dir(t, map[string]string{"f.tfvars": `x = "file"`})
	for _, tc := range []struct {
		args []Arg
		want string
		kind SourceKind
		idx  int
	}{
		{[]Arg{{VarFlag, "x=flag"}, {VarFileFlag, "f.tfvars"}}, "file", SourceVarFile, 1},
		{[]Arg{{VarFileFlag, "f.tfvars"}, {VarFlag, "x=flag"}}, "flag", SourceVarFlag, 1},
		{[]Arg{{VarFlag, "x=one"}, {VarFlag, "x=two"}}, "two", SourceVarFlag, 1},
		{[]Arg{{VarFlag, "x=a=b"}}, "a=b", SourceVarFlag, 0},
		{[]Arg{{VarFlag, "x="}}, "", SourceVarFlag, 0},
	} {
		got, diags := Collect(Inputs{Dir: dir, Args: tc.args}, decls)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		v := got["x"]
		if !v.Value.RawEquals(cty.StringVal(tc.want)) || v.Source.Kind != tc.kind || v.Source.Index != tc.idx {
			t.Errorf("%v: got %#v", tc.args, v)
		}
	}
}

func TestCollectEnv(t *testing.T) {
	decls := map[string]*config.Variable{
		"a":    declare(t, "a", "", ""),
		"list": declare(t, "list", "list(string)", ""),
		"num":  declare(t, "num", "number", ""),
	}
	env := []string{"PATH=/bin", "TF_VAR_a=x=y", "TF_VAR_A=upper", "TF_VAR_list=[\"p\", \"q\"]", "TF_VAR_num=42", "TF_VAR_nope", "TF_VAR_undeclared=1"}
	got, diags := Collect(Inputs{Dir: t.TempDir(), Env: env}, decls)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if !got["a"].Value.RawEquals(cty.StringVal("x=y")) || got["a"].Raw != "x=y" {
		t.Errorf("a = %#v", got["a"])
	}
	if !got["list"].Value.RawEquals(cty.TupleVal([]cty.Value{cty.StringVal("p"), cty.StringVal("q")})) {
		t.Errorf("list = %#v", got["list"].Value)
	}
	// A number variable parses literally: the string converts at Prepare.
	if !got["num"].Value.RawEquals(cty.StringVal("42")) {
		t.Errorf("num = %#v", got["num"].Value)
	}
	if len(got) != 3 {
		t.Errorf("unexpected values %v", got)
	}
}

func TestCollectFileValues(t *testing.T) {
	decls := map[string]*config.Variable{
		"obj":  declare(t, "obj", "object({a=number})", ""),
		"tmpl": declare(t, "tmpl", "", ""),
	}
	dir := testfiles.Dir(t, map[string]string{
		"terraform.tfvars":      "obj = { a = 1 }\n",
		"terraform.tfvars.json": `{"tmpl": "${not evaluated}"}`,
	})
	got, diags := Collect(Inputs{Dir: dir}, decls)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	obj := got["obj"]
	if obj.Source.File != "terraform.tfvars" || obj.Source.Range.String() != "terraform.tfvars:1,7-16" {
		t.Errorf("obj source %#v", obj.Source)
	}
	// JSON strings in variables files are literal: no template evaluation.
	if !got["tmpl"].Value.RawEquals(cty.StringVal("${not evaluated}")) {
		t.Errorf("tmpl = %#v", got["tmpl"].Value)
	}
}

type wantDiag struct {
	severity hcl.DiagnosticSeverity
	summary  string
	detail   string
	subject  string // hcl.Range.String() of the subject, "" for none
}

func checkDiags(t *testing.T, diags hcl.Diagnostics, want []wantDiag) {
	t.Helper()
	if len(diags) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(diags), len(want), diagsString(diags))
	}
	for i, d := range diags {
		w := want[i]
		subject := ""
		if d.Subject != nil {
			subject = d.Subject.String()
		}
		if d.Severity != w.severity || d.Summary != w.summary || d.Detail != w.detail || subject != w.subject {
			t.Errorf("diagnostic %d:\n got: %v %q %q %q\nwant: %v %q %q %q",
				i, d.Severity, d.Summary, d.Detail, subject, w.severity, w.summary, w.detail, w.subject)
		}
	}
}

func diagsString(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "  %v %q %q", d.Severity, d.Summary, d.Detail)
		if d.Subject != nil {
			fmt.Fprintf(&b, " @%s", d.Subject)
		}
		b.WriteString("\n")
	}
	return b.String()
}

const undeclaredWarning = "The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."

func TestCollectErrors(t *testing.T) {
	const (
		E = hcl.DiagError
		W = hcl.DiagWarning
	)
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  []Arg
		env   []string
		go_   map[string]cty.Value
		d     dialect.Dialect
		want  []wantDiag
	}{
		{name: "no equals", args: []Arg{{VarFlag, "foo"}}, want: []wantDiag{{E, "Invalid -var option",
			`The given -var option "foo" is not correctly specified. Must be a variable name and value separated by an equals sign, like -var="key=value".`, ""}}},
		{name: "trailing space", args: []Arg{{VarFlag, "foo = bar"}}, want: []wantDiag{{E, "Invalid -var option",
			`Variable name "foo " is invalid due to trailing space. Did you mean -var="foo=bar"?`, ""}}},
		{name: "missing var file", args: []Arg{{VarFileFlag, "nope.tfvars"}}, want: []wantDiag{{E, "Failed to read variables file",
			"Given variables file nope.tfvars does not exist.", ""}}},
		{name: "undeclared -var", args: []Arg{{VarFlag, "u=1"}}, want: []wantDiag{{E, "Value for undeclared variable",
			`A variable named "u" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`, ""}}},
		{name: "undeclared Go value", go_: map[string]cty.Value{"u": cty.True}, want: []wantDiag{{E, "Value for undeclared variable",
			`A variable named "u" was assigned a value, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`, ""}}},
		{name: "undeclared env ignored", env: []string{"TF_VAR_u=1"}},
		{name: "undeclared in files",
			files: map[string]string{"terraform.tfvars": "u1 = 1\nu2 = 2\n", "x.auto.tfvars": "u3 = 3\nu4 = 4\n"},
			want: []wantDiag{
				{W, "Value for undeclared variable", fmt.Sprintf(undeclaredWarning, "u1", "terraform.tfvars"), "terraform.tfvars:1,6-7"},
				{W, "Value for undeclared variable", fmt.Sprintf(undeclaredWarning, "u2", "terraform.tfvars"), "terraform.tfvars:2,6-7"},
				{W, "Values for undeclared variables", "In addition to the other similar warnings shown, 2 other variable(s) defined without being declared.", ""},
			}},
		{name: "function call in file", files: map[string]string{"terraform.tfvars": `x = upper("a")`},
			want: []wantDiag{{E, "Function calls not allowed", "Functions may not be called here.", "terraform.tfvars:1,5-15"}}},
		{name: "reference in file", files: map[string]string{"terraform.tfvars": `x = local.a`},
			want: []wantDiag{{E, "Variables not allowed", "Variables may not be used here.", "terraform.tfvars:1,5-10"}}},
		{name: "overridden bad value is never parsed",
			files: map[string]string{"terraform.tfvars": `x = upper("a")`}, args: []Arg{{VarFlag, "x=fine"}}},
		{name: "syntax error", files: map[string]string{"terraform.tfvars": "x = [1, 2\n"},
			want: []wantDiag{{E, "Unterminated tuple constructor expression",
				"There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.", "terraform.tfvars:1,5-6"}}},
		{name: "variable block", files: map[string]string{"terraform.tfvars": "variable \"x\" {}\n"},
			want: []wantDiag{{E, "Variable declaration in .tfvars file",
				"A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable \"x\", place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in terraform.tfvars, use the definition syntax instead:\n    x = <value>",
				"terraform.tfvars:1,1-9"}}},
		{name: "other block", files: map[string]string{"terraform.tfvars": "foo {}\n"},
			want: []wantDiag{{E, "Unexpected \"foo\" block", "Blocks are not allowed here.", "terraform.tfvars:1,1-4"}}},
		{name: "bad HCL on the command line", args: []Arg{{VarFlag, "l=[1,"}},
			want: []wantDiag{{E, "Missing expression", "Expected the start of an expression, but found the end of the file.", "<value for var.l>:1,4-4"}}},
		{name: "tofu sniffs JSON", d: dialect.Tofu, files: map[string]string{"vars.txt": `{"x": "j"}`},
			args: []Arg{{VarFileFlag, "vars.txt"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decls := map[string]*config.Variable{
				"x": declare(t, "x", "", `"d"`),
				"l": declare(t, "l", "list(string)", "[]"),
			}
			in := Inputs{Dir: testfiles.Dir(t, tc.files), Args: tc.args, Env: tc.env, Values: tc.go_, Dialect: tc.d}
			_, diags := Collect(in, decls)
			checkDiags(t, diags, tc.want)
		})
	}
}
