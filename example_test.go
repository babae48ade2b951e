package tfeval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/render"
)

// quickstart is the example module every Example evaluates unless it needs its own.
const quickstart = "testdata/examples/quickstart"

// writeModule writes a throwaway module for an example and returns its directory.
func writeModule(files map[string]string) string {
	dir, err := os.MkdirTemp("", "tfeval-example-")
	if err != nil {
		panic(err)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			panic(err)
		}
	}
	return dir
}

// Evaluate a module directory as terraform plan would and print its outputs.
func Example() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart})
	if ev.HasErrors() {
		fmt.Println(ev.Diagnostics)
		return
	}
	for _, out := range ev.Outputs() {
		fmt.Printf("%s = %s\n", out.Name, oneLine(render.Value(out.Value)))
	}
	// Output:
	// admin_password = (sensitive value)
	// public_servers = [ "web", ]
	// replica_count = 3
	// server_ids = { "api" = (known after apply) "web" = (known after apply) }
	// server_names = tolist([ "shop-dev-api", "shop-dev-web", ])
	// subnet_cidrs = [ "10.20.0.0/24", "10.20.1.0/24", "10.20.2.0/24", ]
}

// Give variable values as a command line would (environment, -var,
// -var-file) and from Go; Go values win over every other source.
func ExampleEvaluate_variables() {
	ev := tfeval.Evaluate(tfeval.Options{
		WorkDir: quickstart,
		Env:     []string{"TF_VAR_environment=prod"}, // os.Environ() in a real tool
		VarArgs: []tfeval.Arg{tfeval.Var("project=web")},
		Variables: map[string]cty.Value{
			"servers": cty.MapVal(map[string]cty.Value{
				"one": cty.EmptyObjectVal, // optional attributes take their defaults
			}),
		},
	})
	out, _ := ev.Output("server_names")
	fmt.Println(render.Value(out.Value))
	// Output:
	// tolist([
	//   "web-prod-one",
	// ])
}

// Evaluate files given from memory, as a test with inline files or an
// editor with unsaved buffers does: every file comes from the fs.FS, and
// nothing outside it is read.
func ExampleEvaluate_fromMemory() {
	files := fstest.MapFS{
		"main.tf": {Data: []byte(`
variable "env" {}
module "app" {
  source = "./modules/app"
  name   = "shop-${var.env}"
}
output "greeting" { value = module.app.greeting }
`)},
		"terraform.tfvars":           {Data: []byte(`env = "dev"`)},
		"modules/app/main.tf":        {Data: []byte(`variable "name" {}` + "\n" + `output "greeting" { value = templatefile("${path.module}/hello.tftpl", { name = var.name }) }`)},
		"modules/app/hello.tftpl":    {Data: []byte(`Hello from ${name}`)},
		"modules/app/unused/main.tf": {Data: []byte(`this is not read`)},
	}
	ev := tfeval.Evaluate(tfeval.Options{FS: files})
	out, _ := ev.Output("greeting")
	fmt.Println(render.Value(out.Value), ev.Diagnostics.HasErrors())
	for _, v := range ev.Variables() {
		fmt.Println(v.Name, v.Source)
	}
	// Output:
	// "Hello from shop-dev" false
	// env set in terraform.tfvars:1,7-12
}

// Evaluate one module with many sets of inputs, as a table-driven test
// does: with a module cache, its files are parsed once, and read again on
// every evaluation only to check that they did not change.
func ExampleEvaluate_moduleCache() {
	cache := &tfeval.ModuleCache{}
	for _, env := range []string{"dev", "staging", "prod"} {
		ev := tfeval.Evaluate(tfeval.Options{
			WorkDir:     quickstart,
			VarArgs:     []tfeval.Arg{tfeval.Var("environment=" + env)},
			ModuleCache: cache,
		})
		out, _ := ev.Output("server_names")
		fmt.Println(oneLine(render.Value(out.Value)))
	}
	// Output:
	// tolist([ "shop-dev-api", "shop-dev-web", ])
	// tolist([ "shop-staging-api", "shop-staging-web", ])
	// tolist([ "shop-prod-api", "shop-prod-web", ])
}

