package lang

import (
	"fmt"
	"sort"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// A removed block whose resource or module is still declared is an error
// of the plan, not of validate: Terraform points at the block still
// declared, OpenTofu at the removed block, each in its own words, for
// removed blocks of child modules too.
func TestRemovedStillDeclared(t *testing.T) {
	files := map[string]string{
		"main.tf": `resource "terraform_data" "r" {}
module "m" { source = "./m" }
removed {
  from = terraform_data.r
}
removed {
  from = module.m
}
removed {
  from = terraform_data.gone
}
`,
		"m/main.tf": `resource "terraform_data" "x" {}
removed {
  from = terraform_data.x
}
`,
	}
	want := map[dialect.Dialect][]string{
		dialect.Terraform: {
			"main.tf:1 Removed resource still exists: This statement declares that terraform_data.r was removed, but it is still declared in configuration.",
			"main.tf:2 Removed module still exists: This statement declares that module.m was removed, but it is still declared in configuration.",
			"m/main.tf:1 Removed resource still exists: This statement declares that module.m.terraform_data.x was removed, but it is still declared in configuration.",
		},
		dialect.Tofu: {
			"main.tf:3 Removed resource block still exists: This statement declares a removal of the resource terraform_data.r, but this resource block still exists in the configuration. Please remove the resource block.",
			"main.tf:6 Removed module block still exists: This statement declares a removal of the module module.m, but this module block still exists in the configuration. Please remove the module block.",
			"m/main.tf:2 Removed resource block still exists: This statement declares a removal of the resource module.m.terraform_data.x, but this resource block still exists in the configuration. Please remove the resource block.",
		},
	}
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		_, diags := evalFiles(t, files, Options{Dialect: d})
		var got []string
		for _, dg := range diags {
			got = append(got, fmt.Sprintf("%s:%d %s: %s", dg.Subject.Filename, dg.Subject.Start.Line, dg.Summary, dg.Detail))
		}
		sort.Strings(got)
		w := append([]string(nil), want[d]...)
		sort.Strings(w)
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s:\n%s\nwant\n%s", d, got, w)
		}
		if _, diags := evalFiles(t, files, Options{Dialect: d, Validate: true}); len(diags) > 0 {
			t.Errorf("%s: validate reports %s", d, diags.Error())
		}
	}
}
