package tfeval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval"
)

// TestTestRunsShareFunctionCache checks that the runs of a test command
// read and decode a module's JSON document once between them: four runs
// cost far less than four times one run's decoding.
func TestTestRunsShareFunctionCache(t *testing.T) {
	var doc strings.Builder
	doc.WriteString("{")
	for i := range 2000 {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `"kind_%d": {"slug": "k%d", "max_length": %d}`, i, i, 20+i%40)
	}
	doc.WriteString("}")
	allocs := func(runs int) float64 {
		dir := t.TempDir()
		files := map[string]string{
			"kinds.json": doc.String(),
			"main.tf": `
locals {
  kinds = jsondecode(file("${path.module}/kinds.json"))
}
output "n" {
  value = length(local.kinds)
}
`,
		}
		var test strings.Builder
		for i := range runs {
			fmt.Fprintf(&test, "run \"r%d\" {\n  command = plan\n  assert {\n    condition     = output.n == 2000\n    error_message = \"n\"\n  }\n}\n", i)
		}
		files["tests/a.tftest.hcl"] = test.String()
		for name, text := range files {
			path := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return testing.AllocsPerRun(1, func() {
			rep := tfeval.Test(context.Background(), tfeval.TestOptions{Options: tfeval.Options{WorkDir: dir}})
			if rep.Passed != runs {
				t.Fatalf("%d runs: %d passed, %d failed, %d errored", runs, rep.Passed, rep.Failed, rep.Errored)
			}
		})
	}
	one, four := allocs(1), allocs(4)
	t.Logf("one run: %.0f allocations, four: %.0f", one, four)
	if four > 2*one {
		t.Errorf("four runs: %.0f allocations, more than twice one run's %.0f: each decodes the document again", four, one)
	}
}
