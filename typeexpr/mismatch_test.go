package typeexpr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

func TestMismatchMessage(t *testing.T) {
	obj := cty.Object
	tier := cty.ObjectWithOptionalAttrs(map[string]cty.Type{"newbats": cty.Number, "public": cty.Bool, "tags": cty.Map(cty.String)}, []string{"public", "tags"})
	tests := []struct {
		got, want cty.Type
		msg       string
	}{
		// go-cty reports any of the three elements; the first by name here.
		{
			obj(map[string]cty.Type{
				"public":  obj(map[string]cty.Type{"newbits": cty.Number, "public": cty.Bool}),
				"private": obj(map[string]cty.Type{"newbits": cty.Number}),
				"data":    obj(map[string]cty.Type{"newbits": cty.Number}),
			}),
			cty.Map(tier),
			`element "data": attribute "newbats" is required`,
		},
		// Two attributes that cannot convert: the first by name.
		{
			obj(map[string]cty.Type{"b": cty.List(cty.String), "a": cty.Tuple([]cty.Type{cty.Bool}), "c": cty.String}),
			obj(map[string]cty.Type{"b": cty.String, "a": cty.Number, "c": cty.String}),
			`attribute "a": number required, but have tuple`,
		},
		// An attribute that cannot convert at all wins over one that can
		// only unsafely, whatever the names.
		{
			obj(map[string]cty.Type{"a": cty.String, "z": cty.List(cty.String)}),
			obj(map[string]cty.Type{"a": cty.Number, "z": cty.Number}),
			`attribute "z": number required, but have list of string`,
		},
		{
			obj(map[string]cty.Type{}),
			obj(map[string]cty.Type{"c": cty.String, "a": cty.String, "b": cty.String}),
			`attributes "a", "b", and "c" are required`,
		},
		{
			obj(map[string]cty.Type{"x": cty.String}),
			obj(map[string]cty.Type{"b": cty.String, "a": cty.String}),
			`attributes "a" and "b" are required`,
		},
		// Past 20, the others are counted rather than named.
		{
			obj(map[string]cty.Type{}),
			manyAttributes(25),
			`attributes "a00", "a01", "a02", "a03", "a04", "a05", "a06", "a07", "a08", "a09", "a10", "a11", "a12", "a13", "a14", "a15", "a16", "a17", "a18", "a19", and 5 others are required`,
		},
		{
			cty.Tuple([]cty.Type{obj(map[string]cty.Type{"p": cty.String, "q": cty.Number}), obj(map[string]cty.Type{"q": cty.Bool, "p": cty.Bool}), cty.Bool}),
			cty.List(obj(map[string]cty.Type{"p": cty.Number, "q": cty.Number})),
			`element 1: attribute "p": number required, but have bool`,
		},
		{
			cty.Map(obj(map[string]cty.Type{"y": cty.Bool, "x": cty.Bool})),
			cty.Map(obj(map[string]cty.Type{"x": cty.Number, "y": cty.Number})),
			`incorrect map element type: attribute "x": number required, but have bool`,
		},
		{cty.String, cty.List(cty.String), "list of string required, but have string"},
		{obj(map[string]cty.Type{"a": cty.String}), cty.List(cty.String), "list of string required"},
		{cty.Tuple([]cty.Type{cty.String, cty.Bool}), cty.List(cty.DynamicPseudoType), "all list elements must have the same type"},
	}
	for _, tt := range tests {
		for range 20 {
			if got := MismatchMessage(tt.got, tt.want); got != tt.msg {
				t.Errorf("MismatchMessage(%#v, %#v) = %q, want %q", tt.got, tt.want, got, tt.msg)
				break
			}
		}
	}
}

// manyAttributes is an object type of n string attributes a00, a01, ...
func manyAttributes(n int) cty.Type {
	atys := map[string]cty.Type{}
	for i := range n {
		atys[fmt.Sprintf("a%02d", i)] = cty.String
	}
	return cty.Object(atys)
}

