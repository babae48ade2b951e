package funcs

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tfeval/tfeval/marks"
)

// shortcutFuncs are the built-ins with shortcuts, by name.
var shortcutFuncs = map[string]function.Function{
	"keys":   stdlib.KeysFunc,
	"length": lengthFunc,
	"merge":  stdlib.MergeFunc,

	"jsonencode": jsonEncodeFunc,
	"element":    stdlib.ElementFunc,
	"flatten":    stdlib.FlattenFunc,
	"sort":       stdlib.SortFunc,
	"format":     stdlib.FormatFunc,
	"range":      stdlib.RangeFunc,
	"distinct":   stdlib.DistinctFunc,
	"lookup":     lookupFunc,
	"coalesce":   coalesceFunc,
	"compact":    stdlib.CompactFunc,
	"concat":     stdlib.ConcatFunc,
	"slice":      stdlib.SliceFunc,
	"max":        stdlib.MaxFunc,
	"min":        stdlib.MinFunc,
	"floor":      stdlib.FloorFunc,
	"lower":      stdlib.LowerFunc,
	"upper":      stdlib.UpperFunc,
	"join":       stdlib.JoinFunc,
	"substr":     stdlib.SubstrFunc,
}

// shortcutOracles are what a shortcut is compared with when the full call
// shares its code: go-cty's own function.
var shortcutOracles = map[string]function.Function{"jsonencode": stdlib.JSONEncodeFunc}

// checkShortcut compares a shortcut's answer with the full cty call of fn,
// marks and types included, and reports whether the shortcut answered.
func checkShortcut(t *testing.T, name string, args []cty.Value) bool {
	t.Helper()
	fn := shortcutFuncs[name]
	got, ok := shortcutOf(fn)(args)
	if !ok {
		return false
	}
	if o, ok := shortcutOracles[name]; ok {
		fn = o
	}
	want, err := fn.Call(args)
	if err != nil {
		t.Fatalf("%s%#v: shortcut gave %#v, the call failed: %s", name, args, got, err)
	}
	if !got.RawEquals(want) {
		t.Fatalf("%s%#v:\nshortcut %#v\ncall     %#v", name, args, got, want)
	}
	return true
}

