package tests

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/benchgen"
	"github.com/tfeval/tfeval/internal/cli"
	"github.com/tfeval/tfeval/internal/fastexpr"
	"github.com/tfeval/tfeval/internal/longtest"
	"github.com/tfeval/tfeval/marks"
)

// benchConsoleFile is added to every generated tree so the console
// benchmark can evaluate `var.a + 1` in the root module of each size.
const benchConsoleFile = `variable "a" {
  type    = number
  default = 1
}
`

// benchTrees holds the generated trees, written once per test binary run
// into a temporary directory that TestMain removes.
var benchTrees struct {
	root string
	once map[benchgen.Size]*sync.Once
	err  map[benchgen.Size]error
	mu   sync.Mutex
}

func TestMain(m *testing.M) {
	if cli := os.Getenv(rlimitExecEnv); cli != "" {
		execWithDataLimit(cli) // TestAdversarialCLI's child; does not return
	}
	code := m.Run()
	if benchTrees.root != "" {
		os.RemoveAll(benchTrees.root)
	}
	if cliBinaryDir != "" {
		os.RemoveAll(cliBinaryDir)
	}
	os.Exit(code)
}

// benchTree returns the directory of the generated tree of a size,
// writing it on first use.
func benchTree(tb testing.TB, size benchgen.Size) string {
	tb.Helper()
	benchTrees.mu.Lock()
	if benchTrees.root == "" {
		dir, err := os.MkdirTemp("", "tfeval-bench-")
		if err != nil {
			benchTrees.mu.Unlock()
			tb.Fatal(err)
		}
		benchTrees.root = dir
		benchTrees.once = map[benchgen.Size]*sync.Once{}
		benchTrees.err = map[benchgen.Size]error{}
	}
	once := benchTrees.once[size]
	if once == nil {
		once = &sync.Once{}
		benchTrees.once[size] = once
	}
	dir := filepath.Join(benchTrees.root, string(size))
	benchTrees.mu.Unlock()
	once.Do(func() {
		err := benchgen.Write(dir, size)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "bench_console.tf"), []byte(benchConsoleFile), 0o644)
		}
		benchTrees.mu.Lock()
		benchTrees.err[size] = err
		benchTrees.mu.Unlock()
	})
	benchTrees.mu.Lock()
	err := benchTrees.err[size]
	benchTrees.mu.Unlock()
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// forEachSize runs a sub-benchmark per preset size.
func forEachSize(b *testing.B, fn func(b *testing.B, dir string)) {
	for _, size := range benchgen.Sizes {
		b.Run(string(size), func(b *testing.B) {
			dir := benchTree(b, size)
			b.ReportAllocs()
			fn(b, dir)
		})
	}
}

// parseTree reads and parses every HCL file of a tree (.tf and .tfvars):
// the floor any evaluation has to pay.
func parseTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(path, ".tf") && !strings.HasSuffix(path, ".tfvars") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos); diags.HasErrors() {
			return diags
		}
		return nil
	})
}

// parseTime is the fastest of a few parse-only runs, the denominator of the
// ratio metrics, measured in the same run as what it is compared with.
func parseTime(b *testing.B, dir string) time.Duration {
	b.Helper()
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		if err := parseTree(dir); err != nil {
			b.Fatal(err)
		}
		best = min(best, time.Since(start))
	}
	return best
}

func reportParseRatio(b *testing.B, floor time.Duration) {
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/float64(floor.Nanoseconds()), "x-parse")
}

