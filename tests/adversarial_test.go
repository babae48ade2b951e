package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/lang"

	"github.com/tfeval/tfeval/internal/longtest"
	"github.com/tfeval/tfeval/internal/testfiles"
)

const (
	// adversarialMemory bounds how far the heap may grow on one input.
	adversarialMemory = 512 << 20
	// adversarialAlloc bounds what one input may allocate in all: a
	// measure of work that a busy machine or the race detector does not
	// change, where wall time and CPU time do. TestAdversarialCLI measures
	// CPU time, in a process of its own.
	adversarialAlloc = 4 << 30
	// adversarialHang only ends an evaluation that never returns.
	adversarialHang = 60 * time.Second
)

// bounded runs fn, failing the test when it does not return within
// adversarialHang, when the heap in use, sampled every few milliseconds,
// grows by more than adversarialMemory, or when it allocates more than
// adversarialAlloc in all.
func bounded(t *testing.T, fn func() *tfeval.Evaluation) *tfeval.Evaluation {
	t.Helper()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	result := make(chan *tfeval.Evaluation, 1)
	go func() { result <- fn() }()
	var ev *tfeval.Evaluation
	select {
	case ev = <-result:
	case <-time.After(adversarialHang):
		t.Fatalf("no answer after %s", adversarialHang)
	}
	close(stop)
	<-sampled
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grown := int64(peak.Load()) - int64(before.HeapInuse)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("peak heap growth %d MiB, allocated %d MiB", grown>>20, allocated>>20)
	if grown > adversarialMemory {
		t.Errorf("heap grew by %d MiB, more than %d MiB", grown>>20, adversarialMemory>>20)
	}
	if allocated > adversarialAlloc {
		t.Errorf("allocated %d MiB, more than %d MiB", allocated>>20, adversarialAlloc>>20)
	}
	return ev
}

// wantError asserts an error whose summary contains want, with a source range
// unless noRange says the problem has none.
func wantError(t *testing.T, diags hcl.Diagnostics, want string, noRange bool) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == hcl.DiagError && strings.Contains(d.Summary+": "+d.Detail, want) {
			if d.Subject == nil && !noRange {
				t.Errorf("error %q has no source range", d.Summary)
			}
			return
		}
	}
	t.Errorf("want an error containing %q, got %v", want, diags)
}

func evalDir(dir string) func() *tfeval.Evaluation {
	return func() *tfeval.Evaluation { return tfeval.Evaluate(tfeval.Options{WorkDir: dir}) }
}

