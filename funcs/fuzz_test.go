package funcs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
)

// FuzzTemplate renders an arbitrary template with templatefile and with
// templatestring, in both dialects, with small limits.
func FuzzTemplate(f *testing.F) {
	files, _ := filepath.Glob("../testdata/conformance/*/*.tftpl")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src), uint8(0))
		f.Add(string(src), uint8(3))
	}
	for _, s := range []string{"hello ${name}", "%{for i, x in list}${i}=${x}\n%{endfor}", "%{if n > 2}big%{else}small%{endif}",
		"${templatefile(\"t.tftpl\", {})}", "${join(\",\", [for k, v in obj : \"${k}${v}\"])}", "%{~ for x in list ~}\n${x}\n%{~ endfor ~}",
		"${format(\"%5d\", n)}${upper(name)}", "$${escaped} %%{escaped}"} {
		f.Add(s, uint8(1))
		f.Add(s, uint8(2))
	}
	vars := cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("world"),
		"n":    cty.NumberIntVal(3),
		"list": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"obj":  cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v"), "s": cty.StringVal("x").Mark("sensitive")}),
	})
	f.Fuzz(func(t *testing.T, tmpl string, mode uint8) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "t.tftpl"), []byte(tmpl), 0o600); err != nil {
			t.Fatal(err)
		}
		d := dialect.Terraform
		if mode&2 != 0 {
			d = dialect.Tofu
		}
		fns := Functions(Options{Dialect: d, BaseDir: dir, Sandbox: dir,
			Limits: Limits{MaxElements: 10_000, MaxStringLength: 1 << 20, MaxFileSize: 1 << 20, MaxNesting: 100}})
		call := `templatefile("t.tftpl", vars)`
		if mode&1 != 0 {
			call = `templatestring(tmpl, vars)`
		}
		expr, diags := hclsyntax.ParseExpression([]byte(call), "<fuzz>", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		ctx := &hcl.EvalContext{
			Variables: map[string]cty.Value{"vars": vars, "tmpl": cty.StringVal(tmpl)},
			Functions: fns,
		}
		_, diags = expr.Value(ctx)
		for _, diag := range diags {
			if diag.Summary == "" {
				t.Fatalf("diagnostic without summary: %#v", diag)
			}
		}
	})
}
