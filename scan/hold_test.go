package scan

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
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

// waitFor yields until event is logged.
func (l *holdLog) waitFor(event string) {
	for l.index(event) < 0 {
		runtime.Gosched()
	}
}

// testLargeRoot is the tests' LargeRoot.
const testLargeRoot = 10

// TestEachHeld: a call whose steps report testLargeRoot instances or more
// pauses there until the calls before it have ended; a call below it, and
// the lowest call not ended, never pause; a panic, a cancelled context
// and a loop left early all end the calls. In each case calls 0 and 1
// start together. A hang fails the test after a generous deadline rather
// than a clock limit on how fast it runs.
func TestEachHeld(t *testing.T) {
	type env struct {
		log    *holdLog
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
	// grow takes steps reporting from instances up to to, logging each.
	grow := func(e *env, i int, step func(int), from, to int) {
		for k := from; k <= to; k++ {
			step(k)
			e.log.add("%d step %d", i, k)
		}
	}
	// idle gives the other calls time to run ahead, if they could.
	idle := func() {
		for range 1000 {
			runtime.Gosched()
		}
	}
	tests := []struct {
		name   string
		n      int
		par    int
		never  bool // largeRoot 0, as EachCrowded: no step function
		work   func(e *env, i int, step func(int)) string
		stopAt int // leave the loop after this many results; 0: never
		want   []string
		check  func(t *testing.T, e *env)
	}{
		{
			// Call 0 is large from its first step and never pauses; call 1
			// pauses at its first large step until call 0 has ended, and
			// calls 2 and 3 likewise wait for the call before them.
			name: "a large call waits at a step for the earlier ones", n: 4, par: 2,
			work: func(e *env, i int, step func(int)) string {
				together(e, i)
				if i == 0 {
					grow(e, i, step, testLargeRoot, 2*testLargeRoot)
					e.log.waitFor(fmt.Sprintf("1 step %d", testLargeRoot-1))
					idle()
				} else {
					grow(e, i, step, 0, 2*testLargeRoot)
				}
				e.log.add("%d end", i)
				return fmt.Sprint(i)
			},
			want: []string{"0", "1", "2", "3"},
			check: func(t *testing.T, e *env) {
				for i := 1; i < 4; i++ {
					end, large := e.log.index(fmt.Sprintf("%d end", i-1)), e.log.index(fmt.Sprintf("%d step %d", i, testLargeRoot))
					if large < end {
						t.Errorf("call %d took a large step before call %d ended: %v", i, i-1, e.log.events)
					}
				}
			},
		},
		{
			// Call 0 ends only once call 1 has taken all its steps: a
			// pause of a call below the threshold would never end.
			name: "small calls step side by side", n: 2, par: 2,
			work: func(e *env, i int, step func(int)) string {
				together(e, i)
				grow(e, i, step, 0, testLargeRoot-1)
				if i == 0 {
					e.log.waitFor(fmt.Sprintf("1 step %d", testLargeRoot-1))
				}
				return fmt.Sprint(i)
			},
			want: []string{"0", "1"},
		},
		{
			// A small call 0 still running does not let a large call 1 on.
			name: "a large call waits for a small earlier one", n: 2, par: 2,
			work: func(e *env, i int, step func(int)) string {
				together(e, i)
				if i == 0 {
					grow(e, i, step, 0, 1)
					e.log.waitFor(fmt.Sprintf("1 step %d", testLargeRoot-1))
					idle()
				} else {
					grow(e, i, step, testLargeRoot-1, testLargeRoot+1)
				}
				e.log.add("%d end", i)
				return fmt.Sprint(i)
			},
			want: []string{"0", "1"},
			check: func(t *testing.T, e *env) {
				if e.log.index(fmt.Sprintf("1 step %d", testLargeRoot)) < e.log.index("0 end") {
					t.Errorf("call 1 took a large step before call 0 ended: %v", e.log.events)
				}
			},
		},
		{
			name: "one at a time: no step function", n: 3, par: 1,
			work: func(e *env, i int, step func(int)) string {
				return fmt.Sprint(step == nil)
			},
			want: []string{"true", "true", "true"},
		},
		{
			name: "no threshold: no step function", n: 3, par: 2, never: true,
			work: func(e *env, i int, step func(int)) string {
				return fmt.Sprint(step == nil)
			},
			want: []string{"true", "true", "true"},
		},
		{
			// Call 0 panics once call 1 is about to be large: call 1 goes on.
			name: "an earlier call panics", n: 3, par: 2,
			work: func(e *env, i int, step func(int)) string {
				together(e, i)
				if i == 0 {
					e.log.waitFor(fmt.Sprintf("1 step %d", testLargeRoot-1))
					panic("boom")
				}
				grow(e, i, step, testLargeRoot-1, 2*testLargeRoot)
				return fmt.Sprint(i)
			},
			want: []string{"crashed 0: boom", "1", "2"},
		},
		{
			// Call 0 runs until the context is cancelled, which call 1
			// does before it pauses.
			name: "cancelled while paused", n: 3, par: 2,
			work: func(e *env, i int, step func(int)) string {
				together(e, i)
				switch i {
				case 0:
					<-e.ctx.Done()
					return "cancelled"
				case 1:
					go e.cancel()
				}
				grow(e, i, step, 0, 2*testLargeRoot)
				return fmt.Sprint(i)
			},
			want: []string{"cancelled", "1", "2"},
		},
		{
			// The loop is left after the first result while call 1 is
			// paused: Each returns once the running calls end.
			name: "loop left early", n: 6, par: 2,
			work: func(e *env, i int, step func(int)) string {
				together(e, i)
				grow(e, i, step, 0, 2*testLargeRoot)
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
			work := func(i int, step func(int)) string { return tt.work(e, i, step) }
			crashed := func(i int, p *Panic) string { return fmt.Sprintf("crashed %d: %v", i, p.Value) }
			largeRoot := testLargeRoot
			if tt.never {
				largeRoot = 0
			}
			seq := eachHeld(tt.n, tt.par, nil, largeRoot, work, crashed)
			var got []string
			done := make(chan struct{})
			go func() {
				defer close(done)
				for _, r := range seq {
					got = append(got, r)
					if len(got) == tt.stopAt {
						break
					}
				}
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatalf("the calls did not end: %v", e.log.events)
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
