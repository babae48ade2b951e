package tests

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/render"
)

// accessorCorpus is the configurations the accessor tests start from: the
// conformance corpus' modules and the examples, each as the files of its
// directory (at most one level of subdirectories, for local modules).
func accessorCorpus(t testing.TB) map[string]fstest.MapFS {
	t.Helper()
	out := map[string]fstest.MapFS{}
	for _, pattern := range []string{"../testdata/conformance/*", "../testdata/examples/*", "../docs/examples/*/testdata/*", "../docs/examples/moduletest/webapp"} {
		dirs, _ := filepath.Glob(pattern)
		for _, dir := range dirs {
			files := fstest.MapFS{}
			err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				name := d.Name()
				if !strings.HasSuffix(name, ".tf") && !strings.HasSuffix(name, ".tf.json") && !strings.HasSuffix(name, ".tofu") &&
					!strings.HasSuffix(name, ".tfvars") && name != "providers-schema.json" && !strings.HasSuffix(name, ".tftpl") && !strings.HasSuffix(name, ".txt") {
					return nil
				}
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(dir, path)
				files[filepath.ToSlash(rel)] = &fstest.MapFile{Data: src}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(files) > 0 {
				out[filepath.Base(dir)] = files
			}
		}
	}
	// Nested, dynamic and labelled blocks, in native syntax and JSON,
	// which the corpus has few of.
	out["blocks"] = fstest.MapFS{"main.tf": {Data: []byte(blocksModule)}}
	out["blocks.json"] = fstest.MapFS{"main.tf.json": {Data: []byte(blocksModuleJSON)}}
	return out
}

const blocksModule = `variable "rules" {
  default = { ssh = 22, https = 443 }
}
resource "mock_fw" "a" {
  for_each = toset(["x", "y"])
  name     = "fw-${each.key}"
  tags     = { Name = each.key, (each.key) = "dynamic key" }
  rule {
    port = 80
    nested { deep = [1, { a = "b" }] }
  }
  dynamic "rule" {
    for_each = var.rules
    iterator = r
    content {
      port = r.value
      dynamic "nested" {
        for_each = [r.key]
        content { deep = nested.value }
      }
    }
  }
}
output "o" { value = { for k, v in mock_fw.a : k => v.tags } }
`

const blocksModuleJSON = `{
  "resource": {"mock_fw": {"a": {
    "count": 2,
    "name": "fw-${count.index}",
    "rule": [{"port": 80}],
    "dynamic": {"rule": {"for_each": [22, 443], "content": {"port": "${rule.value}"}}}
  }}},
  "output": {"o": {"value": "${mock_fw.a[*].name}"}}
}`

// mutate returns a copy of files with one configuration file damaged as a
// person typing in an editor might leave it: cut short, a line deleted
// or doubled, two lines swapped, or a character replaced by punctuation.
func mutate(files fstest.MapFS, rng *rand.Rand) fstest.MapFS {
	out := fstest.MapFS{}
	var names []string
	for name, f := range files {
		out[name] = &fstest.MapFile{Data: f.Data}
		if strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json") {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return out
	}
	slices.Sort(names)
	name := names[rng.IntN(len(names))]
	src := string(out[name].Data)
	if src == "" {
		return out
	}
	lines := strings.Split(src, "\n")
	i, j := rng.IntN(len(lines)), rng.IntN(len(lines))
	switch rng.IntN(5) {
	case 0:
		src = src[:rng.IntN(len(src))]
	case 1:
		src = strings.Join(slices.Delete(lines, i, i+1), "\n")
	case 2:
		src = strings.Join(slices.Insert(lines, i, lines[i]), "\n")
	case 3:
		lines[i], lines[j] = lines[j], lines[i]
		src = strings.Join(lines, "\n")
	default:
		const punctuation = `{}[]()"=.*$%,:?!<>`
		k := rng.IntN(len(src))
		src = src[:k] + string(punctuation[rng.IntN(len(punctuation))]) + src[k+1:]
	}
	out[name] = &fstest.MapFile{Data: []byte(src)}
	return out
}

// TestAccessorsNeverPanic evaluates a fuzzed set of configurations (the
// corpus' modules, and copies of each damaged at random in ways typing
// leaves them, with a fixed seed) in both dialects, and calls every
// public accessor of the result on every value, path and name it has:
// none may panic, however broken the configuration, and every range
// AttrRange gives must lie inside one of the files read.
func TestAccessorsNeverPanic(t *testing.T) {
	corpus := accessorCorpus(t)
	mutations := 4
	if testing.Short() {
		mutations = 1
	}
	names := make([]string, 0, len(corpus))
	for name := range corpus {
		names = append(names, name)
	}
	slices.Sort(names)
	rng := rand.New(rand.NewPCG(23, 2026))
	n := 0
	for _, name := range names {
		variants := []fstest.MapFS{corpus[name]}
		for range mutations {
			variants = append(variants, mutate(corpus[name], rng))
		}
		for i, files := range variants {
			d := dialect.Terraform
			if (n+i)%2 == 1 {
				d = dialect.Tofu
			}
			exerciseAccessors(t, fmt.Sprintf("%s variant %d", name, i), files, d)
		}
		n++
	}
}

