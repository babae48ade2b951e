package scan

import (
	"fmt"
	"math/rand/v2"
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

// TestEachHeaviestFirst: of the indexes the window lets start, the
// heaviest starts first; the results still come in index order, with no
// more ahead than Each allows.
func TestEachHeaviestFirst(t *testing.T) {
	weights := []int64{1, 5, 4, 3, 2, 1}
	var started []int
	var got []int
	for i, v := range EachHeaviestFirst(len(weights), 1, func(i int) int64 { return weights[i] }, func(i int) int {
		started = append(started, i)
		return -i
	}, nil) {
		if v != -i {
			t.Fatalf("result %d for index %d", v, i)
		}
		got = append(got, i)
	}
	// One goroutine, a window of two: 1 outweighs 0; after them, the
	// lowest index not started is the heaviest in any window.
	if want := []int{1, 0, 2, 3, 4, 5}; fmt.Sprint(started) != fmt.Sprint(want) {
		t.Errorf("started %v, want %v", started, want)
	}
	if fmt.Sprint(got) != "[0 1 2 3 4 5]" {
		t.Errorf("yielded %v, want index order", got)
	}
	for _, par := range []int{2, 3} {
		var taken, maxAhead atomic.Int64
		n := 0
		for i := range EachHeaviestFirst(300, par, func(i int) int64 { return int64(i * 7919 % 13) }, func(i int) int {
			if a := int64(i) - taken.Load(); a > maxAhead.Load() {
				maxAhead.Store(a)
			}
			time.Sleep(time.Duration(rand.IntN(100)) * time.Microsecond)
			return i
		}, nil) {
			if i != n {
				t.Fatalf("parallelism %d: index %d at position %d", par, i, n)
			}
			n++
			taken.Store(int64(n))
		}
		if n != 300 {
			t.Errorf("parallelism %d: %d results", par, n)
		}
		if m := maxAhead.Load(); m > int64(2*par) {
			t.Errorf("parallelism %d: a call ran %d ahead of the results taken", par, m)
		}
	}
}
