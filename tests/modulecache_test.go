package tests

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/render"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// corpusDirs are the module directories of the conformance corpus and the
// examples.
func corpusDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, pattern := range []string{"../testdata/conformance/*", "../testdata/examples/*"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			if tf, _ := filepath.Glob(filepath.Join(m, "*.tf")); len(tf) > 0 {
				dirs = append(dirs, m)
			}
		}
	}
	if len(dirs) < 50 {
		t.Fatalf("found only %d module directories", len(dirs))
	}
	return dirs
}

// dirSchemas is the provider schema document of a corpus directory, or nil.
func dirSchemas(dir string) []byte {
	schemas, err := os.ReadFile(filepath.Join(dir, "providers-schema.json"))
	if err != nil {
		return nil
	}
	return schemas
}

// evaluationText is everything an evaluation of dir reports, as bytes:
// its diagnostics and the eval -json document. Clock and randomness are
// fixed, so two evaluations of the same files give the same text. The
// evaluation is given cache, and schemas parsed already unless nil (the
// directory's document otherwise).
func evaluationText(t *testing.T, dir string, cache *config.ModuleCache, schemas *lang.ProviderSchemas) string {
	t.Helper()
	var doc []byte
	if schemas == nil {
		doc = dirSchemas(dir)
	}
	ev := tfeval.Evaluate(tfeval.Options{
		WorkDir:         dir,
		Schemas:         doc,
		ProviderSchemas: schemas,
		Now:             func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
		Rand:            rand.New(rand.NewSource(1)),
		ModuleCache:     cache,
	})
	var b bytes.Buffer
	for _, d := range ev.Diagnostics {
		fmt.Fprintf(&b, "%d %s: %s", d.Severity, d.Summary, d.Detail)
		if d.Subject != nil {
			fmt.Fprintf(&b, " @ %s", d.Subject)
		}
		b.WriteByte('\n')
	}
	if err := format.WriteEval(&b, ev.Result, nil); err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return b.String()
}

// sharedModuleCalls is a root module calling one directory from three
// module blocks, one of them with for_each.
var sharedModuleCalls = map[string]string{
	"main.tf": `
module "a" {
  source = "./shared"
  name   = "a"
}
module "b" {
  source   = "./shared"
  for_each = toset(["x", "y"])
  name     = "b-${each.key}"
}
module "c" {
  source = "./shared"
  name   = module.a.names[0]
}
output "names" {
  value = [module.a.names, module.b["y"].names, module.c.names]
}
`,
	"shared/main.tf": `
variable "name" {
  type = string
}
resource "terraform_data" "r" {
  count = 2
  input = "${var.name}-${count.index}"
}
output "names" {
  value = terraform_data.r[*].input
}
`,
}

// TestSharedModuleCalls evaluates three calls of one module directory,
// which share one loaded module: each call has its own instances and
// values.
func TestSharedModuleCalls(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, sharedModuleCalls)
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	if ev.HasErrors() {
		t.Fatal(ev.Diagnostics)
	}
	out, _ := ev.Output("names")
	if got, want := render.Value(out.Value), `[
  [
    "a-0",
    "a-1",
  ],
  [
    "b-y-0",
    "b-y-1",
  ],
  [
    "a-0-0",
    "a-0-1",
  ],
]`; got != want {
		t.Errorf("names = %s, want %s", got, want)
	}
	var addrs []string
	for _, r := range ev.Resources() {
		addrs = append(addrs, r.Addr)
	}
	if got, want := strings.Join(addrs, " "), `module.a.terraform_data.r[0] module.a.terraform_data.r[1] module.b["x"].terraform_data.r[0] module.b["x"].terraform_data.r[1] module.b["y"].terraform_data.r[0] module.b["y"].terraform_data.r[1] module.c.terraform_data.r[0] module.c.terraform_data.r[1]`; got != want {
		t.Errorf("resources %s, want %s", got, want)
	}
}

// TestModuleCacheGivesSameResults evaluates every corpus and example
// directory without a cache, then twice with one (filling it, then served
// by it), and requires the same diagnostics and values each time.
func TestModuleCacheGivesSameResults(t *testing.T) {
	// Every call of one directory shares its module, within one
	// evaluation too.
	twice := t.TempDir()
	testfiles.Write(t, twice, sharedModuleCalls)
	cache := &config.ModuleCache{}
	for _, dir := range append(corpusDirs(t), twice) {
		want := evaluationText(t, dir, nil, nil)
		for _, pass := range []string{"filling the cache", "from the cache"} {
			if got := evaluationText(t, dir, cache, nil); got != want {
				t.Errorf("%s, %s:\n%s\nwant, as without a cache:\n%s", dir, pass, got, want)
			}
		}
	}
}

// TestConcurrentEvaluationWithModuleCache evaluates every corpus and
// example directory on several goroutines at once, all with one module
// cache and, for each directory, one parsed schema document, and requires
// what each evaluation without them gives; CI runs it with -race.
func TestConcurrentEvaluationWithModuleCache(t *testing.T) {
	dirs := corpusDirs(t)
	want := make([]string, len(dirs))
	parsed := make([]*lang.ProviderSchemas, len(dirs))
	for i, dir := range dirs {
		want[i] = evaluationText(t, dir, nil, nil)
		if doc := dirSchemas(dir); doc != nil {
			s, err := lang.ParseProviderSchemas(doc)
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			parsed[i] = s
		}
	}
	cache := &config.ModuleCache{}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range dirs {
				i := (k + g*len(dirs)/4) % len(dirs)
				if got := evaluationText(t, dirs[i], cache, parsed[i]); got != want[i] {
					t.Errorf("goroutine %d, %s:\n%s\nwant:\n%s", g, dirs[i], got, want[i])
				}
			}
		})
	}
	wg.Wait()
}

// TestParsedProviderSchemas evaluates and graphs every corpus directory
// that has a schema document with the document and with it parsed already:
// the two give the same reports.
func TestParsedProviderSchemas(t *testing.T) {
	checked := 0
	for _, dir := range corpusDirs(t) {
		doc := dirSchemas(dir)
		if doc == nil {
			continue
		}
		parsed, err := lang.ParseProviderSchemas(doc)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if got, want := evaluationText(t, dir, nil, parsed), evaluationText(t, dir, nil, nil); got != want {
			t.Errorf("%s with parsed schemas:\n%s\nwant, as with the document:\n%s", dir, got, want)
		}
		fromDoc, _ := tfeval.Graph(tfeval.Options{WorkDir: dir, Schemas: doc})
		fromParsed, _ := tfeval.Graph(tfeval.Options{WorkDir: dir, ProviderSchemas: parsed})
		if format.DOT(fromDoc) != format.DOT(fromParsed) {
			t.Errorf("%s: the graph with parsed schemas differs", dir)
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d directories have schema documents", checked)
	}
}