func TestShortcuts(t *testing.T) {
	sens := func(v cty.Value) cty.Value { return v.Mark("sensitive") }
	str := cty.StringVal
	strs := map[string]cty.Value{"a": str("1"), "b": str("2")}
	obj := cty.ObjectVal(map[string]cty.Value{"x": str("1"), "y": cty.NumberIntVal(2), "z": cty.UnknownVal(cty.Bool)})
	nested := cty.ObjectVal(map[string]cty.Value{"deep": cty.ListVal([]cty.Value{sens(str("s")), str("t")})})
	tests := []struct {
		name  string
		args  []cty.Value
		short bool // whether the shortcut must answer
	}{
		{"keys", []cty.Value{cty.MapVal(strs)}, true},
		{"keys", []cty.Value{cty.MapValEmpty(cty.Number)}, true},
		{"keys", []cty.Value{obj}, true},
		{"keys", []cty.Value{cty.EmptyObjectVal}, true},
		{"keys", []cty.Value{cty.MapVal(map[string]cty.Value{"k": sens(str("v")), "j": cty.UnknownVal(cty.String)})}, true},
		{"keys", []cty.Value{sens(cty.MapVal(strs))}, false},
		{"keys", []cty.Value{cty.UnknownVal(cty.Map(cty.String))}, false},
		{"keys", []cty.Value{cty.NullVal(cty.Map(cty.String))}, false},
		{"keys", []cty.Value{cty.ListVal([]cty.Value{str("a")})}, false},

		{"length", []cty.Value{str("héllo👍🏽")}, true},
		{"length", []cty.Value{str("")}, true},
		{"length", []cty.Value{cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})}, true},
		{"length", []cty.Value{cty.MapVal(strs)}, true},
		{"length", []cty.Value{cty.TupleVal([]cty.Value{str("a"), cty.True})}, true},
		{"length", []cty.Value{obj}, true},
		{"length", []cty.Value{nested}, true},
		{"length", []cty.Value{cty.SetVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})}, false},
		{"length", []cty.Value{sens(str("abc"))}, true},
		{"length", []cty.Value{sens(cty.ListVal([]cty.Value{sens(str("abc"))}))}, true},
		{"length", []cty.Value{cty.UnknownVal(cty.String)}, false},
		{"length", []cty.Value{cty.NumberIntVal(3)}, false},

		{"merge", []cty.Value{cty.MapVal(strs), cty.MapVal(map[string]cty.Value{"b": str("3"), "c": sens(str("4"))})}, true},
		{"merge", []cty.Value{cty.MapValEmpty(cty.String), cty.MapValEmpty(cty.String)}, true},
		{"merge", []cty.Value{cty.MapVal(strs), cty.MapVal(map[string]cty.Value{"n": cty.NumberIntVal(1)})}, true},
		{"merge", []cty.Value{obj, cty.MapVal(strs)}, true},
		{"merge", []cty.Value{obj, nested, cty.EmptyObjectVal}, true},
		{"merge", []cty.Value{cty.MapValEmpty(cty.String), cty.EmptyObjectVal}, true},
		{"merge", []cty.Value{nested, nested}, true},
		{"merge", []cty.Value{cty.MapVal(strs), cty.NullVal(cty.Map(cty.String))}, false},
		{"merge", []cty.Value{cty.MapVal(strs), sens(cty.MapVal(strs))}, false},
		{"merge", []cty.Value{cty.MapVal(strs), cty.UnknownVal(cty.Map(cty.String))}, false},
		{"merge", []cty.Value{cty.MapVal(strs), str("x")}, false},
		{"merge", nil, false},

		{"jsonencode", []cty.Value{obj.GetAttr("x")}, true},
		{"jsonencode", []cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.ListVal([]cty.Value{str("é\n<")}), "c": cty.NullVal(cty.String)})}, true},
		{"jsonencode", []cty.Value{cty.MapVal(strs)}, true},
		{"jsonencode", []cty.Value{cty.SetVal([]cty.Value{cty.True, cty.False})}, true},
		{"jsonencode", []cty.Value{nested}, false},
		{"jsonencode", []cty.Value{obj}, false},
		{"jsonencode", []cty.Value{sens(str("x"))}, false},
		{"jsonencode", []cty.Value{cty.NullVal(cty.String)}, false},
		{"jsonencode", []cty.Value{cty.TupleVal([]cty.Value{cty.NullVal(cty.DynamicPseudoType)})}, false},
		{"jsonencode", []cty.Value{cty.PositiveInfinity}, false},

		{"element", []cty.Value{cty.ListVal([]cty.Value{str("a"), str("b"), str("c")}), cty.NumberIntVal(1)}, true},
		{"element", []cty.Value{cty.ListVal([]cty.Value{str("a"), str("b"), str("c")}), cty.NumberIntVal(7)}, true},
		{"element", []cty.Value{cty.ListVal([]cty.Value{str("a"), str("b"), str("c")}), cty.NumberIntVal(-1)}, true},
		{"element", []cty.Value{cty.ListVal([]cty.Value{sens(str("a")), cty.UnknownVal(cty.String)}), cty.NumberIntVal(3)}, true},
		{"element", []cty.Value{cty.TupleVal([]cty.Value{str("a"), cty.NumberIntVal(2), nested}), cty.NumberIntVal(5)}, true},
		{"element", []cty.Value{cty.TupleVal([]cty.Value{str("a")}), cty.MustParseNumberVal("9223372036854775808")}, false},
		{"element", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.NumberFloatVal(0.5)}, false},
		{"element", []cty.Value{cty.ListValEmpty(cty.String), cty.NumberIntVal(0)}, false},
		{"element", []cty.Value{cty.EmptyTupleVal, cty.NumberIntVal(0)}, false},
		{"element", []cty.Value{cty.ListVal([]cty.Value{str("a")}), sens(cty.NumberIntVal(0))}, false},
		{"element", []cty.Value{sens(cty.ListVal([]cty.Value{str("a")})), cty.NumberIntVal(0)}, false},
		{"element", []cty.Value{cty.SetVal([]cty.Value{str("a")}), cty.NumberIntVal(0)}, false},
		{"element", []cty.Value{cty.MapVal(strs), cty.NumberIntVal(0)}, false},

		{"flatten", []cty.Value{cty.TupleVal([]cty.Value{cty.TupleVal([]cty.Value{obj, nested}), cty.ListVal([]cty.Value{str("a")}), str("b"), cty.EmptyTupleVal})}, true},

		{"sort", []cty.Value{cty.ListVal([]cty.Value{str("b"), str("a"), str("B"), str("ä"), str("a"), str("10"), str("9")})}, true},
		{"sort", []cty.Value{cty.TupleVal([]cty.Value{str("y"), str("x")})}, false},
		{"sort", []cty.Value{cty.SetVal([]cty.Value{str("y"), str("x")})}, false},
		{"sort", []cty.Value{cty.ListValEmpty(cty.String)}, true},
		{"sort", []cty.Value{cty.EmptyTupleVal}, false},
		{"sort", []cty.Value{cty.SetValEmpty(cty.String)}, false},
		{"sort", []cty.Value{cty.TupleVal([]cty.Value{str("y"), cty.NumberIntVal(1)})}, false},
		{"sort", []cty.Value{cty.ListVal([]cty.Value{str("y"), cty.UnknownVal(cty.String)})}, false},
		{"sort", []cty.Value{cty.ListVal([]cty.Value{str("y"), sens(str("x"))})}, false},
		{"sort", []cty.Value{cty.ListVal([]cty.Value{str("y"), cty.NullVal(cty.String)})}, false},
		{"sort", []cty.Value{sens(cty.ListVal([]cty.Value{str("y")}))}, false},
		{"sort", []cty.Value{cty.ListVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(10)})}, false},

		{"distinct", []cty.Value{cty.ListVal([]cty.Value{str("b"), str("a"), str("b"), str("e\u0301"), str("é"), str("a")})}, true},
		{"distinct", []cty.Value{cty.TupleVal([]cty.Value{str("y"), str("x"), str("y")})}, false},
		{"distinct", []cty.Value{cty.ListVal([]cty.Value{cty.True, cty.False, cty.True})}, true},
		{"distinct", []cty.Value{cty.ListVal([]cty.Value{str("only")})}, true},
		{"distinct", []cty.Value{cty.TupleVal([]cty.Value{str("y"), cty.True})}, false},
		{"distinct", []cty.Value{cty.ListValEmpty(cty.String)}, false},
		{"distinct", []cty.Value{cty.EmptyTupleVal}, false},
		{"distinct", []cty.Value{cty.SetVal([]cty.Value{str("y"), str("x")})}, false},
		{"distinct", []cty.Value{cty.ListVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(2)})}, false},
		{"distinct", []cty.Value{cty.ListVal([]cty.Value{str("y"), cty.UnknownVal(cty.String)})}, false},
		{"distinct", []cty.Value{cty.ListVal([]cty.Value{str("y"), sens(str("y"))})}, false},
		{"distinct", []cty.Value{cty.ListVal([]cty.Value{str("y"), cty.NullVal(cty.String)})}, false},
		{"distinct", []cty.Value{sens(cty.ListVal([]cty.Value{str("y")}))}, false},

		{"format", []cty.Value{str("%s-%s"), str("a"), str("b")}, true},
		{"format", []cty.Value{str("%s-net-%02d"), str("p"), cty.NumberIntVal(3)}, true},
		{"format", []cty.Value{str("%05d|%3d|%d|%02d"), cty.NumberIntVal(-42), cty.NumberIntVal(7), cty.NumberIntVal(0), cty.NumberIntVal(123)}, true},
		{"format", []cty.Value{str("100%% %s ünï"), str("é")}, true},
		{"format", []cty.Value{str("plain")}, true},
		{"format", []cty.Value{str("")}, true},
		{"format", []cty.Value{str("%d"), cty.NumberIntVal(-9223372036854775808)}, true},
		{"format", []cty.Value{str("%d"), cty.MustParseNumberVal("9223372036854775808")}, false},
		{"format", []cty.Value{str("%d"), cty.NumberFloatVal(1.5)}, false},
		{"format", []cty.Value{str("%s"), cty.NumberIntVal(1)}, false},
		{"format", []cty.Value{str("%5s"), str("a")}, false},
		{"format", []cty.Value{str("%-5d"), cty.NumberIntVal(1)}, false},
		{"format", []cty.Value{str("%00d"), cty.NumberIntVal(1)}, false},
		{"format", []cty.Value{str("%[1]s"), str("a")}, false},
		{"format", []cty.Value{str("%s"), str("a"), str("extra")}, false},
		{"format", []cty.Value{str("%s %s"), str("a")}, false},
		{"format", []cty.Value{str("%")}, false},
		{"format", []cty.Value{str("%v"), str("a")}, false},
		{"format", []cty.Value{str("%s"), sens(str("a"))}, false},
		{"format", []cty.Value{str("%s"), cty.UnknownVal(cty.String)}, false},
		{"format", []cty.Value{str("%s"), cty.NullVal(cty.String)}, false},
		{"format", []cty.Value{sens(str("%s")), str("a")}, false},

		{"range", []cty.Value{cty.NumberIntVal(4)}, true},
		{"range", []cty.Value{cty.NumberIntVal(-3)}, true},
		{"range", []cty.Value{cty.NumberIntVal(0)}, true},
		{"range", []cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(7)}, true},
		{"range", []cty.Value{cty.NumberIntVal(7), cty.NumberIntVal(2)}, true},
		{"range", []cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(3)}, true},
		{"range", []cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(10), cty.NumberIntVal(3)}, true},
		{"range", []cty.Value{cty.NumberIntVal(10), cty.NumberIntVal(1), cty.NumberIntVal(-4)}, true},
		{"range", []cty.Value{cty.NumberIntVal(2000), cty.NumberIntVal(2005)}, true},
		{"range", []cty.Value{cty.MustParseNumberVal("4")}, true},
		{"range", []cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(10), cty.NumberIntVal(0)}, false},
		{"range", []cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(10), cty.NumberIntVal(-1)}, false},
		{"range", []cty.Value{cty.NumberIntVal(10), cty.NumberIntVal(1), cty.NumberIntVal(1)}, false},
		{"range", []cty.Value{cty.NumberIntVal(2000)}, false},
		{"range", []cty.Value{cty.NumberFloatVal(2.5)}, false},
		{"range", []cty.Value{cty.NumberIntVal(1), cty.NumberFloatVal(2.5)}, false},
		{"range", []cty.Value{cty.UnknownVal(cty.Number)}, false},
		{"range", []cty.Value{sens(cty.NumberIntVal(2))}, false},
		{"range", nil, false},
		{"flatten", []cty.Value{cty.ListVal([]cty.Value{cty.ListValEmpty(cty.String), cty.ListValEmpty(cty.String)})}, true},
		{"flatten", []cty.Value{cty.ListValEmpty(cty.String)}, true},
		{"flatten", []cty.Value{cty.EmptyTupleVal}, true},
		{"flatten", []cty.Value{cty.TupleVal([]cty.Value{cty.NullVal(cty.List(cty.String)), sens(str("x")), cty.UnknownVal(cty.String)})}, true},
		{"flatten", []cty.Value{cty.TupleVal([]cty.Value{cty.TupleVal([]cty.Value{cty.TupleVal([]cty.Value{cty.NumberIntVal(1)})})})}, true},
		{"flatten", []cty.Value{cty.TupleVal([]cty.Value{sens(cty.ListVal([]cty.Value{str("a")}))})}, false},
		{"flatten", []cty.Value{cty.TupleVal([]cty.Value{cty.UnknownVal(cty.List(cty.String))})}, false},
		{"flatten", []cty.Value{cty.TupleVal([]cty.Value{cty.SetVal([]cty.Value{str("a")})})}, false},
		{"flatten", []cty.Value{cty.TupleVal([]cty.Value{cty.DynamicVal})}, false},
		{"flatten", []cty.Value{cty.SetVal([]cty.Value{str("a")})}, false},
		{"flatten", []cty.Value{sens(cty.ListVal([]cty.Value{str("a")}))}, false},
		{"flatten", []cty.Value{obj}, false},

		{"lookup", []cty.Value{cty.MapVal(strs), str("a")}, true},
		{"lookup", []cty.Value{cty.MapVal(strs), str("c"), str("d")}, true},
		{"lookup", []cty.Value{cty.MapVal(strs), str("a"), cty.NumberIntVal(1)}, false}, // a default of another type
		{"lookup", []cty.Value{cty.MapVal(map[string]cty.Value{"k": sens(str("v"))}), str("k")}, true},
		{"lookup", []cty.Value{obj, str("z")}, true},
		{"lookup", []cty.Value{obj, str("w"), sens(cty.NumberIntVal(3))}, true},
		{"lookup", []cty.Value{obj, str("w"), cty.DynamicVal}, true},
		{"lookup", []cty.Value{nested, str("deep"), str("x")}, true},
		{"lookup", []cty.Value{cty.MapVal(strs), str("c")}, false}, // the full call's error
		{"lookup", []cty.Value{sens(cty.MapVal(strs)), str("a")}, false},
		{"lookup", []cty.Value{cty.MapVal(strs), sens(str("a"))}, false},
		{"lookup", []cty.Value{cty.MapVal(strs), cty.NumberIntVal(1)}, false},

		{"coalesce", []cty.Value{cty.NullVal(cty.String), str(""), str("x"), str("y")}, true},
		{"coalesce", []cty.Value{str("a")}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.String), str("")}, false}, // the full call's error
		{"coalesce", []cty.Value{cty.UnknownVal(cty.String), str("x")}, false},
		{"coalesce", []cty.Value{sens(str("a")), str("x")}, false},
		{"coalesce", []cty.Value{cty.NullVal(cty.DynamicPseudoType), str("x")}, true},
		{"coalesce", []cty.Value{cty.NumberIntVal(1), str("x")}, true}, // unified to a string

		{"compact", []cty.Value{cty.ListVal([]cty.Value{str("a"), str(""), cty.NullVal(cty.String), str("b")})}, true},
		{"compact", []cty.Value{cty.ListVal([]cty.Value{str("")})}, true},
		{"compact", []cty.Value{cty.ListValEmpty(cty.String)}, true},
		{"compact", []cty.Value{cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})}, false},
		{"compact", []cty.Value{cty.ListVal([]cty.Value{sens(str("a")), str("b")})}, false},
		{"compact", []cty.Value{cty.TupleVal([]cty.Value{str("a")})}, false},

		{"concat", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.ListValEmpty(cty.String), cty.ListVal([]cty.Value{sens(str("b")), cty.UnknownVal(cty.String)})}, true},
		{"concat", []cty.Value{cty.ListValEmpty(cty.Number), cty.ListValEmpty(cty.Number)}, true},
		{"concat", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.True})}, true},
		{"concat", []cty.Value{cty.EmptyTupleVal, cty.EmptyTupleVal}, true},
		{"concat", []cty.Value{cty.TupleVal([]cty.Value{obj}), cty.ListVal([]cty.Value{str("a")})}, true},
		{"concat", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.ListVal([]cty.Value{cty.NumberIntVal(1)})}, false}, // unified
		{"concat", []cty.Value{cty.ListVal([]cty.Value{str("a")}), sens(cty.ListVal([]cty.Value{str("b")}))}, false},
		{"concat", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.UnknownVal(cty.List(cty.String))}, false},
		{"concat", []cty.Value{cty.SetVal([]cty.Value{str("a")})}, false},

		{"coalesce", []cty.Value{cty.NullVal(cty.List(cty.String)), cty.ListVal([]cty.Value{str("a")})}, true},
		{"coalesce", []cty.Value{cty.ListValEmpty(cty.String), cty.ListVal([]cty.Value{str("a")})}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.Tuple([]cty.Type{cty.String})), cty.TupleVal([]cty.Value{str("a")})}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.Number), cty.NumberIntVal(0)}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.List(cty.String)), cty.NullVal(cty.List(cty.String))}, false},
		{"coalesce", []cty.Value{cty.TupleVal([]cty.Value{str("a")}), cty.TupleVal([]cty.Value{str("a"), str("b")})}, true}, // unified to a list
		{"coalesce", []cty.Value{cty.NullVal(cty.DynamicPseudoType), cty.TupleVal([]cty.Value{str("a")})}, true},
		{"coalesce", []cty.Value{cty.TupleVal([]cty.Value{sens(str("a"))}), cty.TupleVal([]cty.Value{str("a"), str("b")})}, false},
		{"coalesce", []cty.Value{cty.NullVal(cty.String), cty.NumberIntVal(1)}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.Bool), cty.NumberIntVal(1)}, false}, // no common type: the full call's error
		{"coalesce", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.ListVal([]cty.Value{cty.NumberIntVal(1)})}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.List(cty.DynamicPseudoType)), cty.ListValEmpty(cty.DynamicPseudoType)}, true},
		{"coalesce", []cty.Value{cty.NullVal(cty.String), cty.UnknownVal(cty.String)}, false},

		{"slice", []cty.Value{cty.ListVal([]cty.Value{str("a"), str("b"), str("c")}), cty.NumberIntVal(1), cty.NumberIntVal(3)}, true},
		{"slice", []cty.Value{cty.ListVal([]cty.Value{str("a"), str("b")}), cty.NumberIntVal(1), cty.NumberIntVal(1)}, true},
		{"slice", []cty.Value{cty.ListVal([]cty.Value{str("a"), sens(str("b"))}), cty.NumberIntVal(0), cty.NumberIntVal(2)}, true},
		{"slice", []cty.Value{sens(cty.ListVal([]cty.Value{str("a"), str("b")})), cty.NumberIntVal(0), cty.NumberIntVal(1)}, true},
		{"slice", []cty.Value{cty.TupleVal([]cty.Value{str("a"), cty.True, cty.NumberIntVal(1)}), cty.NumberIntVal(1), cty.NumberIntVal(3)}, true},
		{"slice", []cty.Value{cty.TupleVal([]cty.Value{str("a")}), cty.NumberIntVal(0), cty.NumberIntVal(0)}, true},
		{"slice", []cty.Value{cty.ListValEmpty(cty.String), cty.NumberIntVal(0), cty.NumberIntVal(0)}, true},
		{"slice", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.NumberIntVal(0), cty.NumberIntVal(2)}, false},
		{"slice", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.NumberIntVal(1), cty.NumberIntVal(0)}, false},
		{"slice", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.NumberIntVal(-1), cty.NumberIntVal(1)}, false},
		{"slice", []cty.Value{cty.ListVal([]cty.Value{str("a")}), cty.NumberFloatVal(0.5), cty.NumberIntVal(1)}, false},
		{"slice", []cty.Value{cty.SetVal([]cty.Value{str("a")}), cty.NumberIntVal(0), cty.NumberIntVal(1)}, false},
		{"slice", []cty.Value{cty.UnknownVal(cty.List(cty.String)), cty.NumberIntVal(0), cty.NumberIntVal(1)}, false},

		{"max", []cty.Value{cty.NumberIntVal(3), cty.NumberFloatVal(3.5), cty.NumberIntVal(-1)}, true},
		{"max", []cty.Value{cty.NumberIntVal(2)}, true},
		{"max", []cty.Value{cty.NumberIntVal(2), cty.MustParseNumberVal("2.0")}, true},
		{"max", []cty.Value{cty.NumberIntVal(2), cty.PositiveInfinity}, false},
		{"max", []cty.Value{cty.NumberIntVal(2), cty.UnknownVal(cty.Number)}, false},
		{"max", []cty.Value{cty.NumberIntVal(2), sens(cty.NumberIntVal(3))}, false},
		{"max", nil, false},
		{"min", []cty.Value{cty.NumberIntVal(3), cty.NumberFloatVal(-3.5), cty.NumberIntVal(-1)}, true},
		{"min", []cty.Value{cty.NumberIntVal(0), cty.NumberIntVal(0)}, true},
		{"min", []cty.Value{cty.NegativeInfinity}, false},

		{"floor", []cty.Value{cty.NumberFloatVal(2.5)}, true},
		{"floor", []cty.Value{cty.NumberFloatVal(-2.5)}, true},
		{"floor", []cty.Value{cty.NumberIntVal(7)}, true},
		{"floor", []cty.Value{cty.MustParseNumberVal("123456789012345678901234567890.75")}, true},
		{"floor", []cty.Value{cty.NegativeInfinity}, false},
		{"floor", []cty.Value{sens(cty.NumberIntVal(1))}, false},

		{"lower", []cty.Value{str("AbÇ-É")}, true},
		{"lower", []cty.Value{str("")}, true},
		{"lower", []cty.Value{cty.UnknownVal(cty.String)}, false},
		{"upper", []cty.Value{str("straße")}, true},

		{"join", []cty.Value{str("-"), cty.ListVal([]cty.Value{str("a"), str("b")})}, true},
		{"join", []cty.Value{str(""), cty.ListVal([]cty.Value{str("a")}), cty.ListValEmpty(cty.String), cty.ListVal([]cty.Value{str("b"), str("c")})}, true},
		{"join", []cty.Value{str(","), cty.ListValEmpty(cty.String)}, true},
		{"join", []cty.Value{str(","), cty.ListVal([]cty.Value{str("a"), cty.NullVal(cty.String)})}, false},
		{"join", []cty.Value{str(","), cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})}, false},
		{"join", []cty.Value{str(","), cty.ListVal([]cty.Value{str("a"), sens(str("b"))})}, false},
		{"join", []cty.Value{str(",")}, false},

		{"substr", []cty.Value{str("hello world"), cty.NumberIntVal(0), cty.NumberIntVal(5)}, true},
		{"substr", []cty.Value{str("hello world"), cty.NumberIntVal(6), cty.NumberIntVal(-1)}, true},
		{"substr", []cty.Value{str("hello"), cty.NumberIntVal(-3), cty.NumberIntVal(2)}, true},
		{"substr", []cty.Value{str("hello"), cty.NumberIntVal(-3), cty.NumberIntVal(0)}, true},
		{"substr", []cty.Value{str("hello"), cty.NumberIntVal(-9), cty.NumberIntVal(2)}, true},
		{"substr", []cty.Value{str("hello"), cty.NumberIntVal(0), cty.NumberIntVal(0)}, true},
		{"substr", []cty.Value{str("hello"), cty.NumberIntVal(5), cty.NumberIntVal(2)}, true},
		{"substr", []cty.Value{str("hello"), cty.NumberIntVal(6), cty.NumberIntVal(2)}, true},
		{"substr", []cty.Value{str("hello"), cty.NumberIntVal(2), cty.NumberIntVal(99)}, true},
		{"substr", []cty.Value{str(""), cty.NumberIntVal(1), cty.NumberIntVal(1)}, true},
		{"substr", []cty.Value{str(""), cty.NumberIntVal(-1), cty.NumberIntVal(0)}, true},
		{"substr", []cty.Value{str("a\tb"), cty.NumberIntVal(1), cty.NumberIntVal(1)}, true},
		{"substr", []cty.Value{str("a\r\nb"), cty.NumberIntVal(1), cty.NumberIntVal(1)}, false},
		{"substr", []cty.Value{str("héllo"), cty.NumberIntVal(1), cty.NumberIntVal(1)}, false},
		{"substr", []cty.Value{str("hello"), cty.NumberFloatVal(1.5), cty.NumberIntVal(1)}, false},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.name, i), func(t *testing.T) {
			if got := checkShortcut(t, tt.name, tt.args); got != tt.short {
				t.Errorf("%s%#v: shortcut answered: %v, want %v", tt.name, tt.args, got, tt.short)
			}
		})
	}
}

