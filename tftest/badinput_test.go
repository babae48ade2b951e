package tftest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

func TestBadInput(t *testing.T) {
	outside := testfiles.Dir(t, map[string]string{"secret.tfmock.hcl": `mock_resource "aws_thing" {
  defaults = { arn = "from-outside" }
}`, "stolen.tftest.hcl": `run "x" {}`})
	for _, tc := range []struct {
		name  string
		files map[string]string
		link  [2]string // a symbolic link: name, target
		want  string    // a diagnostic summary, and text its detail has
	}{{
		name:  "a mock source that is missing",
		files: map[string]string{"main.tf": "", "a.tftest.hcl": "mock_provider \"aws\" {\n  source = \"./nothing\"\n}\nrun \"x\" {}\n"},
		want:  "Failed to read mock data directory: does not exist",
	}, {
		name:  "a mock source outside the sandbox",
		files: map[string]string{"main.tf": "", "a.tftest.hcl": "mock_provider \"aws\" {\n  source = \"./mocks\"\n}\nrun \"x\" {}\n"},
		link:  [2]string{"mocks", outside},
		want:  "Failed to load mock data: outside the directory",
	}, {
		name:  "a test file linked from outside the sandbox",
		files: map[string]string{"main.tf": ""},
		link:  [2]string{"tests/stolen.tftest.hcl", filepath.Join(outside, "stolen.tftest.hcl")},
		want:  "Failed to read test file: outside the directory",
	}, {
		name:  "malformed JSON",
		files: map[string]string{"main.tf": "", "tests/a.tftest.json": `{"run": {"x": `},
		want:  "Missing value: ends prematurely",
	}, {
		name:  "a configuration that does not load",
		files: map[string]string{"main.tf": "resource {", "a.tftest.hcl": `run "x" {}`},
		want:  "Unclosed configuration block: no closing brace",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testfiles.Dir(t, tc.files)
			if tc.link[0] != "" {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, tc.link[0])), 0o755)
				if err := os.Symlink(tc.link[1], filepath.Join(dir, tc.link[0])); err != nil {
					t.Skip(err)
				}
			}
			rep := runIn(t, dir, dialect.Terraform, func(o *Options) { o.Sandbox = dir })
			if !rep.Stopped() {
				t.Fatalf("not stopped: %v", statuses(rep))
			}
			summary, detail, _ := strings.Cut(tc.want, ": ")
			found := false
			for _, d := range rep.Diagnostics {
				if d.Summary == summary && strings.Contains(d.Detail, detail) {
					found = true
				}
			}
			if !found {
				t.Errorf("no %q diagnostic with %q in: %v", summary, detail, rep.Diagnostics)
			}
			if strings.Contains(strings.Join(summaries(rep), ""), "from-outside") {
				t.Error("read what is outside the sandbox")
			}
		})
	}
}

func TestCancelledRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep := runFiles(t, map[string]string{
		"main.tf":            `output "o" { value = 1 }`,
		"tests/a.tftest.hcl": "run \"a\" {\n  command = plan\n}\nrun \"b\" {\n  command = plan\n}\n",
	}, dialect.Terraform, func(o *Options) { o.Context = ctx })
	got := statuses(rep)
	if got["tests/a.tftest.hcl::a"] != "error" || got["tests/a.tftest.hcl::b"] != "skip" {
		t.Errorf("statuses after the context ended: %v", got)
	}
}
