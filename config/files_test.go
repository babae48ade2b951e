package config

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/tfeval/tfeval/dialect"
	"github.com/zclconf/go-cty/cty"
)

func TestModuleFiles(t *testing.T) {
	files := map[string]string{
		"b.tf":               "",
		"a.tf.json":          "{}",
		"main.tf":            "",
		"main.tofu":          "",
		"x.tf.json":          "{}",
		"x.tofu.json":        "{}",
		"override.tf":        "",
		"a_override.tf.json": "{}",
		"z_override.tofu":    "",
		".hidden.tf":         "",
		"backup.tf~":         "",
		"#emacs.tf#":         "",
		"notes.txt":          "",
		"vars.tfvars":        "",
		"test.tftest.hcl":    "",
	}
	tests := []struct {
		dialect dialect.Dialect
		want    []string
	}{
		{dialect.Terraform, []string{"a.tf.json", "b.tf", "main.tf", "x.tf.json", "a_override.tf.json", "override.tf"}},
		{dialect.Tofu, []string{"a.tf.json", "b.tf", "main.tofu", "x.tofu.json", "a_override.tf.json", "override.tf", "z_override.tofu"}},
	}
	for _, tc := range tests {
		t.Run(tc.dialect.String(), func(t *testing.T) {
			cfg, diags := loadFiles(t, tc.dialect, files)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !reflect.DeepEqual(cfg.Module.Files, tc.want) {
				t.Errorf("files = %q, want %q", cfg.Module.Files, tc.want)
			}
		})
	}
}

func TestTofuShadowing(t *testing.T) {
	files := map[string]string{
		"main.tf":   "locals {\n  who = \"tf\"\n  only_tf = 1\n}\n",
		"main.tofu": "locals {\n  who = \"tofu\"\n}\n",
	}
	cfg, diags := loadFiles(t, dialect.Tofu, files)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, ok := cfg.Module.Locals["only_tf"]; ok || exprValue(t, cfg.Module.Locals["who"].Expr).AsString() != "tofu" {
		t.Errorf("main.tofu did not shadow main.tf: %v", cfg.Module.Locals)
	}
	cfg, diags = loadFiles(t, dialect.Terraform, files)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if exprValue(t, cfg.Module.Locals["who"].Expr).AsString() != "tf" {
		t.Errorf("terraform read a .tofu file")
	}
}

func TestDecodeJSON(t *testing.T) {
	cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{"main.tf.json": `{
  "variable": {"v": {"type": "list(string)", "default": ["a"]}, "m": {"type": "map"}},
  "locals": {"l": "${var.v[0]}"},
  "output": {"o": {"value": "${local.l}", "depends_on": ["terraform_data.r"]}},
  "resource": {"terraform_data": {"r": {"count": 2, "input": "x", "lifecycle": {"ignore_changes": ["input"]}}}},
  "module": {"m": {"source": "./m", "providers": {"p": "p.a"}}},
  "provider": {"p": {"alias": "a"}}
}`, "m/main.tf": ""})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m := cfg.Module
	if v := m.Variables["v"]; v.ParsingMode != VariableParseHCL || !v.Default.Type().IsListType() {
		t.Errorf("variable v = %+v", v)
	}
	if v := m.Variables["m"]; !v.Type.IsMapType() {
		t.Errorf("variable m type = %#v", v.Type)
	}
	if o := m.Outputs["o"]; len(o.DependsOn) != 1 || o.DependsOn[0].RootName() != "terraform_data" {
		t.Errorf("output depends_on = %v", o.DependsOn)
	}
	r := m.ManagedResources["terraform_data.r"]
	if r.Count == nil || len(r.Managed.IgnoreChanges) != 1 {
		t.Errorf("resource = %+v", r)
	}
	attrs, aDiags := r.Config.JustAttributes()
	if aDiags.HasErrors() || len(attrs) != 1 || attrs["input"] == nil {
		t.Errorf("resource config = %v %s (want only input)", attrs, aDiags)
	}
	if p := m.ModuleCalls["m"].Providers; len(p) != 1 || p[0].InParent.Alias != "a" {
		t.Errorf("providers = %+v", p)
	}
}

