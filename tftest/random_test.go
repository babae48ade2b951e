package tftest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/testfiles"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
)

// randomString is a planned random_string instance with the given
// arguments (the others null), its computed attributes unknown.
func randomString(args map[string]cty.Value) *lang.PlannedInstance {
	names := []string{"length", "lower", "upper", "numeric", "number", "special", "min_lower", "min_upper", "min_numeric", "min_special", "override_special", "keepers"}
	types := map[string]cty.Type{"lower": cty.Bool, "upper": cty.Bool, "numeric": cty.Bool, "number": cty.Bool, "special": cty.Bool, "override_special": cty.String, "keepers": cty.Map(cty.String)}
	a, p := map[string]cty.Value{}, map[string]cty.Value{}
	for _, n := range names {
		ty, ok := types[n]
		if !ok {
			ty = cty.Number
		}
		a[n] = cty.NullVal(ty)
		if v, ok := args[n]; ok {
			a[n] = v
		}
		p[n] = a[n]
		if a[n].IsNull() && n != "override_special" && n != "keepers" {
			p[n] = cty.UnknownVal(ty) // optional and computed
		}
	}
	p["result"], p["id"] = cty.UnknownVal(cty.String), cty.UnknownVal(cty.String)
	return &lang.PlannedInstance{Addr: "random_string.s", Resource: &config.Resource{Mode: config.ManagedResourceMode, Type: "random_string", Name: "s"}, Arguments: cty.ObjectVal(a), Planned: cty.ObjectVal(p)}
}

// TestDrawRandomString: a drawn result has the length and the counts of
// each class asked for, and only the classes turned on; two drawings
// differ; the first drawing's result is marked as drawn, the defaults it
// sets and the second drawing's are not; an argument not known is not
// drawn from.
func TestDrawRandomString(t *testing.T) {
	pi := randomString(map[string]cty.Value{
		"length": cty.NumberIntVal(20), "upper": cty.False, "min_numeric": cty.NumberIntVal(5),
		"min_special": cty.NumberIntVal(4), "override_special": cty.StringVal("#"),
	})
	first, ok := drawRandom(pi, 7, 0)
	if !ok {
		t.Fatal("not drawn")
	}
	if !marks.Has(first.GetAttr("result"), marks.Drawn) || marks.Has(first.GetAttr("lower"), marks.Drawn) {
		t.Errorf("marks %#v", first)
	}
	first, _ = first.UnmarkDeep()
	result := first.GetAttr("result").AsString()
	if len(result) != 20 || strings.Count(result, "#") < 4 || strings.ContainsAny(result, randomUpper) || strings.ContainsAny(result, "!@$") {
		t.Errorf("result %q", result)
	}
	digits := 0
	for _, c := range result {
		if strings.ContainsRune(randomNumeric, c) {
			digits++
		}
	}
	if digits < 5 {
		t.Errorf("result %q has %d digits", result, digits)
	}
	if id := first.GetAttr("id"); !id.RawEquals(first.GetAttr("result")) {
		t.Errorf("id %#v", id)
	}
	if up := first.GetAttr("upper"); !up.RawEquals(cty.False) {
		t.Errorf("upper %#v, want the given false", up)
	}
	if lo := first.GetAttr("lower"); !lo.RawEquals(cty.True) {
		t.Errorf("lower %#v, want the default true", lo)
	}
	again, _ := drawRandom(pi, 7, 0)
	if again, _ = again.UnmarkDeep(); !again.RawEquals(first) {
		t.Error("the same drawing differs")
	}
	second, _ := drawRandom(pi, 7, 1)
	if marks.Contains(second, marks.Drawn) {
		t.Error("the second drawing is marked")
	}
	if second, _ = second.UnmarkDeep(); second.GetAttr("result").RawEquals(first.GetAttr("result")) {
		t.Error("two drawings agree")
	}
	unknown := randomString(map[string]cty.Value{"length": cty.NumberIntVal(8), "override_special": cty.UnknownVal(cty.String)})
	if _, ok := drawRandom(unknown, 7, 0); ok {
		t.Error("drawn with override_special unknown")
	}
}

