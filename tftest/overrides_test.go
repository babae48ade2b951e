package tftest

import (
	"slices"
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

// TestOverrideTargetWarnings: Terraform warns of an override block whose
// target does not exist: a file's (or its mock_provider block's) when no
// configuration the file runs has it, once for the file; a run's when its
// own configuration does not. A mock data file's overrides and targets in
// a run's module are not warned of, and OpenTofu warns of none.
func TestOverrideTargetWarnings(t *testing.T) {
	files := map[string]string{
		"main.tf":       awsProvider + "resource \"terraform_data\" \"a\" { input = 1 }\nmodule \"m\" { source = \"./m\" }\n",
		"m/main.tf":     "data \"terraform_data\" \"unused\" {}\nresource \"terraform_data\" \"in_m\" { input = 2 }\n",
		"setup/main.tf": "resource \"terraform_data\" \"s\" { input = 3 }\n",
		"tests/mocks/x.tfmock.hcl": `
override_resource {
  target = aws_vpc.from_file
}
`,
		"tests/a.tftest.hcl": `
mock_provider "aws" {
  source = "./tests/mocks"
  override_resource {
    target = aws_vpc.nowhere
  }
}
override_resource {
  target = terraform_data.s
}
override_resource {
  target = module.m.terraform_data.in_m[0]
}
override_module {
  target = module.gone
}
run "setup" {
  module {
    source = "./setup"
  }
}
run "main" {
  command = plan
  override_resource {
    target = terraform_data.s
  }
  override_resource {
    target = terraform_data.a
  }
}
`,
	}
	for _, tc := range []struct {
		d    dialect.Dialect
		want []string
	}{
		{dialect.Terraform, []string{
			"file: The override target aws_vpc.nowhere does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.",
			"file: The override target module.gone does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.",
			"main: The override target terraform_data.s does not exist within the configuration under test. This could indicate a typo in the target address or an unnecessary override.",
		}},
		{dialect.Tofu, nil},
	} {
		f := files
		if tc.d == dialect.Tofu {
			f = map[string]string{"main.tf": files["main.tf"], "m/main.tf": files["m/main.tf"], "setup/main.tf": files["setup/main.tf"],
				"tests/a.tftest.hcl": "override_module {\n  target = module.gone\n}\nrun \"main\" {\n  command = plan\n}\n"}
		}
		rep := runFiles(t, f, tc.d)
		var got []string
		for _, fr := range rep.Files {
			for _, d := range fr.Diagnostics {
				got = append(got, "file: "+d.Detail)
			}
			for _, r := range fr.Runs {
				for _, d := range r.Diagnostics {
					if d.Summary == "Invalid override target" {
						got = append(got, r.Name+": "+d.Detail)
					}
				}
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: warnings %q, want %q (all: %v)", tc.d, got, tc.want, summaries(rep))
		}
	}
}