func BenchmarkParse(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		for b.Loop() {
			if err := parseTree(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkLoad(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		floor := parseTime(b, dir)
		for b.Loop() {
			if _, diags := config.Load(".", config.Options{WorkDir: dir}); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
		reportParseRatio(b, floor)
	})
}

// BenchmarkLoadCached is BenchmarkLoad with a config.ModuleCache that an
// earlier load filled: every file is still listed, read and hashed, but no
// module is parsed or decoded again. It is what a tool evaluating many
// roots that share modules, or one module with many inputs, pays to load
// after the first time.
func BenchmarkLoadCached(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		floor := parseTime(b, dir)
		cache := &config.ModuleCache{}
		if _, diags := config.Load(".", config.Options{WorkDir: dir, Cache: cache}); diags.HasErrors() {
			b.Fatal(diags)
		}
		for b.Loop() {
			if _, diags := config.Load(".", config.Options{WorkDir: dir, Cache: cache}); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
		reportParseRatio(b, floor)
	})
}

// BenchmarkValidate runs `tfeval validate DIR` in-process.
func BenchmarkValidate(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		floor := parseTime(b, dir)
		for b.Loop() {
			if code := cli.Run([]string{"validate"}, cli.Env{Stdout: io.Discard, Stderr: io.Discard, WorkDir: dir}); code != 0 {
				b.Fatalf("validate exited %d", code)
			}
		}
		reportParseRatio(b, floor)
	})
}

// evaluateTree is what `tfeval eval -schemas=providers-schema.json` does
// before printing: load, collect variables, evaluate everything.
func evaluateTree(tb testing.TB, dir string, schemas []byte) *tfeval.Evaluation {
	return evaluateCached(tb, dir, schemas, nil)
}

// evaluateCached is evaluateTree with a module cache (nil for none).
func evaluateCached(tb testing.TB, dir string, schemas []byte, cache *config.ModuleCache) *tfeval.Evaluation {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Schemas: schemas, ModuleCache: cache})
	if ev.Diagnostics.HasErrors() {
		tb.Fatalf("evaluating %s: %s", dir, ev.Diagnostics.Error())
	}
	return ev
}

func readSchemas(tb testing.TB, dir string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(dir, benchgen.SchemaFile))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func BenchmarkEvaluate(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		schemas := readSchemas(b, dir)
		floor := parseTime(b, dir)
		for b.Loop() {
			evaluateTree(b, dir, schemas)
		}
		reportParseRatio(b, floor)
	})
}

// BenchmarkEvaluateCached is BenchmarkEvaluate with a module cache an
// earlier evaluation filled (see BenchmarkLoadCached).
func BenchmarkEvaluateCached(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		schemas := readSchemas(b, dir)
		floor := parseTime(b, dir)
		cache := &config.ModuleCache{}
		evaluateCached(b, dir, schemas, cache)
		for b.Loop() {
			evaluateCached(b, dir, schemas, cache)
		}
		reportParseRatio(b, floor)
	})
}

// BenchmarkValueFloor builds, with go-cty's constructors, the values an
// evaluation of the tree must hand back: every planned resource instance,
// each object, tuple, list and map in it made anew from its elements
// (strings, numbers and other leaves are reused), on as many goroutines as
// evaluation uses. No evaluation can produce its results for less, so this
// and BenchmarkLoad bound BenchmarkEvaluate from below.
func BenchmarkValueFloor(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		ev := evaluateTree(b, dir, readSchemas(b, dir))
		var vals []cty.Value
		for _, r := range ev.Resources() {
			vals = append(vals, r.Value)
		}
		workers := runtime.GOMAXPROCS(0)
		floor := parseTime(b, dir)
		for b.Loop() {
			var wg sync.WaitGroup
			for w := range workers {
				part := vals[w*len(vals)/workers : (w+1)*len(vals)/workers]
				wg.Go(func() {
					for _, v := range part {
						rebuildValue(v)
					}
				})
			}
			wg.Wait()
		}
		reportParseRatio(b, floor)
	})
}

