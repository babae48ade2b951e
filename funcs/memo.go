package funcs

import "sync"

// memo keeps values by key for the life of one function table (one
// evaluation), or of a Cache shared by many, safe for concurrent calls. A
// limit, when set, bounds the total size of what it keeps: past it, put
// keeps nothing more and callers compute again, or with evict, the values
// kept longest are dropped to make room.
type memo[V any] struct {
	mu    sync.Mutex
	m     map[string]memoEntry[V]
	size  int
	limit int // 0: no bound
	evict bool
	// order lists the keys in the order they were kept, from head on,
	// when evict is set.
	order []string
	head  int
}

// memoEntry is one value kept and the size it was counted at.
type memoEntry[V any] struct {
	v    V
	size int
}

// get is the value kept for key.
func (c *memo[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return e.v, ok
}

// put keeps v for key, counting size against the limit, unless the limit
// would be passed; it reports whether v is kept. A value already kept for
// key is replaced.
func (c *memo[V]) put(key string, v V, size int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, replace := c.m[key]
	grow := size
	if replace {
		grow -= old.size
	}
	if c.limit > 0 && c.size+grow > c.limit {
		if !c.evict || size > c.limit {
			return false
		}
		for c.size+grow > c.limit && c.head < len(c.order) {
			k := c.order[c.head]
			c.order[c.head] = ""
			c.head++
			if k == key {
				// Replaced below, counted as new.
				grow = size
			}
			c.size -= c.m[k].size
			delete(c.m, k)
		}
		if c.head > len(c.order)/2 {
			c.order = append(c.order[:0], c.order[c.head:]...)
			c.head = 0
		}
	}
	if c.m == nil {
		c.m = map[string]memoEntry[V]{}
	}
	if _, kept := c.m[key]; !kept && c.evict {
		c.order = append(c.order, key)
	}
	c.m[key] = memoEntry[V]{v: v, size: size}
	c.size += grow
	return true
}
