package tftest_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/conformance"
	"github.com/tfeval/tfeval/tfvars"
)

// BenchmarkTest runs test files as `tfeval test` does and reports the
// cost of one run block (ns/run; the CPU time, since runs are evaluated
// one after another). cases are the recorded conformance cases of
// testdata/conformance/testcases, both dialects; modules are the module
// directories TFEVAL_TFTEST_MODULES names (DIR or DIR:TESTDIR, separated
// by commas), such as the published modules of
// ../shared/realworld/tftest-repos.txt prepared as its run_tests.py
// prepares them, when it is set:
//
//	go test -run '^$' -bench Test -benchtime=20x ./tftest
func BenchmarkTest(b *testing.B) {
	b.Run("cases", func(b *testing.B) {
		cases, err := conformance.LoadTestCases("../testdata/conformance/testcases")
		if err != nil {
			b.Fatal(err)
		}
		var targets []target
		for _, c := range cases {
			for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
				t := target{dir: c.Dir, d: d}
				for _, a := range c.Args {
					switch {
					case strings.HasPrefix(a, "-var="):
						t.vars = append(t.vars, tfeval.Var(strings.TrimPrefix(a, "-var=")))
					case strings.HasPrefix(a, "-filter="):
						t.filter = append(t.filter, strings.TrimPrefix(a, "-filter="))
					case strings.HasPrefix(a, "-test-directory="):
						t.testDir = strings.TrimPrefix(a, "-test-directory=")
					}
				}
				targets = append(targets, t)
			}
		}
		benchmarkTargets(b, targets)
	})
	b.Run("modules", func(b *testing.B) {
		spec := os.Getenv("TFEVAL_TFTEST_MODULES")
		if spec == "" {
			b.Skip("TFEVAL_TFTEST_MODULES names no module directory")
		}
		var targets []target
		for _, entry := range strings.Split(spec, ",") {
			dir, testDir, _ := strings.Cut(entry, ":")
			targets = append(targets, target{dir: dir, testDir: testDir})
		}
		benchmarkTargets(b, targets)
	})
}

type target struct {
	dir, testDir string
	filter       []string
	vars         []tfvars.Arg
	d            dialect.Dialect
}

func benchmarkTargets(b *testing.B, targets []target) {
	runs := 0
	for i := 0; i < b.N; i++ {
		runs = 0
		for _, t := range targets {
			// A providers-schema.json beside the module is read as -schemas.
			rep := tfeval.Test(context.Background(), tfeval.TestOptions{
				Options:       tfeval.Options{WorkDir: t.dir, Dialect: t.d, VarArgs: t.vars},
				TestDirectory: t.testDir,
				Filter:        t.filter,
			})
			runs += rep.Passed + rep.Failed + rep.Errored + rep.Skipped
		}
	}
	if runs == 0 {
		b.Fatal("no run block ran")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*runs), "ns/run")
	b.ReportMetric(float64(runs), "runs")
}
