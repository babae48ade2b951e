package scan

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// Each calls work(i) for every i in [0, n) on up to parallelism goroutines
// (0 means GOMAXPROCS) and yields (i, result) in index order, each as soon
// as it and every earlier one are done, whatever the scheduling. At most
// twice parallelism results are made ahead of the one being waited for,
// so a long scan holds only a few results at a time.
//
// A call of work that panics does not end the process: its result is
// crashed(i, p), where p says what panicked. Breaking out of the loop
// stops the calls not yet started; Each returns once the running ones
// have returned.
func Each[T any](n, parallelism int, work func(i int) T, crashed func(i int, p *Panic) T) iter.Seq2[int, T] {
	return EachHeaviestFirst(n, parallelism, nil, work, crashed)
}

// EachHeaviestFirst is Each that, of the indexes it may start (those up
// to twice parallelism ahead of the result being waited for), starts the
// one of the highest weight first (the lowest index among equals; nil
// weighs every index the same, which is Each). The results are yielded
// in index order all the same. A scan whose last roots include a large
// one then starts it before the small ones around it, instead of leaving
// it to run alone at the end with the other CPUs idle.
func EachHeaviestFirst[T any](n, parallelism int, weight func(i int) int64, work func(i int) T, crashed func(i int, p *Panic) T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		if parallelism <= 0 {
			parallelism = runtime.GOMAXPROCS(0)
		}
		parallelism = max(1, min(parallelism, n))
		w := &window[T]{n: n, size: 2 * parallelism, weight: weight}
		w.cond.L = &w.mu
		w.slots = make([]slot[T], w.size)
		var wg sync.WaitGroup
		for range parallelism {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i, ok := w.start()
					if !ok {
						return
					}
					w.finish(i, call(i, work, crashed))
				}
			}()
		}
		for i := range n {
			if !yield(i, w.take(i)) {
				w.stop()
				break
			}
		}
		wg.Wait()
	}
}

// window is the indexes of an Each that may be started: size of them
// from the one whose result is awaited (head), each kept in the slot
// i % size from its start until its result is taken.
type window[T any] struct {
	mu     sync.Mutex
	cond   sync.Cond // signalled when a result is ready, the window moves or the loop stops
	n      int
	size   int
	weight func(i int) int64
	slots  []slot[T]
	head   int // the index whose result is awaited next
	next   int // every index below it is started
	quit   bool
}

type slot[T any] struct {
	started, done bool
	result        T
}

// start picks the index to work on next, waiting while every index of
// the window is started; false once there is nothing more to start.
func (w *window[T]) start() (int, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		if w.quit || w.next >= w.n {
			return 0, false
		}
		end := min(w.n, w.head+w.size)
		if w.next < end {
			i := w.next
			if w.weight != nil {
				for j := w.next + 1; j < end; j++ {
					if !w.slots[j%w.size].started && w.weight(j) > w.weight(i) {
						i = j
					}
				}
			}
			w.slots[i%w.size].started = true
			for w.next < end && w.slots[w.next%w.size].started {
				w.next++
			}
			return i, true
		}
		w.cond.Wait()
	}
}

// finish keeps the result of index i until it is taken.
func (w *window[T]) finish(i int, result T) {
	w.mu.Lock()
	s := &w.slots[i%w.size]
	s.result, s.done = result, true
	w.mu.Unlock()
	w.cond.Broadcast()
}

// take waits for the result of index i (the head) and moves the window
// past it.
func (w *window[T]) take(i int) T {
	w.mu.Lock()
	s := &w.slots[i%w.size]
	for !s.done {
		w.cond.Wait()
	}
	result := s.result
	*s = slot[T]{}
	w.head = i + 1
	w.mu.Unlock()
	w.cond.Broadcast()
	return result
}

// stop lets no more indexes start.
func (w *window[T]) stop() {
	w.mu.Lock()
	w.quit = true
	w.mu.Unlock()
	w.cond.Broadcast()
}

// call is work(i), or crashed(i, ...) when it panics.
func call[T any](i int, work func(int) T, crashed func(int, *Panic) T) (result T) {
	defer func() {
		if v := recover(); v != nil {
			result = crashed(i, &Panic{Value: v, Stack: debug.Stack()})
		}
	}()
	return work(i)
}

// Cancelled is the error of a scan whose context was done after done of
// total roots: the others are not worked on.
func Cancelled(ctx context.Context, done, total int) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Scan cancelled",
		Detail:   fmt.Sprintf("The scan stopped after %d of %d root modules: %s. The others were not evaluated.", done, total, context.Cause(ctx)),
	}
}

// Panic is what a call of work panicked with, and where.
type Panic struct {
	Value any
	Stack []byte
}

// Diagnostic is the error that reports the panic for the root module at
// root: "Internal error", with the root's path, the value and the place
// in tfeval's code it panicked at.
func (p *Panic) Diagnostic(root string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Internal error",
		Detail: fmt.Sprintf("tfeval failed while working on the root module %s: %v. This is a bug in tfeval; the other root modules are not affected. Please report it with the configuration that causes it.\n\n%s",
			root, p.Value, panicSite(p.Stack)),
	}
}

// panicSite is the frame of a stack trace that panicked: the first one
// after the runtime's own panic frames, as "function (file:line)".
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(fn, "panic(") {
			continue
		}
		// Frames come in pairs: the function, then its file and line.
		for j := i + 2; j+1 < len(lines); j += 2 {
			fn, at := strings.TrimSpace(lines[j]), strings.TrimSpace(lines[j+1])
			if strings.HasPrefix(fn, "runtime.") {
				continue
			}
			if k := strings.LastIndex(at, " +0x"); k >= 0 {
				at = at[:k]
			}
			return fmt.Sprintf("It panicked in %s (%s).", fn, at)
		}
	}
	return ""
}
