package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/tfeval/tfeval/dialect"
)

const conformanceDir = "../testdata/conformance"

// loadErrorCases are the conformance cases whose errors all arise while loading.
var loadErrorCases = []string{
	"err_duplicate_local", "err_duplicate_var", "err_reserved_var_name", "err_count_and_foreach",
	"err_invalid_type_expr", "err_override_depends_on", "err_override_type_mismatch",
	"err_module_unexpected_input", "err_module_missing_input", "err_default_wrong_type",
	"err_optional_default_bad",
}

type expectedDiag struct {
	Severity, Summary, Detail string
}

type expectedResult struct {
	Mode        string         `json:"mode"`
	OK          bool           `json:"ok"`
	Diagnostics []expectedDiag `json:"diagnostics"`
	Results     []struct {
		OK     bool           `json:"ok"`
		Errors []expectedDiag `json:"errors"`
	} `json:"results"`
}

func readExpected(t *testing.T, dir string) map[string]expectedResult {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]expectedResult
	if err := json.Unmarshal(src, &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

// errorSummaries lists the error summaries of an expected result, sorted.
func (r expectedResult) errorSummaries() []string {
	var out []string
	for _, d := range r.Diagnostics {
		if d.Severity == "error" {
			out = append(out, d.Summary)
		}
	}
	for _, res := range r.Results {
		for _, d := range res.Errors {
			out = append(out, d.Summary)
		}
	}
	sort.Strings(out)
	return out
}

func loadErrors(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d.Summary)
		}
	}
	sort.Strings(out)
	return out
}

func dialects() map[string]dialect.Dialect {
	return map[string]dialect.Dialect{"terraform": dialect.Terraform, "tofu": dialect.Tofu}
}

func TestConformanceLoadErrors(t *testing.T) {
	for _, name := range loadErrorCases {
		dir, _ := filepath.Abs(filepath.Join(conformanceDir, name))
		exp := readExpected(t, dir)
		for dname, d := range dialects() {
			t.Run(name+"/"+dname, func(t *testing.T) {
				// The tools ran inside the case directory.
				_, diags := Load(".", Options{Dialect: d, WorkDir: dir})
				got, want := loadErrors(diags), exp[dname].errorSummaries()
				if !equalStrings(got, want) {
					t.Errorf("errors = %q, want %q\n%s", got, want, diags)
				}
				// Details are recorded wrapped for a terminal; compare them unwrapped.
				gotDetails := map[string]bool{}
				for _, diag := range diags {
					gotDetails[diag.Detail] = true
				}
				for _, w := range exp[dname].Diagnostics {
					detail := strings.Join(strings.Fields(w.Detail), " ")
					if strings.Contains(detail, "Initializing modules") {
						continue // the recording caught init's progress output
					}
					if !gotDetails[detail] {
						t.Errorf("no error with detail %q", detail)
					}
				}
			})
		}
	}
}

// TestConformanceNoSpuriousLoadErrors loads every other case: a load error
// must be one the real tool reported for that case.
func TestConformanceNoSpuriousLoadErrors(t *testing.T) {
	entries, err := os.ReadDir(conformanceDir)
	if err != nil {
		t.Skip("no conformance corpus:", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(conformanceDir, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "expected.json")); err != nil {
			continue
		}
		exp := readExpected(t, dir)
		for dname, d := range dialects() {
			t.Run(e.Name()+"/"+dname, func(t *testing.T) {
				cfg, diags := Load(".", Options{Dialect: d, WorkDir: dir})
				if cfg == nil || cfg.Module == nil {
					t.Fatal("no configuration returned")
				}
				allowed := map[string]bool{}
				for _, s := range exp[dname].errorSummaries() {
					allowed[s] = true
				}
				for _, diag := range diags {
					if diag.Severity == hcl.DiagError && !allowed[diag.Summary] {
						t.Errorf("unexpected load error: %s", diag)
					}
				}
			})
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
