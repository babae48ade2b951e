package tftest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
	"github.com/tfeval/tfeval/lang"
)

// runFiles writes files into a new directory and runs their tests there.
func runFiles(t *testing.T, files map[string]string, d dialect.Dialect, adjust ...func(*Options)) *Report {
	t.Helper()
	return runIn(t, testfiles.Dir(t, files), d, adjust...)
}

// runIn runs the tests of the module in dir.
func runIn(t *testing.T, dir string, d dialect.Dialect, adjust ...func(*Options)) *Report {
	t.Helper()
	opts := Options{
		WorkDir: dir,
		Dialect: d,
		Load: func(sub, key string) (*config.Config, hcl.Diagnostics) {
			return config.Load(sub, config.Options{Dialect: d, WorkDir: dir, ManifestDir: ".", ManifestKey: key})
		},
	}
	opts.Functions.BaseDir = dir
	if schema, err := os.ReadFile(filepath.Join(dir, "providers-schema.json")); err == nil {
		s, err := lang.ParseProviderSchemas(schema)
		if err != nil {
			t.Fatal(err)
		}
		opts.Schemas = s
	}
	for _, a := range adjust {
		a(&opts)
	}
	return Run(opts)
}

// statuses are a report's run statuses, "FILE::RUN" -> status, and the
// files' as "FILE" -> status.
func statuses(rep *Report) map[string]string {
	out := map[string]string{}
	for _, f := range rep.Files {
		out[f.Path] = f.Status.String()
		for _, r := range f.Runs {
			out[f.Path+"::"+r.Name] = r.Status.String()
		}
	}
	return out
}

// wantStatuses checks the statuses of a report's runs, by "FILE::RUN".
func wantStatuses(t *testing.T, rep *Report, want map[string]string) {
	t.Helper()
	got := statuses(rep)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s (diagnostics %v)", k, got[k], w, summaries(rep))
		}
	}
}

// wantNeeds checks that each run of keys ("FILE::RUN") needs the provider
// source.
func wantNeeds(t *testing.T, rep *Report, source string, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if r := runOf(t, rep, k); r.NeedsProvider != source {
			t.Errorf("%s needs %q (%s)", k, r.NeedsProvider, r.SkipReason)
		}
	}
}

// summaries are the severity-prefixed summaries of every diagnostic of a
// report, sorted: "error: Test assertion failed".
func summaries(rep *Report) []string {
	var out []string
	add := func(diags hcl.Diagnostics) {
		for _, d := range diags {
			sev := "error"
			if d.Severity == hcl.DiagWarning {
				sev = "warning"
			}
			out = append(out, sev+": "+d.Summary)
		}
	}
	add(rep.Diagnostics)
	for _, f := range rep.Files {
		add(f.Diagnostics)
		for _, r := range f.Runs {
			add(r.Diagnostics)
		}
	}
	sort.Strings(out)
	return out
}

// runOf finds a run's result by "FILE::RUN".
func runOf(t *testing.T, rep *Report, key string) *RunResult {
	t.Helper()
	file, name, _ := strings.Cut(key, "::")
	for _, f := range rep.Files {
		for _, r := range f.Runs {
			if f.Path == file && r.Name == name {
				return r
			}
		}
	}
	t.Fatalf("no run %s", key)
	return nil
}

// mockedAssertion runs main with a test file that mocks aws with the
// given body and asserts condition in one run "r" of the given command,
// and returns that run.
func mockedAssertion(t *testing.T, main, mock, command, condition string) *RunResult {
	t.Helper()
	rep := runFiles(t, map[string]string{
		"main.tf": main,
		"tests/a.tftest.hcl": fmt.Sprintf(`
mock_provider "aws" {
  %s
}
run "r" {
  command = %s
  assert {
    condition     = %s
    error_message = "r"
  }
}
`, mock, command, condition)}, dialect.Terraform)
	return runOf(t, rep, "tests/a.tftest.hcl::r")
}
