package lang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/shape"
	"github.com/tfeval/tfeval/marks"
)

// evalFiles writes files into a temporary working directory, loads and evaluates it.
func evalFiles(t *testing.T, files map[string]string, opts Options) (*Result, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	cfg, diags := config.Load(".", config.Options{Dialect: opts.Dialect})
	if diags.HasErrors() {
		t.Fatalf("load: %s", diags.Error())
	}
	return Evaluate(cfg, opts)
}

func mustEval(t *testing.T, res *Result, src string, module []string) cty.Value {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v, diags := res.EvalExpr(expr, module)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	return v
}

const mockSchema = `{"format_version":"1.0","provider_schemas":{"registry.terraform.io/tfeval/mock":{
 "resource_schemas":{"mock_thing":{"block":{
  "attributes":{
   "id":{"type":"string","computed":true},
   "name":{"type":"string","optional":true},
   "opt_comp":{"type":"string","optional":true,"computed":true},
   "secret":{"type":"string","optional":true,"sensitive":true}},
  "block_types":{
   "setting":{"nesting_mode":"list","block":{"attributes":{"name":{"type":"string","optional":true}},
     "block_types":{"option":{"nesting_mode":"list","block":{"attributes":{"key":{"type":"string","optional":true}}}}}}},
   "named":{"nesting_mode":"map","block":{"attributes":{"v":{"type":"number","optional":true}}}},
   "single":{"nesting_mode":"single","block":{"attributes":{"level":{"type":"number","optional":true}}}}}}}}}}}`

const mockVersions = `terraform {
  required_providers {
    mock = { source = "tfeval/mock" }
  }
}
`

