package attrmap

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// small is the most attributes a reused map holds: Go keeps maps of up to
// eight entries in a single group, so a cleared one is as cheap to fill
// and to range over as a new one.
const small = 8

// medium is the most attributes a reused map of the second size holds: a
// merge of a tag object and a map of a few more tags gathers a dozen, and
// a map made for more than eight entries is several allocations.
const medium = 32

// maps and mediumMaps hold cleared maps made for small and medium entries.
var (
	maps       = sync.Pool{New: func() any { return make(map[string]cty.Value, small) }}
	mediumMaps = sync.Pool{New: func() any { return make(map[string]cty.Value, medium) }}
)

// New returns an empty map for n attributes, reused when n is at most medium.
func New(n int) map[string]cty.Value {
	switch {
	case n <= small:
		return maps.Get().(map[string]cty.Value)
	case n <= medium:
		return mediumMaps.Get().(map[string]cty.Value)
	}
	return make(map[string]cty.Value, n)
}

// Release clears m, made by New(n), for reuse; nothing may read it
// afterwards. A map made for more than medium entries, or grown past the
// size it was made for, is not kept, since a cleared map keeps its size.
func Release(m map[string]cty.Value, n int) {
	switch {
	case m == nil:
	case n <= small && len(m) <= small:
		clear(m)
		maps.Put(m)
	case n > small && n <= medium && len(m) <= medium:
		clear(m)
		mediumMaps.Put(m)
	}
}
