package config

import (
	"slices"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// staticModules are module directories a dynamic source can pick.
var staticModules = map[string]string{
	"mods/blue/main.tf":   `output "colour" { value = "blue" }`,
	"mods/green/main.tf":  `output "colour" { value = "green" }`,
	"mods/nested/main.tf": "variable \"leaf\" {\n  type  = string\n  const = true\n}\nmodule \"leaf\" { source = \"../${var.leaf}\" }",
}

func withModules(main string) map[string]string {
	files := map[string]string{"main.tf": main}
	for name, src := range staticModules {
		files[name] = src
	}
	return files
}

func loadWithVars(t *testing.T, d dialect.Dialect, files map[string]string, vars map[string]cty.Value) (*Config, []wantDiag) {
	t.Helper()
	calls := 0
	cfg, diags := Load(".", Options{Dialect: d, WorkDir: testfiles.Dir(t, files), RootVariables: func(map[string]*Variable) map[string]cty.Value {
		calls++
		return vars
	}})
	if calls > 1 {
		t.Errorf("RootVariables called %d times, want at most once", calls)
	}
	var got []wantDiag
	for _, d := range diags {
		got = append(got, wantDiag{Summary: d.Summary, Range: d.Subject.String()})
	}
	return cfg, got
}

// TestStaticModuleSources: a module source or version built from const
// variables (Terraform) or any variable (OpenTofu), locals built from
// them, and path values is resolved while the tree loads, per call, with
// the caller's arguments for a nested module's variables.
func TestStaticModuleSources(t *testing.T) {
	main := `
variable "colour" {
  type    = string
  default = "blue"
  const   = true
}
variable "leaf" {
  type  = string
  const = true
}
variable "plain" {
  type    = string
  default = "green"
}
locals {
  dir = "${path.module}/mods/${var.colour}"
}
module "picked" { source = local.dir }
module "nested" {
  source = "./mods/nested"
  leaf   = var.leaf
}
module "versioned" {
  source  = "./mods/green"
  version = var.colour == "blue" ? null : "1.0.0"
}`
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		for vars, want := range map[string]string{"": "blue", "green": "green"} {
			given := map[string]cty.Value{"leaf": cty.StringVal("green")}
			if vars != "" {
				given["colour"] = cty.StringVal(vars)
			}
			cfg, diags := loadWithVars(t, d, withModules(main), given)
			if len(diags) > 0 {
				t.Fatalf("%s: %v", d, diags)
			}
			if got := cfg.Children["picked"].SourceAddr; got != "./mods/"+want {
				t.Errorf("%s colour=%q: picked source %q", d, vars, got)
			}
			if got := cfg.Children["nested"].Children["leaf"]; got == nil || got.SourceAddr != "../green" {
				t.Errorf("%s: nested leaf %+v, want ../green", d, got)
			}
			wantVersion := ""
			if want == "green" {
				wantVersion = "1.0.0"
			}
			if got := cfg.Children["versioned"].Version; got != wantVersion {
				t.Errorf("%s colour=%q: version %q, want %q", d, vars, got, wantVersion)
			}
		}
	}
}

