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

// releaseAttrMap clears m for reuse; nothing may read it afterwards. m
// must come from newAttrMap(n) and hold at least n entries, as a decoded
// block's attributes do, so that a map made for more than smallAttrs
// entries, or grown past them, is never pooled: a cleared map keeps its
// size.
func releaseAttrMap(m map[string]cty.Value) {
	if m == nil || len(m) > smallAttrs {
		return
	}
	clear(m)
	attrMaps.Put(m)
}
