package gcpace

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// liveMetric is the heap the previous collection found reachable.
const liveMetric = "/gc/heap/live:bytes"

// allocsMetric counts the bytes allocated on the heap.
const allocsMetric = "/gc/heap/allocs:bytes"

// cyclesMetric counts the completed collections.
const cyclesMetric = "/gc/cycles/total:gc-cycles"

// Percent is the GOGC percentage that lets a heap of live bytes grow by
// headroom bytes before the next collection, clamped to [lo, hi].
func Percent(live, headroom uint64, lo, hi int) int {
	if live == 0 {
		return hi
	}
	p := float64(headroom) / float64(live) * 100
	switch {
	case p >= float64(hi) || math.IsNaN(p):
		return hi
	case p <= float64(lo):
		return lo
	}
	return int(p)
}

// Pacer sets the collector's percentage after every collection from the
// live heap that collection found (see Percent).
type Pacer struct {
	headroom uint64
	lo, hi   int
	// limit is the headroom Start was given: the most that a goal
	// (SizeToWork) may add past the live heap.
	limit uint64
	// works sizes the heap's goal to the pieces of work (SizeToWork);
	// nil when it does not.
	works *works
	// Above large bytes of live heap, the floor is largeLo instead of lo
	// (Tighten); large 0 is no such bound.
	large   uint64
	largeLo int

	mu      sync.Mutex
	stopped bool
	old     int    // the percentage before Start, restored by Stop
	cycles  int    // collections seen, for tests
	applied uint64 // the collections count the percentage was last set for
}

// sentinel is allocated once per collection cycle; its finalizer runs after
// the collection that found it unreachable. It holds a pointer so that it
// never comes from the tiny allocator, whose objects may never be freed.
type sentinel struct{ p *Pacer }

// Start sets the percentage for the current heap and then keeps it set
// after every collection until Stop.
func Start(headroom uint64, lo, hi int) *Pacer {
	p := &Pacer{headroom: headroom, limit: headroom, lo: lo, hi: hi}
	p.mu.Lock()
	p.old = debug.SetGCPercent(p.percent(LiveHeap()))
	p.mu.Unlock()
	p.arm()
	return p
}

// arm attaches the per-cycle callback to a fresh, unreachable sentinel.
//
// It is a finalizer, not a runtime.AddCleanup cleanup, for promptness:
// the runtime queues both when it sweeps the sentinel's span, which for
// an object this small is among the first swept after a collection, but
// it wakes the finalizer goroutine at once and holds cleanups back in
// per-CPU batches until the whole heap is swept. While every CPU is busy
// evaluating, sweeping ends only shortly before the next collection, so a
// cleanup left the percentage of the previous live heap in force for
// most of a cycle: when the live heap had doubled meanwhile, the heap grew
// well past the headroom (a scan of terraform-aws-vpc peaked at 64-136 MiB
// from run to run with a cleanup, 67-84 MiB with a finalizer;
// docs/benchmarks.md).
func (p *Pacer) arm() {
	runtime.SetFinalizer(&sentinel{p: p}, func(s *sentinel) { s.p.collected() })
}

// collected runs on the finalizer goroutine after a collection.
func (p *Pacer) collected() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.cycles++
	p.applied = collections()
	live := LiveHeap()
	p.works.collected(live)
	debug.SetGCPercent(p.percent(live))
	p.arm()
}

// Follow sets the percentage for the last collection when the finalizer
// has not yet done so. The finalizer runs within milliseconds of most
// collections, but one that runs while the next collection is marking
// leaves a sentinel that collection marks too, and so misses it: the
// percentage set for the live heap before stays in force for a whole
// cycle, and when the live heap has grown meanwhile the heap grows past
// the headroom (in a terraform-google-kubernetes-engine scan whose live heap
// went from 13 to 29 MB, the goal was 99 MB instead of 61). A program
// with frequent points between pieces of work (a scan, between roots)
// calls Follow there to bound that lag. A nil Pacer does nothing.
func (p *Pacer) Follow() {
	if p == nil {
		return
	}
	n := collections()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || n == p.applied {
		return
	}
	p.applied = n
	live := LiveHeap()
	p.works.collected(live)
	debug.SetGCPercent(p.percent(live))
}

// SetHeadroom changes how much the heap may grow past the live data
// before a collection, from now on: a process whose live data will be
// large relative to what one piece of work needs (a scan of many root
// modules keeping shared parses) keeps its garbage, not its heap, within
// a bound.
func (p *Pacer) SetHeadroom(headroom uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.headroom = headroom
	debug.SetGCPercent(p.percent(LiveHeap()))
}

// Tighten lowers the percentage's floor to lo, from now on, whenever the
// live heap exceeds large bytes: the heap may then grow by lo percent of
// the live data before a collection instead of by the floor Start set
// (Go's default of 100 for the command). A scan that evaluates several
// large roots at once holds their live data together, and the default
// pace lets the heap grow to twice that; a lower floor for such heaps
// alone costs collections only where the peak is made.
func (p *Pacer) Tighten(large uint64, lo int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.large, p.largeLo = large, lo
	debug.SetGCPercent(p.percent(LiveHeap()))
}

// floorFor is the least percentage for a live heap of live bytes: the
// floor for large heaps above the size Tighten set, the Pacer's own
// below it.
func (p *Pacer) floorFor(live uint64) int {
	if p.large > 0 && live > p.large {
		return p.largeLo
	}
	return p.lo
}

// percent is the percentage for a live heap of live bytes: Percent with
// the Pacer's headroom (as the pieces of work trim it, TrimToWork),
// bounds, and floor for large heaps (as the pieces of work lower it,
// FloorToWork).
func (p *Pacer) percent(live uint64) int {
	lo := p.floorFor(live)
	garbage := p.works.garbage(p.headroom)
	lo = p.works.lowFloor(live, garbage, lo)
	pct := Percent(live, garbage, lo, p.hi)
	// A goal set by the pieces of work bounds the heap itself, so the
	// cap for small heaps does not apply to it.
	if extra := p.works.headroom(live, p.limit); extra > 0 && live > 0 {
		pct = max(pct, Percent(live, extra, lo, math.MaxInt32))
	}
	return pct
}

// Stop ends the pacing and restores the percentage Start found.
func (p *Pacer) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		debug.SetGCPercent(p.old)
	}
}

// seen reports how many collections the Pacer has followed.
func (p *Pacer) seen() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cycles
}

// collections reads how many collections have completed.
func collections() uint64 { return readMetric(cyclesMetric) }

// allocated reads how many bytes have been allocated on the heap since
// the process started.
func allocated() uint64 { return readMetric(allocsMetric) }

// LiveHeap reads the live heap the last collection found, in bytes; 0
// when the runtime does not say.
func LiveHeap() uint64 { return readMetric(liveMetric) }

// readMetric reads a runtime metric that is a count; 0 when the runtime
// has none by that name.
func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
