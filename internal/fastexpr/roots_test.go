package fastexpr

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestRootsGet(t *testing.T) {
	r := NewRoots(3)
	r.Put("local", "a", cty.StringVal("first"))
	r.Put("local", "a", cty.StringVal("second")) // as in a map, the last wins
	r.Put("var", "b", cty.True)
	r.Put("each", "key", cty.StringVal("k"))
	r.Put("each", "\u212a", cty.False) // normalizes to "K": each is not used
	tests := []struct {
		root, name string
		want       cty.Value
		ok         bool
	}{
		{"local", "a", cty.StringVal("second"), true},
		{"var", "b", cty.True, true},
		{"var", "a", cty.NilVal, false},
		{"local", "b", cty.NilVal, false},
		{"each", "key", cty.NilVal, false},
		{"count", "index", cty.NilVal, false},
	}
	for _, tt := range tests {
		got, ok := r.get(tt.root, tt.name)
		if ok != tt.ok || got != tt.want {
			t.Errorf("get(%s.%s) = %#v, %v; want %#v, %v", tt.root, tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// TestRootsGetMany: past linearRoots attributes Roots finds them by its
// index, with the answers of the scan: the last Put of a name wins, and a
// root with a name not to use is not used, whichever comes first.
func TestRootsGetMany(t *testing.T) {
	for _, n := range []int{linearRoots - 1, linearRoots, linearRoots + 1, 3 * linearRoots, 5000} {
		r := NewRoots(0)
		for i := range n {
			r.Put("var", fmt.Sprint("v", i), cty.NumberIntVal(int64(i)))
			if i == n/2 {
				r.Put("each", "\u212a", cty.False) // each is not used, whatever follows
				r.Put("each", "key", cty.StringVal("k"))
			}
		}
		r.Put("var", "v0", cty.StringVal("last")) // as in a map, the last wins
		r.Put("local", "a", cty.True)
		if n > linearRoots && r.index == nil {
			t.Errorf("%d attributes: no index", n)
		}
		tests := []struct {
			root, name string
			want       cty.Value
			ok         bool
		}{
			{"var", "v0", cty.StringVal("last"), true},
			{"var", fmt.Sprint("v", n-1), cty.NumberIntVal(int64(n - 1)), true},
			{"var", fmt.Sprint("v", n), cty.NilVal, false},
			{"local", "a", cty.True, true},
			{"local", "b", cty.NilVal, false},
			{"each", "key", cty.NilVal, false},
			{"count", "index", cty.NilVal, false},
		}
		for _, tt := range tests {
			got, ok := r.get(tt.root, tt.name)
			if ok != tt.ok || !got.RawEquals(tt.want) {
				t.Errorf("%d attributes: get(%s.%s) = %#v, %v; want %#v, %v", n, tt.root, tt.name, got, ok, tt.want, tt.ok)
			}
		}
	}
}

// BenchmarkRootsMany records and reads the 5,000 variables one expression
// of a generated module may name: linear with the index, quadratic by a
// scan (about 250 ms an operation by a scan, 2 ms with the index).
func BenchmarkRootsMany(b *testing.B) {
	names := make([]string, 5000)
	for i := range names {
		names[i] = fmt.Sprint("quota_", i)
	}
	for b.Loop() {
		r := NewRoots(len(names))
		for _, n := range names {
			r.Put("var", n, cty.True)
		}
		for _, n := range names {
			if _, ok := r.get("var", n); !ok {
				b.Fatal(n)
			}
		}
	}
}

func TestNewRootsHasRoom(t *testing.T) {
	names := make([]string, 20)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 8, 9, linearRoots} {
		r := NewRoots(n)
		allocs := testing.AllocsPerRun(1, func() {
			r.attrs, r.index = r.attrs[:0], nil
			for _, name := range names[:n] {
				r.Put("var", name, cty.True)
			}
		})
		if allocs > 0 {
			t.Errorf("NewRoots(%d) had no room for %d attributes: %.0f allocations", n, n, allocs)
		}
	}
}

// TestTraversalReadsRoots checks that a reference reads the attribute a
// context records in its Roots, found where the root name is, and that
// one a child context shadows, or a context records nothing for, is read
// from the object as before.
func TestTraversalReadsRoots(t *testing.T) {
	attrs := map[string]cty.Value{"x": cty.StringVal("x"), "o": cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(1)})}
	parent := &hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(attrs)}}
	roots := NewRoots(2)
	for name, v := range attrs {
		roots.Put("local", name, v)
	}
	roots.Define(parent.Variables)
	shadowing := parent.NewChild()
	shadowing.Variables = map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("child")})}
	g := &Guard{}
	for _, tt := range []struct {
		src  string
		ctx  *hcl.EvalContext
		want cty.Value
	}{
		{"local.x", parent, cty.StringVal("x")},
		{"local.o.n", parent, cty.NumberIntVal(1)},
		{"local.x", parent.NewChild(), cty.StringVal("x")},
		{"local.x", shadowing, cty.StringVal("child")},
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(tt.src), "test.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		fast, _ := g.compile(expr, false, nil)
		got, ok := fast.(fastTraversal).fast(tt.ctx)
		if !ok || !got.RawEquals(tt.want) {
			t.Errorf("%s = %#v, %v; want %#v", tt.src, got, ok, tt.want)
		}
	}
	// The record, not the object, is read: only a test can make them differ.
	odd := &hcl.EvalContext{Variables: map[string]cty.Value{"local": cty.ObjectVal(attrs)}}
	oddRoots := NewRoots(1)
	oddRoots.Put("local", "x", cty.StringVal("recorded"))
	oddRoots.Define(odd.Variables)
	expr, _ := hclsyntax.ParseExpression([]byte("local.x"), "test.tf", hcl.InitialPos)
	fast, _ := g.compile(expr, false, nil)
	if got, ok := fast.(fastTraversal).fast(odd); !ok || !got.RawEquals(cty.StringVal("recorded")) {
		t.Errorf("local.x = %#v, %v; want the recorded value", got, ok)
	}
	// What a context records is what its object holds.
	if v, ok := rootAttrIn(parent, "local", "x"); !ok || v != attrs["x"] {
		t.Errorf("the roots of the parent do not record local.x")
	}
	if _, ok := rootAttrIn(shadowing, "local", "x"); ok {
		t.Errorf("a context without roots records local.x")
	}
}
