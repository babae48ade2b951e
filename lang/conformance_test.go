package lang

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/tfvars"
)

// conformanceDir finds the recorded cases: the repository's copy, or the shared corpus.
func conformanceDir(t *testing.T) string {
	for _, d := range []string{"../testdata/conformance", "../../shared/conformance/cases"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			abs, _ := filepath.Abs(d)
			return abs
		}
	}
	t.Skip("no conformance cases")
	return ""
}

type wantPlan struct {
	Mode        string `json:"mode"`
	OK          bool   `json:"ok"`
	Diagnostics []struct {
		Severity, Summary, Detail string
	} `json:"diagnostics"`
	Outputs   map[string]map[string]any `json:"outputs"`
	Resources []map[string]any          `json:"resources"`
}

func readLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// planCase evaluates a case directory (the working directory) as `eval -json` would.
func planCase(d dialect.Dialect, env, args []string, schemaFile string) (*testDocument, error) {
	cfg, diags := config.Load(".", config.Options{Dialect: d})
	if diags.HasErrors() {
		return newTestDocument(nil, diags), nil
	}
	in := tfvars.Inputs{Dir: ".", Env: env, Dialect: d}
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-var="):
			in.Args = append(in.Args, tfvars.Arg{Kind: tfvars.VarFlag, Text: strings.TrimPrefix(a, "-var=")})
		case strings.HasPrefix(a, "-var-file="):
			in.Args = append(in.Args, tfvars.Arg{Kind: tfvars.VarFileFlag, Text: strings.TrimPrefix(a, "-var-file=")})
		}
	}
	raw, vdiags := tfvars.Collect(in, cfg.Module.Variables)
	diags = append(diags, vdiags...)
	opts := Options{Dialect: d, RootVariables: raw}
	if schemaFile != "" {
		src, err := os.ReadFile(schemaFile)
		if err != nil {
			return nil, err
		}
		if opts.Schemas, err = ParseProviderSchemas(src); err != nil {
			return nil, err
		}
	}
	if vdiags.HasErrors() {
		// As terraform plan: collection problems stop before evaluation,
		// together with required variables left unset.
		for _, name := range sortedKeys(cfg.Module.Variables) {
			if _, ok := raw[name]; !ok && cfg.Module.Variables[name].Required() {
				_, pd := tfvars.Prepare(cfg.Module.Variables[name], nil, "var."+name)
				diags = append(diags, pd...)
			}
		}
		return newTestDocument(nil, diags), nil
	}
	res, ediags := Evaluate(cfg, opts)
	diags = append(diags, ediags...)
	return newTestDocument(res, diags), nil
}

func normSummary(s string) string {
	if strings.HasPrefix(s, "Cycle: ") {
		parts := strings.Split(s[7:], ", ")
		sort.Strings(parts)
		return "Cycle: " + strings.Join(parts, ", ")
	}
	return s
}

