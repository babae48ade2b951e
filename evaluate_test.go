package tfeval_test

import (
	"crypto/md5"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/sandbox"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// missingModuleRoot calls a registry module that is not installed, next to
// resources of its own.
var missingModuleRoot = map[string]string{"main.tf": `
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
  name    = "main"
}
resource "aws_subnet" "s" {
  count  = length(module.vpc.azs)
  vpc_id = module.vpc.vpc_id
}
resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}
output "vpc_id" { value = module.vpc.vpc_id }`}

// TestMissingModules: by default a module that is not installed is
// Terraform's error, which names the option; with MissingModulesUnknown the
// rest of the tree is evaluated and the call's outputs are unknown.
func TestMissingModules(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, missingModuleRoot)

	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	if !ev.Diagnostics.HasErrors() || ev.Diagnostics[0].Summary != "Module not installed" || !strings.Contains(ev.Diagnostics[0].Detail, "-missing-modules=unknown") {
		t.Fatalf("want Terraform's error naming the option, got %s", ev.Diagnostics.Error())
	}

	ev = tfeval.Evaluate(tfeval.Options{WorkDir: dir, MissingModules: tfeval.MissingModulesUnknown})
	if ev.Diagnostics.HasErrors() {
		t.Fatal(ev.Diagnostics.Error())
	}
	var warned []string
	for _, d := range ev.Diagnostics {
		warned = append(warned, d.Summary)
	}
	if n := strings.Count(strings.Join(warned, "\n"), "Module not installed"); n != 1 {
		t.Errorf("%d warnings that the module is not installed, want one: %v", n, warned)
	}
	var addrs []string
	for _, r := range ev.Resources() {
		addrs = append(addrs, r.Addr)
	}
	if !slices.Equal(addrs, []string{"aws_s3_bucket.logs", "aws_subnet.s[*]"}) {
		t.Errorf("resources %v", addrs)
	}
	out := ev.Outputs()
	if len(out) != 1 || out[0].Value.IsKnown() {
		t.Fatalf("outputs %v, want vpc_id unknown", out)
	}
	want := []marks.Unread{{Cause: marks.ModuleNotInstalled, Addr: "module.vpc"}}
	if got := marks.UnreadMarks(out[0].Value); !slices.Equal(got, want) {
		t.Errorf("vpc_id marks %v, want %v", got, want)
	}
}

// TestMissingLocalModuleDirectory: a call to a local directory that is
// absent (a git submodule not checked out, modules a build step vendors)
// is Terraform's error by default; with MissingModulesUnknown it is as a
// module not installed: a warning, its outputs unknown, the rest evaluated.
func TestMissingLocalModuleDirectory(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `
module "shared" {
  source = "./vendor/modules/shared"
  name   = "main"
}
resource "aws_s3_bucket" "logs" {
  bucket = "logs-${module.shared.suffix}"
}
output "suffix" { value = module.shared.suffix }`})

	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	if !ev.Diagnostics.HasErrors() || ev.Diagnostics[0].Summary != "Unreadable module directory" {
		t.Fatalf("want Terraform's error, got %s", ev.Diagnostics.Error())
	}

	ev = tfeval.Evaluate(tfeval.Options{WorkDir: dir, MissingModules: tfeval.MissingModulesUnknown})
	if ev.Diagnostics.HasErrors() {
		t.Fatal(ev.Diagnostics.Error())
	}
	if len(ev.Diagnostics) != 1 || ev.Diagnostics[0].Summary != "Unreadable module directory" || !strings.Contains(ev.Diagnostics[0].Detail, "-missing-modules=unknown") {
		t.Errorf("want one warning naming the option, got %v", ev.Diagnostics)
	}
	if rs := ev.Resources(); len(rs) != 1 || rs[0].Addr != "aws_s3_bucket.logs" {
		t.Errorf("resources %v", rs)
	}
	out := ev.Outputs()
	if len(out) != 1 || out[0].Value.IsKnown() {
		t.Fatalf("outputs %v, want suffix unknown", out)
	}
	want := []marks.Unread{{Cause: marks.ModuleNotInstalled, Addr: "module.shared"}}
	if got := marks.UnreadMarks(out[0].Value); !slices.Equal(got, want) {
		t.Errorf("suffix marks %v, want %v", got, want)
	}
}

