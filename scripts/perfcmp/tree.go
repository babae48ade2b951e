//go:build tflint

// Whole-tree contenders for the side-by-side harness of ../shared/perfcmp:
// copy this file into that harness (next to its main.go and tflint.go),
// build with -tags tflint, and run
//
//	PERFCMP_TREES=DIR[,DIR...] perfcmp [-rounds N] [-contenders NAMES]
//
// Each DIR is a repository evaluated whole, as each tool does when pointed
// at the top of a repository:
//
//   - tfeval-scan: tfeval.EvaluateRoots (tfeval eval -recursive): the roots
//     no other module directory calls, in parallel, sharing parses and file
//     function results;
//   - tfeval-each: tfeval.Evaluate on each of those roots, nothing shared,
//     as a loop of separate runs would;
//   - trivy, trivy+attrs: Trivy's scanner's own loop (trivy config DIR)
//     without its policy checks: the directories its walk finds (it does not
//     descend below a directory with configuration files), the root modules
//     parser.FindRootModules picks among them, then ParseFS and EvaluateAll
//     of each; +attrs also asks for every attribute's value, which Trivy
//     evaluates lazily;
//   - tflint: tflint --recursive's loop: every directory with configuration
//     files, each loaded and evaluated as the harness's tflint contender
//     does (local modules called, every top-level attribute of every
//     resource and data block evaluated).
//
// Every tool is given no variable values: required ones are unknown
// (tfeval's -missing-variables=unknown, -missing-modules=unknown), as
// Trivy and tflint treat them. CPU time (user+sys of the process) and
// allocations are measured around each call, in rounds that rotate the
// order; peak memory is each contender alone in a process of its own
// (-contenders NAME, with /usr/bin/time -f %M). "res" counts the resource
// and data instances a tool evaluated; "roots" the root modules.
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/aquasecurity/trivy/pkg/iac/scanners/terraform/parser"

	tfeval "github.com/tfeval/tfeval"
)

func init() {
	trees := os.Getenv("PERFCMP_TREES")
	if trees == "" {
		return
	}
	rounds := flag.Int("rounds", 3, "interleaved rounds per tree")
	which := flag.String("contenders", "tfeval-scan,tfeval-each,trivy,trivy+attrs,tflint", "comma-separated contenders")
	flag.Parse()
	treeMain(strings.Split(trees, ","), *rounds, strings.Split(*which, ","))
	os.Exit(0)
}

// treeOutcome is what one contender did with a tree.
type treeOutcome struct{ roots, resources, errors int }

var treeContenders = map[string]func(dir string) treeOutcome{
	"tfeval-scan": tfevalScan,
	"tfeval-each": tfevalEach,
	"trivy":       func(dir string) treeOutcome { return trivyTree(dir, false) },
	"trivy+attrs": func(dir string) treeOutcome { return trivyTree(dir, true) },
	"tflint":      tflintTree,
}

var scanOptions = tfeval.Options{MissingModules: tfeval.MissingModulesUnknown, MissingVariables: tfeval.MissingVariablesUnknown}

func countEvaluation(o *treeOutcome, ev *tfeval.Evaluation) {
	o.roots++
	o.resources += len(ev.Resources())
	if ev.HasErrors() {
		o.errors++
	}
}

func tfevalScan(dir string) treeOutcome {
	var o treeOutcome
	for root, ev := range tfeval.EvaluateRoots(context.Background(), dir, tfeval.RootsOptions{Options: scanOptions}) {
		if root != "" {
			countEvaluation(&o, ev)
		}
	}
	return o
}

func tfevalEach(dir string) treeOutcome {
	var o treeOutcome
	roots, _ := tfeval.FindRoots(dir, tfeval.FindOptions{})
	for _, root := range roots {
		opts := scanOptions
		opts.WorkDir = filepath.Join(dir, root)
		countEvaluation(&o, tfeval.Evaluate(opts))
	}
	return o
}

