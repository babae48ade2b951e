package elements

import (
	"math/big"
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// sharedKeys is how many index keys are made once and shared; longer
// lists and tuples get new keys past it, as cty makes them.
const sharedKeys = 1024

// indexKeys holds cty.NumberIntVal(i) for every i below sharedKeys. cty
// values are immutable, so one value can serve every iteration; they are
// made on first use, so that a program that never iterates (tfeval console
// answering one expression) does not pay for them at start.
var indexKeys = sync.OnceValue(func() []cty.Value {
	keys := make([]cty.Value, sharedKeys)
	for i := range keys {
		keys[i] = cty.NumberIntVal(int64(i))
	}
	return keys
})

// Iterator walks the elements of a collection, tuple, or object.
type Iterator struct {
	coll cty.Value
	// set holds the elements of a large set of strings, each its own key
	// (stringSet).
	set []cty.Value
	// it is cty's own iterator, for everything else but lists and tuples.
	it   cty.ElementIterator
	i, n int
}

// minStringSet is the size from which a set of strings is walked from its
// strings (stringSet): smaller ones cost cty little to sort.
const minStringSet = 64

// Of returns an iterator over the elements of v, which must be known,
// not null and without marks of its own, as for v.ElementIterator.
func Of(v cty.Value) Iterator {
	ty := v.Type()
	if ty.IsListType() || ty.IsTupleType() {
		return Iterator{coll: v, i: -1, n: v.LengthInt()}
	}
	if ty.IsSetType() && ty.ElementType() == cty.String && v.LengthInt() >= minStringSet {
		if elems, ok := stringSet(v); ok {
			return Iterator{set: elems, i: -1, n: len(elems)}
		}
	}
	return Iterator{it: v.ElementIterator()}
}

// Next advances to the next element and reports whether there is one.
func (e *Iterator) Next() bool {
	if e.it != nil {
		return e.it.Next()
	}
	e.i++
	return e.i < e.n
}

// Element returns the current element's key and value.
func (e *Iterator) Element() (key, value cty.Value) {
	if e.it != nil {
		return e.it.Element()
	}
	if e.set != nil {
		return e.set[e.i], e.set[e.i]
	}
	key = Index(e.i)
	return key, e.coll.Index(key)
}

// Index returns the number i as cty.NumberIntVal does, shared when it is small.
func Index(i int) cty.Value {
	return Number(int64(i))
}

// Number returns cty.NumberIntVal(n), shared when n is a small index.
func Number(n int64) cty.Value {
	if n >= 0 && n < sharedKeys {
		return indexKeys()[n]
	}
	return cty.NumberIntVal(n)
}

// sharedFloats maps each value Number shares to its number, read once.
var sharedFloats = sync.OnceValue(func() map[cty.Value]*big.Float {
	keys := indexKeys()
	m := make(map[cty.Value]*big.Float, len(keys))
	for _, k := range keys {
		m[k] = k.AsBigFloat()
	}
	return m
})

// BigFloat returns the number of v as v.AsBigFloat does. For a value
// Number shares (count.index, an element's index, a small length), it
// returns the number read once instead of a copy: reading a number from a
// cty value copies it, two allocations each time an index is written out
// or taken a remainder of. The result may be shared, and must not be
// modified.
func BigFloat(v cty.Value) *big.Float {
	if v.Type() == cty.Number && v.IsKnown() && !v.IsMarked() {
		if f, ok := sharedFloats()[v]; ok {
			return f
		}
	}
	return v.AsBigFloat()
}
