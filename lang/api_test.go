package lang

import (
	"reflect"
	"testing"
)

// Checks evaluates the rules once; later calls return the same results
// without spending evaluation steps, and callers cannot change them.
func TestChecksRemembered(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "n" {
  default = 3
  validation {
    condition     = var.n > 1
    error_message = "n too small"
  }
}
check "health" {
  assert {
    condition     = var.n == 4
    error_message = "n is ${var.n}"
  }
}
`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	first := res.Checks()
	if len(first) != 2 || first[0].Status != CheckFail || first[0].ErrorMessage != "n is 3" || first[1].Status != CheckPass {
		t.Fatalf("checks = %+v", first)
	}
	steps := res.ev.limits.steps.Load()
	first[0].Status = CheckPass
	second := res.Checks()
	if res.ev.limits.steps.Load() != steps {
		t.Errorf("the second call evaluated again (%d steps, then %d)", steps, res.ev.limits.steps.Load())
	}
	if second[0].Status != CheckFail {
		t.Error("a caller's change to the results reached the next call")
	}
	second[0].Status = CheckPass
	if !reflect.DeepEqual(first, second) {
		t.Errorf("second call = %+v, first = %+v", second, first)
	}
}
