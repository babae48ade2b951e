package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestRelocatedModuleEqualsFreshLoad: a module directory with override
// files, a .tofu file, JSON, a heredoc, nested and dynamic blocks and a
// syntax error, loaded by a second path through a cache that holds it by
// a first path, is the module (ranges, diagnostics and all) a load without
// the cache makes, in both dialects.
func TestRelocatedModuleEqualsFreshLoad(t *testing.T) {
	tree := map[string]string{
		"envs/a/main.tf": "module \"m\" {\n  source = \"../../modules/m\"\n}\n",
		"modules/m/main.tf": `
variable "x" {
  type = object({ a = optional(string, "d") })
  validation {
    condition     = can(regex("^[a-z]+$", var.x.a))
    error_message = <<-EOT
      bad ${var.x.a}
      %{for c in ["a", "b"]}${c}%{endfor}
    EOT
  }
}
locals {
  s   = [for k, v in { a = 1 } : "${k}=${v}" if v > 0]
  o   = { for k, v in { a = [1] } : upper(k) => v... }
  sp  = terraform_data.t[*].output
  sp2 = terraform_data.t.*.id
  fn  = format("%s-%s", ["a", "b"]...)
  key = { (local.s[0]) = 1, "q" = 2 }
}
resource "terraform_data" "t" {
  count = 2
  input = { n = count.index }
  lifecycle {
    ignore_changes = [input]
  }
}
output "o" {
  value = local.sp
}
`,
		"modules/m/main_override.tf": `
locals {
  s = ["overridden"]
}
output "o" {
  value = local.key
}
`,
		"modules/m/extra.tofu":         "locals {\n  tofu_only = 1\n  tofu_only = 2\n}\n",
		"modules/m/extra.tf":           "locals {\n  tf_only = 1\n}\n",
		"modules/m/j.tf.json":          `{"locals": {"j": "${local.s}"}}`,
		"modules/m/broken.tf":          "locals {\n  b = 1 +\n}\n",
		"modules/m/j_override.tf.json": `{"locals": {"j": "x"}}`,
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		dir := testfiles.Dir(t, tree)
		cache := &ModuleCache{}
		if _, err := Load(".", Options{Dialect: d, WorkDir: filepath.Join(dir, "modules", "m"), Cache: cache}); !err.HasErrors() {
			t.Fatal("the module was meant to have errors")
		}
		cached, cachedDiags := Load(".", Options{Dialect: d, WorkDir: filepath.Join(dir, "envs", "a"), Cache: cache})
		fresh, freshDiags := Load(".", Options{Dialect: d, WorkDir: filepath.Join(dir, "envs", "a")})
		got, want := strings.Join(diagTexts(cachedDiags), "\n"), strings.Join(diagTexts(freshDiags), "\n")
		if got != want {
			t.Errorf("%v: diagnostics through the cache:\n%s\nwant\n%s", d, got, want)
		}
		if !strings.Contains(got, filepath.Join("..", "..", "modules", "m", "broken.tf")) {
			t.Errorf("%v: the diagnostics do not name the second path: %s", d, got)
		}
		if !reflect.DeepEqual(cached.Children["m"].Module, fresh.Children["m"].Module) {
			t.Errorf("%v: the module loaded by a second path differs from one loaded without the cache", d)
		}
	}
}