// TestStaticModuleSourceErrors: what cannot be known before evaluation is
// each dialect's error at the reference; a const variable without a value
// or failing a validation it can check is reported once.
func TestStaticModuleSourceErrors(t *testing.T) {
	cases := []struct {
		name string
		d    dialect.Dialect
		main string
		vars map[string]cty.Value
		want []wantDiag
	}{
		{"not const", dialect.Terraform, "variable \"v\" {\n  default = \"blue\"\n}\nmodule \"m\" { source = \"./mods/${var.v}\" }", nil,
			[]wantDiag{{Summary: "Unknown module source", Range: "main.tf:4,23-40"}}},
		{"not const is read by tofu", dialect.Tofu, "variable \"v\" {\n  default = \"blue\"\n}\nmodule \"m\" { source = \"./mods/${var.v}\" }", nil, nil},
		{"resource", dialect.Terraform, "resource \"x\" \"y\" {}\nmodule \"m\" { source = \"./mods/${x.y.id}\" }", nil,
			[]wantDiag{{Summary: "Invalid module source", Range: "main.tf:2,33-39"}}},
		{"resource in tofu", dialect.Tofu, "resource \"x\" \"y\" {}\nmodule \"m\" { source = \"./mods/${x.y.id}\" }", nil,
			[]wantDiag{{Summary: "Dynamic value in static context", Range: "main.tf:2,33-39"}}},
		{"module output in tofu", dialect.Tofu, "module \"a\" { source = \"./mods/blue\" }\nmodule \"m\" { source = \"./mods/${module.a.colour}\" }", nil,
			[]wantDiag{{Summary: "Module output not supported in static context", Range: "main.tf:2,33-48"}}},
		{"count.index", dialect.Terraform, "module \"m\" {\n  count  = 1\n  source = \"./mods/${count.index}\"\n}", nil,
			[]wantDiag{{Summary: "Invalid module source", Range: "main.tf:3,22-33"}}},
		{"workspace", dialect.Terraform, "module \"m\" { source = \"./mods/${terraform.workspace}\" }", nil,
			[]wantDiag{{Summary: "Invalid module source", Range: "main.tf:1,33-52"}}},
		{"provider function", dialect.Terraform, "module \"m\" { source = provider::p::f(\"x\") }", nil,
			[]wantDiag{{Summary: "Invalid module source", Range: "main.tf:1,23-37"}}},
		{"provider function in tofu", dialect.Tofu, "module \"m\" { source = provider::p::f(\"x\") }", nil,
			[]wantDiag{{Summary: "Provider function in static context", Range: "main.tf:1,23-37"}}},
		{"required const unset, reported once", dialect.Terraform, "variable \"c\" {\n  const = true\n}\nmodule \"a\" { source = \"./mods/${var.c}\" }\nmodule \"b\" { source = \"./mods/${var.c}\" }", nil,
			[]wantDiag{{Summary: "No value for required variable", Range: "main.tf:1,1-13"}}},
		{"validation", dialect.Terraform, "variable \"c\" {\n  const = true\n  validation {\n    condition     = contains([\"blue\", \"green\"], var.c)\n    error_message = \"Pick a colour.\"\n  }\n}\nmodule \"a\" { source = \"./mods/${var.c}\" }",
			map[string]cty.Value{"c": cty.StringVal("red")},
			[]wantDiag{{Summary: "Invalid value for variable", Range: "main.tf:1,1-13"}}},
		{"validation passes", dialect.Terraform, "variable \"c\" {\n  const = true\n  validation {\n    condition     = contains([\"blue\", \"green\"], var.c)\n    error_message = \"Pick a colour.\"\n  }\n}\nmodule \"a\" { source = \"./mods/${var.c}\" }",
			map[string]cty.Value{"c": cty.StringVal("blue")}, nil},
		{"cycle", dialect.Tofu, "locals {\n  a = local.b\n  b = local.a\n}\nmodule \"m\" { source = local.a }", nil,
			[]wantDiag{{Summary: "Circular reference", Range: "main.tf:3,7-14"}}},
		{"empty", dialect.Tofu, "locals {\n  a = \"\"\n}\nmodule \"m\" { source = local.a }", nil,
			[]wantDiag{{Summary: "Invalid module source address", Range: "main.tf:4,23-30"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, got := loadWithVars(t, tc.d, withModules(tc.main), tc.vars)
			if len(got) != len(tc.want) {
				t.Fatalf("diagnostics %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("diagnostic %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestEarlyValues: a backend configuration allows no variable in Terraform
// and what static evaluation knows in OpenTofu, whose provider blocks may
// have a for_each known the same way, their instances named by key.
func TestEarlyValues(t *testing.T) {
	backend := "variable \"bucket\" {\n  default = \"b\"\n}\nterraform {\n  backend \"s3\" {\n    bucket = var.bucket\n    key    = \"${path.module}/state\"\n  }\n}\n"
	_, got := loadWithVars(t, dialect.Terraform, map[string]string{"main.tf": backend}, nil)
	if want := []wantDiag{{Summary: "Variables not allowed", Range: "main.tf:6,14-17"}, {Summary: "Variables not allowed", Range: "main.tf:7,17-21"}}; !slices.Equal(got, want) {
		t.Errorf("Terraform backend: %v, want %v", got, want)
	}
	if _, got := loadWithVars(t, dialect.Tofu, map[string]string{"main.tf": backend}, nil); len(got) != 0 {
		t.Errorf("OpenTofu backend: %v", got)
	}
	dynamic := "resource \"x\" \"y\" {}\nterraform {\n  backend \"s3\" {\n    bucket = x.y.id\n  }\n}\n"
	if _, got := loadWithVars(t, dialect.Tofu, map[string]string{"main.tf": dynamic}, nil); !slices.Equal(got, []wantDiag{{Summary: "Dynamic value in static context", Range: "main.tf:4,14-20"}}) {
		t.Errorf("OpenTofu backend from a resource: %v", got)
	}

	providers := `
variable "regions" {
  default = ["a", "b"]
}
provider "aws" {
  alias    = "by_region"
  for_each = toset(var.regions)
  region   = each.value
}
resource "aws_thing" "t" {
  for_each = toset(var.regions)
  provider = aws.by_region[each.key]
}
resource "aws_thing" "first" {
  provider = aws.by_region["a"]
}`
	cfg, got := loadWithVars(t, dialect.Tofu, map[string]string{"main.tf": providers}, nil)
	if len(got) != 0 {
		t.Fatalf("OpenTofu provider for_each: %v", got)
	}
	for _, addr := range []string{"aws_thing.t", "aws_thing.first"} {
		ref := cfg.Module.ManagedResources[addr].ProviderRef
		if ref == nil || ref.Name != "aws" || ref.Alias != "by_region" || ref.KeyExpr == nil {
			t.Errorf("%s: provider %+v, want aws.by_region with a key", addr, ref)
		}
	}
	_, got = loadWithVars(t, dialect.Terraform, map[string]string{"main.tf": providers}, nil)
	var summaries []string
	for _, d := range got {
		summaries = append(summaries, d.Summary)
	}
	if !slices.Equal(summaries, []string{"Reserved argument name in provider block", "Invalid expression", "Invalid provider configuration reference"}) {
		t.Errorf("Terraform provider for_each: %v", got)
	}
}
