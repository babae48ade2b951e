package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/dialect"

	"github.com/tfeval/tfeval/internal/testfiles"
)

func TestModuleTree(t *testing.T) {
	cfg, diags := loadFiles(t, dialect.Terraform, map[string]string{
		"main.tf":             "module \"net\" {\n  source = \"./modules/net\"\n}\nmodule \"remote\" {\n  source = \"hashicorp/x/aws\"\n  version = \"1.0\"\n}\n",
		"modules/net/main.tf": "module \"sub\" {\n  source = \"../sub\"\n}\n",
		"modules/sub/main.tf": "output \"o\" { value = path.module }\n",
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
			`{"Key":"remote","Source":"registry.terraform.io/hashicorp/x/aws","Version":"1.0.0","Dir":".terraform/modules/remote"},` +
			`{"Key":"remote.inner","Source":"./inner","Dir":".terraform/modules/remote/inner"}]}`,
		".terraform/modules/remote/main.tf":       "module \"inner\" {\n  source = \"./inner\"\n}\n",
		".terraform/modules/remote/inner/main.tf": "",
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cfg.Module.SourceDir != "." || cfg.Root != cfg || cfg.Parent != nil {
		t.Errorf("root = %+v", cfg)
	}
	net := cfg.Children["net"]
	if net == nil || net.Module.SourceDir != "modules/net" || net.SourceAddr != "./modules/net" || net.Root != cfg || net.Parent != cfg {
		t.Fatalf("net = %+v", net)
	}
	sub := net.Children["sub"]
	if sub == nil || sub.Module.SourceDir != "modules/sub" || len(sub.Path) != 2 || sub.Path[1] != "sub" {
		t.Fatalf("sub = %+v", sub)
	}
	if sub.Module.Files[0] != "modules/sub/main.tf" {
		t.Errorf("file names = %v", sub.Module.Files)
	}
	remote := cfg.Children["remote"]
	if remote == nil || remote.Module.SourceDir != ".terraform/modules/remote" {
		t.Fatalf("remote = %+v", remote)
	}
	if inner := remote.Children["inner"]; inner == nil || inner.Module.SourceDir != ".terraform/modules/remote/inner" {
		t.Fatalf("inner = %+v", inner)
	}
}

func TestModuleTreeErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []wantDiag
	}{
		{
			name:  "remote module not installed",
			files: map[string]string{"main.tf": "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n"},
			want: []wantDiag{{"Module not installed",
				`This module is not yet installed. Run "terraform init" to install all modules required by this configuration. (tfeval evaluates the rest of the configuration with this module's outputs unknown when given -missing-modules=unknown.)`, "main.tf:1,1-13"}},
		},
		{
			name: "count on a module that configures its own provider",
			files: map[string]string{
				"main.tf":    "module \"m\" {\n  source = \"./m\"\n  count  = 2\n}\nmodule \"ok\" {\n  source   = \"./ok\"\n  for_each = toset([])\n}\n",
				"m/main.tf":  "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n",
				"ok/main.tf": "provider \"aws\" {}\n",
			},
			want: []wantDiag{{"Module is incompatible with count, for_each, and depends_on",
				"The module at module.m is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module \"./m\", consider updating this module to instead expect provider configurations to be passed by its caller.", "main.tf:1,1-11"}},
		},
		{
			// The version argument makes the source a registry address,
			// which a relative path cannot be: Terraform reports it though
			// the directory is there (terraform validate v1.11.4 checked).
			name: "version argument on a local source",
			files: map[string]string{
				"main.tf":   "module \"m\" {\n  source  = \"./m\"\n  version = \"1.0\"\n}\nmodule \"up\" {\n  source  = \"../up\"\n  version = \"~> 2.0\"\n}\nmodule \"ok\" {\n  source = \"./m\"\n}\n",
				"m/main.tf": "output \"o\" { value = 1 }\n",
			},
			want: []wantDiag{
				{"Invalid registry module source address", "Failed to parse module registry address: can't use local directory \"./m\" as a module registry address.\n\nTerraform assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", "main.tf:2,13-18"},
				{"Invalid registry module source address", "Failed to parse module registry address: can't use local directory \"../up\" as a module registry address.\n\nTerraform assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", "main.tf:6,13-20"},
			},
		},
		{
			// A remote source with a version argument is read as a
			// registry address too, and refused at load with the reason
			// the address is not one (terraform init v1.11.4 checked).
			name: "version argument on a remote source",
			files: map[string]string{
				"main.tf": "module \"g\" {\n  source  = \"git::https://github.com/org/repo.git?ref=v1\"\n  version = \"1.0\"\n}\nmodule \"h\" {\n  source  = \"github.com/org/repo\"\n  version = \"1.0\"\n}",
			},
			want: []wantDiag{
				{"Invalid registry module source address", "Failed to parse module registry address: a module registry source address must have either three or four slash-separated components.\n\nTerraform assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", "main.tf:2,13-58"},
				{"Invalid registry module source address", "Failed to parse module registry address: source address must have three more components after the hostname: the namespace, the name, and the target system.\n\nTerraform assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", "main.tf:6,13-34"},
			},
		},
		{
			name:  "local module directory missing",
			files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./nope\"\n}\n"},
			want:  []wantDiag{{"Unreadable module directory", "The directory nope does not exist or cannot be read.", "main.tf:2,12-20"}},
		},
		{
			name:  "module calls itself",
			files: map[string]string{"main.tf": "module \"again\" {\n  source = \"./\"\n}\n"},
			want:  []wantDiag{{"Module call cycle", "", "main.tf:2,12-16"}},
		},
		{
			name: "indirect cycle",
			files: map[string]string{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
				"a/main.tf": "module \"b\" {\n  source = \"../b\"\n}\n",
				"b/main.tf": "module \"a\" {\n  source = \"../a\"\n}\n",
			},
			want: []wantDiag{{"Module call cycle", "", "b/main.tf:2,12-18"}},
		},
		{
			name: "missing and unexpected arguments",
			files: map[string]string{
				"main.tf":   "module \"c\" {\n  source = \"./c\"\n  nmae = \"x\"\n  colour = 1\n}\n",
				"c/main.tf": "variable \"name\" {}\nvariable \"color\" { default = null }\n",
			},
			want: []wantDiag{
				{"Missing required argument", `The argument "name" is required, but no definition was found.`, "main.tf:1,12-12"},
				{"Unsupported argument", `An argument named "nmae" is not expected here. Did you mean "name"?`, "main.tf:3,3-7"},
				{"Unsupported argument", `An argument named "colour" is not expected here. Did you mean "color"?`, "main.tf:4,3-9"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadFiles(t, dialect.Terraform, tc.files)
			checkDiags(t, diags, tc.want)
		})
	}
}

