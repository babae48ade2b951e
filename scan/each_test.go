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