// TestShortcutsInTable checks that the function table's direct calls use
// the shortcuts: keys(), length() and element() of a large collection cost
// no walk over its elements, and so a fixed number of allocations.
func TestShortcutsInTable(t *testing.T) {
	for name, fn := range shortcutFuncs {
		if shortcutOf(fn) == nil {
			t.Errorf("%s has no shortcut", name)
		}
	}
	direct := &DirectCalls{}
	fns := Functions(Options{Direct: direct})
	big := make(map[string]cty.Value, 100)
	for i := range 100 {
		big[fmt.Sprintf("k%03d", i)] = cty.ObjectVal(map[string]cty.Value{"v": cty.NumberIntVal(int64(i))})
	}
	list := make([]cty.Value, 0, len(big))
	for _, v := range big {
		list = append(list, v)
	}
	names := make([]cty.Value, 0, len(big))
	for k := range big {
		names = append(names, cty.StringVal(k))
	}
	for name, limit := range map[string]float64{"length": 10, "keys": 120, "element": 10, "sort": 10} {
		args := []cty.Value{cty.MapVal(big)}
		switch name {
		case "element":
			args = []cty.Value{cty.ListVal(list), cty.NumberIntVal(42)}
		case "sort":
			args = []cty.Value{cty.ListVal(names)}
		}
		call, ok := direct.Lookup(fns[name])
		if !ok {
			t.Fatalf("%s has no direct call", name)
		}
		if _, err := call(args); err != nil {
			t.Fatal(err)
		}
		// A walk of the map allocates for each element and each
		// attribute inside it; keys() allocates for each key anyway.
		if n := testing.AllocsPerRun(20, func() { _, _ = call(args) }); n > limit {
			t.Errorf("%s of a 100-element collection: %.0f allocations, want at most %.0f", name, n, limit)
		}
	}
}

