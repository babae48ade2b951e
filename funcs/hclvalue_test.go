package funcs

import (
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// hclwriteExpr and hclwriteAttributes are what encode_expr and
// encode_tfvars gave when they wrote through hcl's writer, which the
// test binary alone links.
func hclwriteExpr(v cty.Value) string {
	return string(hclwrite.Format(hclwrite.TokensForValue(v).Bytes()))
}

func hclwriteAttributes(names []string, vals map[string]cty.Value) string {
	f := hclwrite.NewEmptyFile()
	for _, name := range names {
		f.Body().SetAttributeValue(name, vals[name])
	}
	return string(hclwrite.Format(f.Bytes()))
}

// hclValueCases are values of every kind and of the layout's corners.
func hclValueCases() []cty.Value {
	o := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	s := cty.StringVal
	n := cty.NumberIntVal
	huge, _, _ := big.ParseFloat("1e400", 10, 512, big.ToNearestEven)
	tiny, _, _ := big.ParseFloat("-1.25e-30", 10, 512, big.ToNearestEven)
	return []cty.Value{
		cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.String), cty.NullVal(cty.List(cty.String)),
		cty.True, cty.False,
		n(0), n(-5), n(1 << 62), cty.NumberFloatVal(0.1), cty.NumberFloatVal(-2.5e-7), cty.NumberVal(huge),
		cty.NumberVal(tiny), cty.PositiveInfinity, cty.NegativeInfinity, cty.MustParseNumberVal("-0"),
		s(""), s("plain"), s("a\nb\r\tc\"d\\e"), s("${x} %{if y}z%{endif} $${q} %%{r} $ % ${ %{"), s("$$${x}"),
		s("\x00\x1f\x7f\u00a0\u200b\u2028\ufeff\U0001F600\U000E0001"), s("é e\u0301 日本 👩‍👩‍👧"), s("tail $"),
		s("bad \xff utf8"), s("{}[]=,"),
		cty.EmptyObjectVal, cty.EmptyTupleVal, cty.ListValEmpty(cty.String), cty.SetValEmpty(cty.Number),
		cty.MapValEmpty(cty.Bool),
		cty.ListVal([]cty.Value{n(1), n(-2), cty.PositiveInfinity}),
		cty.SetVal([]cty.Value{s("b"), s("a"), s("${c}")}),
		cty.TupleVal([]cty.Value{cty.EmptyObjectVal, cty.EmptyTupleVal, cty.NullVal(cty.Bool), s("x")}),
		o(map[string]cty.Value{"a": n(1), "bbb": s("x"), "c": cty.True}),
		o(map[string]cty.Value{
			"a": n(1), "two words": cty.EmptyObjectVal, "zz": o(map[string]cty.Value{"q": cty.True, "qq": cty.False}),
			"é": cty.NullVal(cty.String), "e\u0301e\u0301": n(2), "1x": n(3), "null": n(4), "a-b": n(5), "-a": n(6),
			"${x}": n(7), "$${": n(8), "%{": n(9), "\"q\"": n(10), "": n(11), "日本": n(12), "x\ny": n(13),
			"in": n(14), "for": n(15), "_": n(16), "a.b": n(17), "\u0301lead": n(18), "{\u0301": n(19),
		}),
		cty.TupleVal([]cty.Value{
			o(map[string]cty.Value{"a": n(1)}),
			o(map[string]cty.Value{"bbb": cty.PositiveInfinity, "c": cty.NegativeInfinity}),
			n(3),
			o(map[string]cty.Value{"d": o(map[string]cty.Value{"e": cty.ListVal([]cty.Value{o(map[string]cty.Value{"f": n(1)})})})}),
		}),
		cty.MapVal(map[string]cty.Value{"k": n(1), "long key": n(2), "x\ty": n(3)}),
		o(map[string]cty.Value{
			"k1": cty.TupleVal([]cty.Value{n(1), o(map[string]cty.Value{"x": n(1), "yy": cty.EmptyTupleVal})}),
			"k2": n(2), "long key": cty.TupleVal([]cty.Value{cty.TupleVal([]cty.Value{o(map[string]cty.Value{"x": n(1)})}), n(2)}),
			"k3": cty.EmptyObjectVal,
		}),
		o(map[string]cty.Value{"a": o(map[string]cty.Value{"b": o(map[string]cty.Value{"c": o(map[string]cty.Value{"d": n(1)})})}), "b": n(1), "cc": n(2)}),
	}
}

// TestHCLValueText holds hclValueExpr and hclAttributes to hcl's writer.
func TestHCLValueText(t *testing.T) {
	vals := map[string]cty.Value{}
	for i, v := range hclValueCases() {
		if got, want := hclValueExpr(v), hclwriteExpr(v); got != want {
			t.Errorf("case %d, %#v:\ngot:\n%s\nhcl's writer:\n%s", i, v, got, want)
		}
		vals[strings.Repeat("v", i%7+1)+string(rune('a'+i%26))] = v
	}
	checkHCLAttributes(t, vals)
	checkHCLAttributes(t, map[string]cty.Value{})
}

