package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// This file scores the test command against the recorded `terraform test
// -json` and `tofu test -json` streams of testdata/conformance/testcases,
// by the rules of shared/conformance/compare_test.py: the units are the
// exit status, the files and runs found, each file's and run's status,
// each run's diagnostics (severity and summary), the other diagnostics
// and the summary.

// TestCase is one folder of testcases/.
type TestCase struct {
	Folder
	// Expected are the recorded exit status and events, by dialect name.
	Expected map[string]TestRecord
}

// TestRecord is one binary's recorded run of a test case.
type TestRecord struct {
	RC     int              `json:"rc"`
	Events []map[string]any `json:"events"`
}

// LoadTestCases reads every test case folder under root (those with an
// expected_test.json), sorted by name.
func LoadTestCases(root string) ([]*TestCase, error) {
	return loadFolders(root, "expected_test.json", func(f Folder, b []byte) (*TestCase, error) {
		c := &TestCase{Folder: f}
		if err := json.Unmarshal(b, &c.Expected); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		return c, nil
	})
}

// ReadNeedsProvider reads NEEDS_PROVIDER.txt: the cases whose runs read
// what the real test provider answers, left out of the score.
func ReadNeedsProvider(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out[l] = true
		}
	}
	return out, nil
}

// TestArgs is the command line the case is run with, as compare_test.py
// runs it.
func (c *TestCase) TestArgs(dialectName string) []string {
	args := []string{"test", "-json"}
	if dialectName == "tofu" {
		args = append(args, "-dialect=tofu")
	}
	if c.Schemas {
		args = append(args, "-schemas=providers-schema.json")
	}
	return append(args, c.Args...)
}

// RunTestCase scores one test case for one dialect; tmp is an empty
// directory the case may be copied into.
func RunTestCase(c *TestCase, dialectName string, run Runner, tmp string) ([]Unit, error) {
	want, ok := c.Expected[dialectName]
	if !ok {
		return nil, nil
	}
	work := filepath.Join(tmp, "case")
	if err := copyCase(c.Dir, work); err != nil {
		return nil, err
	}
	rc, out, _ := run(c.TestArgs(dialectName), "", work, c.Env)
	got := ParseEvents(out)
	var units []Unit
	for _, u := range testUnits(want, got, rc) {
		u.Dialect, u.Case = dialectName, "testcases/"+c.Name
		if len(got) == 0 {
			u.Problems = append(u.Problems, "no JSON event on stdout")
		}
		units = append(units, u)
	}
	return units, nil
}

// ParseEvents reads the JSON lines of a -json stream; other lines are skipped.
func ParseEvents(out string) []map[string]any {
	var events []map[string]any
	for _, line := range strings.Split(out, "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) == nil && ev != nil {
			events = append(events, ev)
		}
	}
	return events
}

// eventView is what compare_test.py scores of an event stream.
type eventView struct {
	abstract [][2]any // file, runs
	hasAbs   bool
	files    map[string]string
	runs     map[[2]string]string
	diags    [][4]string // file, run, severity, summary
	summary  map[string]any
}

func view(events []map[string]any) eventView {
	v := eventView{files: map[string]string{}, runs: map[[2]string]string{}}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	for _, e := range events {
		switch e["type"] {
		case "test_abstract":
			if a, ok := e["test_abstract"].(map[string]any); ok {
				v.hasAbs = true
				v.abstract = nil
				// Files in running order, which is also name order.
				for _, f := range slices.Sorted(maps.Keys(a)) {
					v.abstract = append(v.abstract, [2]any{f, a[f]})
				}
			}
		case "test_file":
			if f, ok := e["test_file"].(map[string]any); ok {
				if s, ok := f["status"].(string); ok {
					v.files[str(f, "path")] = s
				}
			}
		case "test_run":
			if r, ok := e["test_run"].(map[string]any); ok {
				if s, ok := r["status"].(string); ok {
					v.runs[[2]string{str(r, "path"), str(r, "run")}] = s
				}
			}
		case "diagnostic":
			if d, ok := e["diagnostic"].(map[string]any); ok {
				v.diags = append(v.diags, [4]string{str(e, "@testfile"), str(e, "@testrun"), str(d, "severity"), Norm(str(d, "summary"))})
			}
		case "test_summary":
			if s, ok := e["test_summary"].(map[string]any); ok {
				v.summary = map[string]any{}
				for _, k := range []string{"status", "passed", "failed", "errored", "skipped"} {
					v.summary[k] = s[k]
				}
			}
		}
	}
	return v
}

// testUnits are a case's units with their problems.
func testUnits(want TestRecord, got []map[string]any, gotRC int) []Unit {
	w, g := view(want.Events), view(got)
	var units []Unit
	unit := func(name string, wv, gv any) {
		u := Unit{Name: name}
		if js(wv) != js(gv) {
			u.Problems = []string{fmt.Sprintf("want %s, got %s", js(wv), js(gv))}
		}
		units = append(units, u)
	}
	unit("exit code", want.RC, gotRC)
	abstract := func(v eventView) any {
		if !v.hasAbs {
			return nil
		}
		return v.abstract
	}
	unit("files", abstract(w), abstract(g))
	var wfiles []string
	for _, a := range w.abstract {
		wfiles = append(wfiles, a[0].(string))
	}
	for f := range w.files {
		found := false
		for _, x := range wfiles {
			found = found || x == f
		}
		if !found {
			wfiles = append(wfiles, f)
		}
	}
	status := func(m map[string]string, k string) any {
		if s, ok := m[k]; ok {
			return s
		}
		return nil
	}
	for _, f := range wfiles {
		unit("file "+f, status(w.files, f), status(g.files, f))
	}
	var keys [][2]string
	seen := map[[2]string]bool{}
	for _, a := range w.abstract {
		runs, _ := a[1].([]any)
		for _, r := range runs {
			k := [2]string{a[0].(string), fmt.Sprint(r)}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	runStatus := func(m map[[2]string]string, k [2]string) any {
		if s, ok := m[k]; ok {
			return s
		}
		return nil
	}
	diagsOf := func(v eventView, keep func(file, run string) bool, withFile bool) []string {
		out := []string{}
		for _, d := range v.diags {
			if keep(d[0], d[1]) {
				if withFile {
					out = append(out, d[0]+"|"+d[2]+"|"+d[3])
				} else {
					out = append(out, d[2]+"|"+d[3])
				}
			}
		}
		sort.Strings(out)
		return out
	}
	for _, k := range keys {
		unit("run "+k[0]+"::"+k[1], runStatus(w.runs, k), runStatus(g.runs, k))
		is := func(file, run string) bool { return file == k[0] && run == k[1] }
		unit("run "+k[0]+"::"+k[1]+" diagnostics", diagsOf(w, is, false), diagsOf(g, is, false))
	}
	other := func(file, run string) bool { return !seen[[2]string{file, run}] }
	unit("other diagnostics", diagsOf(w, other, true), diagsOf(g, other, true))
	summary := func(v eventView) any {
		if v.summary == nil {
			return nil
		}
		return v.summary
	}
	unit("summary", summary(w), summary(g))
	return units
}
