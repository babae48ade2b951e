package gcpace

import "runtime/debug"

// SizeToWork lets the heap grow, from now on, to a goal that follows the
// pieces of work the program marks with StartWork and EndWork (a scan's
// root modules): factor times the most heap any one piece has been
// estimated to need in a process of its own (ownPeak), past the live heap
// found now. Where that goal is further from the live heap than the
// headroom, the heap may grow to it before a collection, within the
// headroom Start was given and the percentage's floor: the goal bounds
// the heap itself, so the percentage's cap for small heaps does not apply
// to it.
//
// A program that does many pieces of work in one process (a scan) holds
// its peak memory to a small multiple of what the largest piece would
// need alone by keeping its garbage within a small headroom; but where the
// pieces need much more than that headroom, collecting that often is work
// the separate processes never do. With factor 2 the goal is at most the
// live heap found now plus twice the largest piece's estimated need, so
// the process's peak stays within about twice that of the largest piece
// run on its own: the goal rises only with pieces that needed it.
func (p *Pacer) SizeToWork(factor uint64) {
	if p == nil {
		return
	}
	live := LiveHeap()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.works = &works{factor: factor, start: live, running: map[*Work]struct{}{}}
	debug.SetGCPercent(p.percent(live))
}

// TrimToWork lowers the headroom (SetHeadroom), from now on, to what the
// pieces of work SizeToWork follows allocate: once one has ended, the
// heap may hold past the live data at most factor times the most any
// piece allocated (its share, where pieces ran at once), but never less
// than floor and never more than the headroom set. Without SizeToWork
// it does nothing.
//
// A fixed headroom is sized for pieces that allocate about as much: where
// every piece allocates a few megabytes, a process that lets several of
// them build up as garbage holds several times the heap any one of them
// needs, and its resident memory passes twice that of the largest
// piece's own process. With factor 2, no piece sees much more than one
// collection on its own account. The most any piece allocated is an
// estimate of its heap that is high rather than low where pieces
// allocate far more than they keep (ownPeak is low rather than high): a
// headroom trimmed by it costs collections only where pieces are small.
func (p *Pacer) TrimToWork(factor, floor uint64) {
	p.setWorks(func(ws *works) { ws.trim, ws.floor = factor, floor })
}

// setWorks changes how the pieces of work SizeToWork follows pace the
// collector, and sets the percentage again for the live heap now. On a
// nil Pacer, a stopped one and without SizeToWork it does nothing.
func (p *Pacer) setWorks(set func(*works)) {
	p.withWorks(func(ws *works, live uint64) {
		set(ws)
		debug.SetGCPercent(p.percent(live))
	})
}

// withWorks calls fn, under the Pacer's lock, with the pieces of work
// SizeToWork follows and the live heap the last collection found. On a
// nil Pacer, a stopped one and without SizeToWork it does not call fn.
func (p *Pacer) withWorks(fn func(ws *works, live uint64)) {
	if p == nil {
		return
	}
	live := LiveHeap()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.works == nil {
		return
	}
	fn(p.works, live)
}

// FloorToWork lowers the percentage's floor, from now on, where it
// alone would let the heap grow past factor (SizeToWork's) times the most
// any piece of work allocated (its share, where pieces ran at once): the
// heap may then grow only to that, or by the headroom past the live data
// where that is further, and never by less than min percent of the live
// data. Before a piece has ended, and without SizeToWork, it does
// nothing.
//
// Where the live heap is more than the headroom (a scan's shared parses
// and two roots in flight), the floor (Go's default of doubling the live
// heap) sets the heap's goal, and with it the peak; a piece's own process
// holds about what it allocates (it rarely collects), so a goal within
// factor times the most a piece allocated keeps the peak within about
// that factor of the largest piece's own.
func (p *Pacer) FloorToWork(min int) {
	p.setWorks(func(ws *works) { ws.minFloor = min })
}

