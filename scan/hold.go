package scan

import (
	"sync"
	"sync/atomic"
)

// holdEvery is how many steps of the calls running together pass between
// two looks at the live heap: reading it costs a runtime metrics read,
// which a graph walk's steps (one per configuration object) need not pay.
const holdEvery = 64

// hold pauses calls of EachHeld at their steps once the heap has grown
// large: from then on, a call whose index is not the lowest of the calls
// not yet ended waits at its next step until every call before it has
// ended. The lowest never waits, and it waits for nothing of the later
// calls, so the calls always end.
type hold struct {
	// watch says whether the heap is large (heapWatch.large).
	watch func() bool
	// on is set once the heap was found large; steps counts the steps
	// taken until then.
	on    atomic.Bool
	steps atomic.Uint32
	// watchMu guards watch, which the feeder also reads.
	watchMu sync.Mutex

	mu    sync.Mutex
	ended sync.Cond
	done  []bool
	// first is the lowest index of a call not yet ended.
	first int
}

func newHold(n int, watch func() bool) *hold {
	h := &hold{watch: watch, done: make([]bool, n)}
	h.ended.L = &h.mu
	return h
}

// large reports whether the heap has grown past LargeHeap (see
// heapWatch), looking at it again now unless it was found large before.
// The feeder of EachHeld and the steps of its calls ask it.
func (h *hold) large() bool {
	if h.on.Load() {
		return true
	}
	h.watchMu.Lock()
	large := h.watch()
	h.watchMu.Unlock()
	if large {
		h.on.Store(true)
	}
	return large
}

// step is a step of call i: it returns at once until the heap is large,
// and then once every call before i has ended.
func (h *hold) step(i int) {
	if !h.on.Load() {
		if h.steps.Add(1)%holdEvery != 0 || !h.large() {
			return
		}
	}
	h.mu.Lock()
	for h.first < i {
		h.ended.Wait()
	}
	h.mu.Unlock()
}

// end records that call i has ended and wakes the calls waiting for it.
func (h *hold) end(i int) {
	h.mu.Lock()
	h.done[i] = true
	for h.first < len(h.done) && h.done[h.first] {
		h.first++
	}
	h.mu.Unlock()
	h.ended.Broadcast()
}
