package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// FuzzLoad loads a module whose only file holds arbitrary bytes, as native
// syntax or JSON, in both dialects: every input must give diagnostics, never
// a panic or a hang, and the same with a module cache as without.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/conformance/*/*.tf")
	more, _ := filepath.Glob("../testdata/conformance/*/*.tf.json")
	seeds = append(seeds, more...)
	for _, name := range seeds {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, strings.HasSuffix(name, ".json"), false)
	}
	f.Add([]byte(`module "self" { source = "./" }`), false, true)
	f.Add([]byte("terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.x]\n    }\n  }\n}\nprovider \"aws\" {\n  alias = \"y\"\n  version = \"1\"\n}\nmodule \"self\" {\n  source = \"./\"\n  providers = {\n    aws.x = aws.y\n    aws = aws.z\n  }\n}\n"), false, false)
	f.Add([]byte(`{"variable": {"a": {"type": "string"}}, "locals": {"b": "${var.a}"}}`), true, true)
	f.Fuzz(func(t *testing.T, src []byte, asJSON, tofu bool) {
		dir := t.TempDir()
		name := "main.tf"
		if asJSON {
			name += ".json"
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o600); err != nil {
			t.Fatal(err)
		}
		d := dialect.Terraform
		if tofu {
			d = dialect.Tofu
		}
		cfg, diags := Load(".", Options{Dialect: d, WorkDir: dir, Sandbox: dir, MaxDepth: 4})
		if cfg == nil && !diags.HasErrors() {
			t.Fatalf("no configuration and no error")
		}
		for _, diag := range diags {
			if diag.Summary == "" {
				t.Fatalf("diagnostic without summary: %#v", diag)
			}
		}
		// A module cache, filled and then used, must not change what a load reports.
		want := strings.Join(diagTexts(diags), "\n")
		cache := &ModuleCache{}
		for _, pass := range []string{"filling", "using"} {
			_, cached := Load(".", Options{Dialect: d, WorkDir: dir, Sandbox: dir, MaxDepth: 4, Cache: cache})
			if got := strings.Join(diagTexts(cached), "\n"); got != want {
				t.Fatalf("%s a module cache, the load reported:\n%s\nwant:\n%s", pass, got, want)
			}
		}
	})
}
