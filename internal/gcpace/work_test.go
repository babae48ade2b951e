package gcpace

import "testing"

func TestOwnPeak(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name          string
		allocs, grown uint64
		shared        int
		want          uint64
	}{
		{"few allocations: held whole", 10 * mib, 20 * mib, 1, 10 * mib},
		{"many allocations: twice the live growth", 300 * mib, 40 * mib, 1, 80 * mib},
		{"no collection while it ran", 300 * mib, 0, 1, 0},
		{"two at once: half the figures", 300 * mib, 150 * mib, 2, 150 * mib},
		{"shared 0 counts as alone", 8 * mib, 8 * mib, 0, 8 * mib},
	} {
		if got := ownPeak(tc.allocs, tc.grown, tc.shared); got != tc.want {
			t.Errorf("%s: ownPeak = %d MiB, want %d MiB", tc.name, got/mib, tc.want/mib)
		}
	}
}

// The goal follows the largest piece of work that ended, never falls,
// and counts only what each piece's own run saw.
func TestWorksGoal(t *testing.T) {
	const mib = 1 << 20
	ws := &works{factor: 2, start: 5 * mib, running: map[*Work]struct{}{}}
	if got := ws.headroom(10*mib, 1024*mib); got != 0 {
		t.Fatalf("before any work: headroom %d MiB past the Pacer's, want none", got/mib)
	}

	// A root allocates 120 MiB, and a collection while it runs finds the
	// live heap 30 MiB above its start: it needs min(120, 60) = 60 MiB,
	// and the goal is 5 + 2×60 = 125 MiB.
	a := ws.begin(10*mib, 1000*mib)
	ws.collected(40 * mib)
	ws.collected(25 * mib) // a lower figure later does not lower the most seen
	if !ws.end(a, 1120*mib) {
		t.Fatal("the first root's end did not raise the goal")
	}
	if ws.largest != 60*mib {
		t.Fatalf("largest need %d MiB, want 60", ws.largest/mib)
	}
	for _, tc := range []struct{ live, limit, want uint64 }{
		{20 * mib, 1024 * mib, 105 * mib}, // up to the goal
		{20 * mib, 64 * mib, 64 * mib},    // within the limit
		{125 * mib, 1024 * mib, 0},        // at the goal
		{200 * mib, 1024 * mib, 0},        // past it
	} {
		if got := ws.headroom(tc.live, tc.limit); got != tc.want {
			t.Errorf("live %d MiB, limit %d MiB: headroom %d MiB, want %d", tc.live/mib, tc.limit/mib, got/mib, tc.want/mib)
		}
	}

	// Two roots at once: each is given half of what their windows saw,
	// and a smaller need leaves the goal where it was.
	b := ws.begin(20*mib, 2000*mib)
	c := ws.begin(20*mib, 2000*mib)
	ws.collected(60 * mib)
	if ws.end(b, 2100*mib) { // min(100, 80)/2 = 40 MiB
		t.Error("a root needing less than the largest raised the goal")
	}
	ws.collected(90 * mib)
	if !ws.end(c, 2300*mib) { // min(300, 140)/2 = 70 MiB
		t.Error("a root needing more than the largest did not raise the goal")
	}
	if ws.largest != 70*mib {
		t.Errorf("largest need %d MiB, want 70", ws.largest/mib)
	}
	// A root that started after the others ended ran alone.
	d := ws.begin(30*mib, 3000*mib)
	if d.shared != 1 {
		t.Errorf("a root running alone counts %d at once", d.shared)
	}
	if ws.end(d, 3001*mib) || ws.end(d, 3001*mib) {
		t.Error("a root that needed 1 MiB, or ended twice, raised the goal")
	}
}

// A Pacer without SizeToWork paces as before; with it, the percentage
// follows the goal within the floor for large heaps, past the cap for
// small ones (the goal bounds the heap).
func TestPercentWithWorks(t *testing.T) {
	const mib = 1 << 20
	p := &Pacer{headroom: 24 * mib, limit: 1024 * mib, lo: 100, hi: 400, large: 96 * mib, largeLo: 75}
	if got := p.percent(20 * mib); got != 120 {
		t.Errorf("without works: %d%%, want 120", got)
	}
	p.works = &works{factor: 2, start: 4 * mib, largest: 60 * mib, running: map[*Work]struct{}{}}
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{20 * mib, 520},  // 104 MiB past 20 MiB live: above the cap for small heaps
		{1 * mib, 12300}, // 123 MiB past 1 MiB
		{40 * mib, 210},  // 84 MiB past 40: 210%
		{100 * mib, 75},  // the goal is near: 24 MiB, below the floor for large heaps
		{60 * mib, 106},  // 64 MiB on 60
		{124 * mib, 75},  // at the goal
		{0, 400},         // no live heap measured yet
		{120 * mib, 75},  // 4 MiB short of the goal: the Pacer's headroom, below the floor
	} {
		if got := p.percent(tc.live); got != tc.want {
			t.Errorf("live %d MiB: %d%%, want %d", tc.live/mib, got, tc.want)
		}
	}
}