// TestShuffleResult: random_shuffle's result is computed when the object
// is created, so a plan has it unknown whatever the input, an empty one
// too; an apply gives the permutation, empty for an empty input or a
// result_count of 0, which no drawing decides.
func TestShuffleResult(t *testing.T) {
	shuffle := func(input cty.Value, count cty.Value) *lang.PlannedInstance {
		a := map[string]cty.Value{"input": input, "result_count": count, "keepers": cty.NullVal(cty.Map(cty.String)), "seed": cty.NullVal(cty.String)}
		p := map[string]cty.Value{"input": input, "result_count": count, "keepers": a["keepers"], "seed": a["seed"], "result": cty.UnknownVal(cty.List(cty.String)), "id": cty.UnknownVal(cty.String)}
		return &lang.PlannedInstance{Addr: "random_shuffle.s", Resource: &config.Resource{Mode: config.ManagedResourceMode, Type: "random_shuffle", Name: "s"}, Arguments: cty.ObjectVal(a), Planned: cty.ObjectVal(p)}
	}
	empty := cty.ListValEmpty(cty.String)
	two := cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})
	noCount := cty.NullVal(cty.Number)
	for _, tc := range []struct {
		name        string
		input, n    cty.Value
		planning    bool
		wantKnown   bool
		wantLen     int
		wantDrawing bool
	}{
		{"plan, empty input", empty, noCount, true, false, 0, false},
		{"plan, two items", two, noCount, true, false, 0, false},
		{"plan, none asked for", two, cty.Zero, true, false, 0, false},
		{"apply, empty input", empty, noCount, false, true, 0, false},
		{"apply, none asked for", two, cty.Zero, false, true, 0, false},
		{"apply, two items", two, noCount, false, true, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := randomObject(shuffle(tc.input, tc.n), 3, 0, tc.planning)
			if !ok {
				t.Fatal("not planned")
			}
			r := v.GetAttr("result")
			if marks.Has(r, marks.Drawn) != tc.wantDrawing {
				t.Errorf("result %#v: drawn mark %v, want %v", r, !tc.wantDrawing, tc.wantDrawing)
			}
			r, _ = r.Unmark()
			if r.IsKnown() != tc.wantKnown {
				t.Fatalf("result %#v, want known %v", r, tc.wantKnown)
			}
			if tc.wantKnown && r.LengthInt() != tc.wantLen {
				t.Errorf("result %#v, want %d elements", r, tc.wantLen)
			}
		})
	}
}