// FuzzShortcuts compares each shortcut with the full call on arbitrary
// values, marked and unknown ones included.
func FuzzShortcuts(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 2, 5, 1, 'a', 5, 1, 'b'},
		{1, 3, 5, 1, 'x', 7, 5, 1, 'y', 8},
		{2, 2, 5, 1, 'a', 9, 5, 1, 'c', 5, 1, 'd', 1},
		{2, 2, 6, 5, 1, 'a', 2, 6, 5, 1, 'b', 3},
		{1, 1, 4, 3, 1, 2, 3},
	} {
		f.Add(seed)
	}
	names := []string{"keys", "length", "merge", "jsonencode", "element", "flatten", "sort", "range", "distinct", "lookup", "coalesce", "compact", "concat",
		"max", "min", "floor", "lower", "join"}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		name := names[int(data[0])%len(names)]
		g := &valueGen{data: data[2:]}
		args := make([]cty.Value, 1)
		switch name {
		case "merge":
			args = make([]cty.Value, 1+int(data[1])%3)
		case "element":
			args = make([]cty.Value, 2)
		case "lookup":
			args = make([]cty.Value, 2+int(data[1])%2)
		case "coalesce", "concat", "max", "min", "join":
			args = make([]cty.Value, 1+int(data[1])%3)
		}
		for i := range args {
			args[i] = g.value(0)
		}
		if name == "lookup" && data[1]%4 < 2 {
			args[1] = cty.StringVal(g.key(0))
		}
		if name == "compact" && data[1]%2 == 0 {
			// compact's argument arrives as a list of strings.
			if v, err := convert.Convert(args[0], cty.List(cty.String)); err == nil {
				args[0] = v
			}
		}
		if name == "element" && data[1]%2 == 0 {
			args[1] = cty.NumberIntVal(int64(int8(data[1])))
		}
		checkShortcut(t, name, args)
	})
}

