package conformance

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
)

// Runner runs one tfeval command line in workDir with the given standard
// input and extra environment, returning its exit status and output.
type Runner func(args []string, stdin, workDir string, env []string) (rc int, stdout, stderr string)

// Unit is the outcome of one scored unit: a console expression or a plan case.
type Unit struct {
	Dialect  string
	Case     string
	Name     string // the expression, or "(eval -json)"
	Problems []string
	// DetailProblems says where error details differ from the recording
	// (console units only: the recorded plan details of cases that init
	// rejected carry the wrapping of init's human output).
	DetailProblems []string
}

// ID is the unit's line in known-failures.txt.
func (u Unit) ID() string { return u.Dialect + " " + u.Case + " :: " + u.Name }

// Passed reports whether the unit matched the recording.
func (u Unit) Passed() bool { return len(u.Problems) == 0 }

// copyCase copies a case folder without the recording's own files, as
// compare.py does, so file functions see only the module's files.
func copyCase(src, dst string) error {
	skip := map[string]bool{"exprs.txt": true, "args.txt": true, "env.txt": true, "mode.txt": true}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if rel == filepath.Base(rel) && (skip[rel] || strings.HasPrefix(rel, "expected") && strings.HasSuffix(rel, ".json")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// RunCase scores every unit of one case for one dialect. tmp is an empty
// directory the case may be copied into.
func RunCase(c *Case, dialectName string, run Runner, tmp string) ([]Unit, error) {
	want, ok := c.Expected[dialectName]
	if !ok {
		return nil, nil
	}
	work := filepath.Join(tmp, "case")
	if err := copyCase(c.Dir, work); err != nil {
		return nil, err
	}
	var flags []string
	if dialectName == "tofu" {
		flags = []string{"-dialect=tofu"}
	}
	if want.Mode == "console" {
		var units []Unit
		for _, r := range want.Results {
			args := append(append([]string{"console", "-no-color"}, flags...), c.Args...)
			rc, out, errText := run(args, r.Expr+"\n", work, c.Env)
			units = append(units, Unit{Dialect: dialectName, Case: c.Name, Name: r.Expr,
				Problems: consoleProblems(r, rc, out, errText), DetailProblems: detailProblems(r, errText)})
		}
		return units, nil
	}
	args := append([]string{"eval", "-json"}, flags...)
	if c.Schemas {
		args = append(args, "-schemas=providers-schema.json")
	}
	args = append(args, c.Args...)
	rc, out, errText := run(args, "", work, c.Env)
	return []Unit{{Dialect: dialectName, Case: c.Name, Name: "(eval -json)", Problems: planProblems(want, rc, out, errText)}}, nil
}

// universalNewlines reads output as Python's text mode does.
func universalNewlines(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func consoleProblems(r ConsoleResult, rc int, out, errText string) []string {
	var problems []string
	out = strings.TrimRight(universalNewlines(out), "\n")
	if (rc == 0) != r.OK {
		problems = append(problems, fmt.Sprintf("outcome: want %s, got %s (exit %d)", outcome(r.OK), outcome(rc == 0), rc))
	} else if r.OK && out != r.Out {
		problems = append(problems, fmt.Sprintf("value: want %q, got %q", r.Out, out))
	}
	var want []string
	for _, e := range r.Errors {
		want = append(want, Norm(e.Summary))
	}
	if p := multisetProblem("errors", want, Summaries(universalNewlines(errText), "error")); p != "" {
		problems = append(problems, p)
	}
	return problems
}

// detailProblems compares the error details of a console unit, as a
// multiset of (summary, detail) pairs.
func detailProblems(r ConsoleResult, errText string) []string {
	var want, got []string
	for _, e := range r.Errors {
		want = append(want, e.Summary+"\n"+e.Detail)
	}
	for _, e := range ErrorDetails(universalNewlines(errText)) {
		got = append(got, e[0]+"\n"+e[1])
	}
	if p := multisetProblem("error details", want, got); p != "" {
		return []string{p}
	}
	return nil
}

func outcome(ok bool) string {
	if ok {
		return "value"
	}
	return "error"
}

func multisetProblem(what string, want, got []string) string {
	sort.Strings(want)
	sort.Strings(got)
	if len(want) == 0 && len(got) == 0 || reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("%s: want %q, got %q", what, want, got)
}

type planDoc struct {
	Diagnostics []Diagnostic              `json:"diagnostics"`
	Outputs     map[string]map[string]any `json:"outputs"`
	Resources   []map[string]any          `json:"resources"`
}

func planProblems(want Expected, rc int, out, errText string) []string {
	var got planDoc
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		return []string{fmt.Sprintf("stdout is not JSON (exit %d): %.200q %.300q", rc, out, errText)}
	}
	var problems []string
	ok := true
	for _, d := range got.Diagnostics {
		if d.Severity == "error" {
			ok = false
		}
	}
	if ok != want.OK {
		problems = append(problems, fmt.Sprintf("outcome: want %s, got %s", success(want.OK), success(ok)))
	}
	for _, sev := range []string{"error", "warning"} {
		var w, g []string
		for _, d := range want.Diagnostics {
			if d.Severity == sev {
				w = append(w, Norm(d.Summary))
			}
		}
		for _, d := range got.Diagnostics {
			if d.Severity == sev {
				g = append(g, Norm(d.Summary))
			}
		}
		if p := multisetProblem(sev+"s", w, g); p != "" {
			problems = append(problems, p)
		}
	}
	if !want.OK {
		return problems
	}
	wantOutputs := map[string]map[string]any{}
	for name, raw := range want.Outputs {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		wantOutputs[name] = m
	}
	if !reflect.DeepEqual(sortedKeys(wantOutputs), sortedKeys(got.Outputs)) {
		problems = append(problems, fmt.Sprintf("outputs: want %v, got %v", sortedKeys(wantOutputs), sortedKeys(got.Outputs)))
	}
	for _, name := range sortedKeys(wantOutputs) {
		w, g := wantOutputs[name], got.Outputs[name]
		if truthy(w["sensitive"]) != truthy(g["sensitive"]) {
			problems = append(problems, fmt.Sprintf("output %s.sensitive: want %v, got %v", name, w["sensitive"], g["sensitive"]))
		}
		if !reflect.DeepEqual(orFalse(w["unknown"]), orFalse(g["unknown"])) {
			problems = append(problems, fmt.Sprintf("output %s.unknown: want %s, got %s", name, js(w["unknown"]), js(g["unknown"])))
		}
		if !truthy(w["unknown"]) {
			for _, k := range []string{"value", "type"} {
				if !reflect.DeepEqual(w[k], g[k]) {
					problems = append(problems, fmt.Sprintf("output %s.%s: want %s, got %s", name, k, js(w[k]), js(g[k])))
				}
			}
		}
	}
	wr := map[string]map[string]any{}
	for _, raw := range want.Resources {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		wr[fmt.Sprint(m["address"])] = m
	}
	gr := map[string]map[string]any{}
	for _, m := range got.Resources {
		gr[fmt.Sprint(m["address"])] = m
	}
	if !reflect.DeepEqual(sortedKeys(wr), sortedKeys(gr)) {
		problems = append(problems, fmt.Sprintf("resources: want %v, got %v", sortedKeys(wr), sortedKeys(gr)))
	}
	for _, addr := range sortedKeys(wr) {
		w, g := wr[addr], gr[addr]
		for _, k := range []string{"after", "after_unknown", "after_sensitive"} {
			if !reflect.DeepEqual(w[k], g[k]) {
				problems = append(problems, fmt.Sprintf("%s.%s: want %s, got %s", addr, k, js(w[k]), js(g[k])))
			}
		}
	}
	return problems
}

func success(ok bool) string {
	if ok {
		return "success"
	}
	return "errors"
}

// truthy is Python's truth value of a decoded JSON value.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case map[string]any:
		return len(v) > 0
	}
	return true
}

// orFalse is Python's `v or False`.
func orFalse(v any) any {
	if !truthy(v) {
		return false
	}
	return v
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
