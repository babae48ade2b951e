package tfeval

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/render"
	"github.com/tfeval/tfeval/tfvars"

	"github.com/tfeval/tfeval/internal/testfiles"
)

// TestEvaluationWithoutConfig checks every accessor is safe when nothing
// loaded, on a nil Evaluation, and on the zero values accessors return
// for what they do not find.
func TestEvaluationWithoutConfig(t *testing.T) {
	ev := Evaluate(Options{WorkDir: t.TempDir(), Dir: "does-not-exist"})
	if !ev.HasErrors() {
		t.Fatal("missing directory gave no error")
	}
	var none *Evaluation
	for _, ev := range []*Evaluation{ev, none, {}} {
		if ev.Outputs() != nil || ev.Resources() != nil || ev.Variables() != nil || ev.Checks() != nil || ev.Modules() != nil || ev.Module("") != nil {
			t.Error("accessors of a failed evaluation should be empty")
		}
		if _, ok := ev.Output("x"); ok {
			t.Error("Output found in a failed evaluation")
		}
		r, ok := ev.Resource("x.y")
		if ok {
			t.Error("Resource found in a failed evaluation")
		}
		if v, err := r.Attr("a"); err == nil || v != cty.NilVal {
			t.Errorf("Attr of no resource = %#v, %v", v, err)
		}
		if r.AttrRange("a") != (hcl.Range{}) || r.Schema() != nil || r.UnknownPaths() != nil || r.SensitivePaths() != nil {
			t.Error("the zero Resource's methods should return nothing")
		}
		if _, diags := ev.Eval("1", ""); !diags.HasErrors() {
			t.Error("Eval in a failed evaluation gave no error")
		}
		_ = ev.HasErrors()
	}
	if rng := (Output{}).AttrRange("a"); rng != (hcl.Range{}) {
		t.Errorf("the zero Output's AttrRange = %s", rng)
	}
	if g, _ := Graph(Options{WorkDir: t.TempDir(), Dir: "does-not-exist"}); g == nil || len(g.Nodes) != 0 {
		t.Error("Graph of a missing directory should be empty")
	}
}

// TestVariableOrigins checks that each root variable's final value says
// where it was set: its default, the environment, terraform.tfvars, an
// .auto.tfvars file, a -var option, a -var-file (each with the file and
// the range of the value in it) or Go.
func TestVariableOrigins(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `variable "from_default" { default = "d" }
variable "from_env" {}
variable "from_tfvars" {}
variable "from_auto" {}
variable "from_flag" {}
variable "from_file" {}
variable "from_go" {}
variable "overridden" {}
`,
		"terraform.tfvars": "from_tfvars = \"t\"\noverridden = \"t\"\n",
		"b.auto.tfvars":    "from_auto = { k = [1, 2] }\n",
		"ci/extra.tfvars":  "from_file  = \"f\"\n",
		"ci/later.tfvars":  "overridden = \"later\"\n",
	}
	testfiles.Write(t, dir, files)
	ev := Evaluate(Options{
		WorkDir:   dir,
		Env:       []string{"TF_VAR_from_env=e", "TF_VAR_overridden=e"},
		VarArgs:   []Arg{Var("from_flag=x"), VarFile("ci/extra.tfvars"), Var("overridden=flag"), VarFile("ci/later.tfvars")},
		Variables: map[string]cty.Value{"from_go": cty.StringVal("g")},
	})
	if ev.HasErrors() {
		t.Fatal(ev.Diagnostics)
	}
	type origin struct {
		kind  tfvars.SourceKind
		file  string // the file the source names
		text  string // the text the range covers
		index int    // position among VarArgs
		words string // Source.String()
	}
	want := map[string]origin{
		"from_default": {tfvars.SourceDefault, "", `variable "from_default"`, 0, "default value declared at main.tf:1,1-24"},
		"from_env":     {tfvars.SourceEnv, "", "", 0, "set using the TF_VAR_from_env environment variable"},
		"from_tfvars":  {tfvars.SourceAutoFile, "terraform.tfvars", `"t"`, 0, "set in terraform.tfvars:1,15-18"},
		"from_auto":    {tfvars.SourceAutoFile, "b.auto.tfvars", "{ k = [1, 2] }", 0, "set in b.auto.tfvars:1,13-27"},
		"from_flag":    {tfvars.SourceVarFlag, "", "", 0, `set using -var="from_flag=..."`},
		"from_file":    {tfvars.SourceVarFile, "ci/extra.tfvars", `"f"`, 1, `set using -var-file="ci/extra.tfvars" at ci/extra.tfvars:1,14-17`},
		"from_go":      {tfvars.SourceGo, "", "", 0, "set from outside of the configuration"},
		// The last -var-file wins over the -var before it, as in Terraform.
		"overridden": {tfvars.SourceVarFile, "ci/later.tfvars", `"later"`, 3, `set using -var-file="ci/later.tfvars" at ci/later.tfvars:1,14-21`},
	}
	got := ev.Variables()
	if len(got) != len(want) {
		t.Fatalf("%d variables, want %d", len(got), len(want))
	}
	for _, v := range got {
		w, src := want[v.Name], v.Source
		if src.Kind != w.kind || src.File != w.file || src.Index != w.index || src.String() != w.words {
			t.Errorf("%s: source %v %q #%d %q, want %v %q #%d %q", v.Name, src.Kind, src.File, src.Index, src.String(), w.kind, w.file, w.index, w.words)
		}
		text := ""
		if src.HasRange() {
			content := files[filepath.ToSlash(src.Range.Filename)]
			text = content[src.Range.Start.Byte:src.Range.End.Byte]
		}
		if text != w.text {
			t.Errorf("%s: range %s covers %q, want %q", v.Name, src.Range, text, w.text)
		}
		if !v.Value.IsKnown() || v.Value.IsNull() {
			t.Errorf("%s: value %#v", v.Name, v.Value)
		}
	}
}

