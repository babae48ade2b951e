package tests

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// The benchmarks in this file measure go-cty alone: the constructors and
// accessors every evaluation spends most of its allocations in. They are
// the evidence for the upstream changes docs/benchmarks.md proposes
// ("What go-cty costs"), and show what tfeval cannot save through
// go-cty's API.

// ctyAttrs returns n string attributes, as a decoded block or an object
// constructor hands cty.ObjectVal.
func ctyAttrs(n int) map[string]cty.Value {
	attrs := make(map[string]cty.Value, n)
	for i := range n {
		attrs[fmt.Sprintf("attr_%d", i)] = cty.StringVal("value")
	}
	return attrs
}

// BenchmarkCtyObjectVal builds an object from attributes that exist
// already. go-cty makes, for every object, a map of its values, a map of
// its attribute types (normalizing every name again to build it) and the
// type; values of one block schema or one object constructor share none
// of it, as no constructor takes a type that exists.
func BenchmarkCtyObjectVal(b *testing.B) {
	for _, n := range []int{2, 4, 10} {
		attrs := ctyAttrs(n)
		b.Run(fmt.Sprintf("attrs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cty.ObjectVal(attrs)
			}
		})
	}
}

// BenchmarkCtyGetAttr reads one attribute of an object: go-cty normalizes
// the name (NFC) three times and looks it up four times.
func BenchmarkCtyGetAttr(b *testing.B) {
	obj := cty.ObjectVal(ctyAttrs(10))
	b.ReportAllocs()
	for b.Loop() {
		obj.GetAttr("attr_7")
	}
}

// BenchmarkCtyObjectIterate walks an object's attributes with go-cty's
// element iterator, which sorts the names and makes a string value for
// each, and by name with GetAttr.
func BenchmarkCtyObjectIterate(b *testing.B) {
	obj := cty.ObjectVal(ctyAttrs(10))
	b.Run("ElementIterator", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for it := obj.ElementIterator(); it.Next(); {
				it.Element()
			}
		}
	})
	b.Run("GetAttr", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for name := range obj.Type().AttributeTypes() {
				obj.GetAttr(name)
			}
		}
	})
}

// BenchmarkCtyNumber reads a whole number out of a value (as an index or a
// count does): AsBigFloat copies the number every time.
func BenchmarkCtyNumber(b *testing.B) {
	n := cty.NumberIntVal(42)
	b.ReportAllocs()
	for b.Loop() {
		n.AsBigFloat().Int64()
	}
}
