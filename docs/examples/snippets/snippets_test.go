package snippets

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/install"
	"github.com/tfeval/tfeval/render"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestReadmeLibrary runs the README's library example from the
// repository's root, as a reader of the README would.
func TestReadmeLibrary(t *testing.T) {
	t.Chdir("../../..")
	ev := tfeval.Evaluate(tfeval.Options{
		WorkDir: "testdata/examples/quickstart",
		VarArgs: []tfeval.Arg{tfeval.Var("environment=prod")}, // as on the command line
	})
	for _, d := range ev.Diagnostics {
		fmt.Println(d.Subject, d.Summary) // Terraform's wording, with a source range
	}
	for _, out := range ev.Outputs() {
		fmt.Println(out.Name, "=", render.Value(out.Value)) // (known after apply), (sensitive value)
	}
	for _, r := range ev.Resources() {
		name, err := r.Attr("input.name") // evaluated arguments; name.IsKnown(), name.IsNull()
		if err != nil {
			continue // this resource's input has no name
		}
		at := r.AttrRange("input.name") // where the configuration wrote it
		fmt.Println(r.Addr, render.Value(name), at, r.UnknownPaths())
	}
	v, _ := ev.Eval("local.subnet_cidrs", "module.network") // any expression, any module instance

	if ev.HasErrors() || v.LengthInt() != 3 || len(ev.Resources()) == 0 {
		t.Errorf("the README's example does not evaluate the quickstart: %s %#v", ev.Diagnostics, v)
	}
}

// TestReadmeRoots runs the README's example of EvaluateRoots on a
// repository of two environments calling one module.
func TestReadmeRoots(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, env := range []string{"prod", "staging"} {
		testfiles.Write(t, ".", map[string]string{
			"infra/envs/" + env + "/main.tf": `module "app" { source = "../../modules/app" }`,
		})
	}
	testfiles.Write(t, ".", map[string]string{"infra/modules/app/main.tf": `resource "terraform_data" "x" {}`})
	ctx := context.Background()
	for root, ev := range tfeval.EvaluateRoots(ctx, "infra", tfeval.RootsOptions{}) {
		fmt.Println(root, len(ev.Resources()), ev.HasErrors()) // in path order: "envs/prod", ...
	}

	var seen []string
	for root, ev := range tfeval.EvaluateRoots(ctx, "infra", tfeval.RootsOptions{}) {
		if len(ev.Resources()) == 1 && !ev.HasErrors() {
			seen = append(seen, root)
		}
	}
	if strings.Join(seen, ",") != "envs/prod,envs/staging" {
		t.Errorf("evaluated %q", seen)
	}
}

// TestEmbeddingLoad runs the first block of docs/embedding.md.
func TestEmbeddingLoad(t *testing.T) {
	t.Chdir(t.TempDir())
	testfiles.Write(t, ".", map[string]string{
		"repo/infra/prod/main.tf":   `variable "region" {}` + "\n" + `variable "size" {}` + "\n" + `output "where" { value = "${var.region}/${var.size}" }`,
		"repo/infra/prod/ci.tfvars": `size = "large"`,
	})
	var schemaJSON []byte // no provider schemas: see the guide
	ev := tfeval.Evaluate(tfeval.Options{
		WorkDir:   "repo/infra/prod", // where terraform would run; "" = process working directory
		Dialect:   dialect.Terraform, // or dialect.Tofu
		Workspace: "default",
		Env:       os.Environ(), // TF_VAR_* values
		VarArgs:   []tfeval.Arg{tfeval.VarFile("ci.tfvars"), tfeval.Var("region=eu-west-1")},
		Schemas:   schemaJSON, // optional: `terraform providers schema -json` output
		Sandbox:   "../..",    // optional: read nothing outside it (relative to WorkDir: the checkout)
	})

	if out, _ := ev.Output("where"); ev.HasErrors() || !out.Value.RawEquals(cty.StringVal("eu-west-1/large")) {
		t.Errorf("where = %#v, %s", out.Value, ev.Diagnostics)
	}
}

