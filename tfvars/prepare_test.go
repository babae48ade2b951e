package tfvars

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"

	"github.com/tfeval/tfeval/internal/testfiles"
)

var fileRange = hcl.Range{Filename: "terraform.tfvars",
	Start: hcl.Pos{Line: 2, Column: 5, Byte: 10}, End: hcl.Pos{Line: 2, Column: 10, Byte: 15}}

func fileValue(v cty.Value) *Value {
	return &Value{Value: v, Source: Source{Kind: SourceAutoFile, File: "terraform.tfvars", Range: fileRange}}
}

func TestPrepareValues(t *testing.T) {
	mustGo := func(v any) *Value {
		val, err := FromGo(v)
		if err != nil {
			t.Fatal(err)
		}
		return val
	}
	mustHCL := func(src string) *Value {
		val, diags := FromHCL("v", src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return val
	}
	for _, tc := range []struct {
		name      string
		typ, dflt string
		nullable  bool
		given     *Value
		want      string // render.Value of the result
		wantType  string // render.Type, "" to skip
	}{
		{name: "default when unset", typ: "string", dflt: `"d"`, nullable: true, want: `"d"`},
		{name: "object default gets optional defaults",
			typ: `object({x=number, y=optional(string, "why")})`, dflt: `{x = 0}`, nullable: true,
			want: "{\n  \"x\" = 0\n  \"y\" = \"why\"\n}"},
		{name: "given object gets optional defaults",
			typ: `object({x=number, y=optional(string, "why")})`, dflt: `{x = 0}`, nullable: true,
			given: fileValue(cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)})),
			want:  "{\n  \"x\" = 1\n  \"y\" = \"why\"\n}"},
		{name: "number from string", typ: "number", nullable: true, given: FromString("42"), want: "42"},
		{name: "untyped string stays a string", nullable: true, given: FromString("[1, 2]"), want: `"[1, 2]"`, wantType: "string"},
		{name: "any parses HCL", typ: "any", nullable: true, given: FromString(`{x = [1, "a"]}`),
			want: "{\n  \"x\" = [\n    1,\n    \"a\",\n  ]\n}"},
		{name: "map from HCL string", typ: "map(string)", nullable: true, given: FromString(`{"k"="v", k2="v2"}`),
			want: "tomap({\n  \"k\" = \"v\"\n  \"k2\" = \"v2\"\n})"},
		{name: "nullable null stays null despite default", typ: "string", dflt: `"d"`, nullable: true,
			given: fileValue(cty.NullVal(cty.DynamicPseudoType)), want: "tostring(null)"},
		{name: "non-nullable null takes default", typ: "string", dflt: `"d"`, nullable: false,
			given: fileValue(cty.NullVal(cty.DynamicPseudoType)), want: `"d"`},
		{name: "default null", dflt: `null`, nullable: true, want: "null"},
		{name: "Go slice", typ: "list(string)", nullable: true, given: mustGo([]string{"a", "b"}),
			want: "tolist([\n  \"a\",\n  \"b\",\n])"},
		{name: "Go map to object", typ: "object({n=number})", nullable: true, given: mustGo(map[string]int{"n": 3}),
			want: "{\n  \"n\" = 3\n}"},
		{name: "HCL source", typ: "set(string)", nullable: true, given: mustHCL(`["b", "a", "b"]`),
			want: "toset([\n  \"a\",\n  \"b\",\n])"},
		{name: "cty value", typ: "bool", nullable: true, given: FromCty(cty.StringVal("true")), want: "true"},
		{name: "unknown module argument", typ: "string", nullable: true,
			given: FromModuleArg(cty.UnknownVal(cty.String), fileRange), want: "(known after apply)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decl := declare(t, "v", tc.typ, tc.dflt)
			decl.Nullable = tc.nullable
			got, diags := Prepare(decl, tc.given, "var.v")
			if len(diags) != 0 {
				t.Fatal(diagsString(diags))
			}
			if s := render.Value(got); s != tc.want {
				t.Errorf("got %s\nwant %s", s, tc.want)
			}
			if tc.wantType != "" {
				if s := render.Type(got.Type()); s != tc.wantType {
					t.Errorf("type %s, want %s", s, tc.wantType)
				}
			}
		})
	}
}

