package tfeval_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval"
	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/internal/testfiles"
	"github.com/tfeval/tfeval/marks"
)

// rootsTree is a repository of roots at several depths calling the same
// modules, reading the same files, with their own tfvars, a root with an
// error and one with a required variable.
var rootsTree = map[string]string{
	"envs/prod/main.tf": `
module "app" {
  source = "../../modules/app"
  name   = var.name
}
variable "name" { type = string }
output "doc" { value = module.app.doc }
`,
	"envs/prod/terraform.tfvars": `name = "prod"`,
	"envs/staging/main.tf": `
module "app" {
  source = "../../modules/app"
  name   = "staging"
  count  = 2
}
output "docs" { value = module.app[*].doc }
`,
	"deep/nested/stack/main.tf": `
module "app" {
  source = "../../../modules/app"
  name   = "deep"
}
resource "terraform_data" "t" {
  for_each = toset(["a", "b"])
  input    = "${each.key}-${module.app.doc.kind}"
}
`,
	"broken/main.tf": `
locals {
  x = 1
  x = 2
}
`,
	"needs/main.tf": `
variable "region" { type = string }
variable "zones" {
  type    = list(string)
  default = ["a"]
}
resource "terraform_data" "z" {
  count = length(var.region)
  input = var.region
}
output "region" { value = var.region }
`,
	"modules/app/main.tf": `
variable "name" { type = string }
locals {
  doc = jsondecode(file("${path.module}/doc.json"))
  txt = templatefile("${path.module}/t.tftpl", { name = var.name })
}
resource "terraform_data" "x" { input = local.txt }
output "doc" { value = merge(local.doc, { name = var.name }) }
`,
	"modules/app/doc.json":  `{"kind": "app", "tier": 1}`,
	"modules/app/t.tftpl":   `hello ${name}`,
	"modules/README.md":     "not a module",
	".terraform/x/main.tf":  `this is not read`,
	"envs/prod/.hidden.tf":  `neither is this`,
	"examples/empty/doc.md": "no configuration",
}

