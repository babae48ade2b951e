package typeexpr

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	hcltypeexpr "github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
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
	// ConvertValue is go-cty's conversion with its messages made
	// deterministic (TestMismatchMessageMatchesGoCty holds them to go-cty's).
	want, wantErr := ConvertValue(in, ty)
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

// TestConvertFused checks the one-pass conversion against applying the
// defaults and then converting, for every shape it takes and some it
// must leave to the two steps; it also checks which of them it takes, so
// the common case cannot quietly stop being fast.
func TestConvertFused(t *testing.T) {
	constraint := func(src string) (cty.Type, *hcltypeexpr.Defaults) { return typeConstraint(t, src) }
	value := func(src string) cty.Value {
		t.Helper()
		expr, diags := hclsyntax.ParseExpression([]byte(src), "v.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		v, diags := expr.Value(&hcl.EvalContext{Functions: map[string]function.Function{
			"tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
			"toset":  stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
			"tomap":  stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		}})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return v
	}
	items := `map(object({
  size    = number
  enabled = optional(bool, true)
  labels  = optional(map(string), {})
  limits  = optional(object({ cpu = optional(number, 1), memory = optional(number, 512) }), {})
}))`
	settings := `object({
  replicas = optional(number, 2)
  tier     = optional(string, "standard")
  ports    = optional(list(number), [80, 443])
  zones    = optional(set(string))
  note     = optional(string)
})`
	for _, tc := range []struct {
		ty, val string
		fused   bool // whether the one pass takes it
	}{
		{items, `{a = {size = 1}, b = {size = "2", enabled = false, labels = {x = 1}}}`, true},
		{items, `{a = {size = 1, limits = {cpu = 4}}, b = {size = 3, limits = null, extra = "dropped"}}`, true},
		{items, `tomap({a = {size = 1}})`, true},
		{items, `{}`, true},
		{items, `{a = {size = null}}`, true},
		{items, `{a = {labels = {}}}`, false},   // size is required: an error
		{items, `{a = {size = "many"}}`, false}, // not a number: an error
		{items, `{a = null}`, false},            // a null element
		{items, `{a = {size = 1, labels = null}}`, true},
		{settings, `{}`, true},
		{settings, `{replicas = 3, ports = [8080], zones = ["a", "b", "a"]}`, true},
		{settings, `{ports = []}`, true},
		{settings, `{zones = []}`, true},
		{settings, `{ports = tolist([1, 2])}`, true},
		{settings, `{zones = toset(["a"])}`, true},
		{settings, `{ports = [1, null]}`, false},
		{`list(object({ port = number, proto = optional(string, "tcp") }))`, `[{port = 22}, {port = "443", proto = "udp"}]`, true},
		{`set(object({ port = number, proto = optional(string, "tcp") }))`, `[{port = 22}, {port = 22, proto = "tcp"}]`, true},
		{`list(string)`, `[1, true, "x"]`, true},
		{`list(string)`, `[0, -7, 2.5, 1e40, 123456789012345678901234567890, 0.1]`, true}, // numbers written as go-cty writes them
		{`map(string)`, `{a = 8080, b = -0.25}`, true},
		{`string`, `null`, false}, // null: converted as go-cty does, after the one pass
		{`object({ a = optional(string, "x") })`, `null`, false},
		{`list(object({ a = optional(number) }))`, `null`, false},
		{`any`, `null`, false},
		{`map(list(string))`, `{a = [], b = ["x"]}`, true},
		{`object({ a = optional(object({ b = optional(string, "d") }), {}) })`, `{}`, true},
		{`object({ a = optional(object({ b = optional(string, "d") }), { b = null }) })`, `{a = null}`, true},
		{`object({ a = string })`, `{a = "x"}`, true},
		{`object({ a = any })`, `{a = "x"}`, true},
		{`list(any)`, `["a", "b", "a"]`, true},
		{`set(any)`, `["a", "b", "a"]`, true},
		{`map(any)`, `{a = [1], b = [2, 3]}`, false}, // tuples of two types: unified
		{`map(any)`, `{a = {x = 1}, b = {x = 2}}`, true},
		{`list(any)`, `[1, "x"]`, false}, // unified to strings
		{`list(any)`, `[null, "x"]`, false},
		{`list(any)`, `[{a = 1}, {b = 1}]`, false},
		{`tuple([string, number])`, `["a", "1"]`, false},
		{`tuple([string, number])`, `["a", 1]`, true}, // already of the type
		{`list(string)`, `toset(["a"])`, false},
		{`map(string)`, `["a"]`, false},
		{`string`, `{}`, false},
	} {
		ty, defaults := constraint(tc.ty)
		val := value(tc.val)
		got, fused := convertFused(val, ty, defaults)
		if fused != tc.fused {
			t.Errorf("%s to %s: taken in one pass %v, want %v", tc.val, tc.ty, fused, tc.fused)
		}
		if fused {
			checkSameAsApply(t, val, ty, defaults, got, nil)
		}
		out, err := Convert(val, ty, defaults)
		checkSameAsApply(t, val, ty, defaults, out, err)
	}
}

