package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

func TestFor(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 1000, 64*7 + 3} {
		hits := make([]int32, n)
		var calls atomic.Int64
		For(n, func(i int) {
			atomic.AddInt32(&hits[i], 1)
			calls.Add(1)
		})
		if calls.Load() != int64(n) {
			t.Errorf("n=%d: %d calls", n, calls.Load())
		}
		for i, h := range hits {
			if h != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, h)
			}
		}
	}
}

func TestForOneCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var order []int
	For(1000, func(i int) { order = append(order, i) })
	for i, got := range order {
		if got != i {
			t.Fatalf("on one CPU the calls are in order; call %d was for %d", i, got)
		}
	}
}

func TestForPanicsInTheCaller(t *testing.T) {
	defer func() {
		if v := recover(); v != "item 300" {
			t.Errorf("recovered %v, want the panic of fn", v)
		}
	}()
	For(1000, func(i int) {
		if i == 300 {
			panic("item 300")
		}
	})
	t.Error("For returned although fn panicked")
}

func TestEach(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 17} {
		hits := make([]int32, n)
		Each(n, func(i int) { atomic.AddInt32(&hits[i], 1) })
		for i, h := range hits {
			if h != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, h)
			}
		}
	}
}

func TestEachOneCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var order []int
	Each(20, func(i int) { order = append(order, i) })
	if len(order) != 20 {
		t.Fatalf("%d calls, want 20", len(order))
	}
	for i, got := range order {
		if got != i {
			t.Fatalf("on one CPU the calls are in order; call %d was for %d", i, got)
		}
	}
}

func TestEachPanicsInTheCaller(t *testing.T) {
	defer func() {
		if v := recover(); v != "piece 2" {
			t.Errorf("recovered %v, want the panic of fn", v)
		}
	}()
	Each(5, func(i int) {
		if i == 2 {
			panic("piece 2")
		}
	})
	t.Error("Each returned although fn panicked")
}
