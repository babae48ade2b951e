package attrmap

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestReleasedMapComesBackEmpty(t *testing.T) {
	m := New(2)
	m["a"], m["b"] = cty.True, cty.False
	v := cty.ObjectVal(m)
	Release(m, 2)
	for range 4 {
		if got := New(2); len(got) != 0 {
			t.Fatalf("New returned a map with %d entries", len(got))
		}
	}
	// The object keeps its own copy of the attributes.
	if !v.GetAttr("a").True() || v.GetAttr("b").True() {
		t.Fatalf("object changed after its map was released: %#v", v)
	}
}

func TestLargeMapsAreNotKept(t *testing.T) {
	m := New(small + 1)
	for i := range small + 1 {
		m[string(rune('a'+i))] = cty.NumberIntVal(int64(i))
	}
	Release(m, small+1) // not pooled: it would stay this size
	if len(m) != small+1 {
		t.Fatalf("a large map was cleared: %d entries left", len(m))
	}
}

func TestMapsMadeLargeAreNotKept(t *testing.T) {
	m := New(small + 4)
	m["a"] = cty.True
	Release(m, small+4) // not pooled, though it holds one entry: it was made large
	if len(m) != 1 {
		t.Fatalf("a map made large was cleared")
	}
}

func TestNewAllocatesNothingOnceWarm(t *testing.T) {
	Release(New(3), 3)
	allocs := testing.AllocsPerRun(100, func() {
		m := New(3)
		m["x"] = cty.True
		Release(m, 3)
	})
	if allocs > 0 {
		t.Fatalf("New/Release allocated %.1f times per call", allocs)
	}
}
