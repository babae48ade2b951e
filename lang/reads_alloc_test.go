package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfeval/tfeval/config"
)

// readAnalysisAllocations is what one analysis of a module allocates once
// its walk is made, where an output reads an attribute of each of n
// resources through one local value (n origins of one definition).
func readAnalysisAllocations(t *testing.T, n int) float64 {
	t.Helper()
	var src strings.Builder
	var refs []string
	for i := range n {
		fmt.Fprintf(&src, "resource \"aws_thing\" \"r%d\" {\n  name = \"r%d\"\n}\n", i, i)
		refs = append(refs, fmt.Sprintf("aws_thing.r%d", i))
	}
	fmt.Fprintf(&src, "locals {\n  all = [%s]\n}\n", strings.Join(refs, ", "))
	src.WriteString("output \"ids\" {\n  value = [for r in local.all : r.id]\n}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	walks := map[*config.Module]*moduleReads{}
	modules := func(m *config.Module) *moduleReads {
		if walks[m] == nil {
			walks[m] = walkModule(m, nil)
		}
		return walks[m]
	}
	modules(cfg.Module)
	a := analyzeReads(cfg, modules, nil, nil, nil)
	if tr := a.tree(cfg.Module.ManagedResources["aws_thing.r0"]); tr == nil || tr.attrs["id"] == nil {
		t.Fatalf("the read of id is not found: %+v", tr)
	}
	return testing.AllocsPerRun(5, func() { analyzeReads(cfg, modules, nil, nil, nil) })
}

// TestReadAnalysisAllocationsPerOrigin holds what following a read into
// each origin of a definition allocates: marking the resource's path
// resolved and recording it in the resource's tree, 5.2 allocations, and
// no path of its own (6.2 before the twelfth round of issue #31; see
// docs/benchmarks.md).
func TestReadAnalysisAllocationsPerOrigin(t *testing.T) {
	few, many := readAnalysisAllocations(t, 10), readAnalysisAllocations(t, 90)
	perOrigin := (many - few) / 80
	t.Logf("%.0f and %.0f allocations: %.2f per origin", few, many, perOrigin)
	if perOrigin > 5.5 {
		t.Errorf("%.2f allocations per origin, more than 5.5", perOrigin)
	}
}
