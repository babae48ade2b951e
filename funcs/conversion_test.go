package funcs

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/marks"

	"github.com/tfeval/tfeval/dialect"
)

func TestConversion(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `tostring(1.5)`, want: `"1.5"`},
		{expr: `tostring([])`, err: `Invalid value for "v" parameter: cannot convert tuple to string.`},
		{expr: `tobool("yes")`, err: `cannot convert "yes" to bool; only the strings "true" or "false" are allowed.`},
		{expr: `tonumber("0x10")`, err: `cannot convert "0x10" to number; given string must be a decimal representation of a number.`},
		{expr: `tonumber(secret)`, err: `cannot convert this sensitive string to number.`},
		{expr: `tostring(secret_num)`, want: `(sensitive value)`},
		{expr: `tolist(["a", [], "b"])`, err: `cannot convert tuple to list of any single type.`},
		{expr: `tolist(null)`, want: `tolist(null) /* of dynamic */`},
		{expr: `tolist(unk_list)`, want: `(known after apply)`},
		{expr: `tostring(unk_str)`, want: `(known after apply)`},
		{expr: `tostring(dyn)`, want: `(known after apply)`},
		{expr: `toset([1, 2, 1])`, want: "toset([\n  1,\n  2,\n])"},
		{expr: `tomap({a = null, b = 1})`, want: "tomap({\n  \"a\" = tonumber(null)\n  \"b\" = 1\n})"},
		{expr: `tolist([sensitive("x"), "y"])`, want: "tolist([\n  (sensitive value),\n  \"y\",\n])"},
		{expr: `type(tomap({a = 1}))`, want: `map(number)`},
		{expr: `type(sensitive(1))`, want: `number`},
		{expr: `type(unk_list)`, want: `list(string)`},
		{expr: `type(type(1))`, want: `type`},
		{expr: `ephemeralasnull(eph)`, want: `tostring(null)`},
		{expr: `ephemeralasnull({a = eph, b = "x", c = [eph]})`, want: "{\n  \"a\" = tostring(null)\n  \"b\" = \"x\"\n  \"c\" = [\n    tostring(null),\n  ]\n}"},
		{expr: `ephemeralasnull(secret)`, want: `(sensitive value)`},
		{expr: `ephemeralasnull(unk_str)`, want: `(known after apply)`},
		{expr: `ephemeralasnull(null)`, want: `null`},
	})
	runCases(t, dialect.Terraform, []fnCase{
		{expr: `convert("1", number)`, want: `1`},
		{expr: `convert({a = 1}, object({a = string, b = optional(number, 5)}))`, want: "{\n  \"a\" = \"1\"\n  \"b\" = 5\n}"},
		{expr: `convert("x", number)`, err: `Invalid function argument: Invalid value for "value" parameter: a number is required.`},
		{expr: `convert(null, string)`, want: `tostring(null)`},
		{expr: `convert(["a"], set(string))`, want: "toset([\n  \"a\",\n])"},
		{expr: `convert([1, "a"], list(any))`, want: "tolist([\n  \"1\",\n  \"a\",\n])"},
		{expr: `convert(unk_str, number)`, want: `(known after apply)`},
		{expr: `convert(secret, string)`, want: `(sensitive value)`},
		{expr: `convert({a = secret}, map(string))`, want: "tomap({\n  \"a\" = (sensitive value)\n})"},
		{expr: `convert(1, nope)`, err: `Invalid type specification`},
		{expr: `type(convert(unk_str, number))`, want: `number`},
		{expr: `tonumber(eph)`, err: `cannot convert "e" to number`},
	})
	runCases(t, dialect.Tofu, []fnCase{
		{expr: `convert("1", number)`, err: `Call to unknown function`},
		{expr: `tonumber(eph)`, err: `cannot convert this ephemeral string to number.`},
	})
}

