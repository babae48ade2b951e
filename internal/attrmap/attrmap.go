package attrmap

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// small is the most attributes a reused map holds: Go keeps maps of up to
// eight entries in a single group, so a cleared one is as cheap to fill
// and to range over as a new one.
const small = 8

// maps holds cleared maps of at most small entries.
var maps = sync.Pool{New: func() any { return make(map[string]cty.Value, small) }}

// New returns an empty map for n attributes, reused when n is small.
func New(n int) map[string]cty.Value {
	if n > small {
		return make(map[string]cty.Value, n)
	}
	return maps.Get().(map[string]cty.Value)
}

// Release clears m, made by New(n), for reuse; nothing may read it
// afterwards. A map made for more than small entries, or grown past them,
// is not kept, since a cleared map keeps its size.
func Release(m map[string]cty.Value, n int) {
	if m == nil || n > small || len(m) > small {
		return
	}
	clear(m)
	maps.Put(m)
}