func TestPrepareDoesNotChangeGivenValue(t *testing.T) {
	given := FromString("[1]")
	if _, diags := Prepare(declare(t, "v", "list(number)", ""), given, "var.v"); diags.HasErrors() {
		t.Fatal(diags)
	}
	if !given.Unparsed || given.Value != cty.NilVal {
		t.Errorf("given was modified: %#v", given)
	}
}

func TestPrepareMarks(t *testing.T) {
	decl := declare(t, "s", "object({a=string, b=optional(string, \"x\")})", "")
	decl.Sensitive = true
	decl.Ephemeral = true
	got, diags := Prepare(decl, FromModuleArg(cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("secret").Mark(marks.Sensitive),
	}), fileRange), "module.m.var.s")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !got.HasMark(marks.Sensitive) || !got.HasMark(marks.Ephemeral) {
		t.Errorf("marks missing: %#v", got)
	}
	inner, _ := got.Unmark()
	if !inner.GetAttr("a").HasMark(marks.Sensitive) {
		t.Errorf("nested mark lost: %#v", inner)
	}
	if b := inner.GetAttr("b"); !b.RawEquals(cty.StringVal("x")) {
		t.Errorf("b = %#v", b)
	}
}

func TestPrepareErrors(t *testing.T) {
	type tcase struct {
		name      string
		decl      func(*config.Variable)
		typ, dflt string
		given     *Value
		addr      string
		want      wantDiag
	}
	const E = hcl.DiagError
	cli := &Value{Source: Source{Kind: SourceVarFlag, Name: "v"}, Raw: "abc", Unparsed: true}
	env := &Value{Source: Source{Kind: SourceEnv, Name: "v"}, Raw: "abc", Unparsed: true}
	for _, tc := range []tcase{
		{name: "root required", typ: "string", addr: "var.v",
			want: wantDiag{E, "No value for required variable",
				`The root module input variable "v" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`, "main.tf:1,1-12"}},
		{name: "module required", typ: "string", addr: "module.m.var.v",
			want: wantDiag{E, "Required variable not set", `The variable "v" is required, but is not set.`, "main.tf:1,1-12"}},
		{name: "cli wrong type", typ: "number", given: cli, addr: "var.v",
			want: wantDiag{E, "Invalid value for input variable",
				`Unsuitable value for var.v set using -var="v=...": a number is required.`, "main.tf:1,1-12"}},
		{name: "env wrong type", typ: "number", given: env, addr: "var.v",
			want: wantDiag{E, "Invalid value for input variable",
				`Unsuitable value for var.v set using the TF_VAR_v environment variable: a number is required.`, "main.tf:1,1-12"}},
		{name: "Go wrong type", typ: "bool", given: FromCty(cty.StringVal("nope")), addr: "var.v",
			want: wantDiag{E, "Invalid value for input variable",
				`Unsuitable value for var.v set from outside of the configuration: a bool is required.`, "main.tf:1,1-12"}},
		{name: "file wrong type", typ: "number", given: fileValue(cty.StringVal("abc")), addr: "var.v",
			want: wantDiag{E, "Invalid value for input variable",
				`The given value is not suitable for var.v declared at main.tf:1,1-12: a number is required.`, "terraform.tfvars:2,5-10"}},
		{name: "file wrong type sensitive", typ: "number", given: fileValue(cty.StringVal("abc")), addr: "var.v",
			decl: func(v *config.Variable) { v.Sensitive = true },
			want: wantDiag{E, "Invalid value for input variable",
				`The given value is not suitable for var.v, which is sensitive: a number is required. Invalid value defined at terraform.tfvars:2,5-10.`, "main.tf:1,1-12"}},
		{name: "module argument missing attribute", typ: "object({age=number, name=string})",
			given: FromModuleArg(cty.ObjectVal(map[string]cty.Value{"age": cty.NumberIntVal(1)}), fileRange), addr: "module.m.var.v",
			want: wantDiag{E, "Invalid value for input variable",
				`The given value is not suitable for module.m.var.v declared at main.tf:1,1-12: attribute "name" is required.`, "terraform.tfvars:2,5-10"}},
		{name: "file null non-nullable", typ: "string", given: fileValue(cty.NullVal(cty.DynamicPseudoType)), addr: "var.v",
			decl: func(v *config.Variable) { v.Nullable = false },
			want: wantDiag{E, "Required variable not set",
				`The given value is not suitable for var.v defined at main.tf:1,1-12: required variable may not be set to null.`, "terraform.tfvars:2,5-10"}},
		{name: "cli null non-nullable", typ: "list(string)", given: &Value{Source: Source{Kind: SourceVarFlag}, Raw: "null", Unparsed: true}, addr: "var.v",
			decl: func(v *config.Variable) { v.Nullable = false },
			want: wantDiag{E, "Required variable not set",
				`Unsuitable value for var.v set using -var="v=...": required variable may not be set to null.`, "main.tf:1,1-12"}},
		{name: "bad HCL string", typ: "list(string)", given: FromString("[1,"), addr: "var.v",
			want: wantDiag{E, "Missing expression", "Expected the start of an expression, but found the end of the file.", "<value for var.v>:1,4-4"}},
		{name: "ephemeral not allowed", typ: "string", given: FromModuleArg(cty.StringVal("t").Mark(marks.Ephemeral), fileRange), addr: "module.m.var.v",
			want: wantDiag{E, "Ephemeral value not allowed", `The input variable "v" does not accept ephemeral values.`, "terraform.tfvars:2,5-10"}},
		{name: "nested ephemeral not allowed", typ: "map(string)",
			given: FromModuleArg(cty.MapVal(map[string]cty.Value{"k": cty.StringVal("t").Mark(marks.Ephemeral)}), fileRange), addr: "module.m.var.v",
			want: wantDiag{E, "Ephemeral value not allowed", `The input variable "v" does not accept ephemeral values, so the value for ["k"] is not compatible.`, "terraform.tfvars:2,5-10"}},
		// The argument is looked at as the object it was built as, and the
		// path is given in the map it converts to.
		{name: "ephemeral in an object that becomes a map", typ: "map(object({a = string, b = optional(number, 1)}))",
			given: FromModuleArg(cty.ObjectVal(map[string]cty.Value{
				"k": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s")}),
				"l": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("t").Mark(marks.Ephemeral)}),
			}), fileRange), addr: "module.m.var.v",
			want: wantDiag{E, "Ephemeral value not allowed", `The input variable "v" does not accept ephemeral values, so the value for ["l"].a is not compatible.`, "terraform.tfvars:2,5-10"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decl := declare(t, "v", tc.typ, tc.dflt)
			if tc.decl != nil {
				tc.decl(decl)
			}
			got, diags := Prepare(decl, tc.given, tc.addr)
			checkDiags(t, diags, []wantDiag{tc.want})
			if got.IsKnown() || !got.Type().Equals(decl.Type) {
				t.Errorf("placeholder %#v", got)
			}
		})
	}
}