func TestSensitive(t *testing.T) {
	bothDialects(t, []fnCase{
		{expr: `sensitive("x")`, want: `(sensitive value)`},
		{expr: `sensitive(null)`, want: `(sensitive value)`},
		{expr: `sensitive(unk_str)`, want: `(known after apply)`},
		{expr: `nonsensitive(sensitive("x"))`, want: `"x"`},
		{expr: `nonsensitive("plain")`, want: `"plain"`},
		{expr: `nonsensitive(sensitive(eph))`, want: `(ephemeral value)`},
		{expr: `nonsensitive([sensitive("x")])`, want: "[\n  (sensitive value),\n]"},
		{expr: `issensitive("x")`, want: `false`},
		{expr: `issensitive(secret)`, want: `true`},
		{expr: `issensitive([sensitive("x")])`, want: `false`},
		{expr: `issensitive(unk_str)`, want: `(known after apply)`},
		{expr: `issensitive(unk_str) == null`, want: `false`},
	})
	runCases(t, dialect.Terraform, []fnCase{
		{expr: `issensitive(sensitive(unk_str))`, want: `true`},
	})
	runCases(t, dialect.Tofu, []fnCase{
		{expr: `issensitive(sensitive(unk_str))`, want: `(known after apply)`},
	})
}

// TestConvertUniform: the linear conversion of tuples and objects whose
// elements share one type gives what go-cty's conversion gives, marks
// and all.
func TestConvertUniform(t *testing.T) {
	many := func(f func(i int) cty.Value) []cty.Value {
		vals := make([]cty.Value, 40)
		for i := range vals {
			vals[i] = f(i)
		}
		return vals
	}
	str := func(i int) cty.Value { return cty.StringVal(fmt.Sprint("s", i%7)) }
	obj := func(i int) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(int64(i)), "s": str(i)})
	}
	withMarks := func(i int) cty.Value {
		if i%5 == 0 {
			return str(i).Mark(marks.Sensitive)
		}
		return str(i)
	}
	withUnknown := func(i int) cty.Value {
		if i == 3 {
			return cty.UnknownVal(cty.String)
		}
		return str(i)
	}
	asObject := func(vals []cty.Value) cty.Value {
		m := map[string]cty.Value{}
		for i, v := range vals {
			m[fmt.Sprint("k", i)] = v
		}
		return cty.ObjectVal(m)
	}
	for name, v := range map[string]cty.Value{
		"strings":      cty.TupleVal(many(str)),
		"objects":      cty.TupleVal(many(obj)),
		"marked parts": cty.TupleVal(many(withMarks)),
		"marked whole": cty.TupleVal(many(str)).Mark(marks.Sensitive),
		"unknowns":     cty.TupleVal(many(withUnknown)),
		"object":       asObject(many(str)),
		"object marks": asObject(many(withMarks)),
	} {
		for _, want := range []cty.Type{cty.List(cty.DynamicPseudoType), cty.Set(cty.DynamicPseudoType), cty.Map(cty.DynamicPseudoType)} {
			expect, err := convert.Convert(v, want)
			got, ok := convertUniform(v, want)
			if !ok {
				if err == nil && (v.Type().IsTupleType() != want.IsMapType()) {
					t.Errorf("%s to %s: not converted", name, want.FriendlyName())
				}
				continue
			}
			if err != nil || !got.RawEquals(expect) {
				t.Errorf("%s to %s:\n got %#v\nwant %#v (%v)", name, want.FriendlyName(), got, expect, err)
			}
		}
	}
}

// TestToStringOfNumbers: tostring writes a number as go-cty's conversion
// to string does, whatever its size, precision or sign.
func TestToStringOfNumbers(t *testing.T) {
	for _, src := range []string{`0`, `-0`, `7`, `-7`, `1.5`, `0.1`, `1/3`, `2/3 * 3`, `1e30`, `-1e-30`, `9223372036854775807`, `9223372036854775808`, `123456789012345678901234567890`, `1e300 * 1e300`, `range(3)[2]`, `length([1, 2])`} {
		n, diags := evalWith(Options{Dialect: dialect.Terraform}, src)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags.Error())
		}
		want, err := convert.Convert(n, cty.String)
		if err != nil {
			t.Fatal(err)
		}
		got, diags := evalWith(Options{Dialect: dialect.Terraform}, "tostring("+src+")")
		if diags.HasErrors() || !got.RawEquals(want) {
			t.Errorf("tostring(%s) = %#v %s, go-cty converts it to %#v", src, got, diags.Error(), want)
		}
	}
}