// ConvertValue gives the literal null its type without go-cty's
// conversion; the result must be go-cty's.
func TestConvertValueOfNull(t *testing.T) {
	for _, src := range []string{`string`, `number`, `any`, `list(any)`, `map(string)`, `set(object({ a = string }))`,
		`object({ a = optional(string, "x"), b = list(object({ c = optional(number) })) })`, `tuple([string, any])`} {
		ty, _ := typeConstraint(t, src)
		got, err := ConvertValue(cty.NullVal(cty.DynamicPseudoType), ty)
		want, wantErr := convert.Convert(cty.NullVal(cty.DynamicPseudoType), ty)
		if err != nil || wantErr != nil || !got.RawEquals(want) {
			t.Errorf("null to %s: got %#v, %v; go-cty %#v, %v", src, got, err, want, wantErr)
		}
	}
}

// WithoutOptional is go-cty's WithoutOptionalAttributesDeep, without its
// copies of types that have no optional attribute.
func TestWithoutOptional(t *testing.T) {
	for _, src := range []string{`string`, `any`, `list(object({ a = string }))`, `map(object({ a = optional(number) }))`,
		`object({ a = list(object({ b = optional(string, "x") })), c = set(string) })`, `tuple([string, object({ d = optional(bool) })])`,
		`object({ a = object({ b = map(list(number)) }) })`} {
		ty, _ := typeConstraint(t, src)
		if got, want := WithoutOptional(ty), ty.WithoutOptionalAttributesDeep(); !got.Equals(want) {
			t.Errorf("%s: got %#v, want %#v", src, got, want)
		}
		if !hasOptional(ty) {
			if a := testing.AllocsPerRun(10, func() { WithoutOptional(ty) }); a != 0 {
				t.Errorf("%s: %v allocations for a type without optional attributes", src, a)
			}
		}
	}
}

// equalsWithoutOptional says what comparing with WithoutOptional's type
// says, without allocating.
func TestEqualsWithoutOptional(t *testing.T) {
	srcs := []string{`string`, `number`, `any`, `list(string)`, `set(string)`, `map(string)`, `list(any)`,
		`object({ a = string })`, `object({ a = optional(string) })`, `object({ a = string, b = number })`,
		`object({ a = optional(string, "x"), b = list(object({ c = optional(number) })) })`,
		`object({ a = string, b = list(object({ c = number })) })`, `map(object({ a = optional(number) }))`,
		`map(object({ a = number }))`, `list(object({ a = number }))`, `tuple([string, object({ d = optional(bool) })])`,
		`tuple([string, object({ d = bool })])`, `tuple([string])`, `tuple([])`, `object({})`}
	types := make([]cty.Type, len(srcs))
	for i, src := range srcs {
		types[i], _ = typeConstraint(t, src)
	}
	for i, want := range types {
		for j, have := range append(types, want.WithoutOptionalAttributesDeep()) {
			if hasOptional(have) {
				continue // a value's type has no optional attributes
			}
			got, exp := equalsWithoutOptional(have, want), have.Equals(want.WithoutOptionalAttributesDeep())
			if got != exp {
				t.Errorf("%s against %s: got %v, want %v", have.GoString(), srcs[i], got, exp)
			}
			if a := testing.AllocsPerRun(10, func() { equalsWithoutOptional(have, want) }); a != 0 {
				t.Errorf("%d against %s: %v allocations", j, srcs[i], a)
			}
		}
	}
}

// typeConstraint parses a type constraint written in src.
func typeConstraint(t *testing.T, src string) (cty.Type, *hcltypeexpr.Defaults) {
	t.Helper()
	texpr, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ty, defaults, _, diags := TypeConstraint(texpr)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return ty, defaults
}

// An empty list, set or map converted to a collection of any element type
// keeps its element type, as with go-cty; an empty tuple or object has
// none to keep.
func TestConvertEmptyCollectionToAny(t *testing.T) {
	for _, tc := range []struct {
		val cty.Value
		ty  string
	}{
		{cty.ListValEmpty(cty.String), `list(any)`},
		{cty.ListValEmpty(cty.String), `set(any)`},
		{cty.ListValEmpty(cty.Number), `list(string)`},
		{cty.MapValEmpty(cty.Bool), `map(any)`},
		{cty.ListValEmpty(cty.List(cty.String)), `list(list(any))`},
		{cty.EmptyTupleVal, `list(any)`},
		{cty.EmptyObjectVal, `map(any)`},
	} {
		ty, _ := typeConstraint(t, tc.ty)
		got, err := Convert(tc.val, ty, nil)
		want, wantErr := convert.Convert(tc.val, ty)
		if err != nil || wantErr != nil || !got.RawEquals(want) {
			t.Errorf("%#v to %s: got %#v, %v; go-cty %#v, %v", tc.val, tc.ty, got, err, want, wantErr)
		}
	}
}
