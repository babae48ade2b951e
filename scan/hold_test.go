package scan

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// holdLog records what the calls of a hold test did, in order.
type holdLog struct {
	mu     sync.Mutex
	events []string
}

func (l *holdLog) add(format string, args ...any) {
	l.mu.Lock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *holdLog) index(event string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Index(l.events, event)
}

// TestEachHeld: once the heap is large, a call pauses at its steps until
// the calls before it have ended; before that, calls step side by side;
// a panic, a cancelled context and a loop left early all end the calls.
// A hang fails the test after a generous deadline rather than a clock
// TestEachHeld: once the heap is found large, a call pauses at its steps
// until the calls before it have ended; before that, calls step side by
// side; a panic, a cancelled context and a loop left early all end the
// calls. In each case calls 0 and 1 start together while the heap is
// small, and one of them finds it large (e.large) while both run. A
// hang fails the test after a generous deadline rather than a clock
// limit on how fast it runs.
func TestEachHeld(t *testing.T) {
	type env struct {
		log    *holdLog
		large  atomic.Bool
		ctx    context.Context
		cancel context.CancelFunc
		// started[i] is closed once call i has started.
		started [2]chan struct{}
	}
	// together returns once calls 0 and 1 have both started.
	together := func(e *env, i int) {
		if i < 2 {
			close(e.started[i])
			<-e.started[1-i]
		}
	}
	// steps takes more steps than a hold needs to look at the heap.
	steps := func(e *env, i int, step func()) {
		for k := range 2 * holdEvery {
			step()
			e.log.add("%d step %d", i, k)
		}
	}
	tests := []struct {
		name   string
		n      int
		par    int
		work   func(e *env, i int, step func()) string
		stopAt int // leave the loop after this many results; 0: never
		want   []string
		check  func(t *testing.T, e *env)
	}{
		{
			name: "large: a later call waits at a step for the earlier ones", n: 4, par: 2,
			work: func(e *env, i int, step func()) string {
				together(e, i)
				if i == 0 {
					e.log.add("large")
					e.large.Store(true)
				}
				steps(e, i, step)
				e.log.add("%d end", i)
				return fmt.Sprint(i)
			},
			want: []string{"0", "1", "2", "3"},
			check: func(t *testing.T, e *env) {
				// Between the heap found large and call 0's end, call 1
				// takes fewer steps than the hold looks at the heap.
				from, to := e.log.index("large"), e.log.index("0 end")
				n := 0
				for _, ev := range e.log.events[from:to] {
					if strings.HasPrefix(ev, "1 step") {
						n++
					}
				}
				if n > holdEvery {
					t.Errorf("call 1 took %d steps while call 0 ran on a large heap", n)
				}
				// Calls 2 and 3 start after the heap is large: alone.
				for i := 2; i < 4; i++ {
					if end, step := e.log.index(fmt.Sprintf("%d end", i-1)), e.log.index(fmt.Sprintf("%d step 0", i)); step < end {
						t.Errorf("call %d stepped before call %d ended: %v", i, i-1, e.log.events)
					}
				}
			},
		},
		{
			// Call 0 ends only once call 1 has taken all its steps: a
			// hold while the heap is small would never end.
			name: "small: calls step side by side", n: 2, par: 2,
			work: func(e *env, i int, step func()) string {
				together(e, i)
				steps(e, i, step)
				if i == 0 {
					for e.log.index(fmt.Sprintf("1 step %d", 2*holdEvery-1)) < 0 {
						runtime.Gosched()
					}
				}
				return fmt.Sprint(i)
			},
			want: []string{"0", "1"},
		},
		{
			name: "one at a time: no step function", n: 3, par: 1,
			work: func(e *env, i int, step func()) string {
				return fmt.Sprint(step == nil)
			},
			want: []string{"true", "true", "true"},
		},
		{
			// Call 0 panics once the heap is large: call 1 goes on.
			name: "an earlier call panics", n: 3, par: 2,
			work: func(e *env, i int, step func()) string {
				together(e, i)
				if i == 0 {
					e.large.Store(true)
					for e.log.index("1 step 0") < 0 {
						runtime.Gosched()
					}
					panic("boom")
				}
				steps(e, i, step)
				return fmt.Sprint(i)
			},
			want: []string{"crashed 0: boom", "1", "2"},
		},
		{
			// Call 0 runs until the context is cancelled, which call 1
			// does before it steps on a large heap.
			name: "cancelled while paused", n: 3, par: 2,
			work: func(e *env, i int, step func()) string {
				together(e, i)
				switch i {
				case 0:
					e.large.Store(true)
					<-e.ctx.Done()
					return "cancelled"
				case 1:
					go e.cancel()
				}
				steps(e, i, step)
				return fmt.Sprint(i)
			},
			want: []string{"cancelled", "1", "2"},
		},
		{
			// The loop is left after the first result: Each returns
			// once the running calls end.
			name: "loop left early", n: 6, par: 2,
			work: func(e *env, i int, step func()) string {
				together(e, i)
				if i == 0 {
					e.large.Store(true)
				}
				steps(e, i, step)
				return fmt.Sprint(i)
			},
			stopAt: 1,
			want:   []string{"0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &env{log: &holdLog{}}
			for i := range e.started {
				e.started[i] = make(chan struct{})
			}
			e.ctx, e.cancel = context.WithCancel(context.Background())
			defer e.cancel()
			var got []string
			done := make(chan struct{})
			go func() {
				defer close(done)
				for _, r := range eachHeld(tt.n, tt.par, nil, func() func() bool { return e.large.Load }, func(i int, step func()) string {
					return tt.work(e, i, step)
				}, func(i int, p *Panic) string {
					return fmt.Sprintf("crashed %d: %v", i, p.Value)
				}) {
					got = append(got, r)
					if len(got) == tt.stopAt {
						break
					}
				}
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatalf("the calls did not end: %d events", len(e.log.events))
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("results %q, want %q", got, tt.want)
			}
			if tt.check != nil {
				tt.check(t, e)
			}
		})
	}
}