func TestModuleDepthLimit(t *testing.T) {
	files := map[string]string{}
	prefix := ""
	for i := 0; i < 5; i++ {
		files[prefix+"main.tf"] = "module \"n\" {\n  source = \"./n\"\n}\n"
		prefix += "n/"
	}
	files[prefix+"main.tf"] = ""
	dir := testfiles.Dir(t, files)
	cfg, diags := Load(".", Options{WorkDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	depth := 0
	for c := cfg; len(c.Children) > 0; c = c.Children["n"] {
		depth++
	}
	if depth != 5 {
		t.Errorf("depth = %d, want 5", depth)
	}
	_, diags = Load(".", Options{MaxDepth: 3, WorkDir: dir})
	checkDiags(t, diags, []wantDiag{{"Module nesting too deep", "", "n/n/n/main.tf:1,1-11"}})
}

// TestLoadReadsEachModuleOnce calls one directory from three module
// blocks: it is read once, its module shared by the calls, and its
// diagnostics are still reported for every call, as when each call read
// the directory itself.
func TestLoadReadsEachModuleOnce(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"main.tf": `
module "a" { source = "./m" }
module "b" { source = "./m" }
module "c" { source = "./m/" }
`,
		"m/main.tf": `
locals {
  x = 1
  x = 2
}
`,
	})
	cfg, diags := Load(".", Options{WorkDir: dir})
	a, b, c := cfg.Children["a"], cfg.Children["b"], cfg.Children["c"]
	if a.Module != b.Module || a.Module != c.Module {
		t.Error("the calls of one directory got modules of their own")
	}
	if len(diags) != 3 {
		t.Fatalf("got %d diagnostics, want the duplicate local once per call: %v", len(diags), diags)
	}
	for _, d := range diags {
		if d.Summary != "Attribute redefined" || d.Subject == nil || filepath.ToSlash(d.Subject.Filename) != "m/main.tf" {
			t.Errorf("unexpected diagnostic %v", d)
		}
	}
	if diags[0] == diags[1] || diags[1] == diags[2] {
		t.Error("the calls share diagnostic values, which a caller may change")
	}
}

