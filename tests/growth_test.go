package tests

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	tfeval "github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/internal/benchgen"
	"github.com/tfeval/tfeval/internal/longtest"
	"github.com/tfeval/tfeval/internal/testfiles"
)

// growthModule is a root module whose size is set by var.groups (100 items
// a group): resources expanded over the items with for_each and count,
// instances referring to other resources' instances by key and index, a
// resource expanded over another resource's instances, dynamic blocks,
// a module called per tenth item, and splats and lengths over whole
// resources. Everything in it costs a fixed amount per item, so an
// evaluation that does more per item as items are added, such as a walk
// over every instance for each instance, shows as faster than linear
// growth.
const growthModule = `
terraform {
  required_providers {
    mock = {
      source = "bench/mock"
    }
  }
}

variable "groups" {
  type = number
}

locals {
  indexes = [for p in setproduct(range(var.groups), range(100)) : p[0] * 100 + p[1]]
  keys    = [for i in local.indexes : format("k%05d", i)]
  items = { for i, k in local.keys : k => {
    index = i
    name  = "item-${i}"
    tags  = { team = "t${i % 7}", tier = i % 2 == 0 ? "even" : "odd" }
  } }
}

resource "mock_thing" "base" {
  for_each = local.items
  name     = each.value.name
  size     = each.value.index
  tags     = merge(each.value.tags, { key = each.key })

  dynamic "setting" {
    for_each = each.value.tags
    content {
      name  = setting.key
      value = setting.value
    }
  }
}

resource "mock_thing" "derived" {
  count = length(local.keys)
  name  = mock_thing.base[local.keys[count.index]].name
  tags = {
    base  = mock_thing.base[local.keys[count.index]].id
    index = tostring(count.index)
  }
}

resource "mock_thing" "chained" {
  for_each = mock_thing.base
  name     = "${each.value.name}-chained"
  size     = each.value.size + 1
}

module "unit" {
  source   = "./unit"
  for_each = { for k, v in local.items : k => v if v.index % 10 == 0 }
  name     = each.value.name
  upstream = mock_thing.base[each.key].name
}

output "count" {
  value = length(mock_thing.derived[*].name) + length(mock_thing.chained) + length(module.unit)
}
`

// growthUnit is the module growthModule calls once per tenth item.
const growthUnit = `
terraform {
  required_providers {
    mock = {
      source = "bench/mock"
    }
  }
}

variable "name" {
  type = string
}

variable "upstream" {
  type = string
}

resource "mock_thing" "unit" {
  count = 2
  name  = "${var.name}-${count.index}"
  tags  = { upstream = var.upstream }
}

output "names" {
  value = mock_thing.unit[*].name
}
`

// writeGrowthTree writes growthModule with groups*100 items into a new
// directory and returns it with the provider schema document.
func writeGrowthTree(t *testing.T, groups int) (dir string, schemas []byte) {
	t.Helper()
	dir = t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"main.tf":          growthModule,
		"terraform.tfvars": fmt.Sprintf("groups = %d\n", groups),
		"unit/main.tf":     growthUnit,
	})
	tree, err := benchgen.Files(benchgen.Small, benchgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tree {
		if f.Path == benchgen.SchemaFile {
			schemas = f.Contents
		}
	}
	if schemas == nil {
		t.Fatal("benchgen wrote no provider schema")
	}
	return dir, schemas
}

// evaluationCost is what one evaluation of dir allocates, in allocations
// and bytes, after a first evaluation that warms caches and pools.
func evaluationCost(t *testing.T, dir string, schemas []byte, wantResources int) (allocs, bytes uint64) {
	t.Helper()
	evaluate := func() {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Schemas: schemas})
		if ev.Diagnostics.HasErrors() {
			t.Fatalf("evaluating %s: %s", dir, ev.Diagnostics.Error())
		}
		if got := len(ev.Resources()); got != wantResources {
			t.Fatalf("evaluating %s planned %d resource instances, want %d", dir, got, wantResources)
		}
	}
	evaluate()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	evaluate()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// TestEvaluationGrowsLinearly evaluates the same module with n, 2n, 4n and
