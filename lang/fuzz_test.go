package lang

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/limit"
)

// fuzzModule gives fuzzed expressions something to refer to: every kind of
// named value, counted and for_each resources, a sensitive value and a file.
const fuzzModule = `
variable "s" { default = "hello" }
variable "l" { default = ["a", "b", "c"] }
variable "o" {
  type    = object({ a = string, b = optional(list(number), [1, 2]) })
  default = { a = "x" }
}
variable "secret" {
  default   = "hunter2"
  sensitive = true
}
locals {
  m    = { for i, v in var.l : v => i }
  nest = [for k, v in local.m : { k = k, v = [v, v * 2] }]
  tmpl = "%{for x in var.l}${x},%{endfor}"
}
resource "null_resource" "c" {
  count    = 2
  triggers = { i = count.index }
}
resource "terraform_data" "e" {
  for_each = local.m
  input    = each.value
}
output "o" { value = local.nest }
`

// FuzzEvalExpr evaluates an arbitrary expression as terraform console
// does, in a small fixed module, with the file functions sandboxed to it and
// small limits so that every input finishes quickly.
func FuzzEvalExpr(f *testing.F) {
	files, _ := filepath.Glob("../testdata/conformance/*/exprs.txt")
	for _, name := range files {
		file, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			f.Add(sc.Text())
		}
		file.Close()
	}
	for _, s := range []string{`local.nest[0].v`, `[for a in range(100) : [for b in range(100) : b]]`, `templatestring(local.tmpl, {l = var.l})`,
		`file("hello.txt")`, `fileset(path.module, "**")`, `null_resource.c[*].triggers`, `{for k, v in terraform_data.e : k => v.input...}`} {
		f.Add(s)
	}
	dir := f.TempDir()
	for name, src := range map[string]string{"main.tf": fuzzModule, "hello.txt": "hello ${name}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			f.Fatal(err)
		}
	}
	cfg, diags := config.Load(".", config.Options{WorkDir: dir, Sandbox: dir})
	if diags.HasErrors() {
		f.Fatal(diags)
	}
	limits := Limits{MaxElements: 10_000, MaxStringLength: 1 << 20, MaxSteps: 100_000, MaxFileSize: 1 << 20}
	res, diags := Evaluate(cfg, Options{Console: true, Cwd: dir, Limits: limits, Functions: funcs.Options{BaseDir: dir, Sandbox: dir}})
	if diags.HasErrors() {
		f.Fatal(diags)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if limit.CheckNesting([]byte(src), "<fuzz>", hcl.InitialPos, limit.Expression, 0).HasErrors() {
			return
		}
		expr, diags := hclsyntax.ParseExpression([]byte(src), "<fuzz>", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		_, diags = res.EvalExpr(expr, nil)
		for _, d := range diags {
			if d.Summary == "" {
				t.Fatalf("diagnostic without summary: %#v", d)
			}
		}
	})
}