// Choose the dialect, the workspace and the clock.
func ExampleEvaluate_dialect() {
	dir := writeModule(map[string]string{"main.tf": `
output "ws" { value = terraform.workspace }
output "year" { value = formatdate("YYYY", timestamp()) }
`, "tofu.tofu": `
output "tofu_ws" { value = tofu.workspace }
`})
	defer os.RemoveAll(dir)
	for _, d := range []dialect.Dialect{dialect.Terraform, dialect.Tofu} {
		ev := tfeval.Evaluate(tfeval.Options{
			WorkDir:   dir,
			Dialect:   d,
			Workspace: "staging",
			Console:   true, // timestamp() is only known in the console, not in a plan
			Now:       func() time.Time { return time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC) },
		})
		fmt.Println(d.Product())
		for _, o := range ev.Outputs() {
			fmt.Printf("  %s = %s\n", o.Name, render.Value(o.Value))
		}
	}
	// Output:
	// Terraform
	//   ws = "staging"
	//   year = "2030"
	// OpenTofu
	//   tofu_ws = "staging"
	//   ws = "staging"
	//   year = "2030"
}

// Walk every resource instance and read its evaluated arguments, the way
// a linter or policy tool would.
func ExampleEvaluation_Resources() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart})
	for _, r := range ev.Resources() {
		if r.Type != "terraform_data" || r.Name != "server" {
			continue
		}
		size, _ := r.Attr("input.size")
		owner, _ := r.Attr(`input.tags["Owner"]`)
		fmt.Printf("%s size=%s owner=%s unknown=%v\n", r.Addr, size.AsString(), owner.AsString(), r.UnknownPaths())
	}
	// Output:
	// terraform_data.server["api"] size=medium owner=platform unknown=[id output]
	// terraform_data.server["web"] size=small owner=platform unknown=[id output]
}

// Tell unknown (known only after apply), null (not set) and sensitive
// values apart.
func ExampleResource_Attr() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart})
	r, _ := ev.Resource(`terraform_data.server["web"]`)
	for _, path := range []string{"id", "triggers_replace", "input.name"} {
		v, err := r.Attr(path)
		switch {
		case err != nil:
			fmt.Println(path, "error:", err)
		case !v.IsKnown():
			fmt.Println(path, "is unknown until apply")
		case v.IsNull():
			fmt.Println(path, "is null")
		default:
			fmt.Println(path, "=", render.Value(v))
		}
	}
	_, err := r.Attr("no_such_attribute")
	fmt.Println(err != nil)

	pw, _ := ev.Output("admin_password")
	fmt.Println(tfeval.SensitivePaths(pw.Value), pw.Sensitive)
	// Output:
	// id is unknown until apply
	// triggers_replace is null
	// input.name = "shop-dev-web"
	// true
	// [] true
}

// Point at the expression that produced an attribute's value, as a linter
// reports a finding: inside the for_each resource's input object here; an
// attribute the configuration does not set (id) points at the block.
func ExampleResource_AttrRange() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart})
	r, _ := ev.Resource(`terraform_data.server["web"]`)
	for _, path := range []string{"input.size", "input.tags", "id"} {
		rng := r.AttrRange(path)
		fmt.Printf("%s: %s:%d:%d\n", path, rng.Filename, rng.Start.Line, rng.Start.Column)
	}
	fmt.Println(r.Config.DeclRange, r.Schema().Attributes["id"].Computed)

	out, _ := ev.Output("subnet_cidrs")
	fmt.Println(out.AttrRange(""))
	// Output:
	// input.size: main.tf:22:14
	// input.tags: main.tf:24:14
	// id: main.tf:17:1
	// main.tf:17,1-35 true
	// outputs.tf:3,17-44
}

// List the root variables with their final values and where each came from.
func ExampleEvaluation_Variables() {
	ev := tfeval.Evaluate(tfeval.Options{
		WorkDir: quickstart,
		Env:     []string{"TF_VAR_environment=staging"},
	})
	for _, v := range ev.Variables() {
		fmt.Printf("%s (%s): %s\n", v.Name, v.Source.Kind, v.Source)
	}
	// Output:
	// admin_password (default): default value declared at variables.tf:35,1-26
	// environment (env): set using the TF_VAR_environment environment variable
	// network (auto-file): set in terraform.tfvars:3,11-7,2
	// project (auto-file): set in terraform.tfvars:1,11-17
	// servers (auto-file): set in terraform.tfvars:9,11-12,2
}

