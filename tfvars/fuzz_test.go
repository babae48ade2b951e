package tfvars

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// fuzzDecls declares variables of the kinds tfvars treats differently:
// literal and HCL parsing, optional attributes, sensitive, non-nullable.
const fuzzDecls = `
variable "s" {}
variable "n" { type = number }
variable "l" { type = list(string) }
variable "o" {
  type     = object({ a = string, b = optional(number, 1), c = optional(list(map(bool))) })
  nullable = false
  default  = { a = "x" }
}
variable "secret" {
  type      = string
  sensitive = true
  default   = "x"
}
variable "any" { type = any }
`

// FuzzVars parses arbitrary bytes as a -var-file (native or JSON) or as the
// text of a -var option, and prepares every declared variable from it.
func FuzzVars(f *testing.F) {
	files, _ := filepath.Glob("../testdata/conformance/*/*.tfvars*")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		mode := uint8(0)
		if strings.HasSuffix(name, ".json") {
			mode = 1
		}
		f.Add(src, mode)
	}
	for _, text := range []string{"s=hello", `l=["a","b"]`, "n=1e3", `o={a="y", c=[{k=true}]}`, "any={x=[1,{}]}", "s", " s =x", "=", "n=${1}"} {
		f.Add([]byte(text), uint8(2))
	}
	declDir := f.TempDir()
	if err := os.WriteFile(filepath.Join(declDir, "main.tf"), []byte(fuzzDecls), 0o600); err != nil {
		f.Fatal(err)
	}
	cfg, diags := config.Load(".", config.Options{WorkDir: declDir})
	if diags.HasErrors() {
		f.Fatal(diags)
	}
	decls := cfg.Module.Variables

	f.Fuzz(func(t *testing.T, src []byte, mode uint8) {
		dir := t.TempDir()
		var in Inputs
		switch mode % 3 {
		case 0, 1:
			name := "x.tfvars"
			if mode%3 == 1 {
				name += ".json"
			}
			if err := os.WriteFile(filepath.Join(dir, name), src, 0o600); err != nil {
				t.Fatal(err)
			}
			in.Args = []Arg{{Kind: VarFileFlag, Text: name}}
		case 2:
			in.Args = []Arg{{Kind: VarFlag, Text: string(src)}}
		}
		in.Dir = dir
		if mode&0x80 != 0 {
			in.Dialect = dialect.Tofu
		}
		final, _, diags := Resolve(in, decls)
		if !diags.HasErrors() && len(final) != len(decls) {
			t.Fatalf("no errors but %d of %d variables resolved", len(final), len(decls))
		}
	})
}