// TestDataFiles: -data files give data source results, a later file and
// Options.DataSources overriding earlier ones; a broken file is an error
// with a range in it.
func TestDataFiles(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"main.tf": `
data "aws_region" "r" {}
data "aws_availability_zones" "az" {}
data "aws_caller_identity" "me" {}
output "region" { value = data.aws_region.r.name }
output "zones" { value = data.aws_availability_zones.az.names }
output "account" { value = data.aws_caller_identity.me.account_id }`,
		"first.json":  `{"data.aws_region.r": {"name": "eu-west-1"}, "data.aws_availability_zones.az": {"names": ["a"]}}`,
		"second.json": `{"data.aws_availability_zones.az": {"names": ["b", "c"]}}`,
		"broken.json": "{\n  \"data.aws_region.r\": [1, 2]\n}",
		"syntax.json": "{\n  \"data.aws_region.r\": {\n}",
	})
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, DataFiles: []string{"first.json", "second.json"}, DataSources: map[string]cty.Value{
		"data.aws_caller_identity.me": cty.ObjectVal(map[string]cty.Value{"account_id": cty.StringVal("123")}),
	}})
	if len(ev.Diagnostics) > 0 {
		t.Fatal(ev.Diagnostics.Error())
	}
	got := map[string]cty.Value{}
	for _, o := range ev.Outputs() {
		got[o.Name] = o.Value
	}
	for name, want := range map[string]cty.Value{
		"region":  cty.StringVal("eu-west-1"),
		"zones":   cty.TupleVal([]cty.Value{cty.StringVal("b"), cty.StringVal("c")}),
		"account": cty.StringVal("123"),
	} {
		if !got[name].RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", name, got[name], want)
		}
	}

	for file, line := range map[string]int{"broken.json": 2, "syntax.json": 1, "absent.json": 0} {
		ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, DataFiles: []string{file}})
		var found *hcl.Diagnostic
		for _, d := range ev.Diagnostics {
			if d.Severity == hcl.DiagError {
				found = d
				break
			}
		}
		switch {
		case found == nil:
			t.Errorf("%s: no error", file)
		case line == 0 && found.Subject != nil:
			t.Errorf("%s: a file that cannot be read has no range in it: %v", file, found.Subject)
		case line > 0 && (found.Subject == nil || found.Subject.Filename != file || found.Subject.Start.Line != line):
			t.Errorf("%s: error %q at %v, want line %d of the file", file, found.Summary, found.Subject, line)
		}
	}
}

// TestMissingRootVariableStops: terraform plan stops at a required root
// variable without a value, before it evaluates anything.
func TestMissingRootVariableStops(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `
variable "needed" {}
locals {
  broken = var.undeclared
}
resource "terraform_data" "t" {
  count = local.broken
}`})
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	if len(ev.Diagnostics) != 1 || ev.Diagnostics[0].Summary != "No value for required variable" {
		t.Errorf("want the missing variable alone, got %s", ev.Diagnostics.Error())
	}
}

// TestDependsOnItself: Terraform accepts a depends_on that names its own
// resource.
func TestDependsOnItself(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `
resource "terraform_data" "t" {
  input      = "x"
  depends_on = [terraform_data.t]
}`})
	if ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir}); len(ev.Diagnostics) > 0 {
		t.Error(ev.Diagnostics.Error())
	}
}