// Evaluate an extra expression in the scope of any module instance.
func ExampleEvaluation_Eval() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart})
	v, diags := ev.Eval(`[for c in local.subnet_cidrs : cidrhost(c, 1)]`, "module.network")
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	fmt.Println(render.Value(v))

	_, diags = ev.Eval("local.nope", "")
	fmt.Println(diags[0].Summary)
	// Output:
	// [
	//   "10.20.0.1",
	//   "10.20.1.1",
	//   "10.20.2.1",
	// ]
	// Reference to undeclared local value
}

// Walk module instances: each has its own variables, locals and outputs.
func ExampleEvaluation_Modules() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: quickstart})
	for _, m := range ev.Modules() {
		name := m.Addr
		if name == "" {
			name = "(root)"
		}
		fmt.Printf("%s: %d variables, %d locals, %d outputs\n", name, len(m.Variables), len(m.Locals), len(m.Outputs))
	}
	fmt.Println(render.Value(ev.Module("module.network").Variables["name"]))
	// Output:
	// (root): 5 variables, 3 locals, 6 outputs
	// module.network: 3 variables, 1 locals, 1 outputs
	// "shop-dev"
}

// Report diagnostics with their source ranges, as a linter would.
func ExampleEvaluation_diagnostics() {
	dir := writeModule(map[string]string{"main.tf": `variable "size" {
  type = number
}

locals {
  doubled = var.size * 2
  broken  = upper(local.doubled, 1)
}
`})
	defer os.RemoveAll(dir)
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, VarArgs: []tfeval.Arg{tfeval.Var("size=4")}})
	for _, d := range ev.Diagnostics {
		fmt.Printf("%s:%d,%d: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary)
	}
	// Output:
	// main.tf:7,34: Too many function arguments
}