// evalJSON is the eval -json document of an evaluation.
func evalJSON(t *testing.T, ev *tfeval.Evaluation) string {
	t.Helper()
	var b bytes.Buffer
	if err := format.WriteEval(&b, ev.Result, ev.Diagnostics); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestEvaluateRootsEqualsEachRoot: a scan gives every root the document a
// separate evaluation of it gives, in path order, whatever the
// parallelism.
func TestEvaluateRootsEqualsEachRoot(t *testing.T) {
	dir := testfiles.Dir(t, rootsTree)
	roots, diags := tfeval.FindRoots(dir, tfeval.FindOptions{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	want := []string{"broken", "deep/nested/stack", "envs/prod", "envs/staging", "needs"}
	if !slices.Equal(roots, want) {
		t.Fatalf("roots %q, want %q", roots, want)
	}
	for _, mv := range []tfeval.MissingVariables{tfeval.MissingVariablesError, tfeval.MissingVariablesUnknown} {
		for _, par := range []int{1, 3} {
			var got []string
			for root, ev := range tfeval.EvaluateRoots(context.Background(), dir, tfeval.RootsOptions{Options: tfeval.Options{MissingVariables: mv}, Parallelism: par}) {
				got = append(got, root)
				alone := tfeval.Evaluate(tfeval.Options{WorkDir: filepath.Join(dir, root), MissingVariables: mv})
				if a, b := evalJSON(t, ev), evalJSON(t, alone); a != b {
					t.Errorf("%s, parallelism %d: the scan's document of %s differs from its own evaluation's:\n%s\nwant\n%s", mv, par, root, a, b)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, parallelism %d: roots yielded %q, want %q", mv, par, got, want)
			}
		}
	}
}

// TestEvaluateRootsShares: the roots of a scan parse a module directory
// reached by the same path, and decode a document, once.
func TestEvaluateRootsShares(t *testing.T) {
	dir := testfiles.Dir(t, rootsTree)
	cache := &tfeval.ModuleCache{}
	fcache := &tfeval.FunctionCache{}
	mods := map[string]any{}
	for root, ev := range tfeval.EvaluateRoots(context.Background(), dir, tfeval.RootsOptions{Options: tfeval.Options{ModuleCache: cache, FunctionCache: fcache}}) {
		if ev.Config == nil || ev.Config.Children["app"] == nil {
			continue
		}
		mods[root] = ev.Config.Children["app"].Module
	}
	if mods["envs/prod"] == nil || mods["envs/prod"] != mods["envs/staging"] {
		t.Error("roots at the same depth did not share the module they call")
	}
	// The cache given is used: a separate evaluation of a root after the
	// scan gets the same module.
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: filepath.Join(dir, "envs/prod"), ModuleCache: cache})
	if ev.Config.Children["app"].Module != mods["envs/prod"] {
		t.Error("the scan did not use the module cache it was given")
	}
}

func TestEvaluateRootsWalkDiagnostics(t *testing.T) {
	empty := testfiles.Dir(t, map[string]string{"docs/README.md": "nothing"})
	var got []string
	for root, ev := range tfeval.EvaluateRoots(context.Background(), empty, tfeval.RootsOptions{}) {
		for _, d := range ev.Diagnostics {
			got = append(got, fmt.Sprintf("%q %s", root, d.Summary))
		}
	}
	if want := []string{`"" No configuration files`}; !slices.Equal(got, want) {
		t.Errorf("an empty tree gave %q, want %q", got, want)
	}
	got = nil
	for root := range tfeval.EvaluateRoots(context.Background(), filepath.Join(empty, "nope"), tfeval.RootsOptions{}) {
		got = append(got, root)
	}
	if !slices.Equal(got, []string{""}) {
		t.Errorf("a missing directory gave roots %q", got)
	}
}

// TestEvaluateRootsRecovers: an evaluation that panics is an internal
// error of its root; the others are evaluated.
func TestEvaluateRootsRecovers(t *testing.T) {
	dir := testfiles.Dir(t, map[string]string{
		"a/main.tf": `output "t" { value = plantimestamp() }`,
		"b/main.tf": `output "t" { value = plantimestamp() }`,
		"c/main.tf": `output "t" { value = plantimestamp() }`,
	})
	var calls atomic.Int64
	now := func() time.Time {
		if calls.Add(1) == 2 {
			panic("a clock that fails")
		}
		return time.Unix(0, 0)
	}
	var report []string
	for root, ev := range tfeval.EvaluateRoots(context.Background(), dir, tfeval.RootsOptions{Options: tfeval.Options{Now: now}, Parallelism: 1}) {
		s := root + ":"
		for _, d := range ev.Diagnostics {
			s += " " + d.Summary
			if d.Summary == "Internal error" && !strings.Contains(d.Detail, "root module b: a clock that fails") {
				t.Errorf("the internal error says %q", d.Detail)
			}
		}
		if len(ev.Outputs()) == 1 {
			s += " output"
		}
		report = append(report, s)
	}
	if want := []string{"a: output", "b: Internal error", "c: output"}; !slices.Equal(report, want) {
		t.Errorf("got %q, want %q", report, want)
	}
}

func TestMissingVariablesUnknown(t *testing.T) {
	dir := testfiles.Dir(t, rootsTree)
	ev := tfeval.Evaluate(tfeval.Options{WorkDir: filepath.Join(dir, "needs"), MissingVariables: tfeval.MissingVariablesUnknown})
	var summaries []string
	for _, d := range ev.Diagnostics {
		summaries = append(summaries, fmt.Sprintf("%v %s", d.Severity == hcl.DiagError, d.Summary))
		if d.Summary == "No value for required variable" && !strings.Contains(d.Detail, `"region"`) {
			t.Errorf("the warning does not name the variable: %s", d.Detail)
		}
	}
	if want := []string{"false No value for required variable", "false Instances not known"}; !slices.Equal(summaries, want) {
		t.Fatalf("diagnostics %q, want %q", summaries, want)
	}
	out := ev.Outputs()
	if len(out) != 1 || out[0].Value.IsKnown() {
		t.Fatalf("outputs %v", out)
	}
	us := marks.UnreadMarks(out[0].Value)
	if len(us) != 1 || us[0].Cause != marks.NoValue || us[0].Describe() != "var.region (no value given)" {
		t.Errorf("the output's unread marks are %v", us)
	}
	if !strings.Contains(ev.Diagnostics[1].Detail, "var.region (no value given)") {
		t.Errorf("the placeholder warning does not name the variable: %s", ev.Diagnostics[1].Detail)
	}
	// The default stops as Terraform does.
	ev = tfeval.Evaluate(tfeval.Options{WorkDir: filepath.Join(dir, "needs")})
	if !ev.HasErrors() || ev.Result != nil {
		t.Errorf("without -missing-variables=unknown a required variable without a value must stop: %v", ev.Diagnostics)
	}
}

// Once the context is done, the roots not yet started are not evaluated,
// and the scan says so once.
func TestEvaluateRootsCancelled(t *testing.T) {
	dir := testfiles.Dir(t, rootsTree)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []string
	for root, ev := range tfeval.EvaluateRoots(ctx, dir, tfeval.RootsOptions{Parallelism: 1}) {
		cancel()
		s := root
		for _, d := range ev.Diagnostics {
			s += ": " + d.Summary
			if d.Summary == "Scan cancelled" && !strings.Contains(d.Detail, "after 1 of 5 root modules") {
				t.Errorf("the cancellation says %q", d.Detail)
			}
		}
		got = append(got, s)
	}
	if want := []string{"broken: Attribute redefined", ": Scan cancelled"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
