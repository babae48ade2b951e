package tftest

import (
	"fmt"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestPlanOutputsNestedUnknowns: in a command = plan run, an output whose
// value is known but holds what the plan leaves unknown reads as null
// there, in the assertions of the run and of later runs; an output that is
// unknown as a whole stays unknown ("Unknown condition value"). Each case
// gives the status terraform test v1.11.4 gives with a mocked aws provider
// v5.100.0.
func TestPlanOutputsNestedUnknowns(t *testing.T) {
	main := `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
resource "aws_lb_target_group" "tg" {
  name        = "tg"
  target_type = "lambda"
}
output "arn" { value = aws_lb_target_group.tg.arn }
output "whole" { value = aws_lb_target_group.tg }
output "obj" { value = { a = aws_lb_target_group.tg.arn, b = "x" } }
output "list" { value = [aws_lb_target_group.tg.arn, "x"] }
`
	for _, tc := range []struct {
		condition string
		status    Status
	}{
		{`output.obj.a == null`, Pass},
		{`output.list[0] == null`, Pass},
		{`output.whole.arn == null && output.whole.load_balancing_algorithm_type == null`, Pass},
		{`output.obj.a == "q"`, Fail},
		{`output.obj == null`, Fail},
		{`output.arn == null`, Error},
	} {
		t.Run(tc.condition, func(t *testing.T) {
			rep := runFiles(t, map[string]string{
				"main.tf": main,
				"tests/a.tftest.hcl": fmt.Sprintf(`mock_provider "aws" {}
run "r" {
  command = plan
  assert {
    condition     = %s
    error_message = "x"
  }
}
run "later" {
  command = plan
  assert {
    condition     = run.r.obj.a == null
    error_message = "x"
  }
}
`, tc.condition)}, dialect.Terraform)
			r := runOf(t, rep, "tests/a.tftest.hcl::r")
			if r.Status != tc.status {
				t.Fatalf("%s (%s; %v), want %s", r.Status, r.SkipReason, r.Diagnostics, tc.status)
			}
			if tc.status != Error {
				if l := runOf(t, rep, "tests/a.tftest.hcl::later"); l.Status != Pass {
					t.Errorf("later run: %s (%v), want pass", l.Status, l.Diagnostics)
				}
			}
		})
	}
}
