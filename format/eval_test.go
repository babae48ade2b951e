package format

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
)

// evalFiles evaluates a module made of the given files, as plan does.
func evalFiles(t *testing.T, files map[string]string) (*lang.Result, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	cfg, diags := config.Load(".", config.Options{})
	if diags.HasErrors() {
		t.Fatalf("load: %s", diags.Error())
	}
	return lang.Evaluate(cfg, lang.Options{})
}

// WriteIndented writes what json.MarshalIndent does, with resources
// marshalled in parallel: documents with none, a few and many resources.
func TestWriteIndented(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "n" { default = 300 }
resource "terraform_data" "many" {
  count = var.n
  input = { name = "x-${count.index}", html = "<a href='?'>&</a>", odd = "q\"b\\t\t\u2028${count.index}", tags = { "é" = true, n = count.index / 3, "" = [] } }
}
resource "terraform_data" "one" {
  input = sensitive("s")
}
output "o" { value = { a = [1, 2], b = terraform_data.one.id } }
output "p" { value = "<p>" }
`})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	warn := hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "w", Detail: "<d>", Subject: &hcl.Range{Filename: "main.tf"}}}
	empty := &EvalDocument{Diagnostics: []Diagnostic{}, Outputs: map[string]EvalOutput{}}
	for name, doc := range map[string]*EvalDocument{
		"evaluated":   NewEvalDocument(res, warn),
		"nil result":  NewEvalDocument(nil, nil),
		"nil list":    empty,
		"single item": {Resources: NewEvalDocument(res, nil).Resources[:1]},
	} {
		want, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := doc.WriteIndented(&got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.String() != string(want) {
			t.Errorf("%s: WriteIndented differs from MarshalIndent:\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}

// appendJSONIndented writes what json.MarshalIndent writes for the values
// a document holds, at any depth and prefix.
func TestAppendJSONIndented(t *testing.T) {
	for _, v := range []any{
		nil, true, false, "", "plain", "<&>", "quote\" back\\ tab\t nl\n \u2028 \x01 é",
		json.Number("0"), json.Number("-12.5"), json.Number("1234567890123456789012"),
		[]any{}, map[string]any{}, []any{nil, "a", []any{true}, map[string]any{}},
		map[string]any{"b": 1 == 1, "a": []any{json.Number("3")}, "<": map[string]any{"z": nil, "é": "x"}},
	} {
		for _, prefix := range []string{"", "    "} {
			want, err := json.MarshalIndent(v, prefix, "  ")
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendJSONIndented(nil, v, prefix, 0)
			if !ok || string(got) != string(want) {
				t.Errorf("%#v (prefix %q): got %q (%v), want %q", v, prefix, got, ok, want)
			}
		}
	}
	for _, v := range []any{json.Number("+Inf"), json.Number("1e5"), json.Number("01"), 3, []string{"a"}} {
		if _, ok := appendJSONIndented(nil, v, "", 0); ok {
			t.Errorf("%#v: written directly, want it left to encoding/json", v)
		}
	}
}