// rebuildValue makes v's objects and collections again from their
// elements; unknown, null and marked values are kept as they are.
func rebuildValue(v cty.Value) cty.Value {
	if !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return v
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			attrs[name] = rebuildValue(v.GetAttr(name))
		}
		return cty.ObjectVal(attrs)
	case ty.IsMapType() && v.LengthInt() > 0:
		elems := make(map[string]cty.Value, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			elems[k.AsString()] = rebuildValue(e)
		}
		return cty.MapVal(elems)
	case ty.IsTupleType() || ty.IsListType() && v.LengthInt() > 0:
		elems := make([]cty.Value, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, rebuildValue(e))
		}
		if ty.IsTupleType() {
			return cty.TupleVal(elems)
		}
		return cty.ListVal(elems)
	}
	return v
}

// BenchmarkEvalText and BenchmarkEvalJSON run `tfeval eval` and
// `tfeval eval -json` in-process, printing included: set against
// BenchmarkEvaluate, they show what the output costs.
func BenchmarkEvalText(b *testing.B) { benchmarkEvalCLI(b) }

func BenchmarkEvalJSON(b *testing.B) { benchmarkEvalCLI(b, "-json") }

func benchmarkEvalCLI(b *testing.B, flags ...string) {
	forEachSize(b, func(b *testing.B, dir string) {
		args := append(append([]string{"eval"}, flags...), "-schemas", benchgen.SchemaFile)
		for b.Loop() {
			if code := cli.Run(args, cli.Env{Stdout: io.Discard, Stderr: io.Discard, WorkDir: dir}); code != 0 {
				b.Fatalf("eval exited %d", code)
			}
		}
	})
}

// BenchmarkConsoleExpr evaluates `var.a + 1` in the root scope of an
// evaluated tree, as each line typed into tfeval console is.
func BenchmarkConsoleExpr(b *testing.B) {
	forEachSize(b, func(b *testing.B, dir string) {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Schemas: readSchemas(b, dir), Console: true})
		if ev.Diagnostics.HasErrors() {
			b.Fatal(ev.Diagnostics.Error())
		}
		expr, diags := hclsyntax.ParseExpression([]byte("var.a + 1"), "<console-input>", hcl.InitialPos)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		if v, diags := ev.Result.EvalExpr(expr, nil); diags.HasErrors() || !v.RawEquals(cty.NumberIntVal(2)) {
			b.Fatalf("got %#v, %s", v, diags.Error())
		}
		for b.Loop() {
			ev.Result.EvalExpr(expr, nil)
		}
	})
}

// functionCases are the function calls that dominate the generated trees
// (and real configurations), with arguments of realistic size.
var functionCases = []struct{ name, expr string }{
	{"merge", `merge(local.tags, {project = "bench", owner = "team-a"}, {tier = "gold"})`},
	{"lookup", `lookup(local.sizes, "prod", "small")`},
	{"cidrsubnet", `cidrsubnet("10.20.0.0/16", 8, 42)`},
	{"jsonencode", `jsonencode({name = "svc-01", ports = [80, 443], tags = local.tags})`},
	{"format", `format("%s-%s-%03d", "svc", "prod", 7)`},
	{"flatten", `flatten([for e in local.envs : [for z in ["a", "b", "c"] : "${e}-${z}"]])`},
	{"length", `length(local.envs)`},
	// A resource's whole value, as length(aws_x.y) and keys(aws_x.y) see it:
	// neither needs to look inside the 1,000 instances.
	{"length_instances", `length(local.instances)`},
	{"keys_instances", `keys(local.by_key)`},
	// A naming module's per-kind work (appvia/terraform-azurerm-naming's
	// shape): a for over 500 kinds calling functions per element, some of
	// them of a marked value (a test run marks what it draws for
	// hashicorp/random's results, and all derived from it).
	{"regex", `regex("^[a-z][a-z0-9-]{1,61}[a-z0-9]$", "vnet-dev-eus2")`},
	{"regexall", `regexall("[0-9]+", "a1b22c333")`},
	{"naming_for", `{for k, d in local.kinds : k => {
		name  = substr(join(d.dashes ? "-" : "", compact(concat([for p in local.prefix : lower(p)], [lower(d.slug)], [local.unique]))), 0, d.max_length)
		parts = slice(local.prefix, 0, min(length(local.prefix), max(1, floor(d.max_length / 10))))
		short = coalesce(local.none, [for p in local.prefix : lower(p)])
		ok    = length(d.slug) <= d.max_length && can(regex(d.regex, lower(d.slug)))
		slug  = lookup(local.overrides, k, d.slug)
	}}`},
}