// randomType is a small random type for TestMismatchMessageMatchesGoCty:
// deep enough to nest objects in collections, with few attribute names so
// that objects share some.
func randomType(r *rand.Rand, depth int) cty.Type {
	// any only matters in the wanted type; values' types never have it.
	prims := []cty.Type{cty.String, cty.Number, cty.Bool, cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType}
	if depth == 0 {
		return prims[r.IntN(len(prims))]
	}
	switch r.IntN(7) {
	case 0:
		return cty.List(randomType(r, depth-1))
	case 1:
		return cty.Set(randomType(r, depth-1))
	case 2:
		return cty.Map(randomType(r, depth-1))
	case 3, 4:
		atys := map[string]cty.Type{}
		var optional []string
		for _, name := range []string{"a", "b", "c", "d"} {
			if r.IntN(3) > 0 {
				atys[name] = randomType(r, depth-1)
				if r.IntN(4) == 0 {
					optional = append(optional, name)
				}
			}
		}
		return cty.ObjectWithOptionalAttrs(atys, optional)
	case 5:
		elems := make([]cty.Type, r.IntN(4))
		for i := range elems {
			elems[i] = randomType(r, depth-1)
		}
		return cty.Tuple(elems)
	}
	return prims[r.IntN(len(prims))]
}

// Wherever go-cty's message does not depend on map order, MismatchMessage
// gives exactly that message; where it does, one of go-cty's messages, and
// always the same one.
func TestMismatchMessageMatchesGoCty(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 22))
	checked, varying := 0, 0
	for range 8000 {
		got, want := randomType(r, 3), randomType(r, 3)
		if got.HasDynamicTypes() || convert.GetConversionUnsafe(got.WithoutOptionalAttributesDeep(), want) != nil {
			continue
		}
		got = got.WithoutOptionalAttributesDeep() // values' types have none
		seen := map[string]bool{}
		for range 40 {
			seen[convert.MismatchMessage(got, want)] = true
		}
		ours := MismatchMessage(got, want)
		// go-cty picks among its candidates by where Go's map iteration
		// happens to start, which favours some: a rare one (1 in 8 for
		// two attributes of a small map) may need many tries to show up.
		for i := 0; !seen[ours] && i < 4000; i++ {
			seen[convert.MismatchMessage(got, want)] = true
		}
		if !seen[ours] {
			t.Fatalf("MismatchMessage(%#v, %#v) = %q, go-cty says one of %v", got, want, ours, seen)
		}
		for range 5 {
			if again := MismatchMessage(got, want); again != ours {
				t.Fatalf("MismatchMessage(%#v, %#v) gave %q, then %q", got, want, ours, again)
			}
		}
		if len(seen) > 1 {
			varying++
		}
		checked++
	}
	if checked < 1000 || varying == 0 {
		t.Fatalf("checked %d mismatches, %d with go-cty varying: the generator needs work", checked, varying)
	}
	t.Logf("checked %d mismatches, %d where go-cty's message varies", checked, varying)
}

// A map that becomes an object lacking several required attributes, or
// with several elements whose type cannot become an optional attribute's,
// is explained by the first in name order, at any depth; go-cty names the
// first missing attribute it meets in Go's map order.
func TestConvertValueMapToObject(t *testing.T) {
	opt := func(atys map[string]cty.Type, optional ...string) cty.Type {
		return cty.ObjectWithOptionalAttrs(atys, optional)
	}
	tests := []struct {
		v    cty.Value
		want cty.Type
		msg  string
	}{
		{
			cty.MapVal(map[string]cty.Value{"x": cty.StringVal("1")}),
			cty.Object(map[string]cty.Type{"d": cty.String, "c": cty.String, "b": cty.String, "a": cty.String}),
			`map has no element for required attribute "a"`,
		},
		{
			cty.ObjectVal(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{
				cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}),
				cty.MapVal(map[string]cty.Value{"q": cty.StringVal("1")}),
			})}),
			cty.Object(map[string]cty.Type{"outer": cty.List(cty.Object(map[string]cty.Type{"a": cty.String, "z": cty.String, "y": cty.String}))}),
			`map has no element for required attribute "y"`,
		},
		{
			cty.MapVal(map[string]cty.Value{"b": cty.ListValEmpty(cty.String), "a": cty.ListValEmpty(cty.String)}),
			opt(map[string]cty.Type{"a": cty.Number, "b": cty.Number}, "a", "b"),
			`map element type is incompatible with attribute "a": number required, but have list of string`,
		},
	}
	for _, tt := range tests {
		for range 30 {
			_, err := ConvertValue(tt.v, tt.want)
			if err == nil {
				t.Fatalf("%#v to %#v converted", tt.v, tt.want)
			}
			if got := err.Error(); got != tt.msg {
				t.Fatalf("%#v to %#v: %q, want %q", tt.v, tt.want, got, tt.msg)
			}
		}
	}
}