// 8n items (n is 1,000, or 100 without the long suites, internal/longtest)
// and holds what the last 4n items cost, in allocations and in bytes
// allocated, to at most 4.25 times what the n items after the first n
// cost. Allocations do not depend on the machine, unlike time, so this
// guards the "no quadratic walks over instances" in every CI run:
// one per-instance walk over all instances would make that ratio 16, not
// 4. The ratio is of increments, not of totals: a cost per item that
// steps once (the numbers below 1,024 that elements.Number shares, read
// without allocating) is not growth, and would pass for it when the
// smaller tree lies below the step and the larger above it.
func TestEvaluationGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates thousands of resource instances")
	}
	// Every item plans base, derived and chained; every tenth calls the
	// unit module, which plans two.
	resources := func(items int) int { return 3*items + 2*(items/10) }
	n := longtest.Pick(1, 10)
	var allocs, bytes [4]uint64
	var schemas []byte
	for i, k := range []int{n, 2 * n, 4 * n, 8 * n} {
		var dir string
		dir, schemas = writeGrowthTree(t, k)
		allocs[i], bytes[i] = evaluationCost(t, dir, schemas, resources(k*100))
	}
	ratio := func(c [4]uint64) float64 { return float64(c[3]-c[2]) / float64(c[1]-c[0]) }
	ratioAllocs, ratioBytes := ratio(allocs), ratio(bytes)
	t.Logf("%d, %d, %d, %d items: %v allocations, %v bytes; the last %d items cost %.2fx the allocations and %.2fx the bytes of the %d after the first",
		n*100, 2*n*100, 4*n*100, 8*n*100, allocs, bytes, 4*n*100, ratioAllocs, ratioBytes, n*100)
	const bound = 4.25
	if ratioAllocs > bound {
		t.Errorf("4x the items took %.2fx the allocations, more than %.2fx", ratioAllocs, bound)
	}
	if ratioBytes > bound {
		t.Errorf("4x the items allocated %.2fx the bytes, more than %.2fx", ratioBytes, bound)
	}
}

// outputsTree writes a root module whose n outputs each read one of the
// n outputs of a child module, as the examples of published modules do.
func outputsTree(t *testing.T, n int) string {
	t.Helper()
	var root, child strings.Builder
	root.WriteString("module \"child\" {\n  source = \"./child\"\n  prefix = \"p\"\n}\n")
	child.WriteString("variable \"prefix\" {\n  type = string\n}\n")
	for i := range n {
		fmt.Fprintf(&child, "output \"o%d\" {\n  value = \"${var.prefix}-%d\"\n}\n", i, i)
		fmt.Fprintf(&root, "output \"o%d\" {\n  value = module.child.o%d\n}\n", i, i)
	}
	return testfiles.Dir(t, map[string]string{"main.tf": root.String(), "child/main.tf": child.String()})
}

// TestModuleOutputReferencesGrowLinearly holds what a root's references
// to a child's outputs cost to linear growth: 8x the outputs, each read
// once, cost at most 8.5x the allocations and 12x the bytes (hcl's token
// buffers double as a file grows, so bytes grow a little faster than the
// source). Building module.NAME with all of the child's outputs for each
// reference, while some are not yet evaluated, cost 38x the bytes.
func TestModuleOutputReferencesGrowLinearly(t *testing.T) {
	const small, large = 100, 800
	sa, sb := evaluationCost(t, outputsTree(t, small), nil, 0)
	la, lb := evaluationCost(t, outputsTree(t, large), nil, 0)
	ratioAllocs, ratioBytes := float64(la)/float64(sa), float64(lb)/float64(sb)
	t.Logf("%d outputs: %d allocations, %d KiB; %d outputs: %d allocations, %d KiB; ratios %.2f and %.2f",
		small, sa, sb>>10, large, la, lb>>10, ratioAllocs, ratioBytes)
	if ratioAllocs > 8.5 || ratioBytes > 12 {
		t.Errorf("8x the outputs took %.2fx the allocations and %.2fx the bytes, more than 8.5x and 12x", ratioAllocs, ratioBytes)
	}
}
