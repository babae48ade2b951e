package funcs

import "sync"

// memo keeps values by key for the life of one function table (one
// evaluation), safe for the evaluation's concurrent calls. A limit, when
// set, bounds the total size of what it keeps: past it, put keeps nothing
// more and callers compute again.
type memo[V any] struct {
	mu    sync.Mutex
	m     map[string]V
	size  int
	limit int // 0: no bound
}

// get is the value kept for key.
func (c *memo[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

// put keeps v for key, counting size against the limit for a new key,
// unless the limit would be passed; it reports whether v is kept. A value
// already kept for key is replaced.
func (c *memo[V]) put(key string, v V, size int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		c.m[key] = v
		return true
	}
	if c.limit > 0 && c.size+size > c.limit {
		return false
	}
	if c.m == nil {
		c.m = map[string]V{}
	}
	c.m[key] = v
	c.size += size
	return true
}