// TestCallArgumentsValidAgreesWithContent holds the shortcut of
// checkCallArguments to what reading the call's body with its schema
// reports: it may answer only where Content reports nothing.
func TestCallArgumentsValidAgreesWithContent(t *testing.T) {
	vars := map[string]*Variable{
		"req":  {Name: "req"},
		"opt":  {Name: "opt", Default: cty.StringVal("x")},
		"opt2": {Name: "opt2", Default: cty.NullVal(cty.String)},
	}
	tests := []struct {
		name, src string
		valid     bool
	}{
		{"required set", `req = 1`, true},
		{"all set", "req = 1\nopt = 2\nopt2 = 3", true},
		{"meta-arguments hidden", "source = \"./m\"\ncount = 2\nreq = 1", true},
		{"required missing", `opt = 1`, false},
		{"nothing set", ``, false},
		{"undeclared", "req = 1\nother = 2", false},
		{"near miss", "req = 1\nopts = 2", false},
		{"block", "req = 1\nopt {\n}", false},
		{"hidden block name", "req = 1\nlifecycle {\n}", false},
		{"duplicate (the parser reports it)", "req = 1\nreq = 2", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := hclsyntax.ParseConfig([]byte("module \"m\" {\n"+tt.src+"\n}\n"), "main.tf", hcl.InitialPos)
			if diags.HasErrors() && tt.name != "duplicate (the parser reports it)" {
				t.Fatal(diags)
			}
			block := f.Body.(*hclsyntax.Body).Blocks[0]
			_, remain, _ := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "count"}}})
			call := &ModuleCall{Name: "m", Config: remain}
			child := &Module{Variables: vars}
			got := callArgumentsValid(call, child)
			if got != tt.valid {
				t.Errorf("callArgumentsValid = %v, want %v", got, tt.valid)
			}
			schema := &hcl.BodySchema{}
			for _, n := range []string{"opt", "opt2", "req"} {
				schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n, Required: vars[n].Required()})
			}
			_, cdiags := remain.Content(schema)
			if got && len(cdiags) != 0 {
				t.Errorf("valid, but Content reports %v", cdiags)
			}
			if d := checkCallArguments(call, child); len(d) != len(cdiags) {
				t.Errorf("checkCallArguments reports %v, Content %v", d, cdiags)
			}
		})
	}
}