// trivyModuleDirs are the directories Trivy's scanner considers: breadth
// first from the top, a directory with configuration files taken and not
// descended into.
func trivyModuleDirs(fsys fs.FS, dirs []string) []string {
	var found, below []string
	for _, d := range dirs {
		entries, err := fs.ReadDir(fsys, d)
		if err != nil {
			continue
		}
		module := false
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() && (strings.HasSuffix(n, ".tf") || strings.HasSuffix(n, ".tf.json") || strings.HasSuffix(n, ".tofu") || strings.HasSuffix(n, ".tofu.json")) {
				module = true
			}
		}
		if module {
			found = append(found, d)
			continue
		}
		for _, e := range entries {
			if e.IsDir() {
				below = append(below, path.Join(d, e.Name()))
			}
		}
	}
	if len(found) == 0 && len(below) > 0 {
		return trivyModuleDirs(fsys, below)
	}
	return found
}

func trivyTree(dir string, attrs bool) treeOutcome {
	ctx := context.Background()
	fsys := os.DirFS(dir)
	opts := []parser.Option{parser.OptionWithDownloads(false), parser.OptionStopOnHCLError(false), parser.OptionWithLogger(discard)}
	roots, err := parser.New(fsys, "", opts...).FindRootModules(ctx, trivyModuleDirs(fsys, []string{"."}))
	if err != nil {
		panic(err)
	}
	var o treeOutcome
	for _, root := range roots {
		p := parser.New(fsys, "", opts...)
		if err := p.ParseFS(ctx, root); err != nil {
			o.errors++
			continue
		}
		mods, err := p.EvaluateAll(ctx)
		if err != nil {
			o.errors++
			continue
		}
		o.roots++
		for _, m := range mods {
			for _, b := range m.GetBlocks() {
				if b.Type() != "resource" && b.Type() != "data" {
					continue
				}
				o.resources++
				if attrs {
					trivyKnown(b, true)
				}
			}
		}
	}
	return o
}

// tflintDirs are the directories tflint --recursive runs in: every one with
// configuration files, hidden ones (and .terraform) left out.
func tflintDirs(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		entries, _ := os.ReadDir(p)
		for _, e := range entries {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".tf") || strings.HasSuffix(e.Name(), ".tf.json")) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	return out
}

func tflintTree(dir string) (o treeOutcome) {
	for _, d := range tflintDirs(dir) {
		func() {
			defer func() {
				if recover() != nil {
					o.errors++ // tflint's loader refused the directory
				}
			}()
			r := runTflint(&input{root: d, dir: "."})
			o.roots++
			o.resources += r.resources
			o.errors += r.errors
		}()
	}
	return o
}

func treeMain(dirs []string, rounds int, which []string) {
	fmt.Printf("GOMAXPROCS=%d GOGC=%q go=%s load=%s\n", runtime.GOMAXPROCS(0), os.Getenv("GOGC"), runtime.Version(), loadavg())
	for _, dir := range dirs {
		fmt.Printf("\n== %s (load %s)\n", dir, loadavg())
		samples := map[string][]sample{}
		outs := map[string]treeOutcome{}
		for _, name := range which { // warm-up: file cache, lazily built tables
			fn, ok := treeContenders[name]
			if !ok {
				fmt.Fprintln(os.Stderr, "unknown contender", name)
				os.Exit(2)
			}
			outs[name] = fn(dir)
		}
		for r := 0; r < rounds; r++ {
			for i := range which {
				name := which[(i+r)%len(which)]
				fn := treeContenders[name]
				s, _ := measure(contender{name, func(*input) outcome { fn(dir); return outcome{} }}, nil)
				samples[name] = append(samples[name], s)
			}
		}
		fmt.Printf("%-12s %10s %10s %12s %10s | %6s %8s %6s\n", "contender", "cpu ms", "wall ms", "allocs", "MB alloc", "roots", "res", "errs")
		for _, name := range which {
			var cpus, walls []float64
			for _, s := range samples[name] {
				cpus = append(cpus, float64(s.cpu.Microseconds())/1000)
				walls = append(walls, float64(s.d.Microseconds())/1000)
			}
			s0, o := samples[name][len(samples[name])-1], outs[name]
			fmt.Printf("%-12s %10.1f %10.1f %12d %10.1f | %6d %8d %6d\n", name, median(cpus), median(walls), s0.allocs, float64(s0.bytes)/1e6, o.roots, o.resources, o.errors)
		}
	}
}