func checkHCLAttributes(t *testing.T, vals map[string]cty.Value) {
	t.Helper()
	names := make([]string, 0, len(vals))
	for name := range vals {
		names = append(names, name)
	}
	sort.Strings(names)
	if got, want := hclAttributes(names, vals), hclwriteAttributes(names, vals); got != want {
		t.Errorf("attributes %v:\ngot:\n%s\nhcl's writer:\n%s", names, got, want)
	}
}

// FuzzHCLValueText builds a value from the input, strings and names
// included, and holds both writers to hcl's.
func FuzzHCLValueText(f *testing.F) {
	f.Add([]byte("o2a\x00n1s3${x}l2n5n9"))
	f.Add([]byte("t3o1k\x00s0ol0m1kk\x00nx"))
	f.Add([]byte("o3a b\x00t2o1c\x00n1n2é\x00fb\x00ni"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &hclValueGen{data: data}
		v := g.value(0)
		if got, want := hclValueExpr(v), hclwriteExpr(v); got != want {
			t.Fatalf("%#v:\ngot:\n%s\nhcl's writer:\n%s", v, got, want)
		}
		if v.Type().IsObjectType() || v.Type().IsMapType() {
			vals := map[string]cty.Value{}
			var names []string
			for it := v.ElementIterator(); it.Next(); {
				k, e := it.Element()
				if !hclsyntax.ValidIdentifier(k.AsString()) {
					continue
				}
				names = append(names, k.AsString())
				vals[k.AsString()] = e
			}
			if got, want := hclAttributes(names, vals), hclwriteAttributes(names, vals); got != want {
				t.Fatalf("attributes of %#v:\ngot:\n%s\nhcl's writer:\n%s", v, got, want)
			}
		}
	})
}

// hclValueGen reads a value from bytes: a kind letter, then what the kind
// needs (a count, a string up to a zero byte).
type hclValueGen struct {
	data []byte
}

func (g *hclValueGen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

func (g *hclValueGen) str() string {
	i := 0
	for i < len(g.data) && g.data[i] != 0 && i < 40 {
		i++
	}
	s := string(g.data[:i])
	g.data = g.data[i:]
	if len(g.data) > 0 && g.data[0] == 0 {
		g.data = g.data[1:]
	}
	return s
}

func (g *hclValueGen) value(depth int) cty.Value {
	kind := g.byte()
	if depth > 5 {
		kind = 's'
	}
	count := func() int { return int(g.byte()) % 5 }
	switch kind {
	case 'n':
		b := g.byte()
		switch b % 8 {
		case 0:
			return cty.PositiveInfinity
		case 1:
			return cty.NegativeInfinity
		case 2:
			v, err := cty.ParseNumberVal(g.str())
			if err != nil {
				return cty.NumberIntVal(int64(b))
			}
			return v
		case 3:
			return cty.NumberFloatVal(float64(int8(b)) / 7)
		}
		return cty.NumberIntVal(int64(int8(g.byte())) << (b % 64))
	case 'b':
		return cty.BoolVal(g.byte()%2 == 0)
	case 'z':
		return cty.NullVal(cty.DynamicPseudoType)
	case 't', 'l', 'e':
		n := count()
		elems := make([]cty.Value, n)
		for i := range elems {
			elems[i] = g.value(depth + 1)
		}
		switch {
		case kind == 't' || n == 0:
			return cty.TupleVal(elems)
		case kind == 'l':
			return cty.ListVal(sameType(elems))
		}
		return cty.SetVal(sameType(elems))
	case 'o', 'm':
		n := count()
		attrs := make(map[string]cty.Value, n)
		for i := 0; i < n; i++ {
			attrs[g.str()] = g.value(depth + 1)
		}
		if kind == 'm' && n > 0 {
			keys := make([]string, 0, len(attrs))
			for k := range attrs {
				keys = append(keys, k)
			}
			elems := make([]cty.Value, len(keys))
			for i, k := range keys {
				elems[i] = attrs[k]
			}
			elems = sameType(elems)
			for i, k := range keys {
				attrs[k] = elems[i]
			}
			return cty.MapVal(attrs)
		}
		return cty.ObjectVal(attrs)
	}
	return cty.StringVal(g.str())
}

// sameType makes elements of one type for a list, set or map: those of
// the first element's type are kept, the others replaced by its null.
func sameType(elems []cty.Value) []cty.Value {
	ty := elems[0].Type()
	if ty == cty.DynamicPseudoType {
		ty = cty.String
		elems[0] = cty.NullVal(ty)
	}
	out := make([]cty.Value, len(elems))
	for i, e := range elems {
		if e.Type().Equals(ty) {
			out[i] = e
		} else {
			out[i] = cty.NullVal(ty)
		}
	}
	return out
}