func parseMock(t *testing.T) *ProviderSchemas {
	t.Helper()
	s, err := ParseProviderSchemas([]byte(mockSchema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDynamicBlocks(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": `
locals {
  settings = { a = ["x", "y"], b = [] }
}
resource "mock_thing" "t" {
  dynamic "setting" {
    for_each = local.settings
    iterator = s
    content {
      name = s.key
      dynamic "option" {
        for_each = s.value
        content {
          key = "${s.key}-${option.value}"
        }
      }
    }
  }
  dynamic "named" {
    for_each = { one = 1, two = 2 }
    labels   = [named.key]
    content {
      v = named.value
    }
  }
  dynamic "single" {
    for_each = []
    content {
      level = 1
    }
  }
}
resource "other_thing" "plain" {
  dynamic "blk" {
    for_each = [1, 2]
    content {
      v = blk.value
    }
  }
  blk {
    v = 3
  }
}
`}, Options{Schemas: parseMock(t)})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	tests := map[string]string{
		`mock_thing.t.setting[*].name`:                   `["a","b"]`,
		`flatten(mock_thing.t.setting[*].option[*].key)`: `["a-x","a-y"]`,
		`mock_thing.t.named["two"].v`:                    `2`,
		`mock_thing.t.single == null`:                    `true`,
		`length(mock_thing.t.setting[1].option)`:         `0`,
		`mock_thing.t.name == null`:                      `true`,
		`keys(mock_thing.t.named)`:                       `["one","two"]`,
	}
	for src, want := range tests {
		v := mustEval(t, res, src, nil)
		got := jsonOf(t, v)
		if got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
}

func jsonOf(t *testing.T, v cty.Value) string {
	t.Helper()
	b, err := json.Marshal(shape.Known(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSchemaOutcomes(t *testing.T) {
	files := map[string]string{"versions.tf": mockVersions, "main.tf": `
resource "mock_thing" "t" {
  name   = "n"
  secret = "s"
}
`}
	res, diags := evalFiles(t, files, Options{Schemas: parseMock(t)})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v := res.Resources[0].Value
	if res.Resources[0].Addr != "mock_thing.t" {
		t.Fatalf("address %s", res.Resources[0].Addr)
	}
	if got := v.GetAttr("opt_comp"); got.IsKnown() {
		t.Errorf("optional+computed unset should be unknown, got %#v", got)
	}
	if got := v.GetAttr("id"); got.IsKnown() {
		t.Errorf("computed id should be unknown")
	}
	if !v.GetAttr("secret").HasMark(marks.Sensitive) {
		t.Errorf("sensitive attribute not marked")
	}
	if got := v.GetAttr("single"); !got.IsNull() {
		t.Errorf("absent single block should be null")
	}
	if got := v.GetAttr("setting"); !got.IsKnown() || got.LengthInt() != 0 {
		t.Errorf("absent list block should be an empty list, got %#v", got)
	}
	doc := newTestDocument(res, nil)
	b, _ := json.Marshal(doc.Resources[0])
	want := `{"address":"mock_thing.t","mode":"managed","type":"mock_thing","name":"t","after":{"name":"n","named":{},"secret":"s","setting":[],"single":null},"after_unknown":{"id":true,"named":{},"opt_comp":true,"setting":[]},"after_sensitive":{"named":{},"secret":true,"setting":[]}}`
	if string(b) != want {
		t.Errorf("resource JSON\n got %s\nwant %s", b, want)
	}

	// Without the schema the same configuration knows only what it sets.
	res, diags = evalFiles(t, files, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v := mustEval(t, res, "mock_thing.t.secret", nil); v.HasMark(marks.Sensitive) || v.AsString() != "s" {
		t.Errorf("schemaless secret: %#v", v)
	}
	if v := mustEval(t, res, "mock_thing.t.id", nil); v.IsKnown() {
		t.Errorf("schemaless unset attribute should be unknown")
	}
}

func TestUnsupportedArgument(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"versions.tf": mockVersions, "main.tf": `
resource "mock_thing" "t" {
  nmae = "x"
}
`}, Options{Schemas: parseMock(t)})
	if len(diags) != 1 || diags[0].Summary != "Unsupported argument" || !strings.Contains(diags[0].Detail, `Did you mean "name"?`) {
		t.Fatalf("got %v", diags)
	}
}

func TestModuleInstances(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{
		"main.tf": `
module "a" {
  source = "./mod"
  count  = 2
  name   = "a${count.index}"
}
module "b" {
  source   = "./mod"
  for_each = toset(["k", "l"])
  name     = each.key
}
output "names" { value = module.a[*].name }
output "bkeys" { value = keys(module.b) }
`,
		"mod/main.tf": `
variable "name" { type = string }
resource "terraform_data" "x" {
  for_each = toset(["p"])
  input    = var.name
}
output "name" { value = terraform_data.x["p"].input }
`,
	}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var addrs []string
	for _, r := range res.Resources {
		addrs = append(addrs, r.Addr)
	}
	want := []string{`module.a[0].terraform_data.x["p"]`, `module.a[1].terraform_data.x["p"]`, `module.b["k"].terraform_data.x["p"]`, `module.b["l"].terraform_data.x["p"]`}
	if !reflect.DeepEqual(addrs, want) {
		t.Errorf("resources %q, want %q", addrs, want)
	}
	var mods []string
	for _, m := range res.Modules {
		mods = append(mods, m.Addr)
	}
	if want := []string{"", "module.a[0]", "module.a[1]", `module.b["k"]`, `module.b["l"]`}; !reflect.DeepEqual(mods, want) {
		t.Errorf("modules %q, want %q", mods, want)
	}
	if got := jsonOf(t, res.Root().Outputs["names"]); got != `["a0","a1"]` {
		t.Errorf("names = %s", got)
	}
	if got := res.Module(`module.b["l"]`).Variables["name"]; got.AsString() != "l" {
		t.Errorf("module.b[l] var.name = %#v", got)
	}
	if v := mustEval(t, res, "var.name", []string{"a"}); v.AsString() != "a0" {
		t.Errorf("EvalExpr in module.a = %#v", v)
	}
}

func TestCyclesAndSelfReference(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"main.tf": `
locals {
  a = local.b
  b = local.a
}
`}, Options{})
	// Terraform names a cycle's objects in the order its search left them.
	if len(diags) != 1 || diags[0].Summary != "Cycle: local.b (expand), local.a (expand)" {
		t.Fatalf("got %v", diags)
	}
	// terraform validate (v1.11.4) names a resource by its address alone,
	// its plan with (expand); a provider block as the provider's address.
	cycle := map[string]string{"main.tf": `
resource "terraform_data" "a" {
  input = terraform_data.b.output
}
resource "terraform_data" "b" {
  input = local.x
}
locals {
  x = terraform_data.a.output
}
provider "aws" {
  region = aws_s3_bucket.s.bucket
}
resource "aws_s3_bucket" "s" {}
`}
	for validate, want := range map[bool][]string{
		true:  {"Cycle: terraform_data.b, terraform_data.a, local.x (expand)", `Cycle: provider["registry.terraform.io/hashicorp/aws"], aws_s3_bucket.s`},
		false: {"Cycle: terraform_data.b (expand), terraform_data.a (expand), local.x (expand)", `Cycle: provider["registry.terraform.io/hashicorp/aws"], aws_s3_bucket.s (expand)`},
	} {
		_, diags := evalFiles(t, cycle, Options{Validate: validate})
		var got []string
		for _, d := range diags {
			got = append(got, d.Summary)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("validate %v: got %q, want %q", validate, got, want)
		}
	}
	_, diags = evalFiles(t, map[string]string{"main.tf": `
locals {
  a = local.a + 1
}
`}, Options{})
	if len(diags) != 1 || diags[0].Summary != "Self-referencing local value" {
		t.Fatalf("got %v", diags)
	}
}

// TestModuleOwnOutputReference: a module call's argument may use the
// module's own outputs that do not depend on it; an output the module does
// not declare is an unsupported attribute, not a cycle through every
// output. Of a call with for_each, module.NAME.x is instance x.
func TestModuleOwnOutputReference(t *testing.T) {
	child := `
variable "keys" { type = any }
output "keys" { value = var.keys }
output "id" { value = "x" }
`
	for name, tc := range map[string]struct {
		main, want string
	}{
		"declared output": {`
module "m" {
  source = "./m"
  keys   = { a = module.m.id }
}
output "o" { value = module.m.keys.a }`, ""},
		"undeclared output": {`
module "m" {
  source = "./m"
  keys   = { a = module.m.nothere }
}`, "Unsupported attribute"},
		"instance by attribute": {`
module "m" {
  source   = "./m"
  for_each = toset(["one"])
  keys     = each.key
}
module "n" {
  source = "./m"
  keys   = module.m.one.id
}
output "o" { value = module.n.keys }`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			res, diags := evalFiles(t, map[string]string{"main.tf": tc.main, "m/main.tf": child}, Options{})
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary)
			}
			if tc.want != "" {
				if len(got) != 1 || got[0] != tc.want {
					t.Fatalf("diagnostics %q, want one %q", got, tc.want)
				}
				return
			}
			if len(got) != 0 {
				t.Fatalf("diagnostics %q", got)
			}
			if o := res.Root().Outputs["o"]; !o.RawEquals(cty.StringVal("x")) {
				t.Errorf("o = %#v", o)
			}
		})
	}
}

func TestTofuWorkspace(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
locals { w = "${tofu.workspace}-${terraform.workspace}" }
`}, Options{Dialect: dialect.Tofu, Workspace: "dev"})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := res.Root().Locals["w"].AsString(); got != "dev-dev" {
		t.Errorf("w = %q", got)
	}
}

func TestDeterminism(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "v" { default = "x" }
locals {
  a = var.nope
  b = local.nope
  c = count.index
}
resource "terraform_data" "r" {
  for_each = { k1 = 1, k2 = 2, k3 = 3 }
  input    = each.value
}
check "c" {
  assert {
    condition     = var.v == "y"
    error_message = "v is ${var.v}"
  }
}
output "o" { value = terraform_data.r }
`}
	var first string
	for i := 0; i < 3; i++ {
		res, diags := evalFiles(t, files, Options{})
		b, err := json.Marshal(newTestDocument(res, diags))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = string(b)
			continue
		}
		if string(b) != first {
			t.Fatalf("run %d differs:\n%s\n%s", i, b, first)
		}
	}
}

func TestInstanceKeyProblems(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "c" {
  count = 2
}
resource "terraform_data" "s" {}
output "a" { value = terraform_data.c.input }
output "b" { value = terraform_data.s[0].input }
output "ok" { value = terraform_data.c[*].input }
`}, Options{})
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	if want := []string{"Missing resource instance key", "Unexpected resource instance key"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q", got)
	}
}

