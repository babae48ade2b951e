package elements

import (
	"reflect"
	"slices"

	"github.com/zclconf/go-cty/cty"
)

// stringSet returns the elements of a set of strings in cty's order
// (lexical, which cty documents for sets of strings), when every element
// is a known string without marks; ok is false otherwise.
//
// cty sorts a set's elements every time it is walked, with a comparison
// that tests the two values for equality before it compares them: walking
// a set of 90,000 strings once costs a second of CPU, where reading the
// strings and sorting them as strings costs a tenth of that. cty gives no
// unsorted access to a set, so the strings are read from the set's own
// buckets with reflection (never written); a value whose layout is not
// the one expected (a later cty, an unknown or marked element) takes
// cty's walk, and TestStringSetMatchesCty holds the two to the same result.
func stringSet(v cty.Value) (elems []cty.Value, ok bool) {
	inner := reflect.ValueOf(v).FieldByName("v")
	if !inner.IsValid() || inner.Kind() != reflect.Interface || inner.IsNil() {
		return nil, false
	}
	buckets := inner.Elem()
	if buckets.Kind() != reflect.Struct {
		return nil, false
	}
	buckets = buckets.FieldByName("vals")
	if !buckets.IsValid() || buckets.Kind() != reflect.Map || buckets.Type().Elem().Kind() != reflect.Slice {
		return nil, false
	}
	strs := make([]string, 0, v.LengthInt())
	for it := buckets.MapRange(); it.Next(); {
		b := it.Value()
		for i := range b.Len() {
			e := b.Index(i)
			if e.Kind() == reflect.Interface {
				e = e.Elem()
			}
			if e.Kind() != reflect.String {
				return nil, false
			}
			strs = append(strs, e.String())
		}
	}
	if len(strs) != v.LengthInt() {
		return nil, false
	}
	slices.Sort(strs)
	elems = make([]cty.Value, len(strs))
	for i, s := range strs {
		// Already in normal form: cty.StringVal normalised it on entry.
		elems[i] = cty.StringVal(s)
	}
	return elems, true
}