// TestPlanTimestampAndWorkspace: plantimestamp() is known while planning,
// the same wherever it is called, from Options.Now; TF_WORKSPACE names the
// workspace when Options.Workspace does not.
func TestPlanTimestampAndWorkspace(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `
locals {
  at = plantimestamp()
}
output "same" { value = local.at == plantimestamp() }
output "at" { value = local.at }
output "workspace" { value = terraform.workspace }`})
	now := time.Date(2026, 11, 25, 10, 30, 0, 0, time.FixedZone("CET", 3600))
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Now: func() time.Time { return now }, Env: []string{"TF_WORKSPACE=staging"}})
	if len(ev.Diagnostics) > 0 {
		t.Fatal(ev.Diagnostics.Error())
	}
	want := map[string]cty.Value{"same": cty.True, "at": cty.StringVal("2026-11-25T09:30:00Z"), "workspace": cty.StringVal("staging")}
	for _, o := range ev.Outputs() {
		if !o.Value.RawEquals(want[o.Name]) {
			t.Errorf("%s = %#v, want %#v", o.Name, o.Value, want[o.Name])
		}
	}
	ev = tfeval.Evaluate(tfeval.Options{WorkDir: dir, Workspace: "prod", Env: []string{"TF_WORKSPACE=staging"}})
	for _, o := range ev.Outputs() {
		if o.Name == "workspace" && !o.Value.RawEquals(cty.StringVal("prod")) {
			t.Errorf("Options.Workspace is overridden: %#v", o.Value)
		}
	}
}

// TestVariableValidationRules: rules that read other variables (Terraform
// 1.9 and later), messages that cannot be shown, and the order of
// Terraform's phases.
func TestVariableValidationRules(t *testing.T) {
	summaries := func(ev *tfeval.Evaluation) []string {
		var out []string
		for _, d := range ev.Diagnostics {
			if d.Severity == hcl.DiagError {
				out = append(out, d.Summary)
			}
		}
		slices.Sort(out)
		return out
	}
	for name, tc := range map[string]struct {
		src  string
		want []string
	}{
		"a rule reading a variable whose own validation failed is skipped": {`
variable "low" {
  default = 5
  validation {
    condition     = var.low < 3
    error_message = "low too high"
  }
}
variable "high" {
  default = 4
  validation {
    condition     = var.high > var.low
    error_message = "high must exceed low"
  }
}`, []string{"Invalid value for variable"}},
		"a sensitive error message": {`
variable "secret" {
  default   = "s"
  sensitive = true
}
variable "v" {
  default = "x"
  validation {
    condition     = var.v == "y"
    error_message = "not ${var.secret}"
  }
}`, []string{"Error message refers to sensitive values", "Invalid value for variable"}},
		"an error message that is not a string": {`
variable "v" {
  default = "x"
  validation {
    condition     = var.v == "y"
    error_message = null
  }
}`, []string{"Invalid error message", "Invalid value for variable"}},
		"a configuration error stops before variable validation": {`
variable "v" {
  default = "x"
  validation {
    condition     = var.v == "y"
    error_message = "wrong"
  }
}
locals {
  l = var.undeclared
}`, []string{"Reference to undeclared input variable"}},
		"an error message with an undeclared reference is reported alone": {`
variable "v" {
  default = "x"
  validation {
    condition     = var.v == "y"
    error_message = "bad: ${var.nope}"
  }
}`, []string{"Reference to undeclared input variable"}},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, map[string]string{"main.tf": tc.src})
			if got := summaries(tfeval.Evaluate(tfeval.Options{WorkDir: dir})); !slices.Equal(got, tc.want) {
				t.Errorf("errors %q, want %q", got, tc.want)
			}
			// terraform validate reports a bad reference in a rule too,
			// and nothing else of these.
			want := slices.DeleteFunc(slices.Clone(tc.want), func(s string) bool { return s != "Reference to undeclared input variable" })
			var got []string
			for _, d := range tfeval.Validate(tfeval.Options{WorkDir: dir}) {
				got = append(got, d.Summary)
			}
			if !slices.Equal(got, want) {
				t.Errorf("validate: errors %q, want %q", got, want)
			}
		})
	}
}

