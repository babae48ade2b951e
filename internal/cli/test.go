package cli

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/scan"
	"github.com/tfeval/tfeval/tftest"
)

// testOptions are the options only `tfeval test` takes.
type testOptions struct {
	filter   []string
	testDir  string
	verbose  bool
	junitXML string
	// runParallelism and repair are terraform test's options (1.12 and
	// 1.13 on) that change nothing offline: tfeval runs a file's runs
	// one after another, which the order of its report already follows,
	// and -repair matters only to terraform test cleanup.
	runParallelism int
	repair         bool
}

func (t *testOptions) register(fs *flag.FlagSet) {
	fs.Func("filter", "FILE", func(s string) error {
		t.filter = append(t.filter, s)
		return nil
	})
	fs.StringVar(&t.testDir, "test-directory", defaultTestDirectory, "directory of test files")
	fs.BoolVar(&t.verbose, "verbose", false, "print each run's plan or state")
	fs.StringVar(&t.junitXML, "junit-xml", "", "write a JUnit XML report to FILE")
	fs.IntVar(&t.runParallelism, "run-parallelism", 10, "accepted as terraform test takes it; changes nothing")
	fs.BoolVar(&t.repair, "repair", false, "accepted as terraform test takes it; changes nothing")
}

// runTest runs the module's test files as terraform test would. Its
// text goes straight to standard output and the runs' diagnostics to
// standard error between its status lines, as they come.
func runTest(c *common, env Env) int {
	rep, err := runTestFiles(c, env, env.Stdout, newDiagPrinter(env.Stderr, c, env))
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	if c.test.junitXML != "" {
		if err := writeJUnitFile(c, env, func(w io.Writer) error {
			return format.WriteJUnitXML(w, rep, format.JUnitOptions{WorkDir: env.WorkDir, Sandbox: c.sandbox})
		}); err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: -junit-xml: %s\n", err)
			return exitError
		}
	}
	if testFailed(rep) {
		return exitError
	}
	return exitOK
}

// testRoot is one module's test run in a -recursive test: its text, with
// the diagnostics in place, or its -json events, and its JUnit suites.
func testRoot(c *common, env Env) report {
	var out, errs bytes.Buffer
	// In the output of many modules, file names are relative to the
	// directory scanned.
	opts := diagOptions(c, env)
	if rel, err := filepath.Rel(c.scanDir, env.WorkDir); c.scanDir != "" && err == nil {
		opts.WorkDir, opts.Root = c.scanDir, filepath.ToSlash(rel)
	}
	rep, err := runTestFiles(c, env, &out, format.NewDiagnosticPrinter(&errs, opts))
	if err != nil {
		return failure(err)
	}
	r := report{out: out.Bytes(), stderr: errs.Bytes(), failed: testFailed(rep)}
	if c.test.junitXML != "" {
		r.junit, err = format.JUnitSuites(rep, format.JUnitOptions{WorkDir: opts.WorkDir, Sandbox: c.sandbox, Root: opts.Root})
		if err != nil {
			return failure(err)
		}
	}
	return r
}

// runTestFiles runs the test files of the module in env.WorkDir and
// writes the report to w, as text or -json events.
func runTestFiles(c *common, env Env, w io.Writer, diags *format.DiagnosticPrinter) (*tftest.Report, error) {
	opts, err := options(c, env, false)
	if err != nil {
		return nil, err
	}
	// Only -verbose prints the runs' plans and states: without it, each
	// run's evaluation is let go as soon as it is judged.
	rep := tfeval.Test(c.ctx, tfeval.TestOptions{Options: opts, TestDirectory: c.test.testDir, Filter: c.test.filter, DropResults: !c.test.verbose})
	if !c.json {
		return rep, format.WriteTestText(w, rep, format.TestTextOptions{Dialect: c.dialect, Color: c.color, Verbose: c.test.verbose, Diagnostics: diags})
	}
	out := bufio.NewWriterSize(w, 1<<16)
	err = format.WriteTestJSONWith(out, rep, format.TestJSONOptions{Dialect: c.dialect, Verbose: c.test.verbose, Sources: diags.Sources()})
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	return rep, err
}

// testFailed reports whether a test report makes the exit status 1: a
// run failed or errored (skipped runs do not).
func testFailed(rep *tftest.Report) bool {
	return rep.Status == tftest.Fail || rep.Status == tftest.Error
}

// writeJUnitFile writes -junit-xml's file, relative to the directory the
// command works on.
func writeJUnitFile(c *common, env Env, write func(io.Writer) error) error {
	path := c.test.junitXML
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.WorkDir, path)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// testedModules are the module directories of a tree that have test
// files, in it or in its test directory: what test -recursive tests.
func testedModules(c *common, tree *scan.Tree) []string {
	var out []string
	for _, dir := range tree.ModuleDirs {
		abs := filepath.Join(tree.Dir, filepath.FromSlash(dir))
		if hasTestFiles(abs, c) || hasTestFiles(filepath.Join(abs, c.test.testDir), c) {
			out = append(out, dir)
		}
	}
	return out
}

// hasTestFiles reports whether dir holds a test file of the dialect.
func hasTestFiles(dir string, c *common) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && tftest.IsTestFile(e.Name(), c.dialect) {
			return true
		}
	}
	return false
}

// defaultTestDirectory is -test-directory's default, for test and init.
const defaultTestDirectory = tftest.DefaultTestDirectory