// Without SizeToWork, and on a nil Pacer (GOGC set by the user), marking
// work does nothing.
func TestWorkWithoutSizing(t *testing.T) {
	var none *Pacer
	none.SizeToWork(2)
	none.TrimToWork(4, 1<<20)
	none.FloorToWork(50)
	if none.Crowded() {
		t.Error("a nil Pacer is crowded")
	}
	if w := none.StartWork(); w != nil {
		t.Errorf("a nil Pacer started work %v", w)
	}
	none.EndWork(nil)
	p := &Pacer{headroom: 1 << 20, lo: 100, hi: 400}
	p.TrimToWork(4, 1<<20)
	p.FloorToWork(50)
	if p.Crowded() {
		t.Error("a Pacer without SizeToWork is crowded")
	}
	w := p.StartWork()
	if w != nil {
		t.Errorf("a Pacer without SizeToWork started work %v", w)
	}
	p.EndWork(w)
	if p.works != nil {
		t.Error("marking work set a goal")
	}
}

// TrimToWork bounds the headroom by what the pieces of work allocated,
// once one has ended having allocated anything, within the floor and the
// headroom set.
func TestWorksGarbage(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name                  string
		trim, floor, allocs   uint64
		headroom, wantGarbage uint64
	}{
		{"not trimmed", 0, 12 * mib, 2 * mib, 24 * mib, 24 * mib},
		{"no root ended yet", 2, 12 * mib, 0, 24 * mib, 24 * mib},
		{"small roots: the floor", 2, 12 * mib, 5 * mib, 24 * mib, 12 * mib},
		{"between the floor and the headroom", 2, 12 * mib, 8 * mib, 24 * mib, 16 * mib},
		{"large roots: the headroom set", 2, 12 * mib, 13 * mib, 24 * mib, 24 * mib},
		{"a floor above the headroom set", 2, 32 * mib, 1 * mib, 24 * mib, 24 * mib},
	} {
		ws := &works{factor: 2, allocs: tc.allocs, trim: tc.trim, floor: tc.floor, running: map[*Work]struct{}{}}
		if got := ws.garbage(tc.headroom); got != tc.wantGarbage {
			t.Errorf("%s: garbage %d MiB, want %d", tc.name, got/mib, tc.wantGarbage/mib)
		}
	}
	var none *works
	if got := none.garbage(24 * mib); got != 24*mib {
		t.Errorf("without works: garbage %d MiB, want the headroom", got/mib)
	}
}