// TestNormalFormCollisions: two names that are the same in Unicode normal
// form C cannot both be attributes of one object. Wherever such names come
// from (a type constraint, jsondecode, a -data file, a provider schema),
// the result is a value or a diagnostic, never a panic.
func TestNormalFormCollisions(t *testing.T) {
	const composed, decomposed = "\u00e9", "e\u0301"
	schema := `{"format_version": "1.0", "provider_schemas": {"registry.terraform.io/hashicorp/aws": {"resource_schemas": {"aws_thing": {"version": 0, "block": {"attributes": {
		"` + composed + `": {"type": "string", "optional": true},
		"` + decomposed + `": {"type": "string", "optional": true}}}}}}}}`
	cases := map[string]struct {
		files   map[string]string
		opts    tfeval.Options
		summary string // the error wanted; "" wants none
	}{
		"type constraint": {
			files:   map[string]string{"main.tf": `variable "v" { type = object({ ` + composed + ` = string, ` + decomposed + ` = number }) }`},
			summary: "Invalid type specification",
		},
		"jsondecode": {
			files: map[string]string{"main.tf": `output "o" { value = jsondecode("{\"` + composed + `\": 1, \"` + decomposed + `\": 2}") }`},
		},
		// Decoded as jsondecode decodes a document: the later name wins.
		"data file": {
			files: map[string]string{
				"main.tf":   `data "aws_region" "r" {}` + "\n" + `output "o" { value = data.aws_region.r }`,
				"data.json": `{"data.aws_region.r": {"` + composed + `": 1, "` + decomposed + `": 2}}`,
			},
			opts: tfeval.Options{DataFiles: []string{"data.json"}},
		},
		"provider schema": {
			files:   map[string]string{"main.tf": `resource "aws_thing" "t" {}`},
			opts:    tfeval.Options{Schemas: []byte(schema)},
			summary: "Invalid provider schema document",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, tc.files)
			opts := tc.opts
			opts.WorkDir = dir
			ev := tfeval.Evaluate(opts)
			var errs []string
			for _, d := range ev.Diagnostics {
				if d.Severity == hcl.DiagError {
					errs = append(errs, d.Summary)
				}
			}
			switch {
			case tc.summary == "" && len(errs) > 0:
				t.Errorf("errors %v, want none", errs)
			case tc.summary != "" && !slices.Contains(errs, tc.summary):
				t.Errorf("errors %v, want %q", errs, tc.summary)
			}
			for _, e := range errs {
				if strings.Contains(e, "Evaluation failed") {
					t.Errorf("a panic was caught: %s", ev.Diagnostics.Error())
				}
			}
		})
	}
}

// TestModuleSourceFromVariables: a module source built from a const
// variable picks its module from the value init would read (-var, a
// .tfvars file, TF_VAR_, the default); OpenTofu reads any variable there.
func TestModuleSourceFromVariables(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"main.tf": `
variable "flavour" {
  type    = string
  default = "plain"
  const   = true
}
variable "size" {
  type    = string
  default = "small"
}
module "picked" { source = "./flavours/${var.flavour}" }
output "picked" { value = module.picked.name }`,
		"flavours/plain/main.tf": `output "name" { value = "plain" }`,
		"flavours/spicy/main.tf": `output "name" { value = "spicy" }`,
		"flavours/small/main.tf": `output "name" { value = "small" }`,
		"spicy.tfvars":           `flavour = "spicy"`,
	})
	picked := func(opts tfeval.Options) string {
		t.Helper()
		opts.WorkDir = dir
		ev := tfeval.Evaluate(opts)
		if ev.Diagnostics.HasErrors() {
			t.Fatalf("%+v: %s", opts, ev.Diagnostics.Error())
		}
		return ev.Outputs()[0].Value.AsString()
	}
	for want, opts := range map[string]tfeval.Options{
		"plain": {},
		"spicy": {VarArgs: []tfeval.Arg{tfeval.VarFile("spicy.tfvars")}},
	} {
		if got := picked(opts); got != want {
			t.Errorf("%+v: picked %q, want %q", opts.VarArgs, got, want)
		}
	}
	if got := picked(tfeval.Options{VarArgs: []tfeval.Arg{tfeval.Var("flavour=plain")}, Env: []string{"TF_VAR_flavour=spicy"}}); got != "plain" {
		t.Errorf("-var must win over TF_VAR_: picked %q", got)
	}
	if got := picked(tfeval.Options{Env: []string{"TF_VAR_flavour=spicy"}}); got != "spicy" {
		t.Errorf("TF_VAR_: picked %q", got)
	}

	// A variable that is not const is unknown to Terraform's init, and
	// read by OpenTofu's static evaluation.
	testfiles.Write(t, dir, map[string]string{"sized.tf": `module "sized" { source = "./flavours/${var.size}" }`})
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	if len(ev.Diagnostics) != 1 || ev.Diagnostics[0].Summary != "Unknown module source" {
		t.Errorf("Terraform: %v, want Unknown module source", ev.Diagnostics)
	}
	ev = tfeval.Evaluate(tfeval.Options{WorkDir: dir, Dialect: dialect.Tofu})
	if ev.Diagnostics.HasErrors() {
		t.Errorf("OpenTofu: %s", ev.Diagnostics.Error())
	}
}

