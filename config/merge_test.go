package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"
)

func TestOverrideErrors(t *testing.T) {
	tests := []struct {
		name    string
		dialect dialect.Dialect
		files   map[string]string
		want    []wantDiag
	}{
		{
			name: "default overridden with the wrong type",
			files: map[string]string{
				"main.tf":     "variable \"x\" {\n  type = number\n  default = 5\n}\n",
				"override.tf": "variable \"x\" {\n  default = \"nan\"\n}\n",
			},
			want: []wantDiag{{"Invalid default value for variable",
				"The overridden default value for this variable is not compatible with the variable's type constraint: a number is required.", "override.tf:1,1-13"}},
		},
		{
			name: "type overridden under an incompatible default",
			files: map[string]string{
				"main.tf":     "variable \"x\" {\n  default = \"abc\"\n}\n",
				"override.tf": "variable \"x\" {\n  type = number\n}\n",
			},
			want: []wantDiag{{"Invalid default value for variable",
				"Overriding this variable's type constraint has made its default value invalid: a number is required.", "override.tf:1,1-13"}},
		},
		{
			name: "type and default both overridden",
			files: map[string]string{
				"main.tf":     "variable \"x\" {\n  default = \"abc\"\n}\n",
				"override.tf": "variable \"x\" {\n  type = list(number)\n  default = {a = 1}\n}\n",
			},
			want: []wantDiag{
				{"Invalid default value for variable", "This default value is not compatible with the variable's type constraint: list of number required.", "override.tf:3,13-20"},
			},
		},
		{
			name: "nullable=false overridden under a null default",
			files: map[string]string{
				"main.tf":     "variable \"x\" {\n  default = null\n}\n",
				"override.tf": "variable \"x\" {\n  nullable = false\n}\n",
			},
			want: []wantDiag{{"Invalid default value for variable", "A null default value is not valid when nullable=false.", "override.tf:1,1-13"}},
		},
		{
			name: "depends_on on an output",
			files: map[string]string{
				"main.tf":     "resource \"t\" \"a\" {}\noutput \"o\" { value = 1 }\n",
				"override.tf": "output \"o\" {\n  depends_on = [t.a]\n}\n",
			},
			want: []wantDiag{{"Unsupported override", "The depends_on argument may not be overridden.", "override.tf:2,17-20"}},
		},
		{
			name: "depends_on on a resource and a module call",
			files: map[string]string{
				"main.tf":     "resource \"t\" \"a\" {}\nresource \"t\" \"b\" {}\nmodule \"m\" { source = \"./m\" }\n",
				"m/main.tf":   "",
				"override.tf": "resource \"t\" \"b\" {\n  depends_on = [t.a]\n}\nmodule \"m\" {\n  depends_on = [t.a]\n}\n",
			},
			want: []wantDiag{
				{"Unsupported override", "The depends_on argument may not be overridden.", "override.tf:5,17-20"},
				{"Unsupported override", "The depends_on argument may not be overridden.", "override.tf:2,17-20"},
			},
		},
		{
			name: "missing bases",
			files: map[string]string{
				"main.tf": "",
				"x_override.tf": "variable \"v\" {}\nlocals {\n  l = 1\n}\noutput \"o\" {}\nmodule \"m\" {}\nresource \"t\" \"r\" {}\ndata \"t\" \"d\" {}\n" +
					"provider \"p\" {\n  alias = \"a\"\n}\nprovider \"q\" {}\nmoved {\n  from = t.a\n  to = t.b\n}\nimport {\n  to = t.a\n  id = \"x\"\n}\nephemeral \"t\" \"e\" {}\n",
			},
			want: []wantDiag{
				{"Missing base provider configuration for override", `There is no p provider configuration with the alias "a". An override file can only override an aliased provider configuration that was already defined in a primary configuration file.`, "x_override.tf:9,1-13"},
				{"Missing base variable declaration to override", `There is no variable named "v". An override file can only override a variable that was already declared in a primary configuration file.`, "x_override.tf:1,1-13"},
				{"Missing base local value definition to override", `There is no local value named "l". An override file can only override a local value that was defined in a primary configuration file.`, "x_override.tf:3,3-8"},
				{"Missing base output definition to override", `There is no output named "o". An override file can only override an output that was defined in a primary configuration file.`, "x_override.tf:5,1-11"},
				{"Missing module call to override", `There is no module call named "m". An override file can only override a module call that was defined in a primary configuration file.`, "x_override.tf:6,1-11"},
				{"Missing resource to override", `There is no t resource named "r". An override file can only override a resource block defined in a primary configuration file.`, "x_override.tf:7,1-17"},
				{"Missing data resource to override", `There is no t data resource named "d". An override file can only override a data block defined in a primary configuration file.`, "x_override.tf:8,1-13"},
				{"Cannot override 'moved' blocks", "Records of moved objects can appear only in normal files, not in override files.", "x_override.tf:13,1-6"},
				{"Cannot override 'import' blocks", "Import blocks can appear only in normal files, not in override files.", "x_override.tf:17,1-7"},
			},
		},
		{
			name:    "tofu merges ephemeral and rejects removed",
			dialect: dialect.Tofu,
			files: map[string]string{
				"main.tf":     "",
				"override.tf": "ephemeral \"t\" \"e\" {}\nremoved {\n  from = t.a\n}\n",
			},
			want: []wantDiag{
				{"Missing ephemeral resource to override", "", "override.tf:1,1-18"},
				{"Cannot override 'Removed' blocks", "", "override.tf:2,1-8"},
			},
		},
		{
			name: "two backends in one override file",
			files: map[string]string{
				"main.tf":     "terraform {\n  backend \"local\" {}\n}\n",
				"override.tf": "terraform {\n  backend \"s3\" {}\n  backend \"gcs\" {}\n}\n",
			},
			want: []wantDiag{{"Duplicate backend configuration", "", "override.tf:3,3-16"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadFiles(t, tc.dialect, tc.files)
			checkDiags(t, diags, tc.want)
		})
	}
}

// attrValue evaluates a constant attribute of a body.
func attrValue(t *testing.T, body hcl.Body, name string) cty.Value {
	t.Helper()
	attrs, diags := body.JustAttributes()
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	attr, ok := attrs[name]
	if !ok {
		return cty.NilVal
	}
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return v
}

func exprValue(t *testing.T, expr hcl.Expression) cty.Value {
	t.Helper()
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return v
}

func TestOverrideMerge(t *testing.T) {
	cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{
		"main.tf": `
terraform {
  required_version = ">= 1.0"
  required_providers {
    p = { source = "a/p", version = "1.0" }
    q = { source = "a/q" }
  }
  backend "local" {}
}
variable "v" {
  type        = string
  default     = "base"
  description = "base description"
  sensitive   = true
  validation {
    condition     = var.v != ""
    error_message = "empty"
  }
}
variable "obj" {
  type    = object({ a = optional(string, "da") })
  default = {}
}
locals {
  a = "base-a"
  b = "base-b"
}
output "o" {
  value       = "base"
  description = "base output"
  sensitive   = true
}
provider "p" {
  region = "base"
  other  = "kept"
}
module "m" {
  source = "./m"
  in     = "base"
  keep   = "kept"
  providers = { p = p }
}
resource "t" "r" {
  count = 1
  attr  = "base"
  keep  = "kept"
  nested { v = "base1" }
  nested { v = "base2" }
  other  { v = "kept" }
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [attr]
  }
  connection { host = "base" }
  provisioner "local-exec" { command = "base" }
}
data "t" "d" {
  attr = "base"
}
`,
		"m/main.tf": "variable \"in\" {}\nvariable \"keep\" {}\nvariable \"extra\" { default = 1 }\n",
		"override.tf": `
terraform {
  required_version = ">= 2.0"
  required_providers {
    p = { source = "b/p" }
  }
  cloud {}
}
variable "v" {
  default = "over"
}
variable "obj" {
  default = { a = null }
}
locals {
  b = "over-b"
}
output "o" {
  value = "over"
}
provider "p" {
  region = "over"
}
provider "new" {}
module "m" {
  in    = "over"
  extra = 2
  count = 2
}
resource "t" "r" {
  for_each = {}
  attr     = "over"
  dynamic "nested" {
    for_each = ["d"]
    content { v = nested.value }
  }
  lifecycle {
    prevent_destroy = true
  }
  provisioner "remote-exec" { inline = [] }
}
data "t" "d" {
  attr = "over"
}
`,
		"z_override.tf": `
locals {
  b = "z-b"
}
resource "t" "r" {
  lifecycle {
    ignore_changes = all
  }
  connection { host = "z" }
}
`,
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m := cfg.Module

	if len(m.RequiredVersion) != 1 || exprValue(t, m.RequiredVersion[0]).AsString() != ">= 2.0" {
		t.Errorf("required_version not replaced: %v", m.RequiredVersion)
	}
	if rp := m.RequiredProviders["p"]; rp.Source != "b/p" || rp.Version != "" {
		t.Errorf("required provider p = %+v, want the override entry", rp)
	}
	if rp := m.RequiredProviders["q"]; rp == nil || rp.Source != "a/q" {
		t.Errorf("required provider q lost: %+v", rp)
	}
	if m.Backend == nil || !m.Backend.Cloud {
		t.Errorf("backend = %+v, want the cloud block", m.Backend)
	}

	v := m.Variables["v"]
	if !v.Default.RawEquals(cty.StringVal("over")) || v.Description != "base description" || !v.Sensitive || len(v.Validations) != 1 || !v.Type.Equals(cty.String) {
		t.Errorf("variable v = %+v", v)
	}
	// The base type's optional-attribute defaults still apply to an overridden default.
	if got := m.Variables["obj"].Default; !got.RawEquals(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("da")})) {
		t.Errorf("variable obj default = %#v", got)
	}

	if got := exprValue(t, m.Locals["a"].Expr); got.AsString() != "base-a" {
		t.Errorf("local a = %#v", got)
	}
	if got := exprValue(t, m.Locals["b"].Expr); got.AsString() != "z-b" {
		t.Errorf("local b = %#v, want the last override", got)
	}
	if m.Locals["b"].DeclRange.Filename != "z_override.tf" {
		t.Errorf("local b range = %s", m.Locals["b"].DeclRange)
	}

	o := m.Outputs["o"]
	if exprValue(t, o.Expr).AsString() != "over" || o.Description != "base output" || !o.Sensitive {
		t.Errorf("output o = %+v", o)
	}

	if got := attrValue(t, m.ProviderConfigs["p"].Config, "region"); got.AsString() != "over" {
		t.Errorf("provider p region = %#v", got)
	}
	if got := attrValue(t, m.ProviderConfigs["p"].Config, "other"); got.AsString() != "kept" {
		t.Errorf("provider p other = %#v", got)
	}
	if m.ProviderConfigs["new"] == nil {
		t.Errorf("non-aliased provider in an override file was not added")
	}

	mc := m.ModuleCalls["m"]
	if mc.SourceAddr != "./m" || mc.Count == nil || len(mc.Providers) != 1 {
		t.Errorf("module call = %+v", mc)
	}
	if got := attrValue(t, mc.Config, "in"); got.AsString() != "over" {
		t.Errorf("module input in = %#v", got)
	}
	if got := attrValue(t, mc.Config, "keep"); got.AsString() != "kept" {
		t.Errorf("module input keep = %#v", got)
	}

	r := m.ManagedResources["t.r"]
	if r.Count == nil || r.ForEach == nil {
		t.Errorf("count/for_each: %v %v", r.Count, r.ForEach)
	}
	mr := r.Managed
	if !mr.CreateBeforeDestroy || !mr.PreventDestroy || !mr.IgnoreAllChanges || len(mr.IgnoreChanges) != 1 {
		t.Errorf("lifecycle = %+v", mr)
	}
	if got := attrValue(t, mr.Connection.Config, "host"); got.AsString() != "z" {
		t.Errorf("connection host = %#v", got)
	}
	if len(mr.Provisioners) != 1 || mr.Provisioners[0].Type != "remote-exec" {
		t.Errorf("provisioners = %+v", mr.Provisioners)
	}
	content, _, diags := r.Config.PartialContent(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "attr"}, {Name: "keep"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "nested"}, {Type: "other"}, {Type: "dynamic", LabelNames: []string{"type"}},
		},
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := exprValue(t, content.Attributes["attr"].Expr); got.AsString() != "over" {
		t.Errorf("attr = %#v", got)
	}
	var types []string
	for _, b := range content.Blocks {
		types = append(types, b.Type)
	}
	if len(types) != 2 || types[0] != "other" || types[1] != "dynamic" {
		t.Errorf("blocks = %v, want [other dynamic]", types)
	}
	if got := attrValue(t, m.DataResources["data.t.d"].Config, "attr"); got.AsString() != "over" {
		t.Errorf("data attr = %#v", got)
	}

	// The merged module call is checked against the child's variables.
	if _, ok := cfg.Children["m"]; !ok {
		t.Errorf("child module not loaded")
	}
}
