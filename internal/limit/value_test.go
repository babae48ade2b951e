package limit

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestExpandedSize(t *testing.T) {
	leaf := cty.StringVal("x")
	shared := leaf
	for range 30 {
		shared = cty.ObjectVal(map[string]cty.Value{"a": shared, "b": shared})
	}
	tests := []struct {
		name string
		v    cty.Value
		max  int
		want int
	}{
		{"a string", leaf, 100, 1},
		{"a flat list", cty.ListVal([]cty.Value{leaf, leaf, leaf}), 100, 1 + 3*2},
		{"nested", cty.TupleVal([]cty.Value{cty.ListVal([]cty.Value{leaf})}), 100, 1 + 2 + 3},
		{"marked parts", cty.ListVal([]cty.Value{leaf.Mark("s"), leaf}).Mark("s"), 100, 1 + 2*2},
		{"an unknown object counts its type", cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.List(cty.Number)})), 100, 1 + 2 + 2 + 3},
		{"a null list", cty.NullVal(cty.List(cty.String)), 100, 1 + 2},
		{"a map of strings", cty.MapVal(map[string]cty.Value{"a": leaf, "b": cty.UnknownVal(cty.String), "c": leaf.Mark("s")}), 100, 1 + 3*2},
		{"a set of objects", cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": leaf})}), 100, 1 + 2 + 3},
		{"shared structure stops at the bound", shared, 1000, 1001},
	}
	for _, tt := range tests {
		if got := ExpandedSize(tt.v, tt.max); got != tt.want {
			t.Errorf("%s: ExpandedSize = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestExpandedSizeBounded: the walk visits at most max values, however
// large the value is counted.
func TestExpandedSizeBounded(t *testing.T) {
	v := cty.NumberIntVal(1)
	for range 60 {
		v = cty.TupleVal([]cty.Value{v, v})
	}
	allocs := testing.AllocsPerRun(3, func() { ExpandedSize(v, 100_000) })
	if allocs > 200_000 {
		t.Errorf("%v allocations for a walk bounded at 100,000", allocs)
	}
}

// FuzzExpandedSize checks, on values made of shared parts, that the
// count is exact below the bound and max+1 above it.
func FuzzExpandedSize(f *testing.F) {
	f.Add(uint8(3), uint8(2), uint16(100))
	f.Add(uint8(20), uint8(3), uint16(5000))
	f.Fuzz(func(t *testing.T, levels, width uint8, max uint16) {
		levels, width = levels%40, width%5+1
		v := cty.True
		for range levels {
			elems := make([]cty.Value, width)
			for i := range elems {
				elems[i] = v
			}
			v = cty.TupleVal(elems)
		}
		got := ExpandedSize(v, int(max))
		if got > int(max)+1 {
			t.Fatalf("ExpandedSize = %d, above max+1 = %d", got, int(max)+1)
		}
		if got <= int(max) && got != slowSize(v, 1) {
			t.Fatalf("ExpandedSize = %d, want %d", got, slowSize(v, 1))
		}
	})
}

// slowSize is ExpandedSize without a bound, for small values.
func slowSize(v cty.Value, depth int) int {
	n := depth
	if v.Type().IsTupleType() {
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			n += slowSize(e, depth+1)
		}
	}
	return n
}

// referenceSize is ExpandedSize without a bound and without its
// shortcuts: every value visited, unknown and null ones by their type.
func referenceSize(v cty.Value, depth int) int {
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return referenceTypeSize(v.Type(), depth)
	}
	n := depth
	if ty := v.Type(); ty.IsObjectType() || ty.IsCollectionType() || ty.IsTupleType() {
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			n += referenceSize(e, depth+1)
		}
	}
	return n
}

func referenceTypeSize(ty cty.Type, depth int) int {
	n := depth
	switch {
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			n += referenceTypeSize(at, depth+1)
		}
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			n += referenceTypeSize(et, depth+1)
		}
	case ty.IsCollectionType():
		n += referenceTypeSize(ty.ElementType(), depth+1)
	}
	return n
}