// fsModule is a tree given from memory: a root module in envs/prod that
// calls a shared module, reads files with every kind of file function,
// and takes variables from its terraform.tfvars and a named file.
var fsModule = fstest.MapFS{
	"envs/prod/main.tf": {Data: []byte(`variable "name" {}
variable "size" {}
module "net" {
  source = "../../modules/net"
  name   = var.name
}
output "net" { value = module.net.cidr }
output "greeting" { value = templatefile("${path.module}/hello.tftpl", { name = var.name }) }
output "files" { value = fileset(path.module, "*.tf*") }
output "exists" { value = [fileexists("hello.tftpl"), fileexists("nope.txt")] }
output "hash" { value = filemd5("hello.tftpl") }
output "size" { value = var.size }
output "cwd" { value = path.cwd }
`)},
	"envs/prod/terraform.tfvars": {Data: []byte(`name = "shop"`)},
	"envs/prod/ci.tfvars":        {Data: []byte(`size = "large"`)},
	"envs/prod/hello.tftpl":      {Data: []byte(`Hello, ${name}!`)},
	"modules/net/main.tf": {Data: []byte(`variable "name" {}
output "cidr" { value = "${var.name}: ${file("${path.module}/cidr.txt")}" }
`)},
	"modules/net/cidr.txt": {Data: []byte("10.0.0.0/16")},
	"secret.txt":           {Data: []byte("s3cret")},
}

// TestFSInput evaluates a tree given as an fs.FS: modules, variables
// files, templates and file functions all read from it, and the files of
// the process's own directory are not read.
func TestFSInput(t *testing.T) {
	// A directory of the same shape on disk, which must not be read.
	t.Chdir(t.TempDir())
	testfiles.Write(t, ".", map[string]string{"envs/prod/main.tf": `output "wrong" { value = "read from disk" }`})

	ev := tfeval.Evaluate(tfeval.Options{FS: fsModule, WorkDir: "envs/prod", VarArgs: []tfeval.Arg{tfeval.VarFile("ci.tfvars")}})
	if ev.HasErrors() {
		t.Fatal(ev.Diagnostics)
	}
	want := map[string]string{
		"net":      `"shop: 10.0.0.0/16"`,
		"greeting": `"Hello, shop!"`,
		"files":    "toset([ \"ci.tfvars\", \"hello.tftpl\", \"main.tf\", \"terraform.tfvars\", ])",
		"exists":   "[ true, false, ]",
		"hash":     `"` + fmt.Sprintf("%x", md5.Sum([]byte("Hello, ${name}!"))) + `"`,
		"size":     `"large"`,
		"cwd":      `"` + filepath.ToSlash(filepath.Join(sandbox.FSRoot, "envs", "prod")) + `"`,
	}
	got := map[string]string{}
	for _, o := range ev.Outputs() {
		got[o.Name] = strings.Join(strings.Fields(render.Value(o.Value)), " ")
	}
	if !maps.Equal(got, want) {
		t.Errorf("outputs:\n%q\nwant:\n%q", got, want)
	}
	for _, v := range ev.Variables() {
		if v.Source.Range.Filename == "" || strings.Contains(v.Source.Range.Filename, "tfeval-fs") {
			t.Errorf("%s: source range %s should name the file relative to the working directory", v.Name, v.Source.Range)
		}
	}
	if diags := tfeval.Validate(tfeval.Options{FS: fsModule, WorkDir: "envs/prod"}); diags.HasErrors() {
		t.Errorf("validate: %s", diags)
	}
	if g, diags := tfeval.Graph(tfeval.Options{FS: fsModule, WorkDir: "envs/prod"}); diags.HasErrors() || len(g.Nodes) == 0 {
		t.Errorf("graph: %d nodes, %s", len(g.Nodes), diags)
	}
}