// valueGen builds cty values from fuzz bytes: small maps, objects, lists,
// tuples and sets of strings, numbers and bools, some of them marked,
// unknown or null.
type valueGen struct{ data []byte }

func (g *valueGen) next() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

func (g *valueGen) value(depth int) cty.Value {
	kind := g.next() % 12
	if depth > 3 && kind < 5 {
		kind += 5
	}
	switch kind {
	case 0, 1:
		elems := g.elems(depth)
		m := make(map[string]cty.Value, len(elems))
		for i, e := range elems {
			m[g.key(i)] = e
		}
		if kind == 1 || !sameTypes(elems) {
			return cty.ObjectVal(m)
		}
		if len(m) == 0 {
			return cty.MapValEmpty(cty.String)
		}
		return cty.MapVal(m)
	case 2:
		elems := g.elems(depth)
		if len(elems) == 0 || !sameTypes(elems) {
			return cty.ListValEmpty(cty.String)
		}
		return cty.ListVal(elems)
	case 3:
		return cty.TupleVal(g.elems(depth))
	case 4:
		elems := g.elems(depth)
		if len(elems) == 0 || !sameTypes(elems) {
			return cty.SetValEmpty(cty.Number)
		}
		return cty.SetVal(elems)
	case 5:
		return cty.StringVal(string(g.key(int(g.next()))))
	case 6:
		return cty.NumberIntVal(int64(g.next()))
	case 7:
		return cty.BoolVal(g.next()%2 == 0)
	case 8:
		return g.value(depth + 1).Mark("sensitive")
	case 9:
		return cty.UnknownVal(g.value(depth + 1).Type())
	case 10:
		return cty.NullVal(g.value(depth + 1).Type())
	default:
		return cty.StringVal("é👍🏽")
	}
}

