package conformance

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestSchemaErasure evaluates every case of the corpus that is given a
// provider schema once more without it, as a user without `terraform
// init` would, and holds tfeval to its rule for missing information: no
// error the recorded run did not report, and every value tfeval reports as
// known equal to the recorded one. What tfeval cannot know without the
// schema must come out unknown, never as a guess.
func TestSchemaErasure(t *testing.T) {
	cases, err := LoadCases(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !c.Schemas {
			continue
		}
		for _, dialectName := range []string{"terraform", "tofu"} {
			want, ok := c.Expected[dialectName]
			if !ok || want.Mode != "plan" {
				continue
			}
			n++
			t.Run(dialectName+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				work := filepath.Join(t.TempDir(), "case")
				if err := copyCase(c.Dir, work); err != nil {
					t.Fatal(err)
				}
				args := []string{"eval", "-json"}
				if dialectName == "tofu" {
					args = append(args, "-dialect=tofu")
				}
				args = append(args, c.Args...)
				_, out, errText := inProcess(args, "", work, c.Env)
				var got planDoc
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("stdout is not JSON: %v (%s)", err, errText)
				}
				for _, p := range erasureProblems(want, got) {
					t.Error(p)
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no case of the corpus has a provider schema")
	}
}

// erasureProblems lists where an evaluation without schemas claims more
// than the recording: errors it did not report, known values that differ
// from the recorded ones or that the recording has unknown.
func erasureProblems(want Expected, got planDoc) []string {
	var problems []string
	recorded := map[string]int{}
	for _, d := range want.Diagnostics {
		if d.Severity == "error" {
			recorded[Norm(d.Summary)]++
		}
	}
	for _, d := range got.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		if recorded[Norm(d.Summary)] == 0 {
			problems = append(problems, fmt.Sprintf("error the recorded run did not report: %s: %s", d.Summary, d.Detail))
			continue
		}
		recorded[Norm(d.Summary)]--
	}
	if !want.OK {
		// The recorded run stopped at its errors: it has no values.
		return problems
	}
	for _, name := range sortedKeys(got.Outputs) {
		g := got.Outputs[name]
		gv, known := g["value"]
		if !known {
			continue
		}
		var w map[string]any
		if raw, ok := want.Outputs[name]; ok {
			_ = json.Unmarshal(raw, &w)
		}
		wv, ok := w["value"]
		if !ok {
			problems = append(problems, fmt.Sprintf("output %s: known %s, but the recorded run has it unknown or does not have it", name, compact(gv)))
			continue
		}
		if !reflect.DeepEqual(gv, wv) {
			problems = append(problems, fmt.Sprintf("output %s = %s, recorded %s", name, compact(gv), compact(wv)))
		}
	}
	recordedRes := map[string]map[string]any{}
	for _, raw := range want.Resources {
		var r map[string]any
		_ = json.Unmarshal(raw, &r)
		addr, _ := r["address"].(string)
		recordedRes[addr] = r
	}
	for _, r := range got.Resources {
		addr, _ := r["address"].(string)
		w, ok := recordedRes[addr]
		if !ok {
			problems = append(problems, fmt.Sprintf("resource instance %s that the recorded run does not have", addr))
			continue
		}
		problems = append(problems, knownProblems(addr, r["after"], w["after"], w["after_unknown"])...)
	}
	return problems
}

// knownProblems compares the known parts of a value (an `after`) with the
// recorded after and after_unknown at the same place.
func knownProblems(path string, got, want, wantUnknown any) []string {
	if b, _ := wantUnknown.(bool); b {
		return []string{fmt.Sprintf("%s: known %s, recorded unknown", path, compact(got))}
	}
	switch g := got.(type) {
	case map[string]any:
		w, ok := want.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, recorded %s", path, compact(got), compact(want))}
		}
		wu, _ := wantUnknown.(map[string]any)
		var out []string
		keys := make([]string, 0, len(g))
		for k := range g {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, present := w[k]
			if !present {
				if b, _ := wu[k].(bool); b {
					out = append(out, fmt.Sprintf("%s.%s: known %s, recorded unknown", path, k, compact(g[k])))
				} else {
					out = append(out, fmt.Sprintf("%s.%s: %s, which the recorded object does not have", path, k, compact(g[k])))
				}
				continue
			}
			out = append(out, knownProblems(path+"."+k, g[k], wv, wu[k])...)
		}
		return out
	case []any:
		w, ok := want.([]any)
		if !ok || len(w) != len(g) {
			return []string{fmt.Sprintf("%s: %s, recorded %s", path, compact(got), compact(want))}
		}
		wu, _ := wantUnknown.([]any)
		elemProblems := func(i, j int) []string {
			var u any
			if j < len(wu) {
				u = wu[j]
			}
			if g[i] == nil && u == true {
				return nil // an unknown element is written as null
			}
			return knownProblems(fmt.Sprintf("%s[%d]", path, i), g[i], w[j], u)
		}
		var out []string
		for i := range g {
			out = append(out, elemProblems(i, i)...)
		}
		if len(out) == 0 {
			return nil
		}
		// Without a schema tfeval cannot know whether blocks make a list
		// or a set; it keeps the configuration's order, and a set's is
		// another. Each element must still match one recorded element.
		used := make([]bool, len(w))
	next:
		for i := range g {
			for j := range w {
				if !used[j] && len(elemProblems(i, j)) == 0 {
					used[j] = true
					continue next
				}
			}
			return out
		}
		return nil
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: %s, recorded %s", path, compact(got), compact(want))}
	}
	return nil
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return strings.TrimSpace(string(b))
}
