package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/marks"
)

func TestValue(t *testing.T) {
	tests := []struct {
		name string
		in   cty.Value
		want string
	}{
		{"string", cty.StringVal("plain"), `"plain"`},
		{"empty string", cty.StringVal(""), `""`},
		{"go quoting", cty.StringVal("tab\t\"q\"\x00\a\u200b é"), `"tab\t\"q\"\x00\a\u200b é"`},
		{"interpolation not escaped", cty.StringVal("${x}"), `"${x}"`},
		{"carriage return only", cty.StringVal("cr\r"), `"cr\r"`},
		{"heredoc", cty.StringVal("line1\nline2"), "<<EOT\nline1\nline2\nEOT"},
		{"heredoc trailing newline", cty.StringVal("a\n"), "<<EOT\na\n\nEOT"},
		{"heredoc only newline", cty.StringVal("\n"), "<<EOT\n\n\nEOT"},
		{"heredoc delimiter clash", cty.StringVal("EOT\nEOT"), "<<EOT_\nEOT\nEOT\nEOT_"},
		{"heredoc delimiter clash spaces", cty.StringVal("  EOT  \nx"), "<<EOT_\n  EOT  \nx\nEOT_"},
		{"heredoc delimiter double clash", cty.StringVal("EOT_\nEOT"), "<<EOT__\nEOT_\nEOT\nEOT__"},
		{"nested heredoc", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("multi\nline")}),
			"{\n  \"a\" = <<-EOT\n  multi\n  line\n  EOT\n}"},
		{"heredoc in tuple", cty.TupleVal([]cty.Value{cty.StringVal("m\nl"), cty.StringVal("s")}),
			"[\n  <<-EOT\n  m\n  l\n  EOT,\n  \"s\",\n]"},
		{"integer", cty.NumberIntVal(-1), "-1"},
		{"fraction", cty.NumberFloatVal(-0.5), "-0.5"},
		{"no exponent big", cty.MustParseNumberVal("1e10"), "10000000000"},
		{"no exponent small", cty.MustParseNumberVal("1e-10"), "0.0000000001"},
		{"huge", cty.MustParseNumberVal("123456789012345678901234567890"), "123456789012345678901234567890"},
		{"trailing zeros", cty.MustParseNumberVal("3.00"), "3"},
		{"bool", cty.True, "true"},
		{"null dynamic", cty.NullVal(cty.DynamicPseudoType), "null"},
		{"null string", cty.NullVal(cty.String), "tostring(null)"},
		{"null number", cty.NullVal(cty.Number), "tonumber(null)"},
		{"null bool", cty.NullVal(cty.Bool), "tobool(null)"},
		{"null list", cty.NullVal(cty.List(cty.String)), "tolist(null) /* of string */"},
		{"null set", cty.NullVal(cty.Set(cty.DynamicPseudoType)), "toset(null) /* of dynamic */"},
		{"null map", cty.NullVal(cty.Map(cty.Number)), "tomap(null) /* of number */"},
		{"null object", cty.NullVal(cty.EmptyObject), "null /* object */"},
		{"null tuple", cty.NullVal(cty.EmptyTuple), "null /* tuple */"},
		{"empty tuple", cty.EmptyTupleVal, "[]"},
		{"empty object", cty.EmptyObjectVal, "{}"},
		{"empty list", cty.ListValEmpty(cty.String), "tolist([])"},
		{"empty set", cty.SetValEmpty(cty.String), "toset([])"},
		{"empty map", cty.MapValEmpty(cty.String), "tomap({})"},
		{"nested empties", cty.TupleVal([]cty.Value{cty.EmptyTupleVal, cty.EmptyObjectVal}), "[\n  [],\n  {},\n]"},
		{"list", cty.ListVal([]cty.Value{cty.StringVal("a")}), "tolist([\n  \"a\",\n])"},
		{"set order", cty.SetVal([]cty.Value{cty.NumberIntVal(10), cty.NumberIntVal(2)}), "toset([\n  2,\n  10,\n])"},
		{"map sorted quoted keys", cty.MapVal(map[string]cty.Value{"b": cty.True, "a": cty.False, "with space": cty.True}),
			"tomap({\n  \"a\" = false\n  \"b\" = true\n  \"with space\" = true\n})"},
		{"deep", cty.TupleVal([]cty.Value{cty.TupleVal([]cty.Value{cty.StringVal("d")})}), "[\n  [\n    \"d\",\n  ],\n]"},
		{"unknown", cty.UnknownVal(cty.String), "(known after apply)"},
		{"unknown sensitive", cty.UnknownVal(cty.String).Mark(marks.Sensitive), "(known after apply)"},
		{"nested unknown", cty.TupleVal([]cty.Value{cty.DynamicVal}), "[\n  (known after apply),\n]"},
		{"sensitive", cty.StringVal("x").Mark(marks.Sensitive), "(sensitive value)"},
		{"sensitive null", cty.NullVal(cty.String).Mark(marks.Sensitive), "(sensitive value)"},
		{"nested sensitive", cty.TupleVal([]cty.Value{cty.StringVal("x").Mark(marks.Sensitive), cty.StringVal("y")}),
			"[\n  (sensitive value),\n  \"y\",\n]"},
		{"ephemeral", cty.StringVal("x").Mark(marks.Ephemeral), "(ephemeral value)"},
		{"type value", TypeValue(cty.List(cty.String)), "list(string)"},
		{"object sorted quoted keys", cty.ObjectVal(map[string]cty.Value{"b": cty.NumberIntVal(1), "a": cty.StringVal("x"), "with space": cty.True}),
			"{\n  \"a\" = \"x\"\n  \"b\" = 1\n  \"with space\" = true\n}"},
		{"long string", cty.StringVal(strings.Repeat("ab\"", 60)), strconv.Quote(strings.Repeat("ab\"", 60))},
		{"deeper than the indentation buffer", deepTuple(70), deepTupleText(70)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Value(tt.in); got != tt.want {
				t.Errorf("Value(%#v)\n got: %q\nwant: %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestType(t *testing.T) {
	tests := []struct {
		in   cty.Type
		want string
	}{
		{cty.DynamicPseudoType, "dynamic"},
		{cty.String, "string"},
		{cty.List(cty.DynamicPseudoType), "list(dynamic)"},
		{cty.List(cty.List(cty.Number)), "list(list(number))"},
		{cty.Map(cty.Map(cty.Number)), "map(map(number))"},
		{cty.EmptyTuple, "tuple([])"},
		{cty.EmptyObject, "object({})"},
		{cty.Map(cty.Tuple([]cty.Type{cty.Number})), "map(\n    tuple([\n        number,\n    ]),\n)"},
		{cty.Set(cty.Object(map[string]cty.Type{"a": cty.Number})), "set(\n    object({\n        a: number,\n    }),\n)"},
		{cty.Object(map[string]cty.Type{"b": cty.String, "a": cty.Object(map[string]cty.Type{"c": cty.Tuple([]cty.Type{cty.Number})})}),
			"object({\n    a: object({\n        c: tuple([\n            number,\n        ]),\n    }),\n    b: string,\n})"},
		{TypeType, "type"},
	}
	for _, tt := range tests {
		if got := Type(tt.in); got != tt.want {
			t.Errorf("Type(%#v)\n got: %q\nwant: %q", tt.in, got, tt.want)
		}
	}
}

// deepTuple is a string nested in n tuples.
func deepTuple(n int) cty.Value {
	v := cty.StringVal("d")
	for range n {
		v = cty.TupleVal([]cty.Value{v})
	}
	return v
}

// deepTupleText is how deepTuple(n) renders.
func deepTupleText(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("[\n" + strings.Repeat(" ", 2*(i+1)))
	}
	b.WriteString(`"d",`)
	for i := n - 1; i >= 0; i-- {
		b.WriteString("\n" + strings.Repeat(" ", 2*i) + "]")
		if i > 0 {
			b.WriteString(",")
		}
	}
	return b.String()
}

// TestValueWithin: a rendering stops soon after its bound, however large
// the value's rendering would be.
func TestValueWithin(t *testing.T) {
	v := cty.StringVal("leaf")
	for range 20 {
		v = cty.ObjectVal(map[string]cty.Value{"a": v, "b": v}) // 2^20 leaves
	}
	s, ok := ValueWithin(v, 10_000)
	if ok || len(s) > 20_000 {
		t.Errorf("ValueWithin gave %d bytes, ok = %v", len(s), ok)
	}
	small := cty.ListVal([]cty.Value{cty.StringVal("x")})
	if s, ok := ValueWithin(small, 10_000); !ok || s != Value(small) {
		t.Errorf("ValueWithin(small) = %q, %v", s, ok)
	}
}
