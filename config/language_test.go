package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// OpenTofu 1.12's top-level language block is checked as OpenTofu checks
// it; Terraform has no such block.
func TestLanguageBlock(t *testing.T) {
	for _, tc := range []struct {
		name     string
		d        dialect.Dialect
		files    map[string]string
		want     []wantDiag
		warnings []string
	}{
		{
			name:  "an edition and a constraint OpenTofu takes",
			d:     dialect.Tofu,
			files: map[string]string{"main.tf": "language {\n  edition = tofu2024\n  compatible_with {\n    opentofu = \">= 1.12\"\n    other    = \"kept for other tools\"\n  }\n}\n"},
		},
		{
			name:  "no such block in Terraform",
			d:     dialect.Terraform,
			files: map[string]string{"main.tf": "language {\n  edition = tofu2024\n}\n"},
			want:  []wantDiag{{"Unsupported block type", `Blocks of type "language" are not expected here.`, "main.tf:1,1-9"}},
		},
		{
			name:  "editions",
			d:     dialect.Tofu,
			files: map[string]string{"a.tf": "language {\n  edition = \"tofu2024\"\n}\n", "b.tf": "language {\n  edition = TF2021\n}\n", "c.tf": "language {\n  edition = tofu2099\n}\n", "d.tf": "language {\n  edition = tofu2000\n}\n"},
			want: []wantDiag{
				{"Invalid language edition", `The "edition" argument expects a bare language edition keyword. OpenTofu 1.12.6 supports only language edition tofu2024, which is the default.`, "a.tf:2,13-23"},
				{"Unsupported language edition", `OpenTofu v1.12.6 does not support language edition "tofu2024". This module may be intended for use with other software.`, "b.tf:2,13-19"},
				{"Unsupported language edition", "OpenTofu v1.12.6 only supports language edition tofu2024. This module requires a newer version of OpenTofu CLI.", "c.tf:2,13-21"},
				{"Unsupported language edition", "OpenTofu v1.12.6 only supports language edition tofu2024. This module requires a different version of OpenTofu CLI.", "d.tf:2,13-21"},
			},
		},
		{
			name:  "experiments",
			d:     dialect.Tofu,
			files: map[string]string{"main.tf": "language {\n  experiments = [foo, \"bar\"]\n}\n"},
			want: []wantDiag{
				{"Unknown experiment keyword", `There is no current experiment with the keyword "foo".`, "main.tf:2,18-21"},
				{"Invalid experiment keyword", `Elements of "experiments" must all be keywords representing active experiments.`, "main.tf:2,23-28"},
			},
		},
		{
			name:  "two constraints for OpenTofu, one admitting versions before the block existed",
			d:     dialect.Tofu,
			files: map[string]string{"main.tf": "language {\n  compatible_with {\n    opentofu = \">= 1.0\"\n  }\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n"},
			want: []wantDiag{
				{"Duplicate compatible_with block", "Each language block may have at most one compatible_with block referring to OpenTofu. The OpenTofu version constraint was already declared at main.tf:3,5-24.", "main.tf:1,1-9"},
			},
			warnings: []string{"Ineffective version constraint"},
		},
		{
			name:  "constraints that do not decode, or name a prerelease",
			d:     dialect.Tofu,
			files: map[string]string{"a.tf": "language {\n  compatible_with {\n    opentofu = \"soon\"\n  }\n}\n", "b.tf": "language {\n  compatible_with {\n    opentofu = \">= 1.12.0-beta1\"\n  }\n}\n"},
			want: []wantDiag{
				// Read once before the file is decoded, once with the block.
				{"Invalid version constraint", "This string does not use correct version constraint syntax.", "a.tf:3,16-22"},
				{"Invalid version constraint", "This string does not use correct version constraint syntax.", "a.tf:3,16-22"},
				{"Invalid required_version constraint", "Prerelease version constraints are not supported: >= 1.12.0-beta1. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.", "b.tf:3,5-33"},
			},
		},
		{
			name:  "in an override file",
			d:     dialect.Tofu,
			files: map[string]string{"main.tf": "output \"o\" { value = 1 }\n", "main_override.tf": "language {\n  edition = tofu2024\n}\n"},
			want:  []wantDiag{{"Language selections in override file", `Language-related settings in "language" blocks are not allowed in override files. Place these settings in a normal configuration file.`, "main_override.tf:1,1-9"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadFiles(t, tc.d, tc.files)
			checkDiags(t, diags, tc.want)
			var warnings []string
			for _, d := range diags {
				if d.Severity == hcl.DiagWarning {
					warnings = append(warnings, d.Summary)
				}
			}
			if len(warnings) != len(tc.warnings) || (len(warnings) > 0 && warnings[0] != tc.warnings[0]) {
				t.Errorf("warnings %v, want %v", warnings, tc.warnings)
			}
		})
	}
}