// sizeTestValue builds a value from data: objects, tuples, lists, maps
// and sets nested at random, with unknown, null and marked parts, and
// attribute types small and large enough to take both of the walk's
// ways through an attribute.
func sizeTestValue(data []byte, depth int) cty.Value {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	var build func(depth int) cty.Value
	build = func(depth int) cty.Value {
		b := next()
		if depth > 4 {
			b %= 3
		}
		var v cty.Value
		switch b % 9 {
		case 0:
			v = cty.StringVal("s")
		case 1:
			v = cty.NumberIntVal(int64(b))
		case 2:
			v = cty.True
		case 3, 4:
			attrs := map[string]cty.Value{}
			for i := range int(next()%20) + 1 {
				attrs[string(rune('a'+i))] = build(depth + 1)
			}
			v = cty.ObjectVal(attrs)
		case 5:
			var elems []cty.Value
			for range int(next() % 6) {
				elems = append(elems, build(depth+1))
			}
			v = cty.TupleVal(elems)
		case 6:
			elem := build(depth + 1)
			v = cty.ListVal([]cty.Value{elem, elem})
		case 7:
			elem := build(depth + 1)
			v = cty.MapVal(map[string]cty.Value{"x": elem, "y": elem})
		default:
			v = cty.SetVal([]cty.Value{build(depth + 1)})
		}
		switch next() % 8 {
		case 0:
			v = cty.UnknownVal(v.Type())
		case 1:
			v = cty.NullVal(v.Type())
		case 2:
			v = v.Mark("m")
		}
		return v
	}
	return build(depth)
}

// FuzzExpandedSizeShortcuts holds the walk, which counts small
// collection-free attribute and element types without reading their
// values, to the plain count of every value.
func FuzzExpandedSizeShortcuts(f *testing.F) {
	f.Add([]byte{3, 5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1})
	f.Add([]byte{4, 19, 3, 3, 3, 2, 6, 1, 7, 0, 5, 4, 8, 2, 2, 2, 1, 0, 3, 19})
	f.Add([]byte{5, 5, 3, 19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 6, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		v := sizeTestValue(data, 0)
		want := referenceSize(v, 1)
		for _, max := range []int{want - 1, want, want + 1, 1 << 20} {
			if max < 0 {
				continue
			}
			got := ExpandedSize(v, max)
			if max >= want && got != want || max < want && got != max+1 {
				t.Fatalf("ExpandedSize(%#v, %d) = %d, want %d (max+1 above)", v, max, got, want)
			}
		}
	})
}

// TestTypeValues counts the values of a type's values, each repetition of
// a shared part again, and stops at the bound.
func TestTypeValues(t *testing.T) {
	shared := cty.List(cty.String)
	for range 40 {
		shared = cty.Tuple([]cty.Type{shared, shared})
	}
	for _, tt := range []struct {
		name string
		ty   cty.Type
		want int
	}{
		{"a string", cty.String, 1},
		{"an object", cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.List(cty.Number)}), 1 + 1 + 2},
		{"a tuple", cty.Tuple([]cty.Type{cty.Bool, cty.Bool, cty.EmptyObject}), 4},
		{"shared parts stop at the bound", shared, 1001},
	} {
		if got := TypeValues(tt.ty, 1000); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestEqualityCost: comparing primitives costs nothing beyond the step;
// comparing structures costs their walks, shared parts every time.
func TestEqualityCost(t *testing.T) {
	s := cty.StringVal("x")
	shared := cty.ObjectVal(map[string]cty.Value{"a": s})
	for range 12 {
		shared = cty.ObjectVal(map[string]cty.Value{"a": shared, "b": shared})
	}
	if c := EqualityCost(s, cty.NumberIntVal(1)); c != 0 {
		t.Errorf("two primitives cost %d", c)
	}
	if c := EqualityCost(shared, shared); c != 4*int64(ExpandedSize(shared, DefaultMaxValueSize)) {
		t.Errorf("a structure of expanded size %d costs %d", ExpandedSize(shared, DefaultMaxValueSize), c)
	}
	if c := EqualityCost(s.Mark("sensitive"), cty.ListVal([]cty.Value{s, s}).Mark("sensitive")); c != 2*(1+5) {
		t.Errorf("a marked string and list cost %d", c)
	}
}
