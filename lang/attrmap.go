package lang

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// smallAttrs is the most attributes a reused attribute map holds: Go keeps
// maps of up to eight entries in a single group, so a cleared one is as
// cheap to fill and to range over as a new one.
const smallAttrs = 8

// attrMaps holds cleared attribute maps of at most smallAttrs entries.
// Decoding a block instance builds its attributes in such a map only for
// cty.ObjectVal to copy them, once per instance of every block.
var attrMaps = sync.Pool{New: func() any { return make(map[string]cty.Value, smallAttrs) }}

// newAttrMap returns an empty map for n attributes, reused when n is small.
func newAttrMap(n int) map[string]cty.Value {
	if n > smallAttrs {
		return make(map[string]cty.Value, n)
	}
	return attrMaps.Get().(map[string]cty.Value)
}

// releaseAttrMap clears m for reuse; nothing may read it afterwards. Maps
// that grew past smallAttrs are left to the collector.
func releaseAttrMap(m map[string]cty.Value) {
	if m == nil || len(m) > smallAttrs {
		return
	}
	clear(m)
	attrMaps.Put(m)
}