// TestVariablesWhenStopped: plan stops before evaluating anything when a
// required variable has no value; Variables still gives every other
// variable its value, and that one none.
func TestVariablesWhenStopped(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `variable "required" { type = string }
variable "with_default" {
  type    = object({ a = optional(number, 1) })
  default = {}
}
variable "given" { type = number }
`})
	ev := Evaluate(Options{WorkDir: dir, VarArgs: []Arg{Var("given=2")}})
	if !ev.HasErrors() || ev.Diagnostics[0].Summary != "No value for required variable" {
		t.Fatalf("diagnostics: %s", ev.Diagnostics)
	}
	got := map[string]string{}
	for _, v := range ev.Variables() {
		got[v.Name] = render.Value(v.Value) + " " + v.Source.Kind.String()
	}
	want := map[string]string{
		"required":     "(no value) none",
		"with_default": "{\n  \"a\" = 1\n} default",
		"given":        "2 var",
	}
	if !maps.Equal(got, want) {
		t.Errorf("variables = %q, want %q", got, want)
	}
}

func TestEvalModuleInstances(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{
		"main.tf": `module "m" {
  source   = "./m"
  for_each = toset(["a", "b"])
  x        = each.key
}`,
		"m/main.tf": `variable "x" {}
locals { y = "${var.x}!" }`,
	})
	ev := Evaluate(Options{WorkDir: dir})
	for addr, want := range map[string]string{`module.m["a"]`: "a!", `module.m["b"]`: "b!"} {
		v, diags := ev.Eval("local.y", addr)
		if diags.HasErrors() || v.AsString() != want {
			t.Errorf("%s: %#v %s", addr, v, diags)
		}
	}
	if _, diags := ev.Eval("1", "module.nope"); !diags.HasErrors() || diags[0].Summary != "No such module instance" {
		t.Errorf("unknown module: %s", diags)
	}
	if _, diags := ev.Eval("1 +", ""); !diags.HasErrors() {
		t.Error("syntax error not reported")
	}
}

func TestChecksResourceConditions(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"main.tf": `
resource "terraform_data" "r" {
  count = 2
  input = count.index
  lifecycle {
    precondition {
      condition     = count.index < 1
      error_message = "Only one."
    }
    postcondition {
      condition     = self.input == count.index
      error_message = "Mismatch."
    }
  }
}
variable "on" {
  default = true
}
output "o" {
  value = 1
  precondition {
    condition     = var.on
    error_message = "Never."
  }
}`})
	ev := Evaluate(Options{WorkDir: dir})
	var got []string
	for _, c := range ev.Checks() {
		got = append(got, c.Object+" "+c.Kind.String()+" "+c.Status.String())
	}
	want := []string{
		"output.o precondition pass",
		"terraform_data.r[0] precondition pass",
		"terraform_data.r[0] postcondition pass",
		"terraform_data.r[1] precondition fail",
		"terraform_data.r[1] postcondition unknown",
	}
	if !slices.Equal(got, want) {
		t.Errorf("checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
