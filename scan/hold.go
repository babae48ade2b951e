package scan

import (
	"sync"
	"sync/atomic"
)

// LargeRoot is how many resource instances (managed and data) a root's
// evaluation must have expanded for the root to pause, in EachHeld,
// until the roots before it have ended. Two large roots evaluated at once
// hold twice the live data, and the collector, pacing the heap to a
// multiple of it, marks more and lets the heap grow higher than one root
// at a time (docs/benchmarks.md, "Whole repositories"). Each root of the
// generated monorepo gen-medium-4 expands 9,999 instances (this is a
// tenth of them); none of the 672 roots of the 34 prepared published
// repositories (scanned with -all-dirs) expands more than 371, so their
// scans run as before. Between 500 and 2,000 the threshold changed
// gen-medium-4's peak by less than its spread.
const LargeRoot = 1000

// hold pauses calls of EachHeld at their steps once they are large: a
// call whose step reports at least min instances waits there until every
// call before it has ended. The lowest call not ended never waits, and
// it waits for nothing of the later calls, so the calls always end.
type hold struct {
	min int
	// first is the lowest index of a call not yet ended; it changes under
	// mu, and a step reads it without mu first.
	first atomic.Int64

	mu    sync.Mutex
	ended sync.Cond
	done  []bool
}

func newHold(n, min int) *hold {
	h := &hold{min: min, done: make([]bool, n)}
	h.ended.L = &h.mu
	return h
}

// step is a step of call i that has expanded instances so far: it
// returns at once while the call is small or every call before it has
// ended, and otherwise once they have.
func (h *hold) step(i, instances int) {
	if instances < h.min || h.first.Load() >= int64(i) {
		return
	}
	h.mu.Lock()
	for h.first.Load() < int64(i) {
		h.ended.Wait()
	}
	h.mu.Unlock()
}

// end records that call i has ended and wakes the calls waiting for it.
func (h *hold) end(i int) {
	h.mu.Lock()
	h.done[i] = true
	first := int(h.first.Load())
	for first < len(h.done) && h.done[first] {
		first++
	}
	h.first.Store(int64(first))
	h.mu.Unlock()
	h.ended.Broadcast()
}