func TestSourceString(t *testing.T) {
	rng := hcl.Range{Filename: "x.tfvars", Start: hcl.Pos{Line: 3, Column: 5}, End: hcl.Pos{Line: 3, Column: 9}}
	for _, tc := range []struct {
		src  Source
		want string
	}{
		{Source{Kind: SourceNone}, "not set"},
		{Source{Kind: SourceDefault, Range: hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 13}}}, "default value declared at main.tf:1,1-13"},
		{Source{Kind: SourceEnv, Name: "foo"}, "set using the TF_VAR_foo environment variable"},
		{Source{Kind: SourceVarFlag, Name: "foo"}, `set using -var="foo=..."`},
		{Source{Kind: SourceAutoFile, File: "x.tfvars", Range: rng}, "set in x.tfvars:3,5-9"},
		{Source{Kind: SourceVarFile, File: "x.tfvars", Range: rng}, `set using -var-file="x.tfvars" at x.tfvars:3,5-9`},
		{Source{Kind: SourceModuleArg, Range: rng}, "set by the module call argument at x.tfvars:3,5-9"},
		{Source{Kind: SourceGo}, "set from outside of the configuration"},
	} {
		if got := tc.src.String(); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.src.Kind, got, tc.want)
		}
	}
}

func TestResolveStaging(t *testing.T) {
	decls := map[string]*config.Variable{
		"n":   declare(t, "n", "number", ""),
		"req": declare(t, "req", "string", ""),
	}
	// A collection error stops before type checks, as in Terraform: the bad
	// number is not reported, the missing required variable is.
	dir := testfiles.Dir(t, map[string]string{"terraform.tfvars": "n = \"abc\"\n"})
	final, _, diags := Resolve(Inputs{Dir: dir, Args: []Arg{{VarFlag, "undeclared=1"}}}, decls)
	checkDiags(t, diags, []wantDiag{
		{hcl.DiagError, "Value for undeclared variable", `A variable named "undeclared" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`, ""},
		{hcl.DiagError, "No value for required variable", `The root module input variable "req" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`, "main.tf:1,1-14"},
	})
	if final["n"].IsKnown() || final["req"].IsKnown() {
		t.Errorf("placeholders expected: %#v", final)
	}

	final, _, diags = Resolve(Inputs{Dir: dir, Args: []Arg{{VarFlag, "req=r"}}}, decls)
	checkDiags(t, diags, []wantDiag{
		{hcl.DiagError, "Invalid value for input variable", `The given value is not suitable for var.n declared at main.tf:1,1-12: a number is required.`, "terraform.tfvars:1,5-10"},
	})
	if !final["req"].RawEquals(cty.StringVal("r")) {
		t.Errorf("req = %#v", final["req"])
	}
}

