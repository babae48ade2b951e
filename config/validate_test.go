package config

import (
	"testing"

	"github.com/tfeval/tfeval/dialect"
)

func TestStaticValidation(t *testing.T) {
	tests := []struct {
		name    string
		dialect dialect.Dialect
		files   map[string]string
		want    []wantDiag
	}{
		{
			name:  "duplicate variable",
			files: map[string]string{"main.tf": "variable \"a\" {}\n", "b.tf": "variable \"a\" {}\n"},
			want: []wantDiag{{"Duplicate variable declaration",
				`A variable named "a" was already declared at b.tf:1,1-13. Variable names must be unique within a module.`, "main.tf:1,1-13"}},
		},
		{
			name: "destroy provisioner refers to another object",
			files: map[string]string{"main.tf": `resource "t" "a" {
  count = 1
  provisioner "local-exec" {
    when    = destroy
    command = "${self.id} ${count.index} ${path.module} ${var.x}"
    connection {
      host = local.h
    }
  }
  provisioner "local-exec" {
    command = var.x
  }
}
`},
			want: []wantDiag{
				{"Invalid reference from destroy provisioner", "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.", "main.tf:5,15-66"},
				{"Invalid reference from destroy provisioner", "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.", "main.tf:7,14-21"},
			},
		},
		{
			name:  "duplicate local",
			files: map[string]string{"main.tf": "locals {\n  a = 1\n}\nlocals {\n  a = 2\n}\n"},
			want: []wantDiag{{"Duplicate local value definition",
				`A local value named "a" was already defined at main.tf:2,3-8. Local value names must be unique within a module.`, "main.tf:5,3-8"}},
		},
		{
			name:  "duplicate output",
			files: map[string]string{"main.tf": "output \"o\" { value = 1 }\noutput \"o\" { value = 2 }\n"},
			want: []wantDiag{{"Duplicate output definition",
				`An output named "o" was already defined at main.tf:1,1-11. Output names must be unique within a module.`, "main.tf:2,1-11"}},
		},
		{
			name:  "duplicate module call",
			files: map[string]string{"main.tf": "module \"m\" { source = \"./m\" }\nmodule \"m\" { source = \"./m\" }\n", "m/x.tf": ""},
			want: []wantDiag{{"Duplicate module call",
				`A module call named "m" was already defined at main.tf:1,1-11. Module calls must have unique names within a module.`, "main.tf:2,1-11"}},
		},
		{
			name:  "duplicate resource",
			files: map[string]string{"main.tf": "resource \"t\" \"a\" {}\nresource \"t\" \"a\" {}\n"},
			want: []wantDiag{{`Duplicate resource "t" configuration`,
				`A t resource named "a" was already declared at main.tf:1,1-17. Resource names must be unique per type in each module.`, "main.tf:2,1-17"}},
		},
		{
			name:  "duplicate data resource, one scoped in a check",
			files: map[string]string{"main.tf": "data \"t\" \"a\" {}\ncheck \"c\" {\n  data \"t\" \"a\" {}\n  assert {\n    condition = true\n    error_message = \"x\"\n  }\n}\n"},
			want: []wantDiag{{`Duplicate data "t" configuration`,
				`A t data resource named "a" was already declared at main.tf:1,1-13. Resource names must be unique per type in each module.`, "main.tf:3,3-15"}},
		},
		{
			name:  "duplicate provider",
			files: map[string]string{"main.tf": "provider \"p\" {}\nprovider \"p\" {}\nprovider \"p\" {\n  alias = \"x\"\n}\nprovider \"p\" {\n  alias = \"x\"\n}\n"},
			want: []wantDiag{
				{"Duplicate provider configuration", `A default (non-aliased) provider configuration for "p" was already given at main.tf:1,1-13. If multiple configurations are required, set the "alias" argument for alternative configurations.`, "main.tf:2,1-13"},
				{"Duplicate provider configuration", `A provider configuration for "p" with alias "x" was already given at main.tf:3,1-13. Each configuration for the same provider must have a distinct alias.`, "main.tf:6,1-13"},
			},
		},
		{
			name:  "reserved variable name",
			files: map[string]string{"main.tf": "variable \"count\" {}\n"},
			want: []wantDiag{{"Invalid variable name",
				`The variable name "count" is reserved due to its special meaning inside module blocks.`, "main.tf:1,10-17"}},
		},
		{
			name:    "reserved variable name in tofu",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "variable \"providers\" {}\nvariable \"ignore_nested_deprecations\" {}\n"},
			want:    []wantDiag{{"Invalid variable name", `The variable name "providers" is reserved due to its special meaning inside module blocks.`, "main.tf:1,10-21"}},
		},
		{
			name:  "invalid names",
			files: map[string]string{"main.tf": "variable \"1a\" {}\noutput \"b c\" { value = 1 }\nresource \"t\" \"9\" {}\nmodule \"-m\" { source = \"./m\" }\n", "m/x.tf": ""},
			want: []wantDiag{
				{"Invalid variable name", badIdentifierDetail, "main.tf:1,10-14"},
				{"Invalid output name", badIdentifierDetail, "main.tf:2,8-13"},
				{"Invalid resource name", badIdentifierDetail, "main.tf:3,14-17"},
				{"Invalid module instance name", badIdentifierDetail, "main.tf:4,8-12"},
			},
		},
		{
			name:  "count and for_each",
			files: map[string]string{"main.tf": "resource \"t\" \"a\" {\n  count = 1\n  for_each = {}\n}\n"},
			want: []wantDiag{{`Invalid combination of "count" and "for_each"`,
				`The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.`, "main.tf:3,3-11"}},
		},
		{
			name:    "count and for_each in a module call, tofu",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n  count = 1\n  for_each = {}\n}\n", "m/x.tf": ""},
			want: []wantDiag{{`Invalid combination of "count" and "for_each"`,
				`The "count" and "for_each" meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of module instances to be created.`, "main.tf:3,3-4,11"}},
		},
		{
			name:    "count and for_each of a data source, tofu",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "data \"t\" \"a\" {\n  for_each = {}\n  count = 1\n}\n"},
			want: []wantDiag{{`Invalid combination of "count" and "for_each"`,
				`The "count" and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of data sources to be created.`, "main.tf:2,3-3,8"}},
		},
		{
			name:    "count and lifecycle enabled, tofu",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "resource \"t\" \"a\" {\n  count = 1\n  lifecycle {\n    enabled = true\n  }\n}\n"},
			want: []wantDiag{{`Invalid combination of "count" and "enabled"`,
				`The "count" and "enabled" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of resources to be created.`, "main.tf:2,3-4,12"}},
		},
		{
			name:    "lifecycle enabled, for_each and count in a module call, tofu",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n  lifecycle {\n    enabled = true\n  }\n  for_each = {}\n  count = 1\n}\n", "m/x.tf": ""},
			want: []wantDiag{{`Invalid combination of "count", "enabled", and "for_each"`,
				`The "count", "enabled", and "for_each" meta-arguments are mutually-exclusive. Only one should be used to be explicit about the number of module instances to be created.`, "main.tf:4,5-7,8"}},
		},
		{
			name:    "for_each and lifecycle enabled of an ephemeral resource, tofu",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "ephemeral \"t\" \"a\" {\n  for_each = {}\n  lifecycle {\n    enabled = false\n  }\n}\n"},
			want: []wantDiag{{`Invalid combination of "enabled" and "for_each"`,
				`The "enabled" and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of ephemeral resources to be created.`, "main.tf:2,3-4,12"}},
		},
		{
			name:  "non-literal lifecycle",
			files: map[string]string{"main.tf": "resource \"t\" \"a\" {\n  lifecycle {\n    prevent_destroy = var.x\n  }\n}\n"},
			// gohcl reports both the reference and the resulting unknown value, as in Terraform.
			want: []wantDiag{{"Variables not allowed", "Variables may not be used here.", "main.tf:3,23-26"},
				{"Unsuitable value type", "Unsuitable value: value must be known", "main.tf:3,23-28"}},
		},
		{
			name:  "depends_on to an attribute",
			files: map[string]string{"main.tf": "resource \"t\" \"a\" {}\nresource \"t\" \"b\" {\n  depends_on = [t.a.id]\n}\n"},
			want: []wantDiag{{"Invalid depends_on reference",
				"References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.", "main.tf:3,20-23"}},
		},
		{
			// A quoted template is read as a quoted reference, as Terraform
			// does (v1.11.4): "t.1" is then a dot without a name.
			name:  "depends_on not a reference",
			files: map[string]string{"main.tf": "resource \"t\" \"b\" {\n  depends_on = [\"t.${1}\"]\n}\n"},
			want:  []wantDiag{{"Attribute name required", "Dot must be followed by attribute name.", "main.tf:2,20-21"}},
		},
		{
			name:  "provider reference too long",
			files: map[string]string{"main.tf": "resource \"t\" \"b\" {\n  provider = p.a.b\n}\n"},
			want: []wantDiag{{"Invalid provider configuration reference",
				"The provider argument requires a provider type name, optionally followed by a period and then a configuration alias.", "main.tf:2,14-19"}},
		},
		{
			name:  "quoted type",
			files: map[string]string{"main.tf": "variable \"a\" {\n  type = \"string\"\n}\n"},
			want:  []wantDiag{{"Invalid quoted type constraints", "", "main.tf:2,10-18"}},
		},
		{
			name:  "legacy type hint",
			files: map[string]string{"main.tf": "variable \"a\" {\n  type = \"list(string)\"\n}\n"},
			want:  []wantDiag{{"Invalid legacy variable type hint", "", "main.tf:2,10-24"}},
		},
		{
			name:  "default of the wrong type, nested path",
			files: map[string]string{"main.tf": "variable \"a\" {\n  type = object({x = list(number)})\n  default = {x = [1, \"b\"]}\n}\n"},
			want: []wantDiag{{"Invalid default value for variable",
				`This default value is not compatible with the variable's type constraint: .x[1]: a number is required.`, "main.tf:3,13-27"}},
		},
		{
			name:  "null default with nullable=false",
			files: map[string]string{"main.tf": "variable \"a\" {\n  nullable = false\n  default = null\n}\n"},
			want:  []wantDiag{{"Invalid default value for variable", "A null default value is not valid when nullable=false.", "main.tf:3,13-17"}},
		},
		{
			name:  "validation without self reference",
			files: map[string]string{"main.tf": "variable \"a\" {\n  validation {\n    condition = local.x > 1\n    error_message = \"no\"\n  }\n}\n"},
			want: []wantDiag{{"Invalid variable validation condition",
				`The condition for variable "a" must refer to var.a in order to test incoming values.`, "main.tf:3,17-28"}},
		},
		{
			name:  "validation with cross reference is fine",
			files: map[string]string{"main.tf": "variable \"a\" {\n  validation {\n    condition = var.a > local.x\n    error_message = \"no\"\n  }\n}\n"},
		},
		{
			name:  "optional default of wrong type",
			files: map[string]string{"main.tf": "variable \"a\" {\n  type = object({x = optional(number, \"n\")})\n}\n"},
			want: []wantDiag{{"Invalid default value for optional attribute",
				"This default value is not compatible with the attribute's type constraint: a number is required.", ""}},
		},
		{
			name:  "output postcondition",
			files: map[string]string{"main.tf": "output \"o\" {\n  value = 1\n  postcondition {\n    condition = true\n    error_message = \"x\"\n  }\n}\n"},
			want:  []wantDiag{{"Postconditions are not allowed", "Output values can only have preconditions, not postconditions.", "main.tf:3,3-16"}},
		},
		{
			name:    "output type is Terraform only",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "output \"o\" {\n  value = 1\n  type = number\n}\n"},
			want:    []wantDiag{{"Unsupported argument", "", "main.tf:3,3-7"}},
		},
		{
			name:  "data lifecycle argument",
			files: map[string]string{"main.tf": "data \"t\" \"a\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n"},
			want: []wantDiag{{"Invalid data resource lifecycle argument",
				`The lifecycle argument "prevent_destroy" is defined only for managed resources ("resource" blocks), and is not valid for data resources.`, "main.tf:3,5-20"}},
		},
		{
			name:  "provisioner keywords",
			files: map[string]string{"main.tf": "resource \"t\" \"a\" {\n  provisioner \"local-exec\" {\n    when = later\n    on_failure = shrug\n  }\n}\n"},
			want: []wantDiag{
				{`Invalid "when" keyword`, `The "when" argument requires one of the following keywords: create or destroy.`, "main.tf:3,12-17"},
				{`Invalid "on_failure" keyword`, `The "on_failure" argument requires one of the following keywords: continue or fail.`, "main.tf:4,18-23"},
			},
		},
		{
			name: "removed block provisioners",
			files: map[string]string{"main.tf": "removed {\n  from = x.gone\n  lifecycle {\n    destroy = true\n  }\n" +
				"  provisioner \"local-exec\" {\n    when = destroy\n    command = \"a\"\n  }\n" +
				"  provisioner \"local-exec\" {\n    command = \"b\"\n  }\n" +
				"  provisioner \"local-exec\" {\n    when = \"create\"\n    command = \"c\"\n  }\n}\n"},
			want: []wantDiag{
				{"Invalid provisioner block", "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a destroy-time provisioner, use:\n    when = destroy", "main.tf:10,3-27"},
				{"Invalid provisioner block", "", "main.tf:13,3-27"},
			},
		},
		{
			name:    "removed block provisioners are not checked for OpenTofu",
			dialect: dialect.Tofu,
			files:   map[string]string{"main.tf": "removed {\n  from = x.gone\n  provisioner \"local-exec\" {\n    command = \"b\"\n  }\n}\n"},
		},
		{
			name:  "check without assert",
			files: map[string]string{"main.tf": "check \"c\" {\n}\n"},
			want:  []wantDiag{{"Zero assert blocks", "Check blocks must have at least one assert block.", "main.tf:1,1-10"}},
		},
		{
			name:  "unknown top-level block",
			files: map[string]string{"main.tf": "resourse \"t\" \"a\" {}\n"},
			want:  []wantDiag{{"Unsupported block type", "", "main.tf:1,1-9"}},
		},
		{
			name:  "duplicate backend",
			files: map[string]string{"main.tf": "terraform {\n  backend \"local\" {}\n}\nterraform {\n  backend \"s3\" {}\n}\n"},
			want: []wantDiag{{"Duplicate backend configuration",
				"A module may have only one backend configuration. The backend was previously configured at main.tf:2,3-18.", "main.tf:5,3-15"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadFiles(t, tc.dialect, tc.files)
			checkDiags(t, diags, tc.want)
		})
	}
}