// FuzzAccessors is TestAccessorsNeverPanic for one arbitrary main.tf (and
// terraform.tfvars), seeded with the corpus' modules.
func FuzzAccessors(f *testing.F) {
	for _, files := range accessorCorpus(f) {
		var src []byte
		for name, file := range files {
			if strings.HasSuffix(name, ".tf") && !strings.Contains(name, "/") {
				src = append(append(src, file.Data...), '\n')
			}
		}
		var tfvars []byte
		if file := files["terraform.tfvars"]; file != nil {
			tfvars = file.Data
		}
		f.Add(string(src), string(tfvars), false)
	}
	f.Fuzz(func(t *testing.T, main, tfvars string, tofu bool) {
		if len(main)+len(tfvars) > 1<<14 {
			return
		}
		d := dialect.Terraform
		if tofu {
			d = dialect.Tofu
		}
		exerciseAccessors(t, "input", fstest.MapFS{"main.tf": {Data: []byte(main)}, "terraform.tfvars": {Data: []byte(tfvars)}}, d)
	})
}

// exerciseAccessors evaluates files and calls every accessor of the
// result, failing the test on a panic or a range outside the files.
func exerciseAccessors(t *testing.T, name string, files fstest.MapFS, d dialect.Dialect) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v\n%s", name, r, debug.Stack())
		}
	}()
	opts := tfeval.Options{
		FS:      files,
		Dialect: d,
		Now:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Rand:    rand.NewChaCha8([32]byte{2}),
		Limits:  lang.Limits{MaxElements: 10_000, MaxStringLength: 1 << 20, MaxSteps: 200_000, MaxFileSize: 1 << 20},
	}
	inFiles := func(what string, rng hcl.Range) {
		if rng.Filename == "" {
			return
		}
		f := files[filepath.ToSlash(rng.Filename)]
		if f == nil {
			t.Errorf("%s: %s: range %s is in no file read", name, what, rng)
			return
		}
		if rng.Start.Byte < 0 || rng.Start.Byte > rng.End.Byte || rng.End.Byte > len(f.Data) {
			t.Errorf("%s: %s: range %s lies outside its file of %d bytes", name, what, rng, len(f.Data))
		}
	}
	ev := tfeval.Evaluate(opts)
	_ = ev.HasErrors()
	for _, diag := range ev.Diagnostics {
		_ = diag.Error()
	}
	for _, m := range ev.Modules() {
		if ev.Module(m.Addr) != m {
			t.Errorf("%s: Module(%q) is not the instance Modules lists", name, m.Addr)
		}
		for _, values := range []map[string]cty.Value{m.Variables, m.Locals, m.Outputs} {
			for _, v := range values {
				_ = render.Value(v)
			}
		}
		if m.Config != nil && m.Config.Module != nil {
			for out := range m.Config.Module.Outputs {
				inFiles("output range", m.OutputRange(out, nil))
				inFiles("output range", m.OutputRange(out, cty.GetAttrPath("a").Index(cty.NumberIntVal(0))))
			}
			for v := range m.Config.Module.Variables {
				inFiles("variable range", m.VariableRange(v, nil))
				inFiles("variable range", m.VariableRange(v, cty.IndexPath(cty.StringVal("k"))))
				_, _ = ev.Eval("var."+v, m.Addr)
			}
			for l := range m.Config.Module.Locals {
				if v, _ := ev.Eval("local."+l, m.Addr); v != cty.NilVal {
					_ = render.Value(v)
				}
			}
		}
		_, _ = ev.Eval("1 +", m.Addr)
	}
	_ = ev.Module("module.does_not_exist")
	for _, o := range ev.Outputs() {
		_ = render.Value(o.Value)
		inFiles("output", o.AttrRange(""))
		inFiles("output", o.AttrRange("[0].a"))
		_ = o.AttrRange("[")
		tfeval.Walk(o.Value, func(path string, v cty.Value) bool {
			inFiles("output "+o.Name+"."+path, o.AttrRange(path))
			return true
		})
		if _, ok := ev.Output(o.Name); !ok {
			t.Errorf("%s: Output(%q) not found", name, o.Name)
		}
	}
	for _, r := range ev.Resources() {
		_ = render.Value(r.Value)
		_ = r.Schema()
		_ = r.UnknownPaths()
		_ = r.SensitivePaths()
		inFiles(r.Addr, r.AttrRange(""))
		inFiles(r.Addr, r.AttrRange("no.such[0]"))
		_ = r.AttrRange("[")
		_, _ = r.Attr("[")
		tfeval.Walk(r.Value, func(path string, v cty.Value) bool {
			if got, err := r.Attr(path); err != nil || !got.RawEquals(v) {
				t.Errorf("%s: %s: Attr(%q) does not give the value Walk gave: %v", name, r.Addr, path, err)
			}
			inFiles(r.Addr+"."+path, r.AttrRange(path))
			_ = render.Value(v)
			return true
		})
		if _, ok := ev.Resource(r.Addr); !ok {
			t.Errorf("%s: Resource(%q) not found", name, r.Addr)
		}
	}
	for _, v := range ev.Variables() {
		_ = render.Value(v.Value)
		_ = v.Source.String()
		inFiles("variable "+v.Name, v.Source.Range)
	}
	for _, c := range ev.Checks() {
		_ = c.Kind.String() + c.Status.String()
		inFiles("check", c.Range)
	}
	// The output formats read every part of a result, also a failed one.
	_ = format.WriteEval(io.Discard, ev.Result, ev.Diagnostics)
	_ = format.WriteText(context.Background(), io.Discard, ev.Result, 1<<20)
	_, _ = format.NewPlan(ev.Result, format.PlanOptions{})
	_ = format.NewSARIF(ev.Diagnostics, format.SARIFOptions{})
	_ = format.NewVarsDocument(ev.Variables(), ev.Diagnostics)
	_ = format.WriteVars(io.Discard, ev.Variables(), 80)
	_ = format.NewValidateDocument(tfeval.Validate(opts))
	if g, _ := tfeval.Graph(opts); g != nil {
		_ = format.DOT(g) + format.Mermaid(g)
	}
}
