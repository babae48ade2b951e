package lang

import (
	"runtime"
	"strings"
	"testing"
)

// TestUnreadOfOneModuleOutput: an unknown that a reference to one module
// output leaves without an Unread mark takes the marks of that output
// alone, whatever the other outputs of the call hold and whether they are
// evaluated before or after it, so that the warning names the same data
// sources on one CPU as on several.
func TestUnreadOfOneModuleOutput(t *testing.T) {
	child := `
locals {
  codes = { "eu-west-1" = "ew1" }
}
data "aws_regions" "a" {}
output "maps" {
  value = { fixed = local.codes }
}
output "regions" {
  value = data.aws_regions.a.names
}
`
	tests := []struct {
		name string
		ref  string // how the root reads the call
		want []string
		not  []string
	}{
		{"one output", "module.u.maps.fixed", []string{"data.aws_region.here"}, []string{"module.u.data.aws_regions.a"}},
		// The whole call waits for all of its outputs: their marks count.
		{"whole call", `lookup(module.u, "maps").fixed`, []string{"data.aws_region.here", "module.u.data.aws_regions.a"}, nil},
		{"the output with data", "{ for r in module.u.regions : r => r }", []string{"data.aws_region.here", "module.u.data.aws_regions.a"}, nil},
	}
	for _, tt := range tests {
		for _, procs := range []int{1, 4} {
			t.Run(tt.name, func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				root := `
module "u" {
  source = "./u"
}
data "aws_region" "here" {}
locals {
  code  = (` + tt.ref + `)[data.aws_region.here.name]
  rules = { for k in ["x", "y"] : k => k if k != local.code }
}
resource "terraform_data" "r" {
  for_each = local.rules
}
`
				_, diags := evalFiles(t, map[string]string{"main.tf": root, "u/main.tf": child}, Options{})
				var detail string
				for _, d := range diags {
					if d.Summary == "Instances not known" {
						detail = d.Detail
					} else {
						t.Errorf("unexpected %s: %s", d.Summary, d.Detail)
					}
				}
				for _, w := range tt.want {
					if !strings.Contains(detail, w+" (not read)") {
						t.Errorf("GOMAXPROCS=%d: warning %q does not name %s", procs, detail, w)
					}
				}
				for _, n := range tt.not {
					if strings.Contains(detail, n) {
						t.Errorf("GOMAXPROCS=%d: warning %q names %s, which the expression does not read", procs, detail, n)
					}
				}
			})
		}
	}
}