// TestFSSandbox: the FS is a sandbox of its own (nothing outside it is
// read, absolute paths and ".." included), and Sandbox narrows it, with
// the same refusals as on disk.
func TestFSSandbox(t *testing.T) {
	// What a path outside the FS would find on disk, were it read.
	disk := t.TempDir()
	testfiles.Write(t, disk, map[string]string{"secret.txt": "from disk"})
	tests := []struct {
		name, sandbox, expr, want string
	}{
		{"absolute path on disk", "", `file("` + filepath.ToSlash(filepath.Join(disk, "secret.txt")) + `")`, "outside the directory this evaluation may read"},
		{"up out of the FS", "", `file("../../../secret.txt")`, "outside the directory this evaluation may read"},
		{"home directory", "", `file("~/.bashrc")`, "outside the directory this evaluation may read"},
		{"inside the FS", "", `file("../../secret.txt")`, ""},
		{"outside the sandbox", ".", `file("../../secret.txt")`, "outside the directory this evaluation may read"},
		{"fileset outside the sandbox", ".", `fileset("../..", "*.txt")`, "outside the directory this evaluation may read"},
		{"template outside the sandbox", ".", `templatefile("../../secret.txt", {})`, "outside the directory this evaluation may read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"envs/prod/main.tf": {Data: []byte(`output "x" { value = ` + tt.expr + ` }`)},
				"secret.txt":        {Data: []byte("s3cret")},
			}
			ev := tfeval.Evaluate(tfeval.Options{FS: fsys, WorkDir: "envs/prod", Sandbox: tt.sandbox})
			if tt.want == "" {
				if out, _ := ev.Output("x"); ev.HasErrors() || render.Value(out.Value) != `"s3cret"` {
					t.Errorf("got %s, %s", render.Value(out.Value), ev.Diagnostics)
				}
				return
			}
			if !ev.HasErrors() || !strings.Contains(ev.Diagnostics.Error(), tt.want) {
				t.Errorf("want an error %q, got %s", tt.want, ev.Diagnostics)
			}
			if strings.Contains(ev.Diagnostics.Error(), "from disk") {
				t.Error("a file on disk was read")
			}
		})
	}
	// Module sources leave neither.
	for _, source := range []string{"../../../outside", "../shared"} {
		fsys := fstest.MapFS{
			"envs/prod/main.tf":   {Data: []byte(`module "m" { source = "` + source + `" }`)},
			"envs/shared/main.tf": {Data: []byte(`output "x" { value = 1 }`)},
		}
		sb := "."
		ev := tfeval.Evaluate(tfeval.Options{FS: fsys, WorkDir: "envs/prod", Sandbox: sb})
		if !ev.HasErrors() || !strings.Contains(ev.Diagnostics.Error(), "outside the directory modules may be read from") {
			t.Errorf("module source %s: %s", source, ev.Diagnostics)
		}
	}
}

// A failed validation rule points at where the value was written: the
// variables file's value, the module call's argument, or the declaration
// for a default or a -var.
func TestVariableValidationSubject(t *testing.T) {
	rule := `
variable "max" {
  default = 3
  validation {
    condition     = var.max > 5
    error_message = "too low"
  }
}`
	for name, tc := range map[string]struct {
		files map[string]string
		vars  []tfeval.Arg
		want  string
	}{
		"default":          {map[string]string{"main.tf": rule}, nil, "main.tf:2"},
		"-var":             {map[string]string{"main.tf": rule}, []tfeval.Arg{tfeval.Var("max=1")}, "main.tf:2"},
		"terraform.tfvars": {map[string]string{"main.tf": rule, "terraform.tfvars": "\nmax = 2\n"}, nil, "terraform.tfvars:2"},
		"module argument":  {map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n  max    = 2\n}\n", "m/main.tf": rule}, nil, "main.tf:3"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := testfiles.Dir(t, tc.files)
			ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, VarArgs: tc.vars})
			if len(ev.Diagnostics) != 1 || ev.Diagnostics[0].Subject == nil {
				t.Fatalf("diagnostics %v", ev.Diagnostics)
			}
			s := ev.Diagnostics[0].Subject
			if got := fmt.Sprintf("%s:%d", filepath.ToSlash(s.Filename), s.Start.Line); !strings.HasSuffix(got, tc.want) {
				t.Errorf("subject %s, want %s", got, tc.want)
			}
		})
	}
}

