//go:build unix

package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/internal/benchgen"
)

// benchRoots is how many root modules the generated monorepo of
// BenchmarkEvaluateRoots has, each the small tree's root module.
const benchRoots = 8

// rootsTrees are the generated monorepos, by size and root count, written
// once per test binary run next to the other generated trees.
var rootsTrees sync.Map // string -> func() (string, error)

// benchRootsTree is the directory of a generated monorepo of n roots of
// the given size.
func benchRootsTree(tb testing.TB, size benchgen.Size, n int) string {
	tb.Helper()
	base := filepath.Dir(benchTree(tb, benchgen.Small))
	key := fmt.Sprintf("%s-roots-%d", size, n)
	write, _ := rootsTrees.LoadOrStore(key, sync.OnceValues(func() (string, error) {
		dir := filepath.Join(base, key)
		return dir, benchgen.WriteOptions(dir, size, benchgen.Options{Roots: n})
	}))
	dir, err := write.(func() (string, error))()
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// TestBenchRootsEvaluate: every root of the generated monorepo is found
// and evaluates without a diagnostic, with the promised instances.
func TestBenchRootsEvaluate(t *testing.T) {
	const n = 3
	dir := benchRootsTree(t, benchgen.Small, n)
	var roots []string
	for root, ev := range tfeval.EvaluateRoots(context.Background(), dir, tfeval.RootsOptions{}) {
		roots = append(roots, root)
		if len(ev.Diagnostics) > 0 {
			t.Fatalf("%s: %s", root, ev.Diagnostics.Error())
		}
		if got, want := len(ev.Result.Resources), benchgen.ExpectedInstances(benchgen.Small); got != want {
			t.Errorf("%s: %d resource instances, want %d", root, got, want)
		}
	}
	var want []string
	for i := range n {
		want = append(want, benchgen.RootDir(i))
	}
	if !slices.Equal(roots, want) {
		t.Errorf("roots %q, want %q", roots, want)
	}
}

// withCPU runs a benchmark's loop and reports the CPU time per
// operation besides the wall time: on a shared machine the CPU time is the
// figure to compare.
func withCPU(b *testing.B, op func()) {
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		op()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkEvaluateRoots evaluates every root of a repository: with
// EvaluateRoots (scan, and scan-serial on one goroutine), and root by
// root with tfeval.Evaluate and nothing shared (each), as a loop of
// separate runs would, over the generated monorepo (benchRoots copies
// of the small tree's root calling the same modules) and, when they are
// exported to ~/realworld (or TFEVAL_REALWORLD), over the published
// repositories of ../shared/realworld/repos.txt, their registry modules
// and required variables unknown.
func BenchmarkEvaluateRoots(b *testing.B) {
	trees := []struct{ name, dir string }{{fmt.Sprintf("gen-small-%d", benchRoots), benchRootsTree(b, benchgen.Small, benchRoots)}}
	for _, repo := range realworldRepos() {
		trees = append(trees, struct{ name, dir string }{repo.name, repo.dir})
	}
	for _, tree := range trees {
		opts := tfeval.Options{MissingModules: tfeval.MissingModulesUnknown, MissingVariables: tfeval.MissingVariablesUnknown}
		roots, diags := tfeval.FindRoots(tree.dir, tfeval.FindOptions{})
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		scan := func(par int) func() {
			return func() {
				for range tfeval.EvaluateRoots(context.Background(), tree.dir, tfeval.RootsOptions{Options: opts, Parallelism: par}) {
				}
			}
		}
		b.Run(tree.name+"/scan", func(b *testing.B) { withCPU(b, scan(0)) })
		b.Run(tree.name+"/scan-serial", func(b *testing.B) { withCPU(b, scan(1)) })
		b.Run(tree.name+"/each", func(b *testing.B) {
			withCPU(b, func() {
				for _, root := range roots {
					o := opts
					o.WorkDir = filepath.Join(tree.dir, root)
					tfeval.Evaluate(o)
				}
			})
		})
	}
}

// realworldRepo is a published repository exported for the realworld
// harness.
type realworldRepo struct{ name, dir string }

// realworldRepos are the repositories of ../shared/realworld/repos.txt
// exported to TFEVAL_REALWORLD, else ~/realworld; none when either is
// missing.
func realworldRepos() []realworldRepo {
	base := os.Getenv("TFEVAL_REALWORLD")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, "realworld")
	}
	f, err := os.Open(filepath.Join(repoRoot, "..", "shared", "realworld", "repos.txt"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []realworldRepo
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if name == "" || strings.HasPrefix(name, "#") {
			continue
		}
		dir := filepath.Join(base, filepath.FromSlash(name))
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			out = append(out, realworldRepo{name, dir})
		}
	}
	return out
}