// benchKinds returns n resource kinds as a naming module decodes them from
// its JSON document: a slug, a pattern, a length bound and a separator.
func benchKinds(n int) cty.Value {
	m := make(map[string]cty.Value, n)
	for i := range n {
		m[fmt.Sprintf("kind_%03d", i)] = cty.ObjectVal(map[string]cty.Value{
			"slug":       cty.StringVal(fmt.Sprintf("K%d", i)),
			"regex":      cty.StringVal(fmt.Sprintf("^[a-z0-9-]{1,%d}$", 20+i%40)),
			"max_length": cty.NumberIntVal(int64(20 + i%40)),
			"dashes":     cty.BoolVal(i%3 != 0),
		})
	}
	return cty.ObjectVal(m)
}

// benchInstances returns a counted and a for_each resource's whole value:
// 1,000 planned instances each.
func benchInstances() (counted, byKey cty.Value) {
	list := make([]cty.Value, 1000)
	m := make(map[string]cty.Value, 1000)
	for i := range list {
		list[i] = cty.ObjectVal(map[string]cty.Value{
			"id": cty.UnknownVal(cty.String),
			"input": cty.ObjectVal(map[string]cty.Value{
				"name": cty.StringVal(fmt.Sprintf("svc-%04d", i)), "port": cty.NumberIntVal(int64(8000 + i)),
				"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}),
			}),
		})
		m[fmt.Sprintf("svc-%04d", i)] = list[i]
	}
	return cty.TupleVal(list), cty.ObjectVal(m)
}

// BenchmarkFunctions evaluates one call of each common function, with the
// function table built and the expression compiled by the guard once, as
// the evaluator does.
func BenchmarkFunctions(b *testing.B) {
	direct := &funcs.DirectCalls{}
	table := funcs.Functions(funcs.Options{BaseDir: b.TempDir(), PureOnly: true, Direct: direct})
	guard := &fastexpr.Guard{Direct: direct.Lookup}
	instances, byKey := benchInstances()
	ctx := &hcl.EvalContext{
		Functions: map[string]function.Function(table),
		Variables: map[string]cty.Value{"local": cty.ObjectVal(map[string]cty.Value{
			"tags": cty.MapVal(map[string]cty.Value{
				"env": cty.StringVal("prod"), "team": cty.StringVal("platform"), "cost": cty.StringVal("cc-1234"),
				"managed_by": cty.StringVal("terraform"), "region": cty.StringVal("eu-west-1"),
			}),
			"sizes":     cty.MapVal(map[string]cty.Value{"prod": cty.StringVal("large"), "staging": cty.StringVal("medium")}),
			"envs":      cty.TupleVal([]cty.Value{cty.StringVal("prod"), cty.StringVal("staging"), cty.StringVal("dev")}),
			"instances": instances,
			"by_key":    byKey,
			"kinds":     benchKinds(500),
			"prefix":    cty.TupleVal([]cty.Value{cty.StringVal("Contoso"), cty.StringVal("Dev")}),
			"none":      cty.NullVal(cty.DynamicPseudoType),
			"unique":    cty.StringVal("x7k2").Mark(marks.Drawn),
			"overrides": cty.MapVal(map[string]cty.Value{"kind_007": cty.StringVal("seven")}),
		})},
	}
	for _, tc := range functionCases {
		b.Run(tc.name, func(b *testing.B) {
			parsed, diags := hclsyntax.ParseExpression([]byte(tc.expr), "bench.tf", hcl.InitialPos)
			if diags.HasErrors() {
				b.Fatal(diags)
			}
			expr := guard.Expr(parsed)
			b.ReportAllocs()
			for b.Loop() {
				if _, diags := expr.Value(ctx); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
		})
	}
}

// TestBenchTreesEvaluate checks that every generated tree evaluates without
// diagnostics and plans the instance count benchgen promises, so the
// benchmarks measure real work. The medium and large trees run with the
// long suites (internal/longtest).
func TestBenchTreesEvaluate(t *testing.T) {
	for _, size := range benchgen.Sizes {
		t.Run(string(size), func(t *testing.T) {
			if size != benchgen.Small {
				longtest.Skip(t, "a generated tree of "+string(size)+" size")
			}
			dir := benchTree(t, size)
			ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Schemas: readSchemas(t, dir)})
			if len(ev.Diagnostics) > 0 {
				t.Fatalf("diagnostics: %s", ev.Diagnostics.Error())
			}
			if got, want := len(ev.Result.Resources), benchgen.ExpectedInstances(size); got != want {
				t.Errorf("resource instances = %d, want %d", got, want)
			}
			if got, want := len(ev.Result.Modules), benchgen.ExpectedModuleInstances(size)+1; got != want {
				t.Errorf("module instances = %d, want %d (with the root)", got, want)
			}
			for _, r := range ev.Result.Resources {
				if !r.Value.IsKnown() && r.Value.Type() == cty.DynamicPseudoType {
					t.Fatalf("%s was not planned: %#v", r.Addr, r.Value)
				}
				// BenchmarkValueFloor's rebuild must make the same values.
				if size == benchgen.Small && !rebuildValue(r.Value).RawEquals(r.Value) {
					t.Fatalf("rebuilding %s changed it: %#v", r.Addr, r.Value)
				}
			}
		})
	}
}