// Numbers in the JSON document are written as the console writes them,
// the shortest decimal at the number's precision: a whole number held in
// float64 precision above 2^53 is not written with its exact digits.
func TestJSONNumbers(t *testing.T) {
	for _, v := range []cty.Value{
		cty.NumberIntVal(443), cty.NumberIntVal(-7), cty.Zero, cty.NumberFloatVal(0.1),
		cty.NumberFloatVal(1 << 60), cty.MustParseNumberVal("123456789012345678901234567890"),
	} {
		if got, want := jsonOf(t, v), v.AsBigFloat().Text('f', -1); got != want {
			t.Errorf("%#v: JSON %s, want %s", v, got, want)
		}
	}
}

// TestCountIndexes checks count and count.index in the instances of a
// counted resource and module, on both sides of the first instances whose
// count objects are shared, and past the shared index keys.
func TestCountIndexes(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{
		"main.tf": `
resource "terraform_data" "r" {
  count = 1100
  input = { i = count.index, n = count.index % 7 }
}
module "m" {
  source = "./m"
  count  = 3
  i      = count.index
}
`,
		"m/main.tf": `
variable "i" {}
resource "terraform_data" "x" {
  count = 2
  input = "${var.i}-${count.index}"
}
output "o" { value = terraform_data.x[*].input }
`,
	}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := map[int]int{0: 0, 255: 3, 256: 4, 1023: 1, 1024: 2, 1099: 0}
	got := mustEval(t, res, "[for k in [0, 255, 256, 1023, 1024, 1099] : terraform_data.r[k].input]", nil)
	i := 0
	for _, k := range []int{0, 255, 256, 1023, 1024, 1099} {
		in := got.Index(cty.NumberIntVal(int64(i)))
		i++
		if !in.GetAttr("i").RawEquals(cty.NumberIntVal(int64(k))) {
			t.Errorf("instance %d: %#v", k, in)
		}
		if n := in.GetAttr("n"); !n.RawEquals(cty.NumberIntVal(int64(want[k]))) {
			t.Errorf("instance %d: count.index %% 7 = %#v", k, n)
		}
	}
	m := mustEval(t, res, "module.m[*].o", nil)
	if want := `[["0-0","0-1"],["1-0","1-1"],["2-0","2-1"]]`; renderJSON(t, m) != want {
		t.Errorf("module outputs %s, want %s", renderJSON(t, m), want)
	}
}

