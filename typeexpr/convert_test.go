package typeexpr

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

func TestConvert(t *testing.T) {
	obj := `object({a = optional(string, "da"), b = optional(list(object({c = optional(number, 7)})))})`
	tests := []struct {
		name    string
		typ     string
		val     cty.Value
		want    cty.Value
		wantErr string
	}{
		{
			name: "defaults fill missing attrs",
			typ:  obj,
			val:  cty.EmptyObjectVal,
			want: cty.ObjectVal(map[string]cty.Value{
				"a": cty.StringVal("da"),
				"b": cty.NullVal(cty.List(cty.Object(map[string]cty.Type{"c": cty.Number}))),
			}),
		},
		{
			name: "nested defaults",
			typ:  obj,
			val:  cty.ObjectVal(map[string]cty.Value{"b": cty.TupleVal([]cty.Value{cty.EmptyObjectVal})}),
			want: cty.ObjectVal(map[string]cty.Value{
				"a": cty.StringVal("da"),
				"b": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"c": cty.NumberIntVal(7)})}),
			}),
		},
		{
			name: "top-level null stays null",
			typ:  obj,
			val:  cty.NullVal(cty.DynamicPseudoType),
			want: cty.NullVal(cty.Object(map[string]cty.Type{
				"a": cty.String,
				"b": cty.List(cty.Object(map[string]cty.Type{"c": cty.Number})),
			})),
		},
		{
			name: "explicit null attribute gets the default",
			typ:  obj,
			val:  cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String)}),
			want: cty.ObjectVal(map[string]cty.Value{
				"a": cty.StringVal("da"),
				"b": cty.NullVal(cty.List(cty.Object(map[string]cty.Type{"c": cty.Number}))),
			}),
		},
		{name: "primitive mismatch", typ: `number`, val: cty.StringVal("x"), wantErr: "a number is required"},
		{name: "path prefixed", typ: `object({x = number})`, val: cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("x")}),
			wantErr: ".x: a number is required"},
		{name: "missing attribute", typ: `object({x = number})`, val: cty.EmptyObjectVal,
			wantErr: `attribute "x" is required`},
		{name: "map key path", typ: `map(number)`, val: cty.ObjectVal(map[string]cty.Value{"k": cty.True}),
			wantErr: `element "k": number required, but have bool`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ty, defaults, _, diags := TypeConstraint(parseNative(t, tc.typ))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got, err := Convert(tc.val, ty, defaults)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("no error, got %#v", got)
				}
				if msg := FormatError(err); msg != tc.wantErr {
					t.Errorf("error = %q, want %q", msg, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// checkSameAsApply compares Convert's outcome with applying the defaults
// unconditionally before converting, which Convert skips when nothing
// would be filled in.
func checkSameAsApply(t *testing.T, val cty.Value, ty cty.Type, defaults *hcltypeexpr.Defaults, got cty.Value, gotErr error) {
	t.Helper()
	in := val
	if defaults != nil && !val.IsNull() {
		in = defaults.Apply(val)
	}
	want, wantErr := convert.Convert(in, ty)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%#v to %#v: error %v, with defaults always applied %v", val, ty, gotErr, wantErr)
	}
	if gotErr == nil && !got.RawEquals(want) {
		t.Fatalf("%#v to %#v:\ngot  %#v\nwant %#v", val, ty, got, want)
	}
}

// Convert skips applying defaults when none would be filled in; the result
// must be what applying them gives, for values with nothing to fill, with
// absent, null and unknown attributes, marks, and nested collections.
func TestConvertSkipsNeedlessDefaults(t *testing.T) {
	texpr, diags := hclsyntax.ParseExpression([]byte(`object({
  name  = string
  size  = optional(number, 1)
  tags  = optional(map(string), {})
  rules = optional(list(object({ port = number, proto = optional(string, "tcp") })), [])
  pair  = optional(tuple([string, object({ x = optional(bool, true) })]))
  items = optional(map(object({ on = optional(bool, false) })), {})
})`), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ty, defaults, _, diags := TypeConstraint(texpr)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	str, num := cty.StringVal, cty.NumberIntVal
	full := func(mut func(map[string]cty.Value)) cty.Value {
		m := map[string]cty.Value{
			"name":  str("n"),
			"size":  num(2),
			"tags":  cty.MapVal(map[string]cty.Value{"a": str("b")}),
			"rules": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": num(22), "proto": str("udp")})}),
			"pair":  cty.TupleVal([]cty.Value{str("p"), cty.ObjectVal(map[string]cty.Value{"x": cty.False})}),
			"items": cty.MapVal(map[string]cty.Value{"i": cty.ObjectVal(map[string]cty.Value{"on": cty.True})}),
		}
		if mut != nil {
			mut(m)
		}
		return cty.ObjectVal(m)
	}
	complete := full(nil)
	if needsDefaults(defaults, complete) {
		t.Error("a value with every attribute set needs no defaults, but needsDefaults says it does")
	}
	for name, v := range map[string]cty.Value{
		"complete":        complete,
		"converted again": func() cty.Value { v, _ := Convert(complete, ty, defaults); return v }(),
		"size absent":     full(func(m map[string]cty.Value) { delete(m, "size") }),
		"size null":       full(func(m map[string]cty.Value) { m["size"] = cty.NullVal(cty.Number) }),
		"size unknown":    full(func(m map[string]cty.Value) { m["size"] = cty.UnknownVal(cty.Number) }),
		"size marked":     full(func(m map[string]cty.Value) { m["size"] = num(3).Mark("sensitive") }),
		"whole marked":    full(nil).Mark("sensitive"),
		"proto absent": full(func(m map[string]cty.Value) {
			m["rules"] = cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": num(1)})})
		}),
		"tuple x null": full(func(m map[string]cty.Value) {
			m["pair"] = cty.TupleVal([]cty.Value{str("p"), cty.ObjectVal(map[string]cty.Value{"x": cty.NullVal(cty.Bool)})})
		}),
		"tuple object null": full(func(m map[string]cty.Value) {
			m["pair"] = cty.TupleVal([]cty.Value{str("p"), cty.NullVal(cty.EmptyObject)})
		}),
		"map element empty": full(func(m map[string]cty.Value) {
			m["items"] = cty.ObjectVal(map[string]cty.Value{"i": cty.EmptyObjectVal})
		}),
		"rules unknown": full(func(m map[string]cty.Value) { m["rules"] = cty.UnknownVal(cty.List(cty.EmptyObject)) }),
		"wrong type":    full(func(m map[string]cty.Value) { m["rules"] = str("x") }),
		"unknown":       cty.UnknownVal(cty.EmptyObject),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := Convert(v, ty, defaults)
			checkSameAsApply(t, v, ty, defaults, got, err)
		})
	}
}
