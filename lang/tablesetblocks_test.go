package lang

import (
	"fmt"
	"strings"
	"testing"
)

// TestSetBlockIndexByTable: without the schema, a reference that indexes a
// nested block the table of the provider's schema nests as a set
// (aws_backup_selection's selection_tag) is Terraform's "Cannot index a set
// value" on the index, as with the schema, where tfeval used to read an
// element of the list it builds. A list block indexed, the set read whole,
// a provider tfeval has no table of, and a version the table is not of are
// left as before.
func TestSetBlockIndexByTable(t *testing.T) {
	const main = `
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = %q
    }
  }
}
resource "aws_backup_selection" "s" {
  name         = "sel"
  plan_id      = "p"
  iam_role_arn = "arn:aws:iam::123456789012:role/r"
  selection_tag {
    type  = "STRINGEQUALS"
    key   = "k"
    value = "v"
  }
}
resource "aws_lb_listener" "l" {
  load_balancer_arn = "arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/a/1"
  default_action {
    type             = "forward"
    target_group_arn = "arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/t/1"
  }
}
resource "other_thing" "o" {
  rule {
    v = "a"
  }
}
output "o" { value = %s }
`
	for _, c := range []struct {
		version, ref string
		refused      bool
	}{
		{"~> 5.0", `aws_backup_selection.s.selection_tag[0].key`, true},
		{">= 6.0", `aws_backup_selection.s.selection_tag[0]`, true},
		{"~> 5.0", `aws_lb_listener.l.default_action[0].type`, false},
		{"~> 5.0", `[for t in aws_backup_selection.s.selection_tag : t.key]`, false},
		{"~> 5.0", `length(aws_backup_selection.s.selection_tag)`, false},
		{"~> 5.0", `other_thing.o.rule[0].v`, false},
		{"< 4.0", `aws_backup_selection.s.selection_tag[0].key`, false},
	} {
		name := c.version + " " + c.ref
		src := fmt.Sprintf(main, c.version, c.ref)
		_, diags := evalFiles(t, map[string]string{"main.tf": src}, Options{})
		if !c.refused {
			if diags.HasErrors() {
				t.Errorf("%s: %s", name, diags.Error())
			}
			continue
		}
		if len(diags) != 1 || diags[0].Summary != "Cannot index a set value" || !strings.HasPrefix(diags[0].Detail, `Block type "selection_tag" is represented by a set of objects`) {
			t.Errorf("%s: diagnostics %v", name, diags)
			continue
		}
		lines := strings.Split(src, "\n")
		line := len(lines) - 1 // the output's, before the last newline
		col := strings.Index(lines[line-1], "[0]") + 1
		if s := diags[0].Subject; s == nil || s.Start.Line != line || s.Start.Column != col || s.End.Column != col+3 {
			t.Errorf("%s: subject %v, want line %d columns %d-%d", name, diags[0].Subject, line, col, col+3)
		}
	}
}