// Work is a piece of work in flight (StartWork).
type Work struct {
	live0, alloc0 uint64 // the live heap and the bytes allocated at its start
	maxLive       uint64 // the most live heap a collection found while it ran
	shared        int    // the most pieces running at once while it ran
}

// StartWork marks a piece of work starting, for SizeToWork; EndWork marks
// its end. Without SizeToWork, and on a nil Pacer, both do nothing.
func (p *Pacer) StartWork() *Work {
	if p == nil {
		return nil
	}
	live, alloc := LiveHeap(), allocated()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.works == nil {
		return nil
	}
	return p.works.begin(live, alloc)
}

// EndWork marks the end of a piece of work StartWork began, and raises
// the heap's goal when the piece needed more than any before it.
func (p *Pacer) EndWork(w *Work) {
	if p == nil || w == nil {
		return
	}
	alloc := allocated()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.works == nil {
		return
	}
	if p.works.end(w, alloc) {
		debug.SetGCPercent(p.percent(LiveHeap()))
	}
}

// works is what SizeToWork keeps: the pieces of work running and the
// goal they have set. Its methods take the runtime's figures as
// arguments, so that its arithmetic does not depend on the collector.
type works struct {
	factor  uint64
	start   uint64 // the live heap when SizeToWork began
	largest uint64 // the most any piece that ended needed (ownPeak)
	// allocs is the most any piece that ended allocated, its share
	// where pieces ran at once (TrimToWork).
	allocs uint64
	// grown is the most the live heap grew while any piece that ended
	// ran, its share where pieces ran at once (Crowded).
	grown   uint64
	running map[*Work]struct{}
	// trim and floor bound the Pacer's headroom by allocs (TrimToWork);
	// trim 0 leaves it as set.
	trim, floor uint64
	// minFloor is the least the percentage's floor is lowered to
	// (FloorToWork); 0 leaves the floor as set.
	minFloor int
}

// begin starts a piece of work at a live heap of live bytes, with alloc
// bytes allocated so far.
func (ws *works) begin(live, alloc uint64) *Work {
	w := &Work{live0: live, alloc0: alloc, maxLive: live}
	ws.running[w] = struct{}{}
	for r := range ws.running {
		r.shared = max(r.shared, len(ws.running))
	}
	return w
}

// collected records a collection that found live bytes of live heap.
func (ws *works) collected(live uint64) {
	if ws == nil {
		return
	}
	for w := range ws.running {
		w.maxLive = max(w.maxLive, live)
	}
}

// end ends a piece of work, with alloc bytes allocated so far, and
// reports whether the pace changed: the goal rose, or with TrimToWork,
// the most a piece allocated (garbage).
func (ws *works) end(w *Work, alloc uint64) bool {
	if _, ok := ws.running[w]; !ok {
		return false
	}
	delete(ws.running, w)
	var allocs, grown uint64
	if alloc > w.alloc0 {
		allocs = alloc - w.alloc0
	}
	if w.maxLive > w.live0 {
		grown = w.maxLive - w.live0
	}
	need := ownPeak(allocs, grown, w.shared)
	share := allocs
	if w.shared > 1 {
		share /= uint64(w.shared)
	}
	trimmed := ws.trim > 0 && share > ws.allocs
	ws.allocs = max(ws.allocs, share)
	if w.shared > 1 {
		grown /= uint64(w.shared)
	}
	ws.grown = max(ws.grown, grown)
	if need <= ws.largest {
		return trimmed
	}
	ws.largest = need
	return true
}