// perfChildEnv names, in a child test process, the tree and the work to do
// once: "parse", "validate" or "eval", as "WHAT:DIR".
const perfChildEnv = "TFEVAL_PERF_CHILD"

// TestPerfChild does one piece of work in a fresh process, so that the
// parent can read its wall time and peak memory (maximum resident set).
func TestPerfChild(t *testing.T) {
	spec := os.Getenv(perfChildEnv)
	if spec == "" {
		t.Skip("only run by TestPerformanceTargets")
	}
	what, dir, _ := strings.Cut(spec, ":")
	start := time.Now()
	switch what {
	case "parse":
		if err := parseTree(dir); err != nil {
			t.Fatal(err)
		}
	case "validate":
		if code := cli.Run([]string{"validate"}, cli.Env{Stdout: io.Discard, Stderr: io.Discard, WorkDir: dir}); code != 0 {
			t.Fatalf("validate exited %d", code)
		}
	case "eval":
		evaluateTree(t, dir, readSchemas(t, dir))
	default:
		t.Fatalf("unknown work %q", what)
	}
	fmt.Printf("elapsed_ns=%d\n", time.Since(start).Nanoseconds())
}

// perfResult is what one child process measured.
type perfResult struct {
	wall time.Duration // wall time of the work alone
	cpu  time.Duration // user+system time of the whole child process
	rss  int64         // peak resident set of the whole child, in bytes
}

// keepBest keeps in b the least wall and CPU time of b and r, and the
// largest peak: the run least disturbed by other work on the machine,
// and the memory it may need.
func (b *perfResult) keepBest(r perfResult) {
	if b.wall == 0 || r.wall < b.wall {
		b.wall = r.wall
	}
	if b.cpu == 0 || r.cpu < b.cpu {
		b.cpu = r.cpu
	}
	b.rss = max(b.rss, r.rss)
}

