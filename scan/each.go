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

	"github.com/tfeval/tfeval/internal/gcpace"
)

// Each calls work(i) for every i in [0, n) on up to parallelism goroutines
// (0 means GOMAXPROCS) and yields (i, result) in index order, each as soon
// as it and every earlier one are done, whatever the scheduling. At most
// twice parallelism results are made ahead of the one being waited for,
// so a long scan holds only a few results at a time.
//
// The calls start in index order. Once the heap's live data has grown by
// more than LargeHeap since Each began (as the last collection found it
// when a call is about to start), each later call starts only when no
// other is running: see LargeHeap.
//
// A call of work that panics does not end the process: its result is
// crashed(i, p), where p says what panicked. Breaking out of the loop
// stops the calls not yet started; Each returns once the running ones
// have returned.
func Each[T any](n, parallelism int, work func(i int) T, crashed func(i int, p *Panic) T) iter.Seq2[int, T] {
	return EachCrowded(n, parallelism, nil, work, crashed)
}

// EachCrowded is Each where a call that could start beside others first
// asks crowded (when it is not nil) and, while it reports true, waits for
// one of the running calls to end: the calls then run fewer at a time
// while crowded says so (a scan asks its collector's Pacer whether one
// more root in flight would take the heap past its bound,
// gcpace.Pacer.Crowded). A call never waits when no other is running.
func EachCrowded[T any](n, parallelism int, crowded func() bool, work func(i int) T, crashed func(i int, p *Panic) T) iter.Seq2[int, T] {
	return eachHeld(n, parallelism, crowded, 0, func(i int, _ func(int)) T { return work(i) }, crashed)
}

// EachHeld is EachCrowded where work is also given a step function to
// call between the steps of its work with how far the work has grown (a
// root's evaluation calls it before each configuration object of its
// graph walk with the resource instances expanded so far,
// tfeval.Options.Step); it is nil when the calls run one at a time.
// Calls that start together do not all run on to their end once they are
// found large: a call whose step reports LargeRoot instances or more
// pauses there until every call before it has ended. The first calls of
// a scan of large roots start together before anything can tell they are
// large; this sees it from what the walk has expanded, long before the
// heap does. A paused call holds nothing another waits for, and the
// lowest call not ended never pauses, so the calls end as they would
// otherwise.
func EachHeld[T any](n, parallelism int, crowded func() bool, work func(i int, step func(instances int)) T, crashed func(i int, p *Panic) T) iter.Seq2[int, T] {
	return eachHeld(n, parallelism, crowded, LargeRoot, work, crashed)
}

// eachHeld is EachHeld where a call pauses from largeRoot instances on
// (a test's stand-in for LargeRoot); with 0, no call pauses and step is
// nil (EachCrowded).
func eachHeld[T any](n, parallelism int, crowded func() bool, largeRoot int, work func(i int, step func(instances int)) T, crashed func(i int, p *Panic) T) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		if parallelism <= 0 {
			parallelism = runtime.GOMAXPROCS(0)
		}
		parallelism = max(1, min(parallelism, n))
		type job struct {
			i   int
			out chan T
			// slots is how many tokens of running the call holds: all
			// parallelism of them to run alone.
			slots int
		}
		jobs := make(chan job)
		// pending holds the result channels in index order; its buffer
		// bounds how far work runs ahead of the results taken.
		pending := make(chan chan T, 2*parallelism)
		// running holds a token for each call running: the feeder puts a
		// call's in before handing it out, its worker takes them back.
		running := make(chan struct{}, parallelism)
		quit := make(chan struct{})
		heap := newHeapWatch()
		var h *hold
		if parallelism > 1 && largeRoot > 0 {
			h = newHold(n, largeRoot)
		}
		var wg sync.WaitGroup
		for range parallelism {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range jobs {
					var step func(int)
					if h != nil {
						step = func(instances int) { h.step(j.i, instances) }
					}
					j.out <- call(j.i, step, work, crashed)
					if h != nil {
						h.end(j.i)
					}
					for range j.slots {
						<-running
					}
				}
			}()
		}
		go func() {
			defer close(jobs)
			defer close(pending)
			for i := range n {
				out := make(chan T, 1)
				select {
				case pending <- out:
				case <-quit:
					return
				}
				// A token, then all of them when the call is to run
				// alone: whether it is, is seen once it could start.
				j := job{i: i, out: out, slots: 1}
				for k := 0; k < j.slots; k++ {
					select {
					case running <- struct{}{}:
					case <-quit:
						return
					}
					if k == 0 && heap.large() {
						j.slots = parallelism
					}
				}
				// While crowded, one more token each time another call
				// ends; the call then runs holding one, so that the next
				// asks again.
				held := j.slots
				for held < parallelism && crowded != nil && crowded() {
					select {
					case running <- struct{}{}:
						held++
					case <-quit:
						return
					}
				}
				for ; held > j.slots; held-- {
					<-running
				}
				select {
				case jobs <- j:
				case <-quit:
					return
				}
			}
		}()
		i := 0
		for out := range pending {
			if !yield(i, <-out) {
				close(quit)
				for range pending {
					// Let the feeder see quit and close pending.
				}
				break
			}
			i++
		}
		wg.Wait()
	}
}

// LargeHeap is how much the heap's live data may grow during Each before
// its calls run one at a time: once a collection has found it grown past
// this, a call starts only when no other is running, for the rest of
// Each. Roots whose evaluations hold this much keep both of a machine's
// CPUs busy each (an evaluation and its output are themselves parallel),
// and two of them at once hold twice the live data, which the
// collector's pace lets the heap double again. On the generated monorepo
// gen-medium-4 (four roots of about 60 MB of live data each), one root at
// a time after the first two takes no more wall time on two CPUs, less
// CPU, and lowers the peak; the published repositories' scans never hold
// more than about 21 MB of live data, so theirs run as before
// (docs/benchmarks.md).
const LargeHeap = 64 << 20

// heapWatch tells, from the runtime's figure for the live heap (as the
// last collection found it), whether the live heap has grown by more
// than LargeHeap since the watch began; once it has, it stays large.
type heapWatch struct {
	start uint64
	seen  bool
}

func newHeapWatch() *heapWatch { return &heapWatch{start: gcpace.LiveHeap()} }

func (h *heapWatch) large() bool {
	if !h.seen {
		live := gcpace.LiveHeap()
		h.seen = live > h.start && live-h.start > LargeHeap
	}
	return h.seen
}

// call is work(i, step), or crashed(i, ...) when it panics.
func call[T any](i int, step func(int), work func(int, func(int)) T, crashed func(int, *Panic) T) (result T) {
	defer func() {
		if v := recover(); v != nil {
			result = crashed(i, &Panic{Value: v, Stack: debug.Stack()})
		}
	}()
	return work(i, step)
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
