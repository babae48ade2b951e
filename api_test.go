package tfeval

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/format"
	"github.com/tfeval/tfeval/marks"
)

func TestLookup(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String),
		"name": cty.StringVal("web").Mark(marks.Sensitive),
		"tags": cty.MapVal(map[string]cty.Value{"k8s.io/role": cty.StringVal("node")}),
		"list": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)})}),
		"null": cty.NullVal(cty.String),
		"dyn":  cty.DynamicVal,
	})
	tests := []struct {
		path    string
		want    cty.Value
		wantErr bool
	}{
		{"", v, false},
		{"id", cty.UnknownVal(cty.String), false},
		{"name", cty.StringVal("web").Mark(marks.Sensitive), false},
		{`tags["k8s.io/role"]`, cty.StringVal("node"), false},
		{"list[0].x", cty.NumberIntVal(1), false},
		{"null", cty.NullVal(cty.String), false},
		{"dyn.anything[3]", cty.DynamicVal, false},
		{"missing", cty.NilVal, true},
		{"list[5]", cty.NilVal, true},
		{"list[", cty.NilVal, true},
	}
	for _, tt := range tests {
		got, err := Lookup(v, tt.path)
		if (err != nil) != tt.wantErr {
			t.Errorf("Lookup(%q) error = %v, want error %v", tt.path, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !got.RawEquals(tt.want) {
			t.Errorf("Lookup(%q) = %#v, want %#v", tt.path, got, tt.want)
		}
	}
	if got, err := Lookup(cty.TupleVal([]cty.Value{cty.True}), "[0]"); err != nil || !got.RawEquals(cty.True) {
		t.Errorf("Lookup([0]) = %#v, %v", got, err)
	}
}

func TestUnknownAndSensitivePaths(t *testing.T) {
	tests := []struct {
		name                string
		v                   cty.Value
		unknown, sensitives []string
	}{
		{"known", cty.StringVal("a"), nil, nil},
		{"whole unknown", cty.UnknownVal(cty.String), []string{""}, nil},
		{"whole sensitive", cty.StringVal("a").Mark(marks.Sensitive), nil, []string{""}},
		{"sensitive unknown", cty.UnknownVal(cty.String).Mark(marks.Sensitive), []string{""}, []string{""}},
		{"null", cty.NullVal(cty.Map(cty.String)), nil, nil},
		{"nested", cty.ObjectVal(map[string]cty.Value{
			"a": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.UnknownVal(cty.String)}),
			"b": cty.ObjectVal(map[string]cty.Value{"c d": cty.UnknownVal(cty.Bool)}),
			"s": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v").Mark(marks.Sensitive)}),
		}), []string{"a[1]", `b["c d"]`}, []string{`s["k"]`}},
		{"set", cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), []string{"[1]"}, nil},
	}
	for _, tt := range tests {
		if got := UnknownPaths(tt.v); !slices.Equal(got, tt.unknown) {
			t.Errorf("%s: UnknownPaths = %q, want %q", tt.name, got, tt.unknown)
		}
		if got := SensitivePaths(tt.v); !slices.Equal(got, tt.sensitives) {
			t.Errorf("%s: SensitivePaths = %q, want %q", tt.name, got, tt.sensitives)
		}
	}
}

func TestFormatPath(t *testing.T) {
	p := cty.GetAttrPath("a").Index(cty.NumberIntVal(2)).Index(cty.StringVal(`x"y`)).GetAttr("b c").GetAttr("d")
	if got, want := FormatPath(p), `a[2]["x\"y"]["b c"].d`; got != want {
		t.Errorf("FormatPath = %s, want %s", got, want)
	}
}

// TestEvaluationWithoutConfig checks every accessor is safe when nothing loaded.
func TestEvaluationWithoutConfig(t *testing.T) {
	ev := Evaluate(Options{WorkDir: t.TempDir(), Dir: "does-not-exist"})
	if !ev.HasErrors() {
		t.Fatal("missing directory gave no error")
	}
	if ev.Outputs() != nil || ev.Resources() != nil || ev.Variables() != nil || ev.Checks() != nil || ev.Modules() != nil || ev.Module("") != nil {
		t.Error("accessors of a failed evaluation should be empty")
	}
	if _, ok := ev.Output("x"); ok {
		t.Error("Output found in a failed evaluation")
	}
	if _, ok := ev.Resource("x.y"); ok {
		t.Error("Resource found in a failed evaluation")
	}
	if _, diags := ev.Eval("1", ""); !diags.HasErrors() {
		t.Error("Eval in a failed evaluation gave no error")
	}
	if g, _ := Graph(Options{WorkDir: t.TempDir(), Dir: "does-not-exist"}); g == nil || len(g.Nodes) != 0 {
		t.Error("Graph of a missing directory should be empty")
	}
}

func TestEvalModuleInstances(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
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
	writeFiles(t, dir, map[string]string{"main.tf": `
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

func TestGraphDeterministic(t *testing.T) {
	first, _ := Graph(Options{WorkDir: "testdata/examples/quickstart"})
	for range 5 {
		g, _ := Graph(Options{WorkDir: "testdata/examples/quickstart"})
		if format.DOT(g) != format.DOT(first) || format.Mermaid(g) != format.Mermaid(first) {
			t.Fatal("graph output differs between runs")
		}
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
