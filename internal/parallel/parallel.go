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
	if n < minItems {
		run(n, 1, 1, fn)
		return
	}
	run(n, runtime.GOMAXPROCS(0), chunk, fn)
}

// Each is For for a few pieces of work that each take long enough to be
// worth a goroutine (parsing a file, loading a module directory), of
// uneven sizes: the goroutines take one index at a time, in increasing
// order, so a caller that numbers the largest pieces first has them
// started first and the last ones to finish are small. With n above 1
// and more than one CPU, fn runs on up to GOMAXPROCS goroutines; a panic
// of fn panics again in the caller, as with For.
func Each(n int, fn func(i int)) {
	run(n, runtime.GOMAXPROCS(0), 1, fn)
}

// run calls fn(i) for every i in [0, n) on up to workers goroutines, each
// taking step consecutive indexes at a time; in the calling goroutine when
// one worker (or one step) is enough.
func run(n, workers, step int, fn func(i int)) {
	workers = min(workers, (n+step-1)/step)
	if workers < 2 {
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
				start := int(next.Add(int64(step))) - step
				if start >= n {
					return
				}
				for i := start; i < min(start+step, n); i++ {
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
