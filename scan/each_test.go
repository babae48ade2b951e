package scan

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestEachOrder: results come in index order whatever the order the
// calls finish in, and no more run ahead than the bound.
func TestEachOrder(t *testing.T) {
	for _, par := range []int{1, 2, 4, 8} {
		var running, ahead, maxAhead atomic.Int64
		var taken atomic.Int64
		got := 0
		for i, v := range Each(200, par, func(i int) int {
			if n := running.Add(1); n > int64(par) {
				t.Errorf("parallelism %d: %d calls at once", par, n)
			}
			defer running.Add(-1)
			a := int64(i) - taken.Load()
			if a > maxAhead.Load() {
				maxAhead.Store(a)
			}
			ahead.Store(a)
			time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			return i * i
		}, nil) {
			if i != got || v != i*i {
				t.Fatalf("parallelism %d: got (%d, %d) at position %d", par, i, v, got)
			}
			got++
			taken.Store(int64(got))
		}
		if got != 200 {
			t.Errorf("parallelism %d: %d results", par, got)
		}
		// The result being waited for, and twice parallelism ahead of it.
		if m := maxAhead.Load(); m > int64(2*par+1) {
			t.Errorf("parallelism %d: a call ran %d ahead of the results taken", par, m)
		}
	}
}

func TestEachPanic(t *testing.T) {
	var results []string
	for _, v := range Each(5, 2, func(i int) string {
		if i == 2 {
			var m map[string]int
			m["boom"]++ // a nil map: the runtime panics
		}
		return fmt.Sprint(i)
	}, func(i int, p *Panic) string {
		d := p.Diagnostic(fmt.Sprintf("root%d", i))
		return d.Summary + ": " + d.Detail
	}) {
		results = append(results, v)
	}
	if len(results) != 5 || results[4] != "4" {
		t.Fatalf("results %q", results)
	}
	msg := results[2]
	for _, frag := range []string{"Internal error: ", "root module root2", "assignment to entry in nil map", "each_test.go:"} {
		if !strings.Contains(msg, frag) {
			t.Errorf("the crash is reported as %q, without %q", msg, frag)
		}
	}
}

// Breaking out of the loop stops the calls not yet started.
func TestEachStop(t *testing.T) {
	var calls atomic.Int64
	for i := range Each(1000, 2, func(i int) int { calls.Add(1); return i }, nil) {
		if i == 3 {
			break
		}
	}
	if n := calls.Load(); n > 10 {
		t.Errorf("%d calls after the loop stopped at the fourth", n)
	}
	for range Each(0, 0, func(i int) int { t.Error("called for no index"); return i }, nil) {
		t.Error("a result for no index")
	}
}

// heapSink keeps TestEachLargeHeap's allocation live.
var heapSink []byte

// Once the live heap has grown by more than LargeHeap, each call starts
// only when no other runs; before, calls run together.
func TestEachLargeHeap(t *testing.T) {
	wait := func(c chan struct{}, what string) {
		select {
		case <-c:
		case <-time.After(time.Minute):
			t.Errorf("waited a minute for %s", what)
		}
	}
	for _, large := range []bool{false, true} {
		heapSink = nil
		runtime.GC()
		var running, most atomic.Int64
		collected := make(chan struct{})
		started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
		for range Each(6, 2, func(i int) int {
			n := running.Add(1)
			defer running.Add(-1)
			switch {
			case i == 0:
				if large {
					heapSink = make([]byte, LargeHeap+16<<20)
				}
				runtime.GC() // the live heap, as the next start sees it
				close(collected)
			case i == 1:
				// Ends after the collection, so the third call is
				// started after it.
				wait(collected, "the first call's collection")
			case large:
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
			case i == 2 || i == 3:
				// The third and fourth run together: each waits for
				// the other to start.
				close(started[i-2])
				wait(started[3-i], "another call to run beside it")
			}
			return i
		}, nil) {
		}
		if m := most.Load(); large && m != 1 {
			t.Errorf("after the live heap grew by %d MiB, %d calls ran at once", (LargeHeap+16<<20)>>20, m)
		}
	}
	heapSink = nil
}

// EachCrowded: while crowded reports true, a call starts only when no
// other runs; while it reports false, calls run together.
func TestEachCrowded(t *testing.T) {
	wait := func(c chan struct{}, what string) {
		select {
		case <-c:
		case <-time.After(time.Minute):
			t.Errorf("waited a minute for %s", what)
		}
	}
	for _, crowd := range []bool{false, true} {
		var crowded atomic.Bool
		var running, most atomic.Int64
		set := make(chan struct{})
		started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
		var got []int
		for i, v := range EachCrowded(6, 2, crowded.Load, func(i int) int {
			n := running.Add(1)
			defer running.Add(-1)
			switch {
			case i == 0:
				crowded.Store(crowd)
				close(set)
			case i == 1:
				// Ends after crowded is set, so that the third call,
				// which needs one of the first two to end, asks after.
				wait(set, "the first call")
			case crowd:
				// Gives a call started beside it the time to show.
				for range 100 {
					runtime.Gosched()
				}
				n = max(n, running.Load())
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
			case i == 2 || i == 3:
				// The third and fourth run together: each waits for
				// the other to start.
				close(started[i-2])
				wait(started[3-i], "another call to run beside it")
			}
			return i * 10
		}, nil) {
			if v != i*10 {
				t.Errorf("result %d for call %d", v, i)
			}
			got = append(got, i)
		}
		if len(got) != 6 {
			t.Errorf("crowded %v: results for %v", crowd, got)
		}
		if m := most.Load(); crowd && m != 1 {
			t.Errorf("while crowded, %d calls ran at once", m)
		}
	}
}