// Validate a module as terraform validate does, and write the diagnostics
// as validate -json does, each snippet naming the block it is in from the
// configuration ValidateConfig loaded rather than from a parse of the file
// again.
func ExampleValidateConfig() {
	dir := writeModule(map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = var.missing
}
`})
	defer os.RemoveAll(dir)
	v := tfeval.ValidateConfig(tfeval.Options{WorkDir: dir})
	sources := format.NewSources(format.DiagnosticOptions{WorkDir: dir})
	sources.UseConfig(v.Config)
	for _, d := range sources.Diagnostics(v.Diagnostics) {
		fmt.Printf("%s line %d, in %s: %s\n", d.Range.Filename, d.Range.Start.Line, *d.Snippet.Context, d.Summary)
	}
	// Output:
	// main.tf line 2, in resource "terraform_data" "a": Reference to undeclared input variable
}

// Read the status of every custom condition, passing ones included.
func ExampleEvaluation_Checks() {
	dir := writeModule(map[string]string{"main.tf": `
variable "replicas" {
  type = number
  validation {
    condition     = var.replicas > 0
    error_message = "At least one replica."
  }
}

resource "terraform_data" "db" {
  input = var.replicas
}

check "enough" {
  assert {
    condition     = var.replicas >= 3
    error_message = "Fewer than three replicas: ${var.replicas}."
  }
  assert {
    condition     = terraform_data.db.id != ""
    error_message = "No id."
  }
}
`})
	defer os.RemoveAll(dir)
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, VarArgs: []tfeval.Arg{tfeval.Var("replicas=2")}})
	for _, c := range ev.Checks() {
		fmt.Printf("%s %s[%d]: %s\n", c.Object, c.Kind, c.Index, strings.TrimSpace(c.Status.String()+" "+c.ErrorMessage))
	}
	// Output:
	// check.enough assert[0]: fail Fewer than three replicas: 2.
	// check.enough assert[1]: unknown
	// var.replicas validation[0]: pass
}

// Draw the dependency graph of a module tree.
func ExampleGraph() {
	g, diags := tfeval.Graph(tfeval.Options{WorkDir: quickstart})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	for _, e := range g.Edges {
		if strings.HasPrefix(e.From, "module.network.") {
			fmt.Println(e.From, "->", e.To)
		}
	}
	fmt.Println(strings.Split(format.Mermaid(g), "\n")[0])
	// Output:
	// module.network.local.subnet_cidrs -> module.network.var.cidr
	// module.network.local.subnet_cidrs -> module.network.var.subnets
	// module.network.output.subnet_cidrs -> module.network.local.subnet_cidrs
	// module.network.terraform_data.subnet -> module.network.local.subnet_cidrs
	// module.network.terraform_data.subnet -> module.network.var.name
	// module.network.terraform_data.subnet -> module.network.var.subnets
	// module.network.var.cidr -> var.network
	// module.network.var.name -> local.name_prefix
	// module.network.var.subnets -> var.network
	// flowchart RL
}

// Find where a value is unknown or sensitive.
func ExampleUnknownPaths() {
	v := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String),
		"name": cty.StringVal("web"),
		"tags": cty.MapVal(map[string]cty.Value{
			"a b":   cty.UnknownVal(cty.String),
			"owner": cty.StringVal("me").Mark(marks.Sensitive),
		}),
	})
	fmt.Println(tfeval.UnknownPaths(v))
	fmt.Println(tfeval.SensitivePaths(v))
	// Output:
	// [id tags["a b"]]
	// [tags["owner"]]
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Walk a value with the paths Lookup and Resource.AttrRange take back,
// sets' elements by position.
func ExampleWalk() {
	v := cty.ObjectVal(map[string]cty.Value{
		"ports": cty.SetVal([]cty.Value{cty.NumberIntVal(443), cty.NumberIntVal(22)}),
		"tags":  cty.MapVal(map[string]cty.Value{"k8s.io/role": cty.StringVal("node")}),
	})
	tfeval.Walk(v, func(path string, v cty.Value) bool {
		if v.Type().IsPrimitiveType() {
			fmt.Printf("%s = %s\n", path, render.Value(v))
		}
		return true
	})
	// Output:
	// ports[0] = 22
	// ports[1] = 443
	// tags["k8s.io/role"] = "node"
}

// Evaluate an untrusted checkout: nothing outside the sandbox is read, a
// deadline stops the work, and a hostile configuration is answered by a
// limit's diagnostic.
func ExampleEvaluate_untrusted() {
	dir := writeModule(map[string]string{"main.tf": `
locals {
  l0 = { a = 1 }
  l1 = { a = local.l0, b = local.l0 }
  l2 = { a = local.l1, b = local.l1 }
}
output "x" { value = local.l2 }
resource "terraform_data" "r" {
  count = 99999
  input = [for i in range(1000) : i]
}
`})
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, Sandbox: ".", Context: ctx})
	for _, d := range ev.Diagnostics {
		fmt.Println(d.Summary)
	}
	fmt.Println(ev.Result.Stopped(), ev.Result.Steps() > 0)
	// Output:
	// Evaluation step limit reached
	// true true
}

// writeTree writes a throwaway tree of modules for an example, files by
// slash-separated path, and returns its directory.
func writeTree(files map[string]string) string {
	dir, err := os.MkdirTemp("", "tfeval-example-")
	if err != nil {
		panic(err)
	}
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			panic(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			panic(err)
		}
	}
	return dir
}

// monorepo is a repository of two environments calling one shared module.
var monorepo = map[string]string{
	"envs/prod/main.tf": `
module "net" {
  source = "../../modules/net"
  cidr   = "10.0.0.0/16"
}
output "subnets" { value = module.net.subnets }`,
	"envs/staging/main.tf": `
module "net" {
  source = "../../modules/net"
  cidr   = "10.1.0.0/16"
}
output "subnets" { value = module.net.subnets }`,
	"modules/net/main.tf": `
variable "cidr" {}
output "subnets" { value = [for i in range(2) : cidrsubnet(var.cidr, 8, i)] }`,
}

// Find the root modules of a repository: the module only called by others
// is not one.
func ExampleFindRoots() {
	dir := writeTree(monorepo)
	defer os.RemoveAll(dir)
	roots, _ := tfeval.FindRoots(dir, tfeval.FindOptions{})
	fmt.Println(roots)
	// Output:
	// [envs/prod envs/staging]
}

// Evaluate every root module of a repository in parallel, in path order,
// parsing the shared module once.
func ExampleEvaluateRoots() {
	dir := writeTree(monorepo)
	defer os.RemoveAll(dir)
	for root, ev := range tfeval.EvaluateRoots(context.Background(), dir, tfeval.RootsOptions{}) {
		if ev.HasErrors() {
			fmt.Println(root, ev.Diagnostics)
			continue
		}
		for _, out := range ev.Outputs() {
			fmt.Printf("%s: %s = %s\n", root, out.Name, oneLine(render.Value(out.Value)))
		}
	}
	// Output:
	// envs/prod: subnets = [ "10.0.0.0/24", "10.0.1.0/24", ]
	// envs/staging: subnets = [ "10.1.0.0/24", "10.1.1.0/24", ]
}

// Evaluate a module whose required variables have no values: they are
// unknown, with a warning each, instead of stopping the evaluation.
func ExampleOptions_missingVariables() {
	dir := writeModule(map[string]string{"main.tf": `
variable "env" { type = string }
output "name" { value = "app-${var.env}" }
output "fixed" { value = "always" }
`})
	defer os.RemoveAll(dir)
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: dir, MissingVariables: tfeval.MissingVariablesUnknown})
	for _, d := range ev.Diagnostics {
		fmt.Println(d.Summary)
	}
	for _, out := range ev.Outputs() {
		fmt.Printf("%s = %s", out.Name, render.Value(out.Value))
		for _, u := range marks.UnreadMarks(out.Value) {
			fmt.Printf(", from %s", u.Describe())
		}
		fmt.Println()
	}
	// Output:
	// No value for required variable
	// fixed = "always"
	// name = (known after apply), from var.env (no value given)
}

// Resolve the paths options name against their working directory, so that
// the options can serve evaluations of other directories.
func ExampleOptions_WithAbsolutePaths() {
	opts := tfeval.Options{
		WorkDir:   "/repo",
		VarArgs:   []tfeval.Arg{tfeval.Var("env=prod"), tfeval.VarFile("ci.tfvars"), tfeval.VarFile("/etc/shared.tfvars")},
		DataFiles: []string{"data/results.json"},
		Sandbox:   ".",
	}
	abs := opts.WithAbsolutePaths()
	for _, a := range abs.VarArgs {
		fmt.Println(a.Text)
	}
	fmt.Println(abs.DataFiles, abs.Sandbox, opts.VarArgs[1].Text)
	// Output:
	// env=prod
	// /repo/ci.tfvars
	// /etc/shared.tfvars
	// [/repo/data/results.json] /repo ci.tfvars
}

// Run a module's own .tftest.hcl files offline, as terraform test would
// judge them, and read each run's status.
func ExampleTest() {
	rep := tfeval.Test(context.Background(), tfeval.TestOptions{
		Options: tfeval.Options{WorkDir: "testdata/examples/tested"},
	})
	for _, f := range rep.Files {
		for _, r := range f.Runs {
			fmt.Printf("%s %s (%s): %s\n", f.Path, r.Name, r.Command, r.Status)
		}
	}
	fmt.Println(format.SummaryLine(rep))
	// Output:
	// tests/bucket.tftest.hcl names_the_bucket (plan): pass
	// tests/bucket.tftest.hcl versioning_can_be_turned_off (plan): pass
	// tests/bucket.tftest.hcl rejects_a_bad_name (plan): pass
	// tests/bucket.tftest.hcl exports_the_arn (apply): pass
	// Success! 4 passed, 0 failed.
}

// A run that fails says why: each failed assertion with its evaluated
// error message, and the diagnostics in Terraform's wording.
func ExampleTest_failure() {
	dir := writeModule(map[string]string{
		"main.tf": `
variable "size" {
  type    = number
  default = 2
}

output "disks" {
  value = var.size * 2
}
`,
		"main.tftest.hcl": `
run "doubles" {
  command = plan
  variables {
    size = 3
  }
  assert {
    condition     = output.disks == 8
    error_message = "disks is ${output.disks}"
  }
}
`})
	defer os.RemoveAll(dir)
	rep := tfeval.Test(context.Background(), tfeval.TestOptions{Options: tfeval.Options{WorkDir: dir}})
	r := rep.Files[0].Runs[0]
	fmt.Println(r.Name, r.Status)
	for _, a := range r.Assertions {
		fmt.Printf("line %d: %s: %s\n", a.Range.Start.Line, a.Status, a.ErrorMessage)
	}
	for _, d := range r.Diagnostics {
		fmt.Println(d.Summary)
	}
	// Output:
	// doubles fail
	// line 8: fail: disks is 6
	// Test assertion failed
}