func renderJSON(t *testing.T, v cty.Value) string {
	t.Helper()
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFailedValidationStopsDependents: what reads a variable whose
// validation failed is not evaluated into further errors, as Terraform
// does not evaluate it (its test runs that expect the failure pass).
func TestFailedValidationStopsDependents(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"main.tf": `
variable "level" {
  default = "None"
  validation {
    condition     = contains(["CanNotDelete", "ReadOnly"], var.level)
    error_message = "bad level"
  }
  validation {
    condition     = var.level != "None"
    error_message = "no None"
  }
}
locals { notes = { CanNotDelete = "a", ReadOnly = "b" } }
resource "terraform_data" "lock" {
  count = var.level != null ? 1 : 0
  input = local.notes[var.level]
}
output "note" { value = local.notes[var.level] }
`}, Options{})
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary+": "+d.Detail)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "Invalid value for variable: bad level") || !strings.HasPrefix(got[1], "Invalid value for variable: no None") {
		t.Errorf("diagnostics %q, want both rules' failures only", got)
	}
}

// TestFailedObjectStopsDependents: an object whose evaluation failed stops
// everything that depends on it, also where no value carries the failure
// (a module call with no instances), as Terraform's graph walk skips them.
func TestFailedObjectStopsDependents(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"main.tf": `
variable "keys" {
  type    = map(string)
  default = {}
}
variable "want" { default = "missing" }
resource "terraform_data" "r" {
  input = "x"
  lifecycle {
    precondition {
      condition     = contains(keys(var.keys), var.want)
      error_message = "want must be a key"
    }
  }
}
module "m" {
  source   = "./m"
  for_each = var.keys
  in       = terraform_data.r.output
}
module "user" {
  source = "./m"
  in     = module.m[var.want].out
}
output "independent" { value = {}["nope"] }
`, "m/main.tf": `
variable "in" { type = string }
output "out" { value = var.in }
`}, Options{})
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	if want := []string{"Resource precondition failed", "Invalid index"}; !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics %q, want %q (the independent output's error only besides the precondition's)", got, want)
	}
}