func TestMockedRandomHasItsSchema(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
resource "random_uuid" "name" {}
resource "random_integer" "port" {
  min = 1024
  max = 2048
}
output "name" { value = random_uuid.name.result }
`,
		"tests/a.tftest.hcl": `
mock_provider "random" {}
run "apply" {
  assert {
    condition     = length(output.name) == 8 && random_integer.port.result == 0
    error_message = "name ${output.name}, port ${random_integer.port.result}"
  }
}
`}, dialect.Terraform)
	if got := statuses(rep); got["tests/a.tftest.hcl::apply"] != "pass" {
		t.Errorf("statuses %v, diagnostics %v", got, summaries(rep))
	}
}

// TestUnmockedRandomApplies: an apply creates hashicorp/random's objects
// without the provider, their random values unknown. Assertions that do
// not read them are decided; one that does is skipped for the provider,
// and so is a run whose random arguments the provider would reject
// (length 0, min above max, every character class turned off): tfeval
// does not invent the provider's errors.
func TestUnmockedRandomApplies(t *testing.T) {
	main := `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
variable "length" {
  type    = number
  default = 6
}
variable "lower" {
  type    = bool
  default = true
}
variable "max" {
  type    = number
  default = 9
}
resource "random_string" "suffix" {
  length  = var.length
  special = false
  upper   = false
  numeric = false
  lower   = var.lower
}
resource "random_integer" "port" {
  min = 1
  max = var.max
}
output "name" { value = "app-${random_string.suffix.result}" }
output "env"  { value = "dev" }
`
	rep := runFiles(t, map[string]string{
		"main.tf": main,
		"tests/a.tftest.hcl": `
run "env" {
  assert {
    condition     = output.env == "dev"
    error_message = "env"
  }
}
run "name" {
  assert {
    condition     = output.name == "app-abcdef"
    error_message = "name"
  }
}
run "wrong" {
  assert {
    condition     = output.env == "prod"
    error_message = "env is not prod"
  }
}
`,
		"tests/b.tftest.hcl": `
run "zero" {
  variables {
    length = 0
  }
}
`,
		"tests/c.tftest.hcl": `
run "inverted" {
  variables {
    max = 0
  }
}
`,
		"tests/d.tftest.hcl": `
run "no_class" {
  variables {
    lower = false
  }
}
`}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{
		"tests/a.tftest.hcl::env":      "pass",
		"tests/a.tftest.hcl::name":     "fail", // no drawing gives that name
		"tests/a.tftest.hcl::wrong":    "fail",
		"tests/b.tftest.hcl::zero":     "skip",
		"tests/c.tftest.hcl::inverted": "skip",
		"tests/d.tftest.hcl::no_class": "skip",
	})
	wantNeeds(t, rep, "hashicorp/random", "tests/b.tftest.hcl::zero")
}

// TestUnmockedRandomPlanned: a plan that creates a random object has what
// the provider draws unknown, as Terraform's has: a count or for_each over
// it is Terraform's error, in a plan run as in an apply run (which plans
// first), and so is a plan run's condition over it. A default the provider
// sets is known (a count over it is decided), and once an earlier run
// applied the object, the state's values are.
func TestUnmockedRandomPlanned(t *testing.T) {
	main := `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
variable "mode" {
  type    = string
  default = "none"
}
resource "random_string" "s" {
  length = 4
}
resource "random_id" "i" {
  byte_length = 2
}
resource "terraform_data" "counted" {
  count = var.mode == "count" ? length(random_string.s.result) : 0
  input = count.index
}
resource "terraform_data" "keyed" {
  for_each = var.mode == "for_each" ? toset([random_id.i.hex]) : toset([])
  input    = each.key
}
resource "terraform_data" "by_default" {
  count = random_string.s.upper ? 1 : 0
}
output "n" { value = length(terraform_data.counted) }
output "upper" { value = random_string.s.upper }
`
	rep := runFiles(t, map[string]string{
		"main.tf": main,
		"tests/a.tftest.hcl": `
run "count_in_apply" {
  variables {
    mode = "count"
  }
  assert {
    condition     = output.n == 4
    error_message = "n"
  }
}
`,
		"tests/b.tftest.hcl": `
run "count_in_plan" {
  command = plan
  variables {
    mode = "count"
  }
}
`,
		"tests/c.tftest.hcl": `
run "for_each" {
  variables {
    mode = "for_each"
  }
}
`,
		"tests/d.tftest.hcl": `
run "default_in_plan" {
  command = plan
  assert {
    condition     = output.upper
    error_message = "upper"
  }
}
run "condition_in_plan" {
  command = plan
  assert {
    condition     = length(random_id.i.hex) == 4
    error_message = "hex"
  }
}
`,
		"tests/e.tftest.hcl": `
run "create" {
}
run "count_after_apply" {
  command = plan
  variables {
    mode = "count"
  }
  assert {
    condition     = output.n == 4
    error_message = "n"
  }
}
`}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{
		"tests/a.tftest.hcl::count_in_apply":    "error",
		"tests/b.tftest.hcl::count_in_plan":     "error",
		"tests/c.tftest.hcl::for_each":          "error",
		"tests/d.tftest.hcl::condition_in_plan": "error",
		"tests/d.tftest.hcl::default_in_plan":   "pass",
		"tests/e.tftest.hcl::create":            "pass",
		"tests/e.tftest.hcl::count_after_apply": "pass",
	})
	for key, want := range map[string]string{
		"tests/a.tftest.hcl::count_in_apply":    "Invalid count argument",
		"tests/b.tftest.hcl::count_in_plan":     "Invalid count argument",
		"tests/c.tftest.hcl::for_each":          "Invalid for_each argument",
		"tests/d.tftest.hcl::condition_in_plan": "Unknown condition value",
	} {
		r := runOf(t, rep, key)
		found := false
		for _, d := range r.Diagnostics {
			found = found || d.Severity == hcl.DiagError && d.Summary == want
		}
		if !found {
			t.Errorf("%s: %v, want the error %q", key, r.Diagnostics, want)
		}
	}
}

// TestUnmockedRandomDraws: an applied random object holds values drawn as
// the provider draws them, so a condition every drawing satisfies is
// decided; the state keeps them while the arguments are unchanged (known
// in a later plan) and a changed argument draws anew; a condition that
// one drawing satisfies and another does not is a skip needing the
// provider.
func TestUnmockedRandomDraws(t *testing.T) {
	main := `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
variable "keeper" {
  type    = string
  default = "a"
}
resource "random_string" "s" {
  length      = 12
  special     = false
  min_numeric = 3
  keepers     = { k = var.keeper }
}
resource "random_password" "p" {
  length           = 10
  override_special = "_"
  min_special      = 2
}
resource "random_id" "i" {
  byte_length = 4
  prefix      = "x-"
}
resource "random_integer" "n" {
  min = 1
  max = 1000000
}
resource "random_pet" "pet" {
  length    = 3
  separator = "_"
}
resource "random_shuffle" "sh" {
  input        = ["a", "b", "c"]
  result_count = 2
}
resource "random_uuid" "u" {}
output "name" { value = "app-${random_string.s.result}" }
output "n"    { value = random_integer.n.result }
`
	rep := runFiles(t, map[string]string{
		"main.tf": main,
		"tests/a.tftest.hcl": `
run "first" {
  assert {
    condition     = length(output.name) == 16 && can(regex("^app-[a-zA-Z0-9]{12}$", output.name))
    error_message = "name"
  }
  assert {
    condition     = length(regexall("[0-9]", random_string.s.result)) >= 3
    error_message = "min_numeric"
  }
  assert {
    condition     = issensitive(random_password.p.result) && length(nonsensitive(random_password.p.result)) == 10 && length(regexall("_", nonsensitive(random_password.p.result))) >= 2
    error_message = "password"
  }
  assert {
    condition     = can(regex("^x-[0-9a-f]{8}$", random_id.i.hex)) && startswith(random_id.i.b64_std, "x-") && !startswith(random_id.i.id, "x-")
    error_message = "id"
  }
  assert {
    condition     = random_integer.n.result >= 1 && random_integer.n.result <= 1000000 && random_integer.n.id == tostring(random_integer.n.result)
    error_message = "integer"
  }
  assert {
    condition     = length(split("_", random_pet.pet.id)) == 3 && length(random_shuffle.sh.result) == 2 && length(setsubtract(random_shuffle.sh.result, ["a", "b", "c"])) == 0
    error_message = "pet or shuffle"
  }
  assert {
    condition     = can(regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", random_uuid.u.result))
    error_message = "uuid"
  }
}
run "kept" {
  command = plan
  assert {
    condition     = output.name == run.first.name && output.n == run.first.n
    error_message = "the state's values are kept"
  }
}
run "replaced" {
  variables {
    keeper = "b"
  }
  assert {
    condition     = output.name != run.first.name && output.n == run.first.n
    error_message = "a changed keeper draws anew"
  }
}
`,
		"tests/b.tftest.hcl": `
run "reveal" {
  assert {
    condition     = output.n == 0
    error_message = "n is ${output.n}"
  }
}
`}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{
		"tests/a.tftest.hcl::first":    "pass",
		"tests/a.tftest.hcl::kept":     "pass",
		"tests/a.tftest.hcl::replaced": "pass",
		"tests/b.tftest.hcl::reveal":   "fail",
	})
	// A condition only the first drawing satisfies.
	var drawn string
	for _, d := range runOf(t, rep, "tests/b.tftest.hcl::reveal").Diagnostics {
		if d.Summary == "Test assertion failed" {
			drawn = strings.TrimPrefix(d.Detail, "n is ")
		}
	}
	if drawn == "" {
		t.Fatalf("no drawn value in %v", summaries(rep))
	}
	rep = runFiles(t, map[string]string{
		"main.tf": main,
		"tests/c.tftest.hcl": fmt.Sprintf(`
run "lucky" {
  assert {
    condition     = output.n == %s
    error_message = "n"
  }
}
`, drawn)}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/c.tftest.hcl::lucky": "skip"})
	wantNeeds(t, rep, "hashicorp/random", "tests/c.tftest.hcl::lucky")
}

// TestUnmockedRandomSecondDrawing: the second drawing carries out what a
// verdict that read a drawn value needs, when it needs it: runs whose
// assertions and whose module's rules read none are not carried out again
// until a later run's do, which then starts from the state the second
// drawing's earlier runs leave (run.draws.n is its own there).
func TestUnmockedRandomSecondDrawing(t *testing.T) {
	main := `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
variable "keeper" {
  type    = string
  default = "a"
}
variable "checked" {
  type    = bool
  default = false
}
resource "random_integer" "n" {
  min     = 1
  max     = 1000000
  keepers = { k = var.keeper }
}
resource "terraform_data" "t" {
  count = var.checked ? 1 : 0
  lifecycle {
    precondition {
      condition     = random_integer.n.result > 0
      error_message = "drawn below min"
    }
  }
}
output "n" { value = random_integer.n.result }
output "keeper" { value = var.keeper }
`
	tests := `
run "draws" {
  assert {
    condition     = output.keeper == "a"
    error_message = "keeper"
  }
}
run "plans" {
  command = plan
  assert {
    condition     = output.keeper == "a"
    error_message = "keeper"
  }
}
run "checks" {
  command = plan
  variables {
    checked = true
  }
}
run "redraws" {
  variables {
    keeper = "b"
  }
  assert {
    condition     = output.n != run.draws.n
    error_message = "a changed keeper draws anew"
  }
}
run "keeps" {
  command = plan
  variables {
    keeper = "b"
  }
  assert {
    condition     = output.n == run.redraws.n
    error_message = "kept"
  }
}
`
	dir := testfiles.Dir(t, map[string]string{"main.tf": main, "tests/a.tftest.hcl": tests})
	r, files, diags := newRunner(Options{
		WorkDir: dir, TestDirectory: DefaultTestDirectory,
		Load: func(sub, key string) (*config.Config, hcl.Diagnostics) {
			return config.Load(sub, config.Options{WorkDir: dir, ManifestDir: ".", ManifestKey: key})
		},
	})
	if diags.HasErrors() || len(files) != 1 {
		t.Fatal(diags)
	}
	fs := newFileState()
	var second *secondDrawing
	// The runs the second drawing has carried out after each run.
	want := []int{0, 0, 3, 4, 5}
	for i, w := range want {
		rr := r.runDrawn(files[0], fs, &second, i)
		if rr.Status != Pass {
			t.Errorf("%s: %s %s %v", rr.Name, rr.Status, rr.SkipReason, rr.Diagnostics)
		}
		if second == nil || second.next != w {
			t.Fatalf("after %s: second drawing %+v, want %d runs carried out", rr.Name, second, w)
		}
	}
}

// TestUnmockedRandomMoved: a moved block keeps a drawn random object as
// the state has it.
func TestUnmockedRandomMoved(t *testing.T) {
	rep := runFiles(t, map[string]string{
		"main.tf": `output "ok" { value = true }`,
		"v1/main.tf": `
resource "random_string" "old" { length = 10 }
output "s" { value = random_string.old.result }
`,
		"v2/main.tf": `
resource "random_string" "new" { length = 10 }
moved {
  from = random_string.old
  to   = random_string.new
}
output "s" { value = random_string.new.result }
`,
		"tests/a.tftest.hcl": `
run "v1" {
  state_key = "s"
  module {
    source = "./v1"
  }
}
run "v2" {
  state_key = "s"
  module {
    source = "./v2"
  }
  assert {
    condition     = output.s == run.v1.s
    error_message = "drawn anew"
  }
}
`}, dialect.Terraform)
	wantStatuses(t, rep, map[string]string{"tests/a.tftest.hcl::v2": "pass"})
}
