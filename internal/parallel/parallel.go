package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// minItems is the count below which For runs in the calling goroutine:
// smaller batches cost less than handing them out.
const minItems = 256

// chunk is how many consecutive indexes a goroutine takes at a time.
const chunk = 64

// For calls fn(i) for every i in [0, n), on GOMAXPROCS goroutines when n
// is large, and returns when all calls have returned. fn must be safe to
// call concurrently for different indexes. A panic of fn panics again in
// the caller, so that it can be recovered there.
func For(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || n < minItems {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked atomic.Pointer[any] // the first panic of fn, panicked again in the caller
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					panicked.CompareAndSwap(nil, &v)
					next.Store(int64(n)) // the other goroutines stop
				}
			}()
			for {
				start := int(next.Add(chunk)) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					fn(i)
				}
			}
		}()
	}
	wg.Wait()
	if v := panicked.Load(); v != nil {
		panic(*v)
	}
}