func TestAdversarial(t *testing.T) {
	t.Run("10000 nested brackets", func(t *testing.T) {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": "locals {\n  x = " + strings.Repeat("[", 10000) + "1" + strings.Repeat("]", 10000) + "\n}\n"})
		ev := bounded(t, evalDir(dir))
		wantError(t, ev.Diagnostics, "Expression nested too deeply", false)
	})
	t.Run("nested for expressions over range(1000)", func(t *testing.T) {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `output "x" { value = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]] }`})
		ev := bounded(t, evalDir(dir))
		wantError(t, ev.Diagnostics, "Too many elements in for expression", false)
	})
	for _, header := range []string{`resource "aws_thing" "t"`, `provider "aws"`} {
		t.Run("dynamic blocks nested three deep over range(1000) in "+header, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("locals {\n  r = range(1000)\n}\n" + header + " {\n")
			for _, name := range []string{"a", "b", "c"} {
				b.WriteString(`dynamic "` + name + `" {` + "\nfor_each = local.r\ncontent {\n")
			}
			b.WriteString("v = \"x\"\n}\n}\n}\n}\n}\n}\n}\nresource \"aws_s3_bucket\" \"b\" {}\n")
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": b.String()})
			ev := bounded(t, evalDir(dir))
			wantError(t, ev.Diagnostics, "Too many dynamic blocks", false)
		})
	}
	t.Run("module that calls itself", func(t *testing.T) {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `module "self" { source = "./" }`})
		ev := bounded(t, evalDir(dir))
		if !ev.HasErrors() {
			t.Fatalf("want an error, got %v", ev.Diagnostics)
		}
		for _, d := range ev.Diagnostics {
			if d.Severity == hcl.DiagError && d.Subject == nil {
				t.Errorf("error %q has no source range", d.Summary)
			}
		}
	})
	t.Run("500 locals in a cycle", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("locals {\n")
		for i := 0; i < 500; i++ {
			fmt.Fprintf(&b, "  l%d = local.l%d\n", i, (i+1)%500)
		}
		b.WriteString("}\n")
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": b.String()})
		ev := bounded(t, evalDir(dir))
		wantError(t, ev.Diagnostics, "Cycle: ", true)
	})
	t.Run(`file("/dev/zero")`, func(t *testing.T) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `output "x" { value = file("/dev/zero") }`})
		ev := bounded(t, evalDir(dir))
		wantError(t, ev.Diagnostics, "not a regular file", false)
	})
	t.Run(`fileset("/", "**")`, func(t *testing.T) {
		longtest.Skip(t, "a costly case")
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `output "x" { value = fileset("/", "**") }`})
		ev := bounded(t, evalDir(dir))
		wantError(t, ev.Diagnostics, "Limits.MaxFilesetEntries", false)
	})
	t.Run("fileset over more entries than its limit", func(t *testing.T) {
		files := map[string]string{"main.tf": `output "x" { value = fileset(path.module, "**") }`}
		for i := range 30 {
			files[fmt.Sprintf("d%d/f.txt", i)] = "x"
		}
		dir := testfiles.Dir(t, files)
		ev := bounded(t, func() *tfeval.Evaluation {
			return tfeval.Evaluate(tfeval.Options{WorkDir: dir, Limits: lang.Limits{MaxFilesetEntries: 40}})
		})
		wantError(t, ev.Diagnostics, "Limits.MaxFilesetEntries", false)
	})
	t.Run("symlink loops under a module", func(t *testing.T) {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{
			"main.tf":        `module "m" { source = "./m" }` + "\n" + `output "x" { value = module.m.files }`,
			"m/main.tf":      `output "files" { value = fileset(path.module, "**") }`,
			"m/sub/data.txt": "x",
		})
		for link, target := range map[string]string{"m/loop": ".", "m/sub/up": "..", "m/a": "b", "m/b": "a"} {
			if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
				t.Skip("no symlinks:", err)
			}
		}
		ev := bounded(t, evalDir(dir))
		if ev.HasErrors() {
			t.Fatalf("unexpected errors: %v", ev.Diagnostics)
		}
		out, _ := ev.Output("x")
		if !out.Value.IsKnown() || out.Value.LengthInt() == 0 {
			t.Fatalf("want the module's files, got %#v", out.Value)
		}
	})
	t.Run("a .tf file that is a symlink loop", func(t *testing.T) {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `locals { a = 1 }`})
		if err := os.Symlink("loop.tf", filepath.Join(dir, "loop.tf")); err != nil {
			t.Skip("no symlinks:", err)
		}
		ev := bounded(t, evalDir(dir))
		wantError(t, ev.Diagnostics, "Failed to read file", true)
	})
	t.Run("invalid UTF-8 and NUL bytes", func(t *testing.T) {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": "locals {\n  a = \"\xff\xfe\"\n  b\x00 = 1\n}\n\x00\x00\xc3\x28"})
		ev := bounded(t, evalDir(dir))
		if !ev.HasErrors() {
			t.Fatalf("want errors, got %v", ev.Diagnostics)
		}
		for _, d := range ev.Diagnostics {
			if d.Subject == nil {
				t.Errorf("diagnostic %q has no source range", d.Summary)
			}
		}
	})
	t.Run("10 MB single-line string", func(t *testing.T) {
		longtest.Skip(t, "a costly case")
		dir := t.TempDir()
		src := `locals { s = "` + strings.Repeat("a", 10<<20) + `" }` + "\n" + `output "n" { value = local.s != "" }`
		testfiles.Write(t, dir, map[string]string{"main.tf": src})
		ev := bounded(t, evalDir(dir))
		if ev.HasErrors() {
			t.Fatalf("unexpected errors: %v", ev.Diagnostics)
		}
		if out, _ := ev.Output("n"); !out.Value.RawEquals(cty.True) {
			t.Fatalf("n = %#v", out.Value)
		}
	})
	t.Run("100000 variables in one tfvars file", func(t *testing.T) {
		longtest.Skip(t, "a costly case")
		var b strings.Builder
		for i := 0; i < 100_000; i++ {
			fmt.Fprintf(&b, "v%d = %d\n", i, i)
		}
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `variable "v1" { type = number }` + "\n" + `output "x" { value = var.v1 }`, "terraform.tfvars": b.String()})
		ev := bounded(t, evalDir(dir))
		if ev.HasErrors() {
			t.Fatalf("unexpected errors: %v", ev.Diagnostics[:min(3, len(ev.Diagnostics))])
		}
		if len(ev.Diagnostics) > 10 {
			t.Errorf("%d diagnostics: undeclared values should be summarised", len(ev.Diagnostics))
		}
		if out, _ := ev.Output("x"); !out.Value.RawEquals(cty1) {
			t.Errorf("var.v1 = %#v", out.Value)
		}
	})
	t.Run(`format("%999999999d", 1)`, func(t *testing.T) {
		dir := t.TempDir()
		testfiles.Write(t, dir, map[string]string{"main.tf": `output "x" { value = format("%999999999d", 1) }`})
		ev := bounded(t, evalDir(dir))
		wantError(t, ev.Diagnostics, "Limits.MaxStringLength", false)
	})
	// Writing such numbers out in decimal (templates, tostring, jsonencode,
	// the console) would take hours.
	for name, files := range map[string]map[string]string{
		"number literal 9e54775807":     {"main.tf": `output "x" { value = "${9e54775807}" }`},
		"number literal in .tf.json":    {"main.tf.json": `{"output": {"x": {"value": 1e-99999}}}`},
		"number in a .tf.json template": {"main.tf.json": `{"output": {"x": {"value": "${9e54775807}"}}}`},
		"number literal in a default":   {"main.tf": `variable "v" { default = 9e54775807 }` + "\n" + `output "x" { value = tostring(var.v) }`},
		"number in terraform.tfvars":    {"main.tf": `variable "v" { type = string }`, "terraform.tfvars": `v = 9e54775807`},
		"repeated multiplication":       {"main.tf": "locals {\n  a = 1e5000 * 1e5000\n  b = local.a * local.a\n}\n" + `output "x" { value = "${local.b}" }`},
		"multiplication in a for":       {"main.tf": `output "x" { value = [for n in [1e5000, 2e5000] : "${n * n * n}"] }`},
		"number decoded from a string":  {"main.tf": `output "x" { value = tostring(tonumber("9e54775807")) }`},
		"number decoded from JSON":      {"main.tf": `output "x" { value = jsonencode(jsondecode("[1, 9e54775807]")) }`},
		"number in a resource argument": {"main.tf": `resource "terraform_data" "x" { input = "${1e5000 * 1e5000}" }`},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, files)
			ev := bounded(t, evalDir(dir))
			if !strings.Contains(ev.Diagnostics.Error(), "Number too large") && !strings.Contains(ev.Diagnostics.Error(), "1e9864") {
				t.Errorf("want a number error, got %v", ev.Diagnostics)
			}
		})
	}
}

var cty1 = cty.NumberIntVal(1)