func TestDecodeBlocks(t *testing.T) {
	cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{"main.tf": `
terraform {
  required_version = "~> 1.5"
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      version               = ">= 5"
      configuration_aliases = [aws.east]
    }
    legacy = "1.0"
  }
}
variable "s" {
  type      = string
  sensitive = true
  nullable  = false
  default   = "x"
}
variable "any" {}
variable "obj" {
  type = object({ a = optional(number, 1) })
}
resource "aws_instance" "web" {
  for_each   = toset(["a"])
  provider   = aws.east
  depends_on = [data.aws_ami.x, module.m.out, var.s]
  ami        = "x"
  dynamic "ebs" {
    for_each = []
    content {}
  }
  lifecycle {
    replace_triggered_by = [aws_instance.other.id]
    precondition {
      condition     = var.s != ""
      error_message = "pre"
    }
    postcondition {
      condition     = self.ami != ""
      error_message = "post"
    }
  }
  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "x"
    connection { host = "h" }
  }
}
ephemeral "aws_token" "t" {}
check "health" {
  data "http" "probe" { url = "x" }
  assert {
    condition     = data.http.probe.status == 200
    error_message = "down"
  }
}
moved {
  from = aws_instance.old
  to   = aws_instance.web
}
import {
  to = aws_instance.web["a"]
  id = "i-1"
}
removed {
  from = aws_instance.gone
}
`})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m := cfg.Module
	if rp := m.RequiredProviders["aws"]; rp.Source != "hashicorp/aws" || rp.Version != ">= 5" || len(rp.ConfigurationAliases) != 1 || rp.ConfigurationAliases[0].Alias != "east" {
		t.Errorf("required provider aws = %+v", rp)
	}
	if rp := m.RequiredProviders["legacy"]; rp.Version != "1.0" {
		t.Errorf("legacy required provider = %+v", rp)
	}
	if v := m.Variables["s"]; !v.Sensitive || v.Nullable || !v.NullableSet || v.ParsingMode != VariableParseLiteral {
		t.Errorf("variable s = %+v", v)
	}
	if v := m.Variables["any"]; !v.Required() || v.Type != cty.DynamicPseudoType || v.ParsingMode != VariableParseLiteral || !v.Nullable {
		t.Errorf("variable any = %+v", v)
	}
	if v := m.Variables["obj"]; v.TypeDefaults == nil || v.Type.HasDynamicTypes() || !v.ConstraintType.AttributeOptional("a") || v.Type.AttributeOptional("a") {
		t.Errorf("variable obj = %+v", v)
	}
	r := m.ManagedResources["aws_instance.web"]
	if r.ProviderRef == nil || r.ProviderRef.Name != "aws" || r.ProviderRef.Alias != "east" {
		t.Errorf("provider ref = %+v", r.ProviderRef)
	}
	if len(r.DependsOn) != 3 || len(r.Preconditions) != 1 || len(r.Postconditions) != 1 || len(r.Managed.ReplaceTriggeredBy) != 1 {
		t.Errorf("resource = %+v", r)
	}
	p := r.Managed.Provisioners[0]
	if p.When != "destroy" || p.OnFailure != "continue" || p.Connection == nil {
		t.Errorf("provisioner = %+v", p)
	}
	content, _, cDiags := r.Config.PartialContent(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "ami"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}},
	})
	if cDiags.HasErrors() || len(content.Blocks) != 1 {
		t.Errorf("config without meta-arguments = %+v %s", content, cDiags)
	}
	if _, jDiags := r.Config.JustAttributes(); !jDiags.HasErrors() {
		t.Errorf("JustAttributes should see the nested dynamic block")
	}
	if m.EphemeralResources["ephemeral.aws_token.t"] == nil {
		t.Errorf("ephemeral resource missing")
	}
	c := m.Checks["health"]
	if c == nil || c.DataResource == nil || c.DataResource.Check != "health" || m.DataResources["data.http.probe"] != c.DataResource || len(c.Asserts) != 1 {
		t.Errorf("check = %+v", c)
	}
	if len(m.Moved) != 1 || len(m.Import) != 1 || len(m.Removed) != 1 {
		t.Errorf("moved/import/removed = %d/%d/%d", len(m.Moved), len(m.Import), len(m.Removed))
	}
}

// TestLongHeredoc checks that a configuration file holding a heredoc of
// thousands of lines (a Kubernetes manifest written inline) loads, as
// Terraform loads it, and that the heredoc keeps its text and its range.
func TestLongHeredoc(t *testing.T) {
	var manifest, want strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&manifest, "    - name: item-%d\n      image: ${var.image}\n", i)
		fmt.Fprintf(&want, "- name: item-%d\n  image: app:1\n", i)
	}
	src := "locals {\n  manifest = <<-EOT\n" + manifest.String() + "    EOT\n  after = 1\n}\n"
	cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{"main.tf": src})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	expr := cfg.Module.Locals["manifest"].Expr
	got, diags := expr.Value(&hcl.EvalContext{Variables: map[string]cty.Value{
		"var": cty.ObjectVal(map[string]cty.Value{"image": cty.StringVal("app:1")}),
	}})
	if diags.HasErrors() || !got.RawEquals(cty.StringVal(want.String())) {
		t.Errorf("the heredoc's value differs (%v)", diags)
	}
	if end := expr.Range().End; end.Line != 12003 || end.Column != 8 {
		t.Errorf("the heredoc ends at %d:%d, want 12003:8", end.Line, end.Column)
	}
	if r := cfg.Module.Locals["after"].DeclRange; r.Start.Line != 12004 {
		t.Errorf("the local after the heredoc starts at line %d, want 12004", r.Start.Line)
	}
}