func (g *valueGen) elems(depth int) []cty.Value {
	out := make([]cty.Value, int(g.next())%4)
	for i := range out {
		out[i] = g.value(depth + 1)
	}
	return out
}

func (g *valueGen) key(i int) string {
	return string(rune('a' + (i+int(g.next()))%5))
}

func sameTypes(vals []cty.Value) bool {
	for _, v := range vals[min(1, len(vals)):] {
		if !v.Type().Equals(vals[0].Type()) {
			return false
		}
	}
	return true
}

// FuzzFormatShortcut compares format()'s shortcut with go-cty on arbitrary
// specifications with a string and a number argument in either order.
func FuzzFormatShortcut(f *testing.F) {
	for _, spec := range []string{"%s-%d", "%s-net-%02d", "%05d %s", "%%%s%3d", "%[1]s%d", "%-3d%s", "%s"} {
		f.Add(spec, "x", int64(-7), false)
	}
	f.Fuzz(func(t *testing.T, spec, s string, n int64, swap bool) {
		args := []cty.Value{cty.StringVal(spec), cty.StringVal(s), cty.NumberIntVal(n)}
		if swap {
			args[1], args[2] = args[2], args[1]
		}
		checkShortcut(t, "format", args)
		checkShortcut(t, "format", args[:2])
	})
}

