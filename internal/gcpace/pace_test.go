package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		live, headroom uint64
		want           int
	}{
		{0, 1024 * mib, 400},        // nothing live yet: the cap
		{10 * mib, 1024 * mib, 400}, // small heap: the cap
		{256 * mib, 1024 * mib, 400},
		{512 * mib, 1024 * mib, 200},
		{800 * mib, 1024 * mib, 128},
		{1024 * mib, 1024 * mib, 100},
		{4096 * mib, 1024 * mib, 100}, // never below Go's default pace
		{1, 0, 100},
	}
	for _, tt := range tests {
		if got := Percent(tt.live, tt.headroom, 100, 400); got != tt.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", tt.live, tt.headroom, got, tt.want)
		}
	}
}

// gogc reads the collector's current percentage.
func gogc(t *testing.T) int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatal("no /gc/gogc:percent metric")
	}
	return int(s[0].Value.Uint64())
}

// collect forces collections until p has followed two more of them.
func collect(t *testing.T, p *Pacer) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for n := p.seen(); p.seen() < n+2; {
		if time.Now().After(deadline) {
			t.Fatal("the Pacer saw no collection in 10 s")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// megabytes returns n MiB of live data.
func megabytes(n int) [][]byte {
	keep := make([][]byte, n)
	for i := range keep {
		keep[i] = make([]byte, 1<<20)
	}
	return keep
}

func TestPacerFollowsCollections(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)

	first := megabytes(64)
	runtime.GC()
	heap := LiveHeap()
	headroom := 3 * heap
	p := Start(headroom, 100, 400)
	defer p.Stop()
	if got, want := gogc(t), Percent(heap, headroom, 100, 400); got < want-5 || got > want+5 {
		t.Errorf("after Start: GOGC %d, want about %d", got, want)
	}

	// The live heap triples: the percentage must follow it down.
	second := megabytes(128)
	collect(t, p)
	grown := LiveHeap()
	if grown < 2*heap {
		t.Fatalf("live heap %d did not grow from %d", grown, heap)
	}
	if got, want := gogc(t), Percent(grown, headroom, 100, 400); got < want-5 || got > want+5 || got > 150 {
		t.Errorf("live heap %d, headroom %d: GOGC %d, want about %d", grown, headroom, got, want)
	}

	// And back up when it shrinks again.
	runtime.KeepAlive(second)
	collect(t, p)
	if got := gogc(t); got < 250 {
		t.Errorf("live heap back to %d: GOGC %d, want about 300", LiveHeap(), got)
	}

	p.Stop()
	if got := gogc(t); got != 100 {
		t.Errorf("after Stop: GOGC %d, want 100 restored", got)
	}
	// A stopped Pacer no longer changes the percentage.
	debug.SetGCPercent(150)
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if got := gogc(t); got != 150 {
		t.Errorf("stopped Pacer changed GOGC to %d", got)
	}
	runtime.KeepAlive(first)
}

func TestSetHeadroom(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	p := Start(1<<40, 100, 400) // headroom far past any live heap: the highest percentage
	defer p.Stop()
	if got := gcPercent(); got != 400 {
		t.Fatalf("percentage %d after Start, want 400", got)
	}
	p.SetHeadroom(1) // a byte of garbage: the lowest percentage
	if got := gcPercent(); got != 100 {
		t.Errorf("percentage %d after SetHeadroom(1), want the lowest, 100", got)
	}
	p.SetHeadroom(1 << 40)
	if got := gcPercent(); got != 400 {
		t.Errorf("percentage %d after SetHeadroom(1 TiB), want the highest, 400", got)
	}
}

// Above its bound, a tightened Pacer's floor is the lower one; below it,
// the floor is Start's, and the headroom decides between the bounds.
func TestTightenPercent(t *testing.T) {
	const mib = 1 << 20
	p := &Pacer{headroom: 24 * mib, lo: 100, hi: 400, large: 96 * mib, largeLo: 75}
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{8 * mib, 300},  // 24 MiB of garbage on 8 MiB
		{48 * mib, 100}, // half the live heap: Start's floor
		{96 * mib, 100}, // at the bound, not above it
		{100 * mib, 75}, // above it: the lower floor
		{1000 * mib, 75},
		{0, 400}, // no live heap measured yet: the highest
	} {
		if got := p.percent(tc.live); got != tc.want {
			t.Errorf("live %d MiB: percentage %d, want %d", tc.live/mib, got, tc.want)
		}
	}
	// A headroom over the lower floor's share of a large heap still
	// decides: 300 MiB of garbage on 200 MiB of live data is 150%.
	p.headroom = 300 * mib
	if got := p.percent(200 * mib); got != 150 {
		t.Errorf("percentage %d, want 150", got)
	}
}

// Tighten sets the percentage at once, for the live heap there is.
func TestTighten(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC() // a live heap measured
	p := Start(1, 100, 400)
	defer p.Stop()
	if got := gcPercent(); got != 100 {
		t.Fatalf("percentage %d after Start, want the lowest, 100", got)
	}
	p.Tighten(1, 60) // every live heap is large
	if got := gcPercent(); got != 60 {
		t.Errorf("percentage %d after Tighten(1, 60), want 60", got)
	}
	p.Tighten(1<<40, 60) // none is
	if got := gcPercent(); got != 100 {
		t.Errorf("percentage %d after Tighten(1 TiB, 60), want 100", got)
	}
}

// gcPercent reads the collector's percentage.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func TestFollow(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	var none *Pacer
	none.Follow() // a nil Pacer does nothing

	p := Start(1<<40, 100, 400) // any live heap here: the highest percentage
	defer p.Stop()
	for {
		before := collections()
		// A percentage left from an earlier live heap, and a collection
		// the finalizer has not followed: Follow sets it.
		debug.SetGCPercent(250)
		p.mu.Lock()
		p.applied = before - 1
		p.mu.Unlock()
		p.Follow()
		got := gcPercent()
		// Followed already: Follow leaves the percentage alone.
		debug.SetGCPercent(250)
		p.Follow()
		again := gcPercent()
		if collections() != before {
			continue // a collection and the finalizer came in between
		}
		if got != 400 {
			t.Errorf("percentage %d after Follow of a collection not followed, want 400", got)
		}
		if again != 250 {
			t.Errorf("percentage %d after Follow of a collection followed, want 250 left alone", again)
		}
		return
	}
}