// TestPlaceholderErrors: an error in the placeholder standing for the
// instances of a for_each tfeval cannot know (it depends on a data source
// tfeval does not read) is Terraform's only if there are instances: it is
// a warning saying so. One that terraform validate reports too, with every
// for_each unknown, is Terraform's whatever the instances: it stays an
// error. With the data source's result given, the instances are known.
func TestPlaceholderErrors(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `
data "aws_availability_zones" "azs" {}
locals {
  routed = ["a"]
  names  = [for az in data.aws_availability_zones.azs.names : az if contains(local.routed, az)]
}
resource "aws_gw" "gw" {
  count = 0
}
resource "aws_route" "conditional" {
  for_each = toset(local.names)
  gw       = aws_gw.gw[0].id
}
resource "aws_route" "certain" {
  for_each = toset(local.names)
  gw       = local.routed[5]
}`, "azs.json": `{"data.aws_availability_zones.azs": {"names": ["a", "b"]}}`})
	severities := func(ev *tfeval.Evaluation) map[int]hcl.DiagnosticSeverity {
		bySubjectLine := map[int]hcl.DiagnosticSeverity{}
		for _, d := range ev.Diagnostics {
			if d.Summary == "Invalid index" {
				bySubjectLine[d.Subject.Start.Line] = d.Severity
			}
		}
		return bySubjectLine
	}
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir})
	got := severities(ev)
	if got[12] != hcl.DiagWarning || got[16] != hcl.DiagError || len(got) != 2 {
		t.Errorf("want a warning at line 12 and an error at line 16, got %v:\n%s", got, ev.Diagnostics.Error())
	}
	for _, d := range ev.Diagnostics {
		if d.Summary == "Invalid index" && d.Severity == hcl.DiagWarning && !strings.Contains(d.Detail, "only if there are instances") {
			t.Errorf("the warning does not say why: %s", d.Detail)
		}
	}
	// With the zones given, both routes have an instance, not a
	// placeholder: every Invalid index is an error.
	ev = tfeval.Evaluate(tfeval.Options{WorkDir: dir, DataFiles: []string{"azs.json"}})
	got = severities(ev)
	if got[12] != hcl.DiagError || got[16] != hcl.DiagError {
		t.Errorf("with the data, want errors at lines 12 and 16, got %v:\n%s", got, ev.Diagnostics.Error())
	}
}