// FuzzRangeShortcut compares range()'s shortcut with go-cty on arbitrary
// whole and fractional arguments.
func FuzzRangeShortcut(f *testing.F) {
	f.Add(int64(4), int64(0), int64(0), uint8(1), false)
	f.Add(int64(10), int64(1), int64(-4), uint8(3), false)
	f.Add(int64(1), int64(3), int64(0), uint8(2), true)
	f.Fuzz(func(t *testing.T, a, b, c int64, count uint8, frac bool) {
		vals := []cty.Value{cty.NumberIntVal(a), cty.NumberIntVal(b), cty.NumberIntVal(c)}
		if frac {
			vals[1] = cty.NumberFloatVal(float64(b) / 4)
		}
		args := vals[:1+int(count)%3]
		// go-cty builds up to 1024 elements before refusing; keep the
		// oracle's work small.
		if span := a - b; len(args) > 1 && (span > 1<<20 || span < -(1<<20)) {
			return
		}
		checkShortcut(t, "range", args)
	})
}

// TestTryShortcut compares try() and can() answered by their shortcuts,
// which evaluate each expression once, with hcl's functions: the same
// value (marks included) wherever the shortcut answers, and the shortcut
// leaves every try() whose expressions all fail to the full call.
func TestTryShortcut(t *testing.T) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"list":   cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"obj":    cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "u": cty.UnknownVal(cty.String)}),
		"secret": cty.StringVal("s").Mark("sensitive"),
		"u":      cty.UnknownVal(cty.List(cty.String)),
	}}
	closures := func(srcs ...string) []cty.Value {
		var args []cty.Value
		for _, src := range srcs {
			expr, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			args = append(args, customdecode.ExpressionClosureVal(&customdecode.ExpressionClosure{Expression: expr, EvalContext: ctx}))
		}
		return args
	}
	for _, tc := range []struct {
		fn       function.Function
		args     []string
		answered bool
	}{
		{tryfunc.TryFunc, []string{`list[0]`}, true},
		{tryfunc.TryFunc, []string{`list[7]`, `list[1]`}, true},
		{tryfunc.TryFunc, []string{`missing`, `obj.a`, `list[0]`}, true},
		{tryfunc.TryFunc, []string{`obj.u`, `"x"`}, true},
		{tryfunc.TryFunc, []string{`u`, `"x"`}, true},
		{tryfunc.TryFunc, []string{`secret`, `"x"`}, true},
		{tryfunc.TryFunc, []string{`obj`, `"x"`}, true},
		{tryfunc.TryFunc, []string{`list[7]`, `missing`}, false},
		{tryfunc.TryFunc, nil, false},
		{tryfunc.CanFunc, []string{`list[0]`}, true},
		{tryfunc.CanFunc, []string{`list[7]`}, true},
		{tryfunc.CanFunc, []string{`obj.u`}, true},
		{tryfunc.CanFunc, []string{`secret`}, true},
	} {
		args := closures(tc.args...)
		got, ok := shortcutOf(tc.fn)(args)
		if ok != tc.answered {
			t.Errorf("%v: shortcut answered %v, want %v", tc.args, ok, tc.answered)
			continue
		}
		want, err := tc.fn.Call(args)
		if !ok {
			if err == nil {
				t.Errorf("%v: the call gave %#v where the shortcut left it", tc.args, want)
			}
			continue
		}
		if err != nil || !got.RawEquals(want) {
			t.Errorf("%v: shortcut %#v, call %#v (%v)", tc.args, got, want, err)
		}
	}
}