// scanFigures are what one measurement of a tree found.
type scanFigures struct {
	scan  perfResult // the -recursive run as a user runs it
	cpu1  perfResult // the same on one CPU (GOMAXPROCS=1)
	par1  perfResult // the same evaluating one root at a time (-parallelism=1)
	each  perfResult // the runs root by root: CPU and wall summed, peak of the largest
	roots int
	// scanPeaks and eachPeaks are the lowest and highest peak of the
	// scan and of the largest root over the runs: a scan's peak moves
	// with where its collections fall.
	scanPeaks, eachPeaks peakRange
}

// peakRange is the lowest and highest of some peaks.
type peakRange struct{ lo, hi int64 }

// add counts one more peak.
func (r *peakRange) add(rss int64) {
	if r.lo == 0 || rss < r.lo {
		r.lo = rss
	}
	r.hi = max(r.hi, rss)
}

// String is the range in MiB.
func (r peakRange) String() string {
	return fmt.Sprintf("%.0f-%.0f MiB", float64(r.lo)/(1<<20), float64(r.hi)/(1<<20))
}

// measureCLI runs the tfeval binary with args, in the environment plus
// env, and measures the process. It is started by a fresh process of this
// test binary (TestScanLaunch), not by this one: on Linux a process's
// peak resident set (getrusage's ru_maxrss) counts the peak of the process
// that started it, up to its exec, and this one holds the generated trees.
// Go starts a child with clone(CLONE_VM|CLONE_VFORK): the child runs in
// its parent's memory until it calls exec, and the kernel then records
// that memory's peak as the child's own. A launcher that had touched 200
// MiB reported 203 MiB for /bin/true, which /usr/bin/time measures at
// 1 MiB. TestScanLaunch's own peak (about 14 MiB) is that floor; a figure
// above it is the child's, as reading the child's VmHWM in
// /proc/PID/status while it runs confirms.
func measureCLI(t *testing.T, env []string, bin string, args ...string) perfResult {
	t.Helper()
	argv, _ := json.Marshal(append([]string{bin}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^TestScanLaunch$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), env...), scanLaunchEnv+"="+string(argv))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, out)
	}
	var r perfResult
	_, after, ok := strings.Cut(string(out), "launched ")
	if !ok {
		t.Fatalf("%s %v: no measurement in:\n%s", bin, args, out)
	}
	var code int
	var floor int64
	fmt.Sscanf(after, "exit=%d wall_ns=%d cpu_ns=%d rss=%d floor=%d", &code, &r.wall, &r.cpu, &r.rss, &floor)
	if code > 1 {
		t.Fatalf("%s %v: exit status %d", bin, args, code)
	}
	if r.rss <= floor {
		t.Errorf("%s %v: peak %d bytes, not above the launcher's own %d: the figure is the launcher's", bin, args, r.rss, floor)
	}
	return r
}

// scanLaunchEnv holds the command TestScanLaunch runs, as a JSON array.
const scanLaunchEnv = "TFEVAL_PERF_LAUNCH"

// TestScanLaunch is the small process measureCLI starts a command from:
// it runs the command (output discarded) and prints its exit status, wall
// time, CPU time and peak resident set, and its own peak (VmHWM), below
// which the command's figure would be the launcher's.
func TestScanLaunch(t *testing.T) {
	spec := os.Getenv(scanLaunchEnv)
	if spec == "" {
		t.Skip("started by measureCLI only")
	}
	var argv []string
	if err := json.Unmarshal([]byte(spec), &argv); err != nil || len(argv) == 0 {
		t.Fatalf("bad %s: %q", scanLaunchEnv, spec)
	}
	// Its own peak: not getrusage's, which holds the peak of the test
	// process that started it.
	var floor int64
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		if _, after, ok := strings.Cut(string(status), "VmHWM:"); ok {
			fmt.Sscan(after, &floor)
			floor *= 1024
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = nil, nil // /dev/null
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	fmt.Printf("launched exit=%d wall_ns=%d cpu_ns=%d rss=%d floor=%d\n", cmd.ProcessState.ExitCode(), wall.Nanoseconds(),
		(cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Nanoseconds(), ru.Maxrss*1024, floor)
}

// spinProbe is how much faster the machine runs a fixed amount of pure
// CPU work split over two goroutines than on one: about 2 when two CPUs
// are free, less when other work takes one. The scan's speedup can be no
// better than this.
func spinProbe() float64 {
	spin := func(n int) (x uint64) {
		for i := range n {
			x = x*6364136223846793005 + uint64(i)
		}
		return x
	}
	const work = 300_000_000
	var sink [3]uint64
	start := time.Now()
	sink[0] = spin(work)
	one := time.Since(start)
	start = time.Now()
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); sink[i] = spin(work / 2) }()
	}
	wg.Wait()
	two := time.Since(start)
	if sink[0] == sink[1] {
		// Uses the results, so the loops are not optimized away.
		return 0
	}
	return float64(one) / float64(two)
}

