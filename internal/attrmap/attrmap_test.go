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
	m := New(medium + 1)
	for i := range medium + 1 {
		m[string(rune('a'+i))] = cty.NumberIntVal(int64(i))
	}
	Release(m, medium+1) // not pooled: it would stay this size
	if len(m) != medium+1 {
		t.Fatalf("a large map was cleared: %d entries left", len(m))
	}
}

func TestMapsMadeLargeAreNotKept(t *testing.T) {
	m := New(medium + 4)
	m["a"] = cty.True
	Release(m, medium+4) // not pooled, though it holds one entry: it was made large
	if len(m) != 1 {
		t.Fatalf("a map made large was cleared")
	}
}

func TestMapsGrownPastTheirSizeAreNotKept(t *testing.T) {
	m := New(2)
	for i := range small + 1 {
		m[string(rune('a'+i))] = cty.True
	}
	Release(m, 2) // not pooled with the small maps: it grew past them
	if len(m) != small+1 {
		t.Fatalf("a small map grown large was cleared")
	}
}

func TestNewAllocatesNothingOnceWarm(t *testing.T) {
	names := make([]string, medium)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	for _, n := range []int{3, small + 4} {
		Release(New(n), n)
		allocs := testing.AllocsPerRun(100, func() {
			m := New(n)
			for _, name := range names[:n] {
				m[name] = cty.True
			}
			Release(m, n)
		})
		if allocs > 0 {
			t.Fatalf("New/Release of %d allocated %.1f times per call", n, allocs)
		}
	}
}