// ExampleEvaluation_Resources runs the resource loop of docs/embedding.md.
func ExampleEvaluation_Resources() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: "testdata/buckets"})
	for _, r := range ev.Resources() { // every instance of every module, in address order
		if r.Type != "aws_s3_bucket" {
			continue
		}
		acl, err := r.Attr("acl") // path syntax as in the configuration
		if err != nil {
			continue // no such attribute in this object
		}
		if acl.RawEquals(cty.StringVal("public-read")) { // unknown, null and sensitive values are never equal
			at := r.AttrRange("acl") // the expression that set it
			fmt.Printf("%s:%d:%d: %s is public\n", at.Filename, at.Start.Line, at.Start.Column, r.Addr)
		}
	}
	// Output:
	// main.tf:6:9: aws_s3_bucket.site is public
}

// ExampleEvaluation_Resource runs the unknown/null block of docs/embedding.md.
func ExampleEvaluation_Resource() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: "../../../testdata/examples/quickstart"})
	r, _ := ev.Resource(`terraform_data.server["web"]`)
	for _, path := range []string{"id", "triggers_replace", "input.name"} {
		v, _ := r.Attr(path)
		switch {
		case !v.IsKnown():
			fmt.Println(path, "is unknown until apply")
		case v.IsNull():
			fmt.Println(path, "is null")
		default:
			fmt.Println(path, "=", render.Value(v))
		}
	}
	// Output:
	// id is unknown until apply
	// triggers_replace is null
	// input.name = "shop-dev-web"
}

// ExampleEvaluation_diagnostics runs the diagnostics block of docs/embedding.md.
func ExampleEvaluation_diagnostics() {
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: "testdata/broken"})
	for _, d := range ev.Diagnostics {
		sev := "warning"
		if d.Severity == hcl.DiagError {
			sev = "error"
		}
		if d.Subject != nil {
			fmt.Printf("%s:%d:%d: %s: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, sev, d.Summary)
		} else {
			fmt.Printf("%s: %s\n", sev, d.Summary)
		}
	}
	// Output:
	// main.tf:2:7: error: Reference to undeclared local value
}

// TestCIInstall runs the Go block of docs/ci.md on a tree whose module is
// local, so that nothing is downloaded.
func TestCIInstall(t *testing.T) {
	t.Chdir(t.TempDir())
	testfiles.Write(t, ".", map[string]string{
		"infra/main.tf":         `module "net" { source = "./net" }` + "\n" + `output "cidr" { value = module.net.cidr }`,
		"infra/net/main.tf":     `output "cidr" { value = "10.0.0.0/16" }`,
		"infra/net/versions.tf": `terraform {}`,
	})
	res, diags := install.Modules(install.Options{
		WorkDir:  "infra",
		CacheDir: os.Getenv("TFEVAL_MODULE_CACHE_DIR"),
		Env:      os.Environ(), // TF_TOKEN_*, TF_CLI_CONFIG_FILE, HOME, and what git needs
	})
	for _, m := range res.Modules {
		fmt.Println(m.Key, m.Source, m.Version, m.Dir, m.Origin) // Origin: local, kept, cached or downloaded
	}
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: "infra"})

	if diags.HasErrors() || ev.HasErrors() {
		t.Fatal(diags, ev.Diagnostics)
	}
	if out, _ := ev.Output("cidr"); !out.Value.RawEquals(cty.StringVal("10.0.0.0/16")) {
		t.Errorf("cidr = %#v", out.Value)
	}
}

// TestModuleTestFiles runs the block of docs/testing-offline.md and
// docs/testing-modules.md: the example module's test files, a Go subtest
// per file and run.
func TestModuleTestFiles(t *testing.T) {
	t.Chdir("../../..")
	rep := tfeval.Test(context.Background(), tfeval.TestOptions{
		Options: tfeval.Options{WorkDir: "testdata/examples/tested"},
	})
	rep.Subtests(t) // one subtest per file and per run block, named as they are

	if rep.Passed != 4 || len(rep.Files) != 1 {
		t.Errorf("the example's runs: %d passed of %d files", rep.Passed, len(rep.Files))
	}
}
