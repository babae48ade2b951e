package lang

import (
	"fmt"
	"os"
	"path/filepath"
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