// perfRun runs TestPerfChild once for one piece of work.
func perfRun(t *testing.T, what, dir string, procs int) perfResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPerfChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), perfChildEnv+"="+what+":"+dir, fmt.Sprintf("GOMAXPROCS=%d", procs))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", what, dir, err, out)
	}
	_, after, ok := strings.Cut(string(out), "elapsed_ns=")
	if !ok {
		t.Fatalf("no timing in child output:\n%s", out)
	}
	var ns int64
	fmt.Sscanf(after, "%d", &ns)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return perfResult{
		wall: time.Duration(ns),
		cpu:  cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		rss:  ru.Maxrss * 1024,
	}
}

// TestPerformanceTargets measures the ratios issue 8 sets as targets, each
// in one run so that the load of a shared machine mostly cancels out, and
// logs them. It takes minutes, so it runs only with TFEVAL_PERF=1:
//
//	TFEVAL_PERF=1 go test -run TestPerformanceTargets -v -timeout 60m .
//
// TFEVAL_PERF_REPEAT sets how many times each measurement is repeated
// (the fastest counts; default 2).
func TestPerformanceTargets(t *testing.T) {
	if os.Getenv("TFEVAL_PERF") == "" {
		t.Skip("set TFEVAL_PERF=1 to measure the performance targets")
	}
	repeat := 2
	if n, err := strconv.Atoi(os.Getenv("TFEVAL_PERF_REPEAT")); err == nil && n > 0 {
		repeat = n
	}
	// Each figure is the best of the repeats: the run least disturbed by
	// other work on the machine. CPU time is of the whole child process
	// (start-up included, a few milliseconds) and is what the ratios use
	// besides wall time, because a loaded machine stretches wall time.
	type figures struct {
		parse, validate, eval, eval1 perfResult
	}
	best := (*perfResult).keepBest
	measured := map[benchgen.Size]*figures{}
	for _, size := range []benchgen.Size{benchgen.Medium, benchgen.Large} {
		dir := benchTree(t, size)
		f := &figures{}
		for range repeat {
			best(&f.parse, perfRun(t, "parse", dir, 2))
			best(&f.validate, perfRun(t, "validate", dir, 2))
			best(&f.eval, perfRun(t, "eval", dir, 2))
			best(&f.eval1, perfRun(t, "eval", dir, 1))
		}
		measured[size] = f
		for _, row := range []struct {
			name string
			r    perfResult
		}{{"parse", f.parse}, {"validate", f.validate}, {"eval", f.eval}, {"eval 1 CPU", f.eval1}} {
			t.Logf("%-6s %-10s wall %-14v cpu %-14v peak RSS %4.0f MiB", size, row.name, row.r.wall, row.r.cpu, float64(row.r.rss)/(1<<20))
		}
	}
	m, l := measured[benchgen.Medium], measured[benchgen.Large]
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	t.Logf("large eval / parse          wall %6.2fx  cpu %6.2fx (target <= 2x): %s", ratio(l.eval.wall, l.parse.wall), ratio(l.eval.cpu, l.parse.cpu), verdict(ratio(l.eval.wall, l.parse.wall) <= 2))
	t.Logf("large validate / parse      wall %6.2fx  cpu %6.2fx (target <= 1.3x): %s", ratio(l.validate.wall, l.parse.wall), ratio(l.validate.cpu, l.parse.cpu), verdict(ratio(l.validate.wall, l.parse.wall) <= 1.3))
	t.Logf("eval large / medium         wall %6.2fx  cpu %6.2fx (target <= 11x): %s", ratio(l.eval.wall, m.eval.wall), ratio(l.eval.cpu, m.eval.cpu), verdict(ratio(l.eval.wall, m.eval.wall) <= 11))
	memGrowth := float64(l.eval.rss) / float64(m.eval.rss)
	t.Logf("eval peak RSS large/medium  %6.2fx (target <= 11x): %s", memGrowth, verdict(memGrowth <= 11))
	speedup := ratio(l.eval1.wall, l.eval.wall)
	t.Logf("large eval 1 CPU / 2 CPUs   wall %6.2fx (target >= 1.6x): %s; cpu on 2 / on 1: %.2fx", speedup, verdict(speedup >= 1.6), ratio(l.eval.cpu, l.eval1.cpu))

	dir := benchTree(t, benchgen.Small)
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Schemas: readSchemas(t, dir), Console: true})
	expr, _ := hclsyntax.ParseExpression([]byte("var.a + 1"), "<console-input>", hcl.InitialPos)
	r := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			ev.Result.EvalExpr(expr, nil)
		}
	})
	perExpr := time.Duration(r.NsPerOp())
	t.Logf("console var.a + 1           %v (target < 2µs): %s", perExpr, verdict(perExpr < 2*time.Microsecond))
}