// TestUndeclaredPassedProviders: a provider configuration passed to a
// module under a local name the module does not declare in its
// required_providers gets Terraform's warning (terraform validate v1.11.4),
// on the name in the providers argument; a declared name gets none, and
// OpenTofu's dialect none (its wording is not recorded).
func TestUndeclaredPassedProviders(t *testing.T) {
	files := map[string]string{
		"main.tf": `provider "aws" {
  alias = "west"
}
module "a" {
  source    = "./a"
  providers = { aws = aws.west }
}
module "c" {
  source    = "./c"
  providers = { aws = aws.west }
}
module "d" {
  source    = "./a"
  providers = { aws.x = aws.west }
}
`,
		"a/main.tf": `resource "aws_s3_bucket" "b" {}`,
		"c/main.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
`,
	}
	_, diags := loadFiles(t, dialect.Terraform, files)
	want := []string{
		`main.tf:6: There is no explicit declaration for local provider name "aws" in module.a, so Terraform is assuming you mean to pass a configuration for "hashicorp/aws".` + "\n\n" + `If you also control the child module, add a required_providers entry named "aws" with the source address "hashicorp/aws".`,
		`main.tf:14: There is no explicit declaration for local provider name "aws.x" in module.d, so Terraform is assuming you mean to pass a configuration for "hashicorp/aws".` + "\n\n" + `If you also control the child module, add a required_providers entry named "aws.x" with the source address "hashicorp/aws".`,
	}
	var got []string
	for _, d := range diags {
		if d.Summary != "Reference to undefined provider" || d.Severity != hcl.DiagWarning {
			t.Errorf("unexpected %s", d.Error())
			continue
		}
		got = append(got, fmt.Sprintf("%s:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Detail))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// OpenTofu warns alike, naming itself (configs/provider_validation.go
	// of v1.12.6 has the same checks and texts).
	_, diags = loadFiles(t, dialect.Tofu, files)
	got = got[:0]
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Detail))
	}
	for i := range want {
		want[i] = strings.Replace(want[i], "so Terraform is", "so OpenTofu is", 1)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tofu: got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMissingArgumentsOfOneCall: of the module calls of a tree that leave
// required arguments unset, terraform validate (v1.11.4) reports one
// call's (another on each run); tfeval reports the first one's, depth
// first by call name, and every other error of the calls as before.
func TestMissingArgumentsOfOneCall(t *testing.T) {
	_, diags := loadFiles(t, dialect.Terraform, map[string]string{
		"main.tf": `module "a" {
  source = "./p"
}
module "b" {
  source = "./m"
  bogus  = 1
}
`,
		"p/main.tf": `module "c1" {
  source = "../m"
}
module "c2" {
  source = "../m"
}
`,
		"m/main.tf": `variable "req" {}
variable "req2" {}
`,
	})
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s:%d %s", d.Subject.Filename, d.Subject.Start.Line, d.Summary))
	}
	want := []string{
		"p/main.tf:1 Missing required argument",
		"p/main.tf:1 Missing required argument",
		"main.tf:6 Unsupported argument",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProviderConfigurationChecks: what Terraform reports, while it loads
// a tree, of the provider configurations modules declare and pass: empty
// ("proxy") provider blocks in called modules, configurations passed to a
// module that configures its own, configuration aliases a call does not
// pass, a default configuration a module passes on without receiving it
// (the root module's calls are lang's to check), and version constraints in
// provider blocks. Each case's diagnostics are what
// terraform validate v1.11.4 printed for it (with the aws provider
// v5.100.0 installed). OpenTofu's words for the warnings that name
// Terraform are not recorded, so those are Terraform's alone.
func TestProviderConfigurationChecks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"proxy blocks and overrides", map[string]string{
			"m1/main.tf": "provider \"aws\" {}\nresource \"aws_s3_bucket\" \"b\" {}\n",
			"m2/main.tf": "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.acm]\n    }\n  }\n}\nprovider \"aws\" {\n  alias = \"acm\"\n}\n",
			"m3/main.tf": "provider \"aws\" {\n  alias = \"acm\"\n}\n",
			"m5/main.tf": "provider \"aws\" {\n  alias = \"acm\"\n}\nprovider \"aws\" {\n  alias = \"dns\"\n}\nprovider \"google\" {\n  alias = \"g\"\n}\nprovider \"aws\" {\n  alias = \"ccc\"\n}\n",
			"m6/main.tf": "provider \"aws\" {\n  alias = \"acm\"\n  region = \"x\"\n}\nmodule \"n\" {\n  source = \"../m1\"\n}\n",
			"main.tf":    "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nprovider \"aws\" {\n  region = \"us-east-1\"\n}\nprovider \"aws\" {\n  alias  = \"x\"\n  region = \"us-east-1\"\n}\nmodule \"m1\" {\n  source = \"./m1\"\n}\nmodule \"m2\" {\n  source = \"./m2\"\n  providers = {\n    aws.acm = aws\n  }\n}\nmodule \"m3\" {\n  source = \"./m3\"\n}\nmodule \"m5\" {\n  source = \"./m5\"\n  providers = {\n    aws.acm = aws\n    aws.dns = aws.x\n  }\n}\nmodule \"m6\" {\n  source = \"./m6\"\n  providers = {\n    aws.acm = aws\n  }\n}\n",
		}, []string{
			"error Cannot override provider configuration @main.tf:35:5: The configuration of module.m6 has its own local configuration for aws.acm, and so it cannot accept an overridden configuration provided by the root module.",
			"warning Redundant empty provider block @m1/main.tf:1:1: Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.m1:\n    aws = {\n      source = \"hashicorp/aws\"\n    }",
			"warning Redundant empty provider block @m1/main.tf:1:1: Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.m6.module.n:\n    aws = {\n      source = \"hashicorp/aws\"\n    }",
			"warning Redundant empty provider block @m2/main.tf:9:1: Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.m2:\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [\n        aws.acm,\n      ]\n    }",
			"warning Redundant empty provider block @m3/main.tf:1:1: Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.m3:\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [\n        aws.acm,\n      ]\n    }",
			"warning Redundant empty provider block @m5/main.tf:1:1: Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.m5:\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [\n        aws.acm,\n        aws.ccc,\n        aws.dns,\n      ]\n    }",
			"warning Redundant empty provider block @m5/main.tf:7:1: Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"google\" blocks and then adding or updating an entry like the following to the required_providers block of module.m5:\n    google = {\n      source = \"hashicorp/google\"\n      configuration_aliases = [\n        google.g,\n      ]\n    }",
			"warning Reference to undefined provider @main.tf:35:5: There is no explicit declaration for local provider name \"aws.acm\" in module.m6, so Terraform is assuming you mean to pass a configuration for \"hashicorp/aws\".\n\nIf you also control the child module, add a required_providers entry named \"aws.acm\" with the source address \"hashicorp/aws\".",
		}},
		{"overrides below the root", map[string]string{
			"a/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nmodule \"b\" {\n  source = \"../b\"\n  providers = {\n    aws = aws\n  }\n}\n",
			"b/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nprovider \"aws\" {\n  region = \"x\"\n  version = \"1\"\n}\nprovider \"aws\" {\n  alias = \"v\"\n  version = \">= 1\"\n}\n",
			"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
		}, []string{
			"error Cannot override provider configuration @a/main.tf:9:5: The configuration of module.a.module.b has its own local configuration for aws, and so it cannot accept an overridden configuration provided by module.a.",
			"warning Missing required provider configuration @main.tf:1:1: The configuration for module.a expects to inherit a configuration for provider hashicorp/aws with local name \"aws\", but the root module doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for \"aws\" to the \"providers\" argument in the module \"a\" block.",
			"warning Version constraints inside provider configuration blocks are deprecated @b/main.tf:12:13: Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.",
			"warning Version constraints inside provider configuration blocks are deprecated @b/main.tf:8:13: Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.",
		}},
		{"a default configuration passed on but not received", map[string]string{
			"a/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nmodule \"b\" {\n  source = \"../b\"\n  providers = {\n    aws = aws\n  }\n}\n",
			"b/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n",
			"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\nmodule \"a2\" {\n  source = \"./a\"\n}\n",
		}, []string{
			"error missing provider module.a.provider[\"registry.terraform.io/hashicorp/aws\"] @-: ",
			"warning Missing required provider configuration @main.tf:1:1: The configuration for module.a expects to inherit a configuration for provider hashicorp/aws with local name \"aws\", but the root module doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for \"aws\" to the \"providers\" argument in the module \"a\" block.",
			"warning Missing required provider configuration @main.tf:4:1: The configuration for module.a2 expects to inherit a configuration for provider hashicorp/aws with local name \"aws\", but the root module doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for \"aws\" to the \"providers\" argument in the module \"a2\" block.",
		}},
		{"a configuration alias not passed", map[string]string{
			"a/main.tf": "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.x]\n    }\n  }\n}\nresource \"aws_s3_bucket\" \"z\" {\n  provider = aws.x\n}\n",
			"main.tf":   "provider \"aws\" {\n  region = \"x\"\n}\nmodule \"a\" {\n  source = \"./a\"\n}\noutput \"o\" { value = local.nope }\n",
		}, []string{
			"error Missing required provider configuration @main.tf:4:1: The child module requires an additional configuration for provider hashicorp/aws, with the local name \"aws.x\".\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for aws.x in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.",
		}},
		{"a default configuration the root module passes without declaring it", map[string]string{
			"m/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nresource \"aws_s3_bucket\" \"q\" {}\n",
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n  providers = {\n    aws = aws\n  }\n}\nprovider \"aws\" {}\n",
		}, []string{
			"warning Reference to undefined provider @main.tf:4:11: There is no explicit declaration for local provider name \"aws\" in the root module, so Terraform is assuming you mean to pass a configuration for provider \"hashicorp/aws\".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named \"aws\" with source = \"hashicorp/aws\", or a different source address if appropriate.",
		}},
		// A called module passing on a default configuration it neither
		// configures nor declares is warned of as undefined (naming it and
		// the module above it), not as missing; an empty provider block
		// does not declare it (terraform validate v1.11.4).
		{"a default configuration a called module passes without declaring it", map[string]string{
			"a/b/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nresource \"aws_s3_bucket\" \"x\" {}\n",
			"a/main.tf":   "module \"b\" {\n  source = \"./b\"\n  providers = {\n    aws = aws\n  }\n}\n",
			"main.tf":     "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nprovider \"aws\" {\n  region = \"us-east-1\"\n}\nmodule \"a\" {\n  source = \"./a\"\n}\n",
		}, []string{
			"error missing provider module.a.provider[\"registry.terraform.io/hashicorp/aws\"] @-: ",
			"warning Reference to undefined provider @a/main.tf:4:11: There is no explicit declaration for local provider name \"aws\" in module.a, so Terraform is assuming you mean to pass a configuration for provider \"hashicorp/aws\".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named \"aws\" with source = \"hashicorp/aws\", or a different source address if appropriate.",
		}},
		{"a configuration alias the module configures itself", map[string]string{
			"a/main.tf": "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [aws.x, aws.y, aws.z]\n    }\n  }\n}\nprovider \"aws\" {\n  alias = \"x\"\n  region = \"us-east-1\"\n}\nresource \"aws_s3_bucket\" \"z\" {\n  provider = aws.x\n}\nprovider \"aws\" {\n  alias = \"y\"\n}\n",
			"main.tf":   "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nmodule \"a\" {\n  source = \"./a\"\n  providers = {\n    aws.y = aws\n    aws.z = aws\n  }\n}\n",
		}, []string{
			"warning Redundant empty provider block @a/main.tf:16:1: Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.a:\n    aws = {\n      source = \"hashicorp/aws\"\n      configuration_aliases = [\n        aws.y,\n      ]\n    }",
		}},
		{"a version constraint in a provider block", map[string]string{
			"a/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n",
			"d/main.tf": "resource \"aws_s3_bucket\" \"b\" {}\n",
			"main.tf":   "provider \"aws\" {\n  version = \"~> 5.0\"\n  region  = \"x\"\n}\nmodule \"a\" {\n  source = \"./a\"\n}\nmodule \"d\" {\n  source = \"./d\"\n}\n",
			"r/main.tf": "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\nmodule \"a\" {\n  source = \"../a\"\n}\n",
		}, []string{
			"warning Version constraints inside provider configuration blocks are deprecated @main.tf:2:13: Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadFiles(t, dialect.Terraform, tc.files)
			var got []string
			for _, d := range diags {
				loc := "-"
				if d.Subject != nil {
					loc = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
				}
				sev := "error"
				if d.Severity == hcl.DiagWarning {
					sev = "warning"
				}
				got = append(got, fmt.Sprintf("%s %s @%s: %s", sev, d.Summary, loc, d.Detail))
			}
			slices.Sort(got)
			if strings.Join(got, "\n---\n") != strings.Join(tc.want, "\n---\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n---\n"), strings.Join(tc.want, "\n---\n"))
			}
		})
	}
}

// OpenTofu makes the same checks of provider configurations as Terraform,
// naming itself in its texts, and refuses a call with enabled to a module
// that configures its own providers as one with count (v1.12.6's
// configs/provider.go and provider_validation.go).
func TestProviderChecksInOpenTofu(t *testing.T) {
	files := map[string]string{
		"main.tf":   "provider \"aws\" {\n  version = \"~> 5.0\"\n  region  = \"x\"\n}\nmodule \"a\" {\n  source = \"./a\"\n  lifecycle {\n    enabled = true\n  }\n}\nmodule \"p\" {\n  source = \"./p\"\n  providers = {\n    aws = aws\n  }\n}\n",
		"a/main.tf": "provider \"aws\" {\n  region = \"y\"\n}\n",
		"p/main.tf": "provider \"aws\" {}\nresource \"aws_s3_bucket\" \"b\" {}\n",
	}
	_, diags := loadFiles(t, dialect.Tofu, files)
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary+": "+d.Detail)
	}
	want := []string{
		"Version constraints inside provider configuration blocks are deprecated: OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.",
		"Module is incompatible with count, for_each, enabled and depends_on: The module at module.a is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\nIf you also control the module \"./a\", consider updating this module to instead expect provider configurations to be passed by its caller.",
		"Redundant empty provider block: Earlier versions of OpenTofu used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider \"aws\" blocks and then adding or updating an entry like the following to the required_providers block of module.p:\n    aws = {\n      source = \"hashicorp/aws\"\n    }",
	}
	if strings.Join(got, "\n---\n") != strings.Join(want, "\n---\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n---\n"), strings.Join(want, "\n---\n"))
	}
}