func TestDescribe(t *testing.T) {
	decls := map[string]*config.Variable{
		"b": declare(t, "b", `object({x=number, y=optional(string)})`, `{x = 1}`),
		"a": declare(t, "a", "", ""),
		"c": declare(t, "c", "string", ""),
	}
	decls["c"].Sensitive = true
	final, raw, diags := Resolve(Inputs{Dir: t.TempDir(), Env: []string{"TF_VAR_a=hi", "TF_VAR_c=pw"}}, decls)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := Describe(decls, final, raw)
	if len(got) != 3 || got[0].Name != "a" || got[1].Name != "b" || got[2].Name != "c" {
		t.Fatalf("entries %#v", got)
	}
	if got[0].Source.Kind != SourceEnv || got[0].TypeString != "any" || !got[0].Required {
		t.Errorf("a: %#v", got[0])
	}
	if got[1].Source.Kind != SourceDefault || got[1].TypeString != "object({ x = number, y = optional(string) })" {
		t.Errorf("b: %#v", got[1])
	}
	if !got[2].Sensitive || render.Value(got[2].Value) != "(sensitive value)" {
		t.Errorf("c: %#v", got[2])
	}
}

func TestPrepareWhollyMarkedArgument(t *testing.T) {
	decl := declare(t, "o", `object({a=string, b=optional(list(string), [])})`, "")
	arg := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")}).Mark(marks.Sensitive)
	got, diags := Prepare(decl, FromModuleArg(arg, fileRange), "module.m.var.o")
	if diags.HasErrors() {
		t.Fatal(diagsString(diags))
	}
	if !marks.Contains(got, marks.Sensitive) {
		t.Errorf("sensitive mark lost: %#v", got)
	}
	inner, _ := got.UnmarkDeep()
	if b := inner.GetAttr("b"); b.LengthInt() != 0 {
		t.Errorf("b = %#v", b)
	}
}