// A trimmed Pacer's percentage follows what the roots allocated: the
// headroom set until a root has ended, then twice the most any root
// allocated (its share, where roots ran at once), no less than the floor;
// a goal past that still decides.
func TestPercentTrimmed(t *testing.T) {
	const mib = 1 << 20
	p := &Pacer{headroom: 24 * mib, limit: 1024 * mib, lo: 100, hi: 400}
	p.works = &works{factor: 2, start: 4 * mib, trim: 2, floor: 12 * mib, running: map[*Work]struct{}{}}
	if got := p.percent(8 * mib); got != 300 {
		t.Errorf("no root ended: %d%%, want 300 (24 MiB on 8)", got)
	}
	// A root that allocated 2 MiB, and saw no collection (its need is
	// unknown, and the goal stays): 2×2 = 4 MiB, below the floor of 12
	// (150% of 8 MiB).
	a := p.works.begin(8*mib, 100*mib)
	if !p.works.end(a, 102*mib) {
		t.Error("the first root's end did not change the pace")
	}
	if p.works.largest != 0 || p.works.allocs != 2*mib {
		t.Errorf("need %d MiB, allocations %d MiB, want 0 and 2", p.works.largest/mib, p.works.allocs/mib)
	}
	if got := p.percent(8 * mib); got != 150 {
		t.Errorf("small roots: %d%%, want 150 (the floor, 12 MiB on 8)", got)
	}
	// Live data past the floor: Start's floor of 100% decides.
	if got := p.percent(16 * mib); got != 100 {
		t.Errorf("small roots, 16 MiB live: %d%%, want 100", got)
	}
	// A root that allocated 10 MiB, whose live heap grew by 1 MiB: 20 MiB
	// of garbage (250% of 8 MiB); the goal, 4 + 2×2 = 8 MiB, is closer.
	c := p.works.begin(8*mib, 300*mib)
	p.works.collected(9 * mib)
	if !p.works.end(c, 310*mib) {
		t.Fatal("larger allocations did not change the pace")
	}
	if got := p.percent(8 * mib); got != 250 {
		t.Errorf("roots allocating 10 MiB: %d%%, want 250", got)
	}
	// One that allocated less changes nothing.
	d := p.works.begin(8*mib, 500*mib)
	if p.works.end(d, 501*mib) {
		t.Error("a root allocating 1 MiB changed the pace")
	}
	// Two at once that allocated 30 MiB while the later ran: 15 MiB each,
	// and the headroom set (24 MiB) is the bound again.
	e := p.works.begin(8*mib, 600*mib)
	f := p.works.begin(8*mib, 600*mib)
	p.works.end(f, 610*mib)
	if !p.works.end(e, 630*mib) {
		t.Fatal("a root allocating 15 MiB did not change the pace")
	}
	if got := p.percent(8 * mib); got != 300 {
		t.Errorf("roots allocating 15 MiB: %d%%, want 300 (24 MiB on 8)", got)
	}
	// A root needing 40 MiB: the goal of 84 MiB is further than the
	// headroom: 76 MiB past 8 is 950%.
	g := p.works.begin(8*mib, 700*mib)
	p.works.collected(28 * mib)
	if !p.works.end(g, 900*mib) {
		t.Fatal("a large need did not raise the goal")
	}
	if got := p.percent(8 * mib); got != 950 {
		t.Errorf("roots needing 40 MiB: %d%%, want 950", got)
	}
}

// FloorToWork lowers the floor only where doubling the live heap would
// take it past twice the most a root allocated, to the further of that
// bound and the garbage bound past the live heap, never below its least.
func TestWorksLowFloor(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name                  string
		minFloor              int
		allocs, live, garbage uint64
		lo, want              int
	}{
		{"not lowered without FloorToWork", 0, 18 * mib, 30 * mib, 24 * mib, 100, 100},
		{"no root ended", 50, 0, 30 * mib, 24 * mib, 100, 100},
		{"no live heap measured", 50, 18 * mib, 0, 24 * mib, 100, 100},
		// 20 MiB live: doubling adds 20 MiB, within the 24 of garbage.
		{"the garbage bound decides", 50, 18 * mib, 20 * mib, 24 * mib, 100, 100},
		// 30 MiB live, roots of 40 MiB: doubling to 60 stays within 80.
		{"within twice the allocations", 50, 40 * mib, 30 * mib, 24 * mib, 100, 100},
		// terraform-google-kubernetes-engine: 30 MiB live, roots of
		// 18 MiB: doubling to 60 passes 36; 24 MiB past 30 is 80%.
		{"lowered to the garbage bound", 50, 18 * mib, 30 * mib, 24 * mib, 100, 80},
		// 40 MiB live, roots of 28 MiB: the bound of 56 is 16 MiB
		// past, the garbage bound 12: 40%, held at the least, 50%.
		{"held at the least", 50, 28 * mib, 40 * mib, 12 * mib, 100, 50},
		// 40 MiB live, roots of 28 MiB, garbage 8: to the bound of 56,
		// 16 MiB past 40 is 40%, with a least of 30%.
		{"up to twice the allocations", 30, 28 * mib, 40 * mib, 8 * mib, 100, 40},
		// A floor already lowered for large heaps (Tighten) stays the
		// upper end.
		{"never above lo", 50, 18 * mib, 100 * mib, 90 * mib, 75, 75},
	} {
		ws := &works{factor: 2, allocs: tc.allocs, minFloor: tc.minFloor, running: map[*Work]struct{}{}}
		if got := ws.lowFloor(tc.live, tc.garbage, tc.lo); got != tc.want {
			t.Errorf("%s: floor %d%%, want %d%%", tc.name, got, tc.want)
		}
	}
	var none *works
	if got := none.lowFloor(30*mib, 24*mib, 100); got != 100 {
		t.Errorf("without works: floor %d%%, want 100", got)
	}
}

