package config

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/dialect"
)

// TestQuotedDependsOn: a quoted reference in depends_on is taken, with
// Terraform's deprecation warning.
func TestQuotedDependsOn(t *testing.T) {
	cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{"main.tf": "resource \"x\" \"a\" {}\nresource \"x\" \"b\" {\n  depends_on = [\"x.a\"]\n}\n"})
	if diags.HasErrors() || len(diags) != 1 || diags[0].Summary != "Quoted references are deprecated" || diags[0].Subject.Start.Line != 3 {
		t.Fatalf("want the deprecation warning alone, got %s", diags.Error())
	}
	if deps := cfg.Module.ManagedResources["x.b"].DependsOn; len(deps) != 1 || deps[0].RootName() != "x" {
		t.Errorf("depends_on = %v", deps)
	}
}

// TestConfigurationChecks: the checks Terraform makes while loading a
// configuration, each error by summary and line.
func TestConfigurationChecks(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  []string // "summary@line", in order
	}{
		"top-level required_providers": {map[string]string{"main.tf": "required_providers {\n}\nterraform {\n  required_providers {}\n}\n"},
			[]string{"Invalid required_providers block@1"}},
		"language editions": {map[string]string{"main.tf": "terraform {\n  language = TF2021\n}\nterraform {\n  language = \"TF2021\"\n}\nterraform {\n  language = TF2099\n}\n"},
			[]string{"Invalid language edition@5", "Unsupported language edition@8"}},
		"experiments": {map[string]string{"main.tf": "terraform {\n  experiments = [some_feature]\n}\n"},
			[]string{"Module uses experimental features@2"}},
		"provider types and local names": {map[string]string{"main.tf": `terraform {
  required_providers {
    good      = { source = "example.com/org/good" }
    prefixed  = { source = "org/terraform-provider-x" }
    reserved  = { source = "org/terraform-x" }
    my_name   = { source = "org/name" }
    bad       = { source = "a/b/c/d" }
    short     = { source = "short" }
  }
}
provider "Upper" {}
resource "x_thing" "a" {
  provider = bad_name
}
`}, []string{"Invalid provider type@4", "Invalid provider type@5", "Invalid provider local name@6", "Invalid provider source address@7", "Invalid provider local name@11", "Invalid provider local name@13"}},
		"reserved provider arguments": {map[string]string{"main.tf": "provider \"p\" {\n  alias = \"a\"\n  count = 2\n  source = \"x\"\n  locals {}\n}\n"},
			[]string{"Reserved argument name in provider block@3", "Reserved argument name in provider block@4", "Reserved block type name in provider block@5"}},
		"state storage conflicts": {map[string]string{"a.tf": "terraform {\n  state_store \"s\" {}\n}\n", "b.tf": "terraform {\n  backend \"local\" {}\n}\n", "c.tf": "terraform {\n  state_store \"t\" {}\n}\n"},
			[]string{"Conflicting state storage configuration@2", "Duplicate state_store configuration@2"}},
		"provider_meta refers to a variable": {map[string]string{"main.tf": "variable \"v\" {}\nterraform {\n  provider_meta \"p\" {\n    x = var.v\n  }\n}\n"},
			[]string{"Invalid provider_meta argument@4"}},
		"action_trigger outside a managed resource": {map[string]string{"main.tf": "data \"x\" \"a\" {\n  lifecycle {\n    action_trigger {}\n  }\n}\n"},
			[]string{"Unsupported block type@3"}},
		"constant and self-referring conditions": {map[string]string{"main.tf": `resource "x" "a" {
  lifecycle {
    precondition {
      condition     = true
      error_message = "m"
    }
    postcondition {
      condition     = x.a.id != ""
      error_message = "m"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = 1 == 1
    error_message = "m"
  }
}
`}, []string{"Invalid precondition expression@4", "Invalid reference in postcondition@8", "Invalid precondition expression@16"}},
		"destroy provisioner and the resource's connection": {map[string]string{"main.tf": `resource "x" "a" {
  connection {
    host = var.h
  }
  provisioner "local-exec" {
    when    = destroy
    command = "x"
  }
}
resource "x" "b" {
  connection {
    host = var.h
  }
  provisioner "local-exec" {
    command = "x"
  }
}
`}, []string{"Invalid reference from destroy provisioner@3"}},
		"replace_triggered_by": {map[string]string{"main.tf": `resource "x" "a" {
  count = 1
  lifecycle {
    replace_triggered_by = [x.b[count.index].id, x.b, not_a_ref, var.v, x.b[var.i]]
  }
}
resource "x" "b" {}
`}, []string{"Invalid reference@4", "Invalid reference in replace_triggered_by expression@4", "Invalid replace_triggered_by expression@4", "Invalid reference in replace_triggered_by expression@4"}},
		"replace_triggered_by in JSON": {map[string]string{"main.tf.json": `{"resource": {"x": {"a": {"lifecycle": {"replace_triggered_by": ["x.b.id", {"x.b": 1}]}}, "b": {}}}}`},
			[]string{"Invalid replace_triggered_by expression@1"}},
		"removed vendor provisioner": {map[string]string{"main.tf": "resource \"x\" \"a\" {\n  provisioner \"chef\" {}\n}\n"},
			[]string{`The "chef" provisioner has been removed@2`}},
		"const variable": {map[string]string{"main.tf": "variable \"v\" {\n  const     = true\n  sensitive = true\n  default   = 1\n}\n"},
			[]string{"Const variable cannot be sensitive@1"}},
		"import addresses": {map[string]string{"main.tf": `import {
  for_each = ["a"]
  to       = x.a[each.value]
  id       = each.value
}
import {
  to = x.a[var.k]
  id = "i"
}
import {
  to = nonsense
  id = "i"
}
resource "x" "a" {
  for_each = toset(["a"])
}
`}, []string{"Invalid import address expression@7", "Invalid import address expression@11"}},
		"import addresses in JSON": {map[string]string{"main.tf.json": `{"import": [{"to": "x.a", "id": "i"}, {"to": ["x.a"], "id": "i"}], "resource": {"x": {"a": {}}}}`},
			[]string{"Invalid import address expression@1"}},
		"import provider": {map[string]string{"main.tf": `provider "x" {}
provider "x" {
  alias = "other"
}
import {
  provider = x
  to       = x_thing.a
  id       = "i"
}
resource "x_thing" "a" {
  provider = x.other
}
import {
  provider = x
  to       = x_thing.b
  id       = "i"
}
resource "x_thing" "b" {}
`}, []string{"Invalid import provider argument@6"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := loadFiles(t, dialect.Terraform, tc.files)
			var got []string
			for _, d := range diags {
				if d.Severity != hcl.DiagError {
					continue
				}
				line := 0
				if d.Subject != nil {
					line = d.Subject.Start.Line
				}
				got = append(got, fmt.Sprintf("%s@%d", d.Summary, line))
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got  %q\nwant %q\n%s", got, want, diags.Error())
			}
		})
	}
}

// TestExperimentsArgument: a release of Terraform rejects the terraform
// block's experiments argument once, at its name, whatever it lists (an empty
// list, a concluded experiment, a quoted string); OpenTofu ignores it, and the
// language argument beside it.
func TestExperimentsArgument(t *testing.T) {
	files := map[string]string{"main.tf": `terraform {
  experiments = [module_variable_optional_attrs, "quoted", other]
}
terraform {
  experiments = []
  language    = TF2099
}
`}
	const detail = "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform."
	_, diags := loadFiles(t, dialect.Terraform, files)
	checkDiags(t, diags, []wantDiag{
		{Summary: "Module uses experimental features", Detail: detail, Range: "main.tf:2,3-14"},
		{Summary: "Module uses experimental features", Detail: detail, Range: "main.tf:5,3-14"},
		{Summary: "Unsupported language edition", Range: "main.tf:6,17-23"},
	})
	_, diags = loadFiles(t, dialect.Tofu, files)
	checkDiags(t, diags, nil)
}
