package tftest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tfeval/tfeval"
)

// writeForAssertModule writes a module with n kinds in a local, a
// resource without a provider schema (so a test's assertions are checked
// for reading objects whose attributes tfeval does not all know), and a
// test whose assertion is a for over every kind that indexes a whole
// output by the for's key.
func writeForAssertModule(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	main := fmt.Sprintf(`
resource "random_string" "r" {
  length = 4
}

locals {
  kinds = { for i in range(%d) : "kind_${i}" => { name = "k${i}${random_string.r.result}", max_length = 100 } }
}

output "resources" {
  value = local.kinds
}

output "validation" {
  value = { for k, v in local.kinds : k => length(v.name) <= v.max_length }
}
`, n)
	test := `
run "all" {
  command = apply
  assert {
    condition     = alltrue([for k, v in output.validation : length(output.resources[k].name) <= output.resources[k].max_length])
    error_message = "too long"
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests", "a.tftest.hcl"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestForAssertionGrowsLinearly checks that judging an assertion with a
// for over n kinds costs about n: an operand that does not read the for's
// variables (output.resources in output.resources[k]) is evaluated once,
// not once for each kind, which made the cost grow as n².
func TestForAssertionGrowsLinearly(t *testing.T) {
	allocs := func(n int) float64 {
		dir := writeForAssertModule(t, n)
		run := func() {
			rep := tfeval.Test(context.Background(), tfeval.TestOptions{Options: tfeval.Options{WorkDir: dir}})
			if rep.Passed != 1 {
				t.Fatalf("%d kinds: %d passed, %d failed, %d errored", n, rep.Passed, rep.Failed, rep.Errored)
			}
		}
		run()
		return testing.AllocsPerRun(2, run)
	}
	small, large := allocs(100), allocs(400)
	t.Logf("100 kinds: %.0f allocations, 400: %.0f", small, large)
	if ratio := large / small; ratio > 5 {
		t.Errorf("4x the kinds: %.1fx the allocations (%.0f against %.0f), want at most 5x", ratio, large, small)
	}
}
