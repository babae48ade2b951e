package benchgen

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfeval/tfeval/internal/longtest"
)

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	tree := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestWriteSmallIsDeterministicAndParses(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, dir := range []string{a, b} {
		if err := Write(dir, Small); err != nil {
			t.Fatal(err)
		}
	}
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) != len(tb) {
		t.Fatalf("trees differ in size: %d and %d files", len(ta), len(tb))
	}
	for p, content := range ta {
		if !bytes.Equal(content, tb[p]) {
			t.Errorf("%s differs between two writes", p)
		}
	}

	modules := map[string]bool{}
	for p, content := range ta {
		switch {
		case strings.HasSuffix(p, ".tf"), strings.HasSuffix(p, ".tfvars"):
			if _, diags := hclsyntax.ParseConfig(content, p, hcl.InitialPos); diags.HasErrors() {
				t.Errorf("%s: %s", p, diags.Error())
			}
			if !strings.HasSuffix(p, ".tfvars") && strings.HasPrefix(p, "modules/") {
				modules[filepath.Dir(p)] = true
			}
		case p == SchemaFile:
			if !json.Valid(content) {
				t.Errorf("%s is not valid JSON", p)
			}
		default:
			t.Errorf("unexpected file %s", p)
		}
	}
	if got, want := len(modules), ExpectedModules(Small); got != want || want != 10 {
		t.Errorf("module directories = %d, ExpectedModules = %d, want 10", got, want)
	}
	// Root: versions, variables, locals, main, outputs, tfvars, schema; five files per module.
	if got, want := len(ta), 7+5*len(modules); got != want {
		t.Errorf("files = %d, want %d", got, want)
	}
	if _, ok := ta["terraform.tfvars"]; !ok {
		t.Error("no terraform.tfvars at the root")
	}
}

func TestExpectedCounts(t *testing.T) {
	// Pinned: a change here changes every benchmark's workload, so make it on purpose.
	tests := []struct {
		size                           Size
		modules, moduleInstances, inst int
	}{
		{Small, 10, 14, 1001},
		{Medium, 100, 156, 9999},
		{Large, 1000, 1490, 100022},
	}
	for _, tt := range tests {
		t.Run(string(tt.size), func(t *testing.T) {
			if got := ExpectedModules(tt.size); got != tt.modules {
				t.Errorf("ExpectedModules = %d, want %d", got, tt.modules)
			}
			if got := ExpectedModuleInstances(tt.size); got != tt.moduleInstances {
				t.Errorf("ExpectedModuleInstances = %d, want %d", got, tt.moduleInstances)
			}
			if got := ExpectedInstances(tt.size); got != tt.inst {
				t.Errorf("ExpectedInstances = %d, want %d", got, tt.inst)
			}
		})
	}
	if got := ExpectedInstances("huge"); got != 0 {
		t.Errorf("ExpectedInstances(huge) = %d, want 0", got)
	}
}

func TestParseSize(t *testing.T) {
	for _, s := range Sizes {
		if got, err := ParseSize(string(s)); err != nil || got != s {
			t.Errorf("ParseSize(%q) = %q, %v", s, got, err)
		}
	}
	if _, err := ParseSize("Small"); err == nil {
		t.Error("ParseSize(Small) succeeded; names are lower case")
	}
}

func TestWriteRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.tf"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, Small); err == nil {
		t.Fatal("Write into a non-empty directory succeeded")
	}
}

func TestNoProviderOmitsMock(t *testing.T) {
	files, err := Files(Small, Options{NoProvider: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Path == SchemaFile || bytes.Contains(f.Contents, []byte("mock")) {
			t.Errorf("%s mentions the mock provider", f.Path)
		}
	}
}

// mockSchema is the part of the schema document the mock_thing check reads.
type mockSchema struct {
	ProviderSchemas map[string]struct {
		ResourceSchemas map[string]struct {
			Block schemaBlock `json:"block"`
		} `json:"resource_schemas"`
	} `json:"provider_schemas"`
}

type schemaBlock struct {
	Attributes map[string]struct {
		Computed bool `json:"computed"`
		Optional bool `json:"optional"`
	} `json:"attributes"`
	BlockTypes map[string]struct {
		Block schemaBlock `json:"block"`
	} `json:"block_types"`
}

// TestMockThingMatchesSchema checks, without a provider binary, that every
// mock_thing sets only configurable attributes and declares only known blocks.
func TestMockThingMatchesSchema(t *testing.T) {
	var doc mockSchema
	if err := json.Unmarshal([]byte(providerSchema), &doc); err != nil {
		t.Fatal(err)
	}
	schema := doc.ProviderSchemas["registry.terraform.io/bench/mock"].ResourceSchemas["mock_thing"].Block
	if len(schema.Attributes) == 0 {
		t.Fatal("schema has no mock_thing")
	}
	files, err := Files(Small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".tf") {
			continue
		}
		parsed, diags := hclsyntax.ParseConfig(f.Contents, f.Path, hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		for _, block := range parsed.Body.(*hclsyntax.Body).Blocks {
			if block.Type == "resource" && block.Labels[0] == "mock_thing" {
				seen++
				checkBody(t, f.Path, block.Body, schema, map[string]bool{"for_each": true, "count": true})
			}
		}
	}
	if seen == 0 {
		t.Error("no mock_thing resources in the small tree")
	}
}

func checkBody(t *testing.T, path string, body *hclsyntax.Body, schema schemaBlock, meta map[string]bool) {
	t.Helper()
	for name := range body.Attributes {
		a, ok := schema.Attributes[name]
		if !meta[name] && (!ok || !a.Optional) {
			t.Errorf("%s: argument %q is not configurable in the schema", path, name)
		}
	}
	for _, b := range body.Blocks {
		if b.Type != "dynamic" {
			t.Errorf("%s: static block %q; the tree uses dynamic blocks", path, b.Type)
			continue
		}
		nested, ok := schema.BlockTypes[b.Labels[0]]
		if !ok {
			t.Errorf("%s: no block type %q in the schema", path, b.Labels[0])
			continue
		}
		for _, c := range b.Body.Blocks {
			if c.Type == "content" {
				checkBody(t, path, c.Body, nested.Block, nil)
			}
		}
	}
}

// TestLargeTree logs the time rather than asserting it: -race and a busy
// machine slow generation tenfold (it is about 1s otherwise).
func TestLargeTree(t *testing.T) {
	longtest.Skip(t, "generates the large tree in memory")
	start := time.Now()
	files, err := Files(Large, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("large tree generated in %s", time.Since(start))
	if got, want := len(files), 7+5*ExpectedModules(Large); got != want {
		t.Errorf("files = %d, want %d", got, want)
	}
}

// TestAddressSpaceFits guards the cidrsubnet calls, which fail at plan time
// when a netnum does not fit: 8 bits per service, 6 per component, 4 per subnet.
func TestAddressSpaceFits(t *testing.T) {
	for _, size := range Sizes {
		p, err := newPlan(size)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.services {
			if s.index >= 1<<8 {
				t.Errorf("%s: service %s does not fit 8 bits", size, s.name)
			}
			for _, c := range s.components {
				if c.index >= 1<<6 || c.subnets > 1<<4 {
					t.Errorf("%s: component %s does not fit its address space", size, c.name)
				}
			}
		}
	}
}