// TestTryOfAppliedUnknowns: try() and can() decide on a reference whose
// only unknowns are what a mocked provider applied (Terraform knows them)
// as on a known value, and on everything else that is not wholly known
// as hcl's functions do.
func TestTryOfAppliedUnknowns(t *testing.T) {
	applied := marks.UnreadSet([]marks.Unread{{Cause: marks.NoSchema, Addr: "aws_thing.r", Applied: true}})
	planned := marks.UnreadSet([]marks.Unread{{Cause: marks.NoSchema, Addr: "aws_thing.r"}})
	thing := func(ms cty.ValueMarks) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"a": cty.ObjectVal(map[string]cty.Value{
			"name":  cty.StringVal("n"),
			"other": cty.UnknownVal(cty.String).WithMarks(ms),
		})})
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"applied": thing(applied),
		"planned": thing(planned),
		"mixed":   thing(cty.NewValueMarks(marks.Unread{Cause: marks.NoSchema, Addr: "aws_thing.r", Applied: true}, marks.Unread{Cause: marks.DataNotRead, Addr: "data.x.y"})),
		"bare":    thing(nil),
	}}
	for _, tc := range []struct {
		fn   function.Function
		src  string
		want cty.Value
	}{
		{tryfunc.TryFunc, `try(applied, null)`, thing(applied)},
		{tryfunc.TryFunc, `try((applied), null)`, thing(applied)},
		{tryfunc.TryFunc, `try(applied.a, null)`, thing(applied).GetAttr("a")},
		{tryfunc.TryFunc, `try(planned, null)`, cty.DynamicVal},
		{tryfunc.TryFunc, `try(mixed, null)`, cty.DynamicVal},
		{tryfunc.TryFunc, `try(bare, null)`, cty.DynamicVal},
		// The unknown itself, and what an expression makes of it, stay
		// undecided: Terraform might find an error there.
		{tryfunc.TryFunc, `try(applied.a.other, "d")`, cty.DynamicVal},
		{tryfunc.TryFunc, `try({ x = applied.a.other }, "d")`, cty.DynamicVal},
		{tryfunc.TryFunc, `try([for k, v in applied : v], [])`, cty.DynamicVal},
		{tryfunc.CanFunc, `can(applied)`, cty.True},
		{tryfunc.CanFunc, `can(planned)`, cty.UnknownVal(cty.Bool)},
		{tryfunc.CanFunc, `can(applied.a.other == "x")`, cty.UnknownVal(cty.Bool)},
	} {
		call, diags := hclsyntax.ParseExpression([]byte(tc.src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		var args []cty.Value
		for _, a := range call.(*hclsyntax.FunctionCallExpr).Args {
			args = append(args, customdecode.ExpressionClosureVal(&customdecode.ExpressionClosure{Expression: a, EvalContext: ctx}))
		}
		got, ok := shortcutOf(tc.fn)(args)
		if !ok || !got.RawEquals(tc.want) {
			t.Errorf("%s: %#v (answered %v), want %#v", tc.src, got, ok, tc.want)
		}
	}
}
