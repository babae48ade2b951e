package elements

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestIteratorMatchesCty(t *testing.T) {
	long := make([]cty.Value, sharedKeys+5)
	for i := range long {
		long[i] = cty.NumberIntVal(int64(i * 3))
	}
	for name, v := range map[string]cty.Value{
		"list":        cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"empty list":  cty.ListValEmpty(cty.String),
		"long list":   cty.ListVal(long),
		"long tuple":  cty.TupleVal(long),
		"tuple":       cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("x"), cty.NullVal(cty.Bool), cty.DynamicVal}),
		"empty tuple": cty.EmptyTupleVal,
		"marked":      cty.ListVal([]cty.Value{cty.StringVal("a").Mark("m"), cty.UnknownVal(cty.String)}),
		"set":         cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}),
		"map":         cty.MapVal(map[string]cty.Value{"b": cty.True, "a": cty.False}),
		"object":      cty.ObjectVal(map[string]cty.Value{"z": cty.True, "a": cty.NumberIntVal(2)}),
	} {
		it := Of(v)
		if got, want := walked(&it), walked(v.ElementIterator()); got != want {
			t.Errorf("%s:\n got %v\nwant %v", name, got, want)
		}
	}
}

// walked writes out what an iterator gives, keys and elements, in order.
func walked(it interface {
	Next() bool
	Element() (cty.Value, cty.Value)
}) string {
	var out []string
	for it.Next() {
		k, e := it.Element()
		out = append(out, fmt.Sprintf("%#v=%#v", k, e))
	}
	return fmt.Sprint(out)
}

func TestIteratorAllocations(t *testing.T) {
	elems := make([]cty.Value, 100)
	for i := range elems {
		elems[i] = cty.StringVal("x")
	}
	tuple := cty.TupleVal(elems)
	n := testing.AllocsPerRun(20, func() {
		for it := Of(tuple); it.Next(); {
			it.Element()
		}
	})
	if n != 0 {
		t.Errorf("iterating a tuple of 100 allocates %v times", n)
	}
}

func TestIndex(t *testing.T) {
	for _, i := range []int{0, 1, sharedKeys - 1, sharedKeys, 1 << 40} {
		if got := Index(i); !got.RawEquals(cty.NumberIntVal(int64(i))) {
			t.Errorf("Index(%d) = %#v", i, got)
		}
	}
}

func TestBigFloat(t *testing.T) {
	for _, v := range []cty.Value{Index(0), Index(7), Number(sharedKeys - 1), Number(sharedKeys), Number(-3), cty.NumberIntVal(7), cty.NumberFloatVal(2.5), cty.MustParseNumberVal("1e400")} {
		got, want := BigFloat(v), v.AsBigFloat()
		if got.Cmp(want) != 0 || got.Prec() != want.Prec() || got.Mode() != want.Mode() {
			t.Errorf("BigFloat(%#v) = %s (prec %d, mode %s), AsBigFloat %s (prec %d, mode %s)", v, got, got.Prec(), got.Mode(), want, want.Prec(), want.Mode())
		}
	}
	// A shared index is read without a copy; an equal number that is not
	// the shared value is copied as cty copies it.
	if n := testing.AllocsPerRun(10, func() { BigFloat(Index(5)) }); n != 0 {
		t.Errorf("reading a shared index allocates %v times", n)
	}
	if BigFloat(cty.NumberIntVal(5)) == BigFloat(Index(5)) {
		t.Error("a number that is not the shared value was read as the shared one")
	}
}
