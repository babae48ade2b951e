package cli

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/tftest"
)

// testOptions are the options only `tfeval test` takes.
type testOptions struct {
	filter   []string
	testDir  string
	verbose  bool
	junitXML string
}

func (t *testOptions) register(fs *flag.FlagSet) {
	fs.Func("filter", "FILE", func(s string) error {
		t.filter = append(t.filter, s)
		return nil
	})
	fs.StringVar(&t.testDir, "test-directory", tftest.DefaultTestDirectory, "directory of test files")
	fs.BoolVar(&t.verbose, "verbose", false, "print each run's plan or state")
	fs.StringVar(&t.junitXML, "junit-xml", "", "write a JUnit XML report to FILE")
}

// runTest runs the module's test files as terraform test would.
func runTest(c *common, env Env) int {
	opts, err := options(c, env, false)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
		return exitError
	}
	rep := tfeval.Test(c.ctx, tfeval.TestOptions{Options: opts, TestDirectory: c.test.testDir, Filter: c.test.filter})
	if c.json {
		out := bufio.NewWriterSize(env.Stdout, 1<<16)
		write := format.WriteTestJSON
		if c.test.verbose {
			write = format.WriteTestJSONVerbose
		}
		err := write(out, rep, c.dialect)
		if ferr := out.Flush(); err == nil {
			err = ferr
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
	} else {
		// Unbuffered: the runs' diagnostics go to standard error between
		// the status lines, in order.
		err := format.WriteTestText(env.Stdout, rep, format.TestTextOptions{Dialect: c.dialect, Color: c.color, Verbose: c.test.verbose, Diagnostics: newDiagPrinter(env.Stderr, c, env)})
		if err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: %s\n", err)
			return exitError
		}
	}
	if c.test.junitXML != "" {
		path := c.test.junitXML
		if !filepath.IsAbs(path) {
			path = filepath.Join(env.WorkDir, path)
		}
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(env.Stderr, "tfeval: -junit-xml: %s\n", err)
			return exitError
		}
		werr := format.WriteJUnitXML(f, rep, format.JUnitOptions{WorkDir: env.WorkDir, Sandbox: c.sandbox})
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			fmt.Fprintf(env.Stderr, "tfeval: -junit-xml: %s\n", werr)
			return exitError
		}
	}
	if rep.Status == tftest.Fail || rep.Status == tftest.Error {
		return exitError
	}
	return exitOK
}