// BenchmarkExprFloor evaluates `var.a + 1` with hcl alone and a prebuilt
// context: the floor under BenchmarkConsoleExpr, which adds resolving the
// references in the module instance.
func BenchmarkExprFloor(b *testing.B) {
	expr, diags := hclsyntax.ParseExpression([]byte("var.a + 1"), "<console-input>", hcl.InitialPos)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})}}
	b.ReportAllocs()
	for b.Loop() {
		expr.Value(ctx)
	}
}

// TestEvaluateAllocations guards the allocation count of evaluating the
// generated trees, which (unlike time) does not depend on the machine: a
// change that brings back a per-instance cost shows here before anyone
// measures. The bounds have about 2% of headroom over the counts when
// they were set: the small tree 98.8k, the medium tree 1.205M since a
// plan validates its resources with dynamic blocks too, as Terraform
// validates before planning (session 54; see docs/benchmarks.md); before
// that, as "Issue #31's fourteenth round" in docs/benchmarks.md left them,
// the small tree 96.4k (97.0k before that round, 99.5k before the
// thirteenth, 98.3k after the eighth, 99.2k before it, 99.8k before the
// seventh, 102.1k before the fifth, 103.8k before the fourth, 130k before
// the first), the medium tree 1.164M (1.170M, 1.196M, 1.195M, 1.205M,
// 1.212M, 1.246M, 1.272M, 1.48M); the medium tree runs with the long
// suites.
func TestEvaluateAllocations(t *testing.T) {
	if raceSlowdown > 1 {
		t.Skip("allocation counts differ under the race detector")
	}
	for _, tc := range []struct {
		size  benchgen.Size
		bound float64
	}{
		{benchgen.Small, 100_800},
		{benchgen.Medium, 1_228_600},
	} {
		t.Run(string(tc.size), func(t *testing.T) {
			if tc.size != benchgen.Small {
				longtest.Skip(t, "a generated tree of "+string(tc.size)+" size")
			}
			dir := benchTree(t, tc.size)
			schemas := readSchemas(t, dir)
			n := testing.AllocsPerRun(1, func() { evaluateTree(t, dir, schemas) })
			t.Logf("%.0f allocations per evaluation of the %s tree", n, tc.size)
			if n > tc.bound {
				t.Errorf("evaluating the %s tree took %.0f allocations, more than %.0f", tc.size, n, tc.bound)
			}
		})
	}
}

// TestSmallModuleAllocations guards what one evaluation of a small module
// costs beyond its own content, as each row of a table of module tests
// pays it: the quickstart example, with a warm module cache, takes about
// 3,030 allocations (3,690 before function tables were made cheaper).
func TestSmallModuleAllocations(t *testing.T) {
	cache := &tfeval.ModuleCache{}
	evaluate := func() {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart, ModuleCache: cache})
		if ev.HasErrors() {
			t.Fatal(ev.Diagnostics)
		}
	}
	const bound = 3_600
	n := testing.AllocsPerRun(20, evaluate)
	t.Logf("%.0f allocations per evaluation of the quickstart example", n)
	if n > bound {
		t.Errorf("evaluating the quickstart example took %.0f allocations, more than %d", n, bound)
	}
}