// TestScanPerformance measures what issue 30 sets as targets for a scan
// of a whole repository, with the tfeval binary, each process measured
// from outside (CPU as user+system time, peak as the maximum resident
// set):
//
//   - CPU: one `tfeval eval -json -recursive DIR` against the sum of
//     separate processes `tfeval eval -json ROOT` over its roots (target:
//     at most half);
//   - peak memory: the scan's against the largest of the separate runs'
//     (target: at most 2x);
//   - wall-time speedup from parallelism: the scan on one CPU
//     (GOMAXPROCS=1) against the scan on all (target: at least 1.6x on
//     two CPUs). Also logged: the scan evaluating one root at a time
//     (-parallelism=1; each root's evaluation is itself parallel), the
//     CPU the scan spends on one CPU against all, and before each tree
//     what a pure spinning loop gains from two goroutines over one (the
//     most any program can gain on the machine at that moment).
//
// Wall times mean something only on an otherwise idle machine (uptime's
// load under 1, the probe near 2x). It takes minutes, so it runs only
// with TFEVAL_PERF=1:
//
//	TFEVAL_PERF=1 go test -run TestScanPerformance -v -timeout 60m ./tests
//
// Each figure is the best of TFEVAL_PERF_REPEAT runs (default 2), the
// runs of a tree interleaved.
func TestScanPerformance(t *testing.T) {
	if os.Getenv("TFEVAL_PERF") == "" {
		t.Skip("set TFEVAL_PERF=1 to measure the scan's performance targets")
	}
	bin, err := cliBinary()
	if err != nil {
		t.Fatal(err)
	}
	repeat := 2
	fmt.Sscan(os.Getenv("TFEVAL_PERF_REPEAT"), &repeat)
	best := (*perfResult).keepBest
	flags := []string{"eval", "-json", "-missing-modules=unknown", "-missing-variables=unknown"}
	measure := func(name, dir string) scanFigures {
		roots, _ := tfeval.FindRoots(dir, tfeval.FindOptions{})
		f := scanFigures{roots: len(roots)}
		probe := spinProbe()
		for range repeat {
			scan := measureCLI(t, nil, bin, append(flags, "-recursive", dir)...)
			best(&f.scan, scan)
			f.scanPeaks.add(scan.rss)
			best(&f.cpu1, measureCLI(t, []string{"GOMAXPROCS=1"}, bin, append(flags, "-recursive", dir)...))
			best(&f.par1, measureCLI(t, nil, bin, append(flags, "-recursive", "-parallelism=1", dir)...))
			var each perfResult
			for _, root := range roots {
				r := measureCLI(t, nil, bin, append(flags, filepath.Join(dir, root))...)
				each.wall += r.wall
				each.cpu += r.cpu
				each.rss = max(each.rss, r.rss)
			}
			if f.each.cpu == 0 || each.cpu < f.each.cpu {
				f.each.cpu, f.each.wall = each.cpu, each.wall
			}
			f.each.rss = max(f.each.rss, each.rss)
			f.eachPeaks.add(each.rss)
		}
		ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
		t.Logf("%-55s %3d roots: scan cpu %8v vs separate processes %8v (%.2fx, target <= 0.5); peak %s vs largest root %s (highest %.2fx, target <= 2); "+
			"wall 1 CPU %v / all %v = %.2fx (target >= 1.6; spin probe %.2fx); wall -parallelism=1 / default %.2fx; cpu 1 CPU / all %.2fx",
			name, f.roots, f.scan.cpu.Round(time.Millisecond), f.each.cpu.Round(time.Millisecond), ratio(f.scan.cpu, f.each.cpu),
			f.scanPeaks, f.eachPeaks, float64(f.scan.rss)/float64(f.each.rss),
			f.cpu1.wall.Round(time.Millisecond), f.scan.wall.Round(time.Millisecond), ratio(f.cpu1.wall, f.scan.wall), probe,
			ratio(f.par1.wall, f.scan.wall), ratio(f.cpu1.cpu, f.scan.cpu))
		return f
	}
	measure(fmt.Sprintf("generated monorepo (small, %d roots)", benchRoots), benchRootsTree(t, benchgen.Small, benchRoots))
	measure("generated monorepo (medium, 4 roots)", benchRootsTree(t, benchgen.Medium, 4))
	for _, repo := range realworldRepos() {
		measure(repo.name, repo.dir)
	}
}
