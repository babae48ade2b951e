package lang

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestRepetitionReferences: count.index, each.key and each.value where the
// block sets no count or for_each, by summary and line, as terraform
// validate and plan (v1.11.4) report them. each.value has its own message
// wherever it is missing; validate reads a module call's arguments with all
// three unknown, so reports none of them there, while the plan does.
func TestRepetitionReferences(t *testing.T) {
	files := map[string]string{
		"m/main.tf": "variable \"x\" {\n  default = null\n}\n",
		"main.tf": `resource "terraform_data" "a" {
  input = each.value
}
resource "terraform_data" "b" {
  input = each.key
}
module "c" {
  source = "./m"
  x      = each.key
}
module "d" {
  source = "./m"
  x      = each.value
}
module "e" {
  source = "./m"
  x      = count.index
}
module "f" {
  source = "./m"
  count  = 1
  x      = each.key
}
locals {
  l = each.value
}
`,
	}
	const (
		value = "each.value cannot be used in this context"
		each  = `Reference to "each" in context without for_each`
		count = `Reference to "count" in non-counted context`
	)
	for _, tc := range []struct {
		name string
		opts Options
		want []string
	}{
		{"validate", Options{Validate: true}, []string{value + "@2", each + "@5", value + "@25"}},
		{"plan", Options{}, []string{value + "@2", each + "@5", each + "@9", value + "@13", count + "@17", each + "@22", value + "@25"}},
		// OpenTofu's validate is not known to skip the calls' arguments.
		{"tofu validate", Options{Validate: true, Dialect: dialect.Tofu}, []string{value + "@2", each + "@5", each + "@9", value + "@13", count + "@17", each + "@22", value + "@25"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := evalFiles(t, files, tc.opts)
			var got []string
			for _, d := range diags {
				got = append(got, fmt.Sprintf("%s@%d", d.Summary, d.Subject.Start.Line))
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %q\nwant %q", got, want)
			}
		})
	}
}