// TestUnexpandedBodies: terraform plan validates the configuration first,
// every block whatever its count (hashicorp/terraform#17812, #36776), so an
// error that validation finds in a resource or module with no instance
// fails the plan, and is all it reports. An error that only an instance's
// key or value could make is not one.
func TestUnexpandedBodies(t *testing.T) {
	const vars = `
variable "str" {
  type    = string
  default = "abc"
}
variable "enabled" {
  default = false
}
variable "list" {
  type    = list(string)
  default = []
}
locals {
  empty = []
}
`
	// Line 16 is the first after vars.
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // error summary and subject, in order
	}{
		{"count zero", map[string]string{"main.tf": vars + `resource "terraform_data" "a" {
  count = 0
  input = upper(1, 2)
}`}, []string{"Too many function arguments main.tf:18,20-21"}},
		{"empty for_each", map[string]string{"main.tf": vars + `resource "terraform_data" "a" {
  for_each = {}
  input    = var.str.attr
}`}, []string{"Unsupported attribute main.tf:18,21-26"}},
		{"conditional count", map[string]string{"main.tf": vars + `resource "terraform_data" "a" {
  count = var.enabled ? 1 : 0
  input = [1] + 1
}`}, []string{"Invalid operand main.tf:18,11-14"}},
		{"constant index", map[string]string{"main.tf": vars + `resource "terraform_data" "a" {
  count = 0
  input = local.empty[0]
}`}, []string{"Invalid index main.tf:18,22-25"}},
		{"module argument", map[string]string{"main.tf": vars + `module "m" {
  source = "./child"
  count  = 0
  x      = upper("a", "b")
}`, "child/main.tf": `variable "x" {
  type = string
}`}, []string{"Too many function arguments main.tf:19,24-25"}},
		{"module count zero", map[string]string{"main.tf": vars + `module "m" {
  source = "./child"
  count  = 0
  x      = "a"
}`, "child/main.tf": `variable "x" {
  type = string
}
locals {
  y = var.x.foo
}
output "o" {
  value = upper(1, 2)
}`}, []string{
			"Unsupported attribute child/main.tf:5,12-16",
			"Too many function arguments child/main.tf:8,20-21",
		}},
		{"nested module", map[string]string{"main.tf": vars + `module "m" {
  source = "./child"
  count  = 0
}`, "child/main.tf": `module "g" {
  source = "./grandchild"
}`, "child/grandchild/main.tf": `resource "terraform_data" "g" {
  input = [1] + 1
}`}, []string{"Invalid operand child/grandchild/main.tf:2,11-14"}},
		// One module called twice: each call's arguments are checked, the
		// module's own body wherever it is (validate reports it in both).
		{"module called twice", map[string]string{"main.tf": vars + `module "on" {
  source = "./child"
  x      = "a"
}
module "off" {
  source = "./child"
  count  = 0
  x      = upper(1, 2)
}`, "child/main.tf": `variable "x" {
  type = string
}
resource "terraform_data" "r" {
  count = 0
  input = [1] + 1
}`}, []string{
			"Too many function arguments main.tf:23,21-22",
			"Invalid operand child/main.tf:6,11-14",
			"Invalid operand child/main.tf:6,11-14",
		}},
		// Terraform reports the validation's error alone, not the plan's.
		{"validation first", map[string]string{"main.tf": vars + `resource "terraform_data" "planned" {
  input = tonumber(var.str)
}
resource "terraform_data" "none" {
  count = 0
  input = upper(1, 2)
}`}, []string{"Too many function arguments main.tf:21,20-21"}},
		{"no instance key", map[string]string{"main.tf": vars + `resource "terraform_data" "a" {
  count = length(var.list)
  input = var.list[count.index]
}
resource "terraform_data" "b" {
  for_each = {}
  input    = each.value.x
}
resource "terraform_data" "c" {
  count = 0
  input = terraform_data.a[0].output
}
module "m" {
  source   = "./child"
  for_each = toset(var.list)
  x        = each.key
}`, "child/main.tf": `variable "x" {
  type = string
}
output "o" {
  value = split(",", var.x)[3]
}`}, nil},
	} {
		for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
			t.Run(tc.name+"/"+d.String(), func(t *testing.T) {
				dir := t.TempDir()
				testfiles.Write(t, dir, tc.files)
				var first string
				for range 2 {
					ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Dialect: d})
					var got []string
					for _, d := range ev.Diagnostics {
						if d.Severity == hcl.DiagError {
							got = append(got, d.Summary+" "+d.Subject.String())
						}
					}
					if !slices.Equal(got, tc.want) {
						t.Fatalf("errors %q, want %q", got, tc.want)
					}
					// The same diagnostics in the same order every run.
					if s := ev.Diagnostics.Error(); first == "" {
						first = s
					} else if s != first {
						t.Errorf("a second run differs:\n%s\nthen\n%s", first, s)
					}
					if v := tfeval.Validate(tfeval.Options{WorkDir: dir, Dialect: d}); v.HasErrors() != (len(tc.want) > 0) {
						t.Errorf("validate errors %v, the plan's %q", v, got)
					}
				}
			})
		}
	}
}
