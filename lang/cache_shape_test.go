package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
)

// TestResourceShapeSharedAcrossSchemas: evaluations of one loaded module
// running at once with different provider schemas and dialects each
// decode the resource body with their own schema: a shape kept with the
// block for one schema is never used for another (run under -race).
func TestResourceShapeSharedAcrossSchemas(t *testing.T) {
	dir := t.TempDir()
	src := `
resource "example_thing" "a" {
  input = 1
  nested {
    n = "2"
  }
}
resource "terraform_data" "d" {
  input = example_thing.a.input
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	schemaDoc := func(inputType, nType string) *ProviderSchemas {
		doc := fmt.Sprintf(`{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/hashicorp/example": {
  "provider": {"version": 0, "block": {}},
  "resource_schemas": {"example_thing": {"version": 0, "block": {
    "attributes": {"input": {"type": %q, "optional": true}},
    "block_types": {"nested": {"nesting_mode": "single", "block": {"attributes": {"n": {"type": %q, "optional": true}}}}}
  }}}}}}`, inputType, nType)
		s, err := ParseProviderSchemas([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	type variant struct {
		schemas *ProviderSchemas
		dialect dialect.Dialect
	}
	variants := []variant{
		{nil, dialect.Terraform},
		{nil, dialect.Tofu},
		{schemaDoc("string", "number"), dialect.Terraform},
		{schemaDoc("number", "string"), dialect.Tofu},
		{schemaDoc("bool", "string"), dialect.Terraform},
	}
	render := func(cfg *config.Config, v variant) string {
		r, diags := Evaluate(cfg, Options{Cwd: dir, Schemas: v.schemas, Dialect: v.dialect})
		out := diags.Error()
		for _, res := range r.Resources {
			if res.Value != cty.NilVal {
				out += "\n" + res.Value.GoString()
			}
		}
		return out
	}
	load := func() *config.Config {
		cfg, diags := config.Load(dir, config.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return cfg
	}
	want := make([]string, len(variants))
	for i, v := range variants {
		want[i] = render(load(), v)
		for j := range i {
			if want[i] == want[j] && variants[i].schemas != variants[j].schemas {
				t.Fatalf("variants %d and %d evaluate alike; the test cannot tell their shapes apart:\n%s", i, j, want[i])
			}
		}
	}
	shared := load()
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 3 * len(variants) {
				i := (g + k) % len(variants)
				got[g] = append(got[g], fmt.Sprint(i, "\x00", render(shared, variants[i])))
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for k, s := range got[g] {
			i := (g + k) % len(variants)
			if s != fmt.Sprint(i, "\x00", want[i]) {
				t.Errorf("goroutine %d, variant %d: got\n%s\nwant\n%s", g, i, s, want[i])
			}
		}
	}
}

// TestModuleShapeSharedByRoots: roots that load one module through a
// ModuleCache share the module and what is worked out of it alone (the
// reads analysis's walk), and each root, evaluated at the same time as the
// others, gets what it gets evaluated alone: what a template named from
// the root's directory reads still depends on the root (run under -race).
func TestModuleShapeSharedByRoots(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("modules/net/main.tf", `
variable "name" {
  type = object({ label = string })
}
resource "example_vpc" "v" {
  name = var.name.label
}
locals {
  vpc = example_vpc.v
}
output "id" { value = local.vpc.id }
output "rendered" { value = templatefile("${path.root}/t.tftpl", { vpc = example_vpc.v }) }
`)
	write("envs/a/main.tf", `
resource "example_thing" "t" {}
module "net" {
  source = "../../modules/net"
  name   = example_thing.t
}
module "twice" {
  source = "../../modules/net"
  name   = { label = "x" }
}
output "arn" { value = module.net.id }
`)
	write("envs/a/t.tftpl", `${vpc.arn}`)
	write("envs/b/main.tf", `
module "net" {
  source = "../../modules/net"
  name   = { label = "b" }
}
`)
	write("envs/b/t.tftpl", `${vpc.owner}`)

	render := func(root string, cache *config.ModuleCache) (string, *config.Config) {
		cfg, diags := config.Load(filepath.Join(dir, root), config.Options{Cache: cache})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		r, diags := Evaluate(cfg, Options{Cwd: filepath.Join(dir, root)})
		out := diags.Error()
		for _, res := range r.Resources {
			out += "\n" + res.Addr + " " + res.Value.GoString()
		}
		return out, cfg
	}
	roots := []string{"envs/a", "envs/b"}
	want := map[string]string{}
	for _, root := range roots {
		want[root], _ = render(root, nil)
	}
	for _, s := range []string{`"arn"`, `"owner"`, `"label"`} {
		if !strings.Contains(want["envs/a"]+want["envs/b"], s) {
			t.Fatalf("no root reads %s; the test cannot tell shared reads apart:\n%s\n%s", s, want["envs/a"], want["envs/b"])
		}
	}
	if strings.Contains(want["envs/b"], `"arn"`) {
		t.Fatalf("envs/b reads what only envs/a's template reads:\n%s", want["envs/b"])
	}

	cache := &config.ModuleCache{}
	var wg sync.WaitGroup
	got := make([]string, 2*len(roots))
	cfgs := make([]*config.Config, len(got))
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], cfgs[i] = render(roots[i%len(roots)], cache)
		}()
	}
	wg.Wait()
	for i, s := range got {
		if root := roots[i%len(roots)]; s != want[root] {
			t.Errorf("%s evaluated with the others: got\n%s\nwant\n%s", root, s, want[root])
		}
	}
	// Every call of modules/net, from either root, is the one module,
	// whose walk and graph objects were made once for all of them.
	net := cfgs[0].Children["net"].Module
	var walks []*moduleReads
	var objects []*moduleObjects
	for _, cfg := range cfgs {
		for _, child := range cfg.Children {
			if child.Module != net {
				t.Fatalf("%s: module.%s is not the shared module", cfg.Module.SourceDir, child.Path[0])
			}
			key := moduleShapeKey{nil, dialect.Terraform}
			sh := child.Module.Derived(key, func() any { return &moduleShape{} }).(*moduleShape)
			walks = append(walks, sh.reads)
			objects = append(objects, sh.objects)
		}
	}
	for _, w := range walks {
		if w == nil || w != walks[0] {
			t.Fatalf("the module's walks %p, want one", walks)
		}
	}
	for _, o := range objects {
		if o == nil || o != objects[0] || len(o.objects) == 0 {
			t.Fatalf("the module's graph objects %p, want one", objects)
		}
	}
}
