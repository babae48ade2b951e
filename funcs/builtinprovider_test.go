package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
)

func TestBuiltinProviderFunctions(t *testing.T) {
	obj := func(attrs map[string]cty.Value) cty.Value { return cty.ObjectVal(attrs) }
	str := cty.StringVal
	num := cty.NumberIntVal
	cases := []struct {
		fn      string
		d       dialect.Dialect
		arg     cty.Value
		want    cty.Value
		wantErr string
	}{
		// encode_tfvars: attributes in name order, aligned as hclwrite
		// formats a file; a multi-line value ends an alignment group.
		{fn: "encode_tfvars", arg: obj(map[string]cty.Value{
			"region": str("eu-west-1"),
			"size":   num(3),
			"labels": cty.MapVal(map[string]cty.Value{"team": str("core"), "env": str("dev")}),
			"azs":    cty.ListVal([]cty.Value{str("a"), str("b")}),
			"unset":  cty.NullVal(cty.Bool),
		}), want: str("azs = [\"a\", \"b\"]\nlabels = {\n  env  = \"dev\"\n  team = \"core\"\n}\nregion = \"eu-west-1\"\nsize   = 3\nunset  = null\n")},
		{fn: "encode_tfvars", arg: cty.MapVal(map[string]cty.Value{"b": num(22), "a": num(1)}), want: str("a = 1\nb = 22\n")},
		{fn: "encode_tfvars", arg: cty.EmptyObjectVal, want: str("")},
		{fn: "encode_tfvars", arg: obj(map[string]cty.Value{"a": cty.UnknownVal(cty.String)}), want: cty.UnknownVal(cty.String).RefineNotNull()},
		{fn: "encode_tfvars", arg: cty.DynamicVal, want: cty.UnknownVal(cty.String).RefineNotNull()},
		{fn: "encode_tfvars", arg: cty.NullVal(cty.Map(cty.String)), wantErr: "cannot encode a null value in tfvars syntax"},
		{fn: "encode_tfvars", arg: cty.NullVal(cty.DynamicPseudoType), wantErr: "cannot encode a null value in tfvars syntax"},
		{fn: "encode_tfvars", arg: cty.TupleVal([]cty.Value{num(1)}), wantErr: "invalid value to encode: must be an object whose attribute names will become the encoded variable names"},
		{fn: "encode_tfvars", arg: obj(map[string]cty.Value{"ok": num(1), "two words": num(2)}), wantErr: `invalid variable name "two words": must be a valid identifier, per Terraform's rules for input variable declarations`},

		// encode_expr: one line where hclwrite keeps it on one; template
		// sequences escaped; of an unknown value only the opening.
		{fn: "encode_expr", arg: str("x${y}%{z}\\\n"), want: str(`"x$${y}%%{z}\\\n"`)},
		{fn: "encode_expr", arg: cty.SetVal([]cty.Value{num(10), num(2)}), want: str("[2, 10]")},
		{fn: "encode_expr", arg: obj(map[string]cty.Value{"id": num(7), "name": str("n")}), want: str("{\n  id   = 7\n  name = \"n\"\n}")},
		{fn: "encode_expr", arg: cty.NullVal(cty.String), want: str("null")},
		{fn: "encode_expr", arg: cty.EmptyTupleVal, want: str("[]")},
		{fn: "encode_expr", arg: cty.UnknownVal(cty.String), want: cty.UnknownVal(cty.String).RefineNotNull()},
		{fn: "encode_expr", arg: cty.UnknownVal(cty.String).RefineNotNull(), want: cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull(`"`).NewValue()},
		{fn: "encode_expr", arg: cty.ListVal([]cty.Value{cty.UnknownVal(cty.Number)}), want: cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("[").NewValue()},
		{fn: "encode_expr", arg: obj(map[string]cty.Value{"a": cty.UnknownVal(cty.Bool)}), want: cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("{").NewValue()},
		{fn: "encode_expr", arg: cty.UnknownVal(cty.Number).RefineNotNull(), want: cty.UnknownVal(cty.String).RefineNotNull()},

		// decode_tfvars: the most general type of each value's syntax.
		{fn: "decode_tfvars", arg: str("name = \"web\"\nports = [80, 443]\nextra = { on = true }\n"), want: obj(map[string]cty.Value{
			"name":  str("web"),
			"ports": cty.TupleVal([]cty.Value{num(80), num(443)}),
			"extra": obj(map[string]cty.Value{"on": cty.True}),
		})},
		{fn: "decode_tfvars", arg: str(""), want: cty.EmptyObjectVal},
		{fn: "decode_tfvars", arg: cty.UnknownVal(cty.String), want: cty.DynamicVal},
		{fn: "decode_tfvars", arg: cty.NullVal(cty.String), wantErr: "cannot decode tfvars from a null value"},
		{fn: "decode_tfvars", arg: str("a = local.b"), wantErr: `invalid expression for variable "a": <decode_tfvars argument>:1,5-10: Variables not allowed; Variables may not be used here.`},
		{fn: "decode_tfvars", arg: str("a = upper(\"x\")"), wantErr: `invalid expression for variable "a": <decode_tfvars argument>:1,5-15: Function calls not allowed; Functions may not be called here.`},
		{fn: "decode_tfvars", arg: str("a = 1 2"), wantErr: `invalid tfvars syntax: <decode_tfvars argument>:1,7-8: Missing newline after argument; An argument definition must end with a newline.`},
		{fn: "decode_tfvars", arg: str("block {\n}\n"), wantErr: `invalid tfvars content: <decode_tfvars argument>:1,1-6: Unexpected "block" block; Blocks are not allowed here.`},
		{fn: "decode_tfvars", d: dialect.Tofu, arg: str("a = local.b"), wantErr: "failed to decode tfvars content\n<decode_tfvars argument>:1,5-10: Variables not allowed; Variables may not be used here."},
	}
	for _, tc := range cases {
		d := tc.d // Terraform unless given
		fn := BuiltinProviderFunctions(d)[tc.fn]
		got, err := fn.Call([]cty.Value{tc.arg})
		switch {
		case tc.wantErr != "":
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%s %s(%#v): error %v, want %q", d, tc.fn, tc.arg, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s %s(%#v): %s", d, tc.fn, tc.arg, err)
		case !got.RawEquals(tc.want):
			t.Errorf("%s %s(%#v)\n got %#v\nwant %#v", d, tc.fn, tc.arg, got, tc.want)
		}
	}
}

// TestBuiltinProviderMarks: a sensitive value stays sensitive once encoded.
func TestBuiltinProviderMarks(t *testing.T) {
	arg := cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal("x").Mark("sensitive")})
	for _, name := range []string{"encode_tfvars", "encode_expr"} {
		got, err := BuiltinProviderFunctions(dialect.Terraform)[name].Call([]cty.Value{arg})
		if err != nil || !got.HasMark("sensitive") {
			t.Errorf("%s: %#v, %v; want a sensitive result", name, got, err)
		}
	}
}
