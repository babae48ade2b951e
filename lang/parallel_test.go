package lang_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/internal/benchgen"
)

// brokenModules adds child modules with errors in several independent
// nodes, so that the order of diagnostics from parallel nodes is tested.
var brokenModules = map[string]string{
	"main_broken.tf": `
module "broken" {
  source   = "./broken"
  for_each = toset(["a", "b", "c", "d"])
  name     = each.key
}
`,
	"broken/main.tf": `
variable "name" { type = string }
locals {
  one   = var.name + 1
  two   = local.nope
  three = upper(var.name)
}
resource "terraform_data" "x" {
  count = 3
  input = "${var.name}-${count.index}" + 1
}
output "bad" { value = tonumber(var.name) }
output "fine" { value = local.three }
`,
	// Large enough to be planned on several goroutines, with errors in
	// instances spread over the range.
	"main_wide.tf": `
resource "terraform_data" "wide" {
  count = 1000
  input = count.index % 150 == 3 ? tonumber("x${count.index}") : "w-${count.index}"
  lifecycle {
    precondition {
      condition     = count.index % 200 != 7
      error_message = "instance ${count.index} refused"
    }
  }
}
`,
}

// evaluateDocument evaluates dir with the given GOMAXPROCS and returns the
// eval -json document with its diagnostics.
func evaluateDocument(t *testing.T, dir string, procs int) []byte {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	schemas, err := os.ReadFile(filepath.Join(dir, benchgen.SchemaFile))
	if err != nil {
		t.Fatal(err)
	}
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Schemas: schemas})
	doc, err := json.Marshal(format.NewEvalDocument(ev.Result, ev.Diagnostics))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestParallelEvaluationIsDeterministic checks that evaluating on one CPU
// and on several gives the same values and the same diagnostics in the
// same order.
func TestParallelEvaluationIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	if err := benchgen.Write(dir, benchgen.Small); err != nil {
		t.Fatal(err)
	}
	for name, src := range brokenModules {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := evaluateDocument(t, dir, 1)
	if !bytes.Contains(want, []byte(`"severity":"error"`)) {
		t.Fatalf("the broken modules gave no errors: %s", want)
	}
	for i := range 5 {
		if got := evaluateDocument(t, dir, 4); !bytes.Equal(got, want) {
			t.Fatalf("run %d on 4 CPUs differs from the run on 1 CPU:\n%s\n----\n%s", i, got, want)
		}
	}
}