// ownPeak estimates the heap a piece of work would need in a process of
// its own from what it did in this one: it allocated allocs bytes and the
// live heap grew by grown bytes while it ran, with up to shared pieces
// running at once (whose allocations and live data these figures also
// count, so the piece is given its share of them). A short process
// collects rarely: it holds what it allocates, up to a few times its live
// data (the heap of a generated root of 75 MB of live data peaked at about
// twice that in a process of its own). The estimate is the smaller of the
// allocations and twice the live growth: low rather than high, since the
// live growth counts only what collections happened to find, and none
// of the parses this process already held.
func ownPeak(allocs, grown uint64, shared int) uint64 {
	need := min(allocs, 2*grown)
	if shared > 1 {
		need /= uint64(shared)
	}
	return need
}

// headroom is how far the heap may grow past a live heap of live bytes
// to reach the goal, within limit; 0 when there is no goal or the live
// heap has reached it (the Pacer's own headroom then decides).
func (ws *works) headroom(live, limit uint64) uint64 {
	if ws == nil {
		return 0
	}
	goal := ws.start + ws.factor*ws.largest
	if goal <= live {
		return 0
	}
	return min(goal-live, limit)
}

// garbage is the headroom past the live heap for a Pacer whose headroom
// is set to headroom: once a piece of work has ended having allocated
// anything, at most trim times the most any piece allocated, and no less
// than floor (TrimToWork).
func (ws *works) garbage(headroom uint64) uint64 {
	if ws == nil || ws.trim == 0 || ws.allocs == 0 {
		return headroom
	}
	return min(headroom, max(ws.floor, ws.trim*ws.allocs))
}

// Crowded reports whether another piece of work should wait for one of
// those running to end before it starts, from the live heap the last
// collection found: see works.crowded. A program that runs pieces of
// work in parallel (a scan's roots) asks it when one could start beside
// others. Without SizeToWork, and on a nil Pacer, it is always false.
func (p *Pacer) Crowded() (crowded bool) {
	p.withWorks(func(ws *works, live uint64) {
		crowded = ws.crowded(live, p.headroom, p.limit, p.floorFor(live))
	})
	return crowded
}

// crowded reports whether one more piece of work starting beside those
// running, at a live heap of live bytes, would likely take the heap past
// twice what the largest piece would hold in a process of its own. The
// live heap with it is estimated as live plus the most any ended piece
// grew it (grown); for that heap, the Pacer grants past it the larger of
// its garbage bound (headroom, as TrimToWork trims it) and the way to
// the pieces' goal (SizeToWork, within limit), but never less than the
// floor of lo percent of the live heap. It is crowded where the floor
// decides, and the heap's goal, the live heap plus that floor, is more
// than factor times the most any piece allocated (allocs, an estimate of
// a piece's own heap that is high rather than low): two pieces in flight
// whose live data passes the garbage bound get Go's own pace of doubling
// it, which a single piece's process never reaches. Before any piece has
// ended, and with none running, it is never crowded.
func (ws *works) crowded(live, headroom, limit uint64, lo int) bool {
	if ws == nil || len(ws.running) == 0 || ws.allocs == 0 {
		return false
	}
	next := live + ws.grown
	past := max(ws.garbage(headroom), ws.headroom(next, limit))
	floor := next / 100 * uint64(lo)
	return floor > past && next+floor > ws.factor*ws.allocs
}

// lowFloor is the percentage's floor for a live heap of live bytes, whose
// garbage bound is garbage and whose floor is lo (FloorToWork): lo where
// the garbage bound decides (lo percent of live is no more than garbage)
// or where lo lets the heap grow no further than factor times allocs;
// otherwise the percentage that gets the heap to the further of that
// bound and live plus garbage, and no less than minFloor.
func (ws *works) lowFloor(live, garbage uint64, lo int) int {
	if ws == nil || ws.minFloor == 0 || ws.allocs == 0 || live == 0 {
		return lo
	}
	past := live / 100 * uint64(lo)
	bound := ws.factor * ws.allocs
	if past <= garbage || live+past <= bound {
		return lo
	}
	want := garbage
	if bound > live {
		want = max(want, bound-live)
	}
	return min(lo, max(ws.minFloor, int(want/(live/100))))
}