// comparePlan applies compare.py's rules and returns the problems found.
func comparePlan(want wantPlan, got *testDocument) []string {
	var problems []string
	gb, _ := json.Marshal(got)
	var g struct {
		Diagnostics []map[string]any          `json:"diagnostics"`
		Outputs     map[string]map[string]any `json:"outputs"`
		Resources   []map[string]any          `json:"resources"`
	}
	_ = json.Unmarshal(gb, &g)
	ok := true
	for _, d := range g.Diagnostics {
		if d["severity"] == "error" {
			ok = false
		}
	}
	if ok != want.OK {
		problems = append(problems, fmt.Sprintf("outcome: want ok=%v, got ok=%v", want.OK, ok))
	}
	for _, sev := range []string{"error", "warning"} {
		var w, gs []string
		for _, d := range want.Diagnostics {
			if d.Severity == sev {
				w = append(w, normSummary(d.Summary))
			}
		}
		for _, d := range g.Diagnostics {
			if d["severity"] == sev {
				gs = append(gs, normSummary(d["summary"].(string))+" ["+fmt.Sprint(d["detail"])+"]")
			}
		}
		sort.Strings(w)
		sort.Strings(gs)
		gsum := make([]string, len(gs))
		for i, s := range gs {
			gsum[i] = s[:strings.LastIndex(s, " [")]
		}
		sort.Strings(gsum)
		if !reflect.DeepEqual(w, gsum) && !(len(w) == 0 && len(gsum) == 0) {
			problems = append(problems, fmt.Sprintf("%ss: want %q, got %q", sev, w, gs))
		}
	}
	if !want.OK {
		return problems
	}
	_ = detailProblems
	norm := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	for name, w := range want.Outputs {
		gv, found := g.Outputs[name]
		if !found {
			problems = append(problems, "missing output "+name)
			continue
		}
		if norm(w["sensitive"]) != norm(gv["sensitive"]) {
			problems = append(problems, fmt.Sprintf("output %s.sensitive: want %v got %v", name, w["sensitive"], gv["sensitive"]))
		}
		if norm(w["unknown"]) != norm(gv["unknown"]) {
			problems = append(problems, fmt.Sprintf("output %s.unknown: want %s got %s", name, norm(w["unknown"]), norm(gv["unknown"])))
		}
		if w["unknown"] == false {
			for _, k := range []string{"type", "value"} {
				if norm(w[k]) != norm(gv[k]) {
					problems = append(problems, fmt.Sprintf("output %s.%s: want %s got %s", name, k, norm(w[k]), norm(gv[k])))
				}
			}
		}
	}
	for name := range g.Outputs {
		if _, ok := want.Outputs[name]; !ok {
			problems = append(problems, "unexpected output "+name)
		}
	}
	gr := map[string]map[string]any{}
	for _, r := range g.Resources {
		gr[r["address"].(string)] = r
	}
	for _, w := range want.Resources {
		addr := w["address"].(string)
		r, found := gr[addr]
		if !found {
			problems = append(problems, "missing resource "+addr)
			continue
		}
		delete(gr, addr)
		for _, k := range []string{"after", "after_unknown", "after_sensitive"} {
			if norm(w[k]) != norm(r[k]) {
				problems = append(problems, fmt.Sprintf("%s.%s: want %s got %s", addr, k, norm(w[k]), norm(r[k])))
			}
		}
	}
	for addr := range gr {
		problems = append(problems, "unexpected resource "+addr)
	}
	return problems
}

// detailProblems lists recorded diagnostics whose detail text no produced
// diagnostic with the same summary matches (the bar after summaries).
func detailProblems(want wantPlan, got *testDocument) []string {
	var out []string
	for _, w := range want.Diagnostics {
		found := false
		var have []string
		for _, g := range got.Diagnostics {
			if normSummary(g.Summary) == normSummary(w.Summary) {
				have = append(have, g.Detail)
				if strings.Join(strings.Fields(g.Detail), " ") == strings.Join(strings.Fields(w.Detail), " ") {
					found = true
				}
			}
		}
		if !found && len(have) > 0 {
			out = append(out, fmt.Sprintf("detail of %q: want %q, got %q", w.Summary, w.Detail, have))
		}
	}
	return out
}

func TestConformancePlan(t *testing.T) {
	dir := conformanceDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		passed, failed := 0, 0
		for _, e := range entries {
			caseDir := filepath.Join(dir, e.Name())
			if mode := readLines(filepath.Join(caseDir, "mode.txt")); len(mode) == 0 || strings.TrimSpace(mode[0]) != "plan" {
				continue
			}
			var want map[string]wantPlan
			b, err := os.ReadFile(filepath.Join(caseDir, "expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			schema := ""
			if _, err := os.Stat(filepath.Join(caseDir, "providers-schema.json")); err == nil {
				schema = "providers-schema.json"
			}
			var problems []string
			func() {
				t.Chdir(caseDir)
				defer func() {
					if r := recover(); r != nil {
						problems = []string{fmt.Sprintf("panic: %v", r)}
					}
				}()
				got, err := planCase(d, readLines("env.txt"), readLines("args.txt"), schema)
				if err != nil {
					problems = []string{err.Error()}
					return
				}
				problems = comparePlan(want[d.String()], got)
				for _, p := range detailProblems(want[d.String()], got) {
					t.Logf("detail %s %s: %s", d, e.Name(), p)
				}
			}()
			if len(problems) == 0 {
				passed++
				continue
			}
			failed++
			t.Logf("FAIL %s %s:\n    %s", d, e.Name(), strings.Join(problems, "\n    "))
		}
		t.Logf("conformance %s: %d passed, %d failed", d, passed, failed)
	}
}

var _ = hcl.DiagError