// The Pacer's percentage with the floor lowered: 24 MiB of garbage past
// a live heap the floor would double, and a goal set by the roots' needs
// still above it.
func TestPercentLowFloor(t *testing.T) {
	const mib = 1 << 20
	p := &Pacer{headroom: 24 * mib, limit: 1024 * mib, lo: 100, hi: 400}
	p.works = &works{factor: 2, start: 2 * mib, allocs: 18 * mib, minFloor: 50, running: map[*Work]struct{}{}}
	for _, tc := range []struct {
		live    uint64
		largest uint64
		want    int
	}{
		{12 * mib, 0, 200},        // the garbage bound: 24 MiB on 12
		{24 * mib, 0, 100},        // 24 on 24
		{30 * mib, 0, 80},         // lowered: 24 on 30, not 30
		{48 * mib, 0, 50},         // the least
		{30 * mib, 20 * mib, 80},  // a goal of 42 MiB: below 30 + 24
		{30 * mib, 30 * mib, 106}, // a goal of 62 MiB: 32 past 30
	} {
		p.works.largest = tc.largest
		if got := p.percent(tc.live); got != tc.want {
			t.Errorf("live %d MiB, largest need %d MiB: %d%%, want %d", tc.live/mib, tc.largest/mib, got, tc.want)
		}
	}
}

// Crowded: one more root is held back where the live heap with it would
// get the floor's pace (past the garbage bound and any goal) and that
// pace would take the heap past twice the most a root allocated.
func TestWorksCrowded(t *testing.T) {
	const mib = 1 << 20
	ws := &works{factor: 2, start: 2 * mib, running: map[*Work]struct{}{}}
	if ws.crowded(40*mib, 24*mib, 1024*mib, 100) {
		t.Error("crowded with no root running")
	}
	a := ws.begin(8*mib, 0)
	if ws.crowded(40*mib, 24*mib, 1024*mib, 100) {
		t.Error("crowded before any root ended")
	}
	// A root that allocated 18 MiB while the live heap grew by 4 MiB
	// (alone), as terraform-google-kubernetes-engine's do.
	b := ws.begin(8*mib, 0)
	ws.end(b, 0)
	ws.allocs, ws.grown = 18*mib, 4*mib
	for _, tc := range []struct {
		name    string
		live    uint64
		largest uint64
		want    bool
	}{
		{"the garbage bound decides", 18 * mib, 0, false},                    // 22 with the next
		{"the floor decides, past twice the allocations", 24 * mib, 0, true}, // 28: 56 > 36
		{"a goal of the roots' needs further", 24 * mib, 40 * mib, false},    // goal 82
		{"a goal, reached", 50 * mib, 20 * mib, true},                        // goal 42
	} {
		ws.largest = tc.largest
		if got := ws.crowded(tc.live, 24*mib, 1024*mib, 100); got != tc.want {
			t.Errorf("%s: crowded %v, want %v", tc.name, got, tc.want)
		}
	}
	// Roots that allocate more than half the floor's goal are not held.
	ws.largest, ws.allocs = 0, 40*mib
	if ws.crowded(30*mib, 24*mib, 1024*mib, 100) {
		t.Error("crowded by roots allocating 40 MiB at 34 MiB live")
	}
	ws.end(a, 0)
	if ws.crowded(30*mib, 24*mib, 1024*mib, 100) {
		t.Error("crowded with no root running")
	}
}

// A root's share of the live heap's growth: the most any ended root grew
// it, divided among the roots that ran with it.
func TestWorksGrown(t *testing.T) {
	const mib = 1 << 20
	ws := &works{factor: 2, running: map[*Work]struct{}{}}
	a := ws.begin(10*mib, 0)
	b := ws.begin(10*mib, 0)
	ws.collected(22 * mib)
	ws.end(a, 30*mib)
	ws.end(b, 30*mib)
	if ws.grown != 6*mib {
		t.Errorf("two roots that grew the live heap by 12 MiB: %d MiB each, want 6", ws.grown/mib)
	}
	c := ws.begin(10*mib, 0)
	ws.collected(14 * mib)
	ws.end(c, 10*mib)
	if ws.grown != 6*mib {
		t.Errorf("a root growing it by 4 MiB lowered the most to %d MiB", ws.grown/mib)
	}
}
