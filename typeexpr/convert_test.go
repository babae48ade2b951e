package typeexpr

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
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
