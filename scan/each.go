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
	return func(yield func(int, T) bool) {
		if parallelism <= 0 {
			parallelism = runtime.GOMAXPROCS(0)
		}
		parallelism = max(1, min(parallelism, n))
		type job struct {
			i   int
			out chan T
		}
		jobs := make(chan job)
		// pending holds the result channels in index order; its buffer
		// bounds how far work runs ahead of the results taken.
		pending := make(chan chan T, 2*parallelism)
		quit := make(chan struct{})
		var wg sync.WaitGroup
		for range parallelism {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range jobs {
					j.out <- call(j.i, work, crashed)
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
				select {
				case jobs <- job{i, out}:
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
