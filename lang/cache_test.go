package lang

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
)

// parsedFixtures calls fn with every native syntax file of the
// repository's fixtures that parses without errors.
func parsedFixtures(t *testing.T, fn func(path string, body *hclsyntax.Body)) {
	t.Helper()
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".tf") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
		if !diags.HasErrors() {
			fn(path, f.Body.(*hclsyntax.Body))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// corpusExprs is every kind of node with a call at its bottom (plain,
// provider::, core:: or none), and every expression of the fixtures.
func corpusExprs(t *testing.T) []hclsyntax.Expression {
	t.Helper()
	var exprs []hclsyntax.Expression
	for _, inner := range []string{"f(1)", "provider::p::f(1)", "core::upper(\"a\")", "x"} {
		for _, src := range []string{
			"%s", "a.b[%s]", "(%s).c", "(%s)[0]", "c ? %s : 1", "c ? 1 : %s", "%s ? 1 : 2",
			"[1, %s]", "{a = %s}", "{(%s) = 1}", "[for x in %s : x]", "[for x in l : %s]",
			"{for k, v in m : k => %s}", "{for k, v in m : %s => v}", "[for x in l : x if %s]",
			"%s[*].a", "l[*].a[%s]", "1 + %s", "-%s", "!%s", "\"a${%s}b\"",
			"\"%{for x in %s}${x}%{endfor}\"", "\"%{if %s}a%{endif}\"", "g(1, %s)", "g(%s...)",
		} {
			e, diags := hclsyntax.ParseExpression([]byte(strings.ReplaceAll(src, "%s", inner)), "t.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatalf("%s: %s", src, diags.Error())
			}
			exprs = append(exprs, e)
		}
	}
	parsedFixtures(t, func(_ string, body *hclsyntax.Body) {
		_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
			if a, ok := n.(*hclsyntax.Attribute); ok {
				exprs = append(exprs, a.Expr)
			}
			return nil
		})
	})
	return exprs
}

// TestCallsNamespaced compares callsNamespaced with hcl's walk (the
// fallback it keeps for unknown nodes) on every
// kind of node, a namespaced call at the bottom of each, and on every
// expression of the repository's fixtures.
func TestCallsNamespaced(t *testing.T) {
	exprs := corpusExprs(t)
	namespaced := 0
	for _, e := range exprs {
		want := visitNamespaced(e)
		if got := callsNamespaced(e); got != want {
			t.Errorf("%s: callsNamespaced = %v, hcl's walk says %v", e.Range(), got, want)
		}
		if want {
			namespaced++
		}
	}
	if namespaced < 40 {
		t.Errorf("only %d of %d expressions call a namespaced function; the test needs more", namespaced, len(exprs))
	}
}

// TestVariablesMatchesHCL compares variables with the expressions' own
// Variables method on the same corpus: the same traversals, in the same
// order, for-expression variables left out at every depth.
func TestVariablesMatchesHCL(t *testing.T) {
	exprs := corpusExprs(t)
	for _, src := range []string{
		"[for x in l : x + y]", "[for k, v in m : [for x in v : x + k + z]]", "{for k, v in m : k => v if v != w}",
		"[for x in x : x]", "{a = b, (c) = d, \"e\" = f, null = g, true = h}", "a[*].b[c]", "\"${a}-%{for x in b}${x}${c}%{endfor}\"",
		"[for x in l : {x = x, y = x}]", "f(a...)", "(a).b[c.d]",
	} {
		e, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags.Error())
		}
		exprs = append(exprs, e)
	}
	for _, e := range exprs {
		want := e.Variables()
		got := variables(e)
		if len(got) != len(want) {
			t.Errorf("%s: %d traversals, hcl finds %d", e.Range(), len(got), len(want))
			continue
		}
		for i := range want {
			if got[i].RootName() != want[i].RootName() || got[i].SourceRange() != want[i].SourceRange() {
				t.Errorf("%s: traversal %d is %s at %s, hcl's is %s at %s", e.Range(), i, got[i].RootName(), got[i].SourceRange(), want[i].RootName(), want[i].SourceRange())
			}
		}
	}
}

// A resource block's shape (its decoder spec and references) is kept with
// the block: a second evaluation of the same loaded module, as a scan's
// roots share one from the module cache, does not work it out again.
func TestResourceShapeKeptWithBlock(t *testing.T) {
	dir := t.TempDir()
	src := `
variable "name" {
  default = "x"
}
resource "example_thing" "a" {
  input = { name = var.name }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(dir, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	res := cfg.Module.ManagedResources["example_thing.a"]
	var opts Options
	key := resourceShapeKey{nil, opts.Dialect}
	kept := func() *resourceShape {
		v := res.Derived(key, func() any { return (*resourceShape)(nil) })
		return v.(*resourceShape)
	}
	var shapes []*resourceShape
	for range 2 {
		r, diags := Evaluate(cfg, Options{Cwd: dir})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if got := r.Resources[0].Value.GetAttr("input").GetAttr("name"); got.AsString() != "x" {
			t.Fatalf("input.name = %#v", got)
		}
		shapes = append(shapes, kept())
		if shapes[0] == nil || len(shapes[0].bodyRefs) != 1 {
			t.Fatalf("no shape kept with the block after an evaluation: %#v", shapes[0])
		}
	}
	if shapes[1] != shapes[0] {
		t.Error("the second evaluation made the shape again")
	}
}

// A resource body's decoders are made only for a body decoded: a resource
// with no instance, whose body is only validated for its errors, is walked
// without them (terraform-aws-eks has 94 such resources).
func TestResourceDecodersMadeOnNeed(t *testing.T) {
	block := `
  name = var.name
  setting {
    value = var.name
  }
}`
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "name" {
  default = "x"
}
resource "example_thing" "on" {` + block + `
resource "example_thing" "off" {
  count = 0` + block}, Options{ValidateUnexpanded: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := res.Resources[0].Value.GetAttr("setting").Index(cty.Zero).GetAttr("value"); got != cty.StringVal("x") {
		t.Fatalf("setting[0].value = %#v", got)
	}
	mod := res.ev.cfg.Module
	for name, want := range map[string]bool{"example_thing.on": true, "example_thing.off": false} {
		sh := resourceShapeOf(mod.ManagedResources[name], nil, res.ev.opts.Dialect)
		if made := sh.decoded.made; made != want {
			t.Errorf("%s: decoders made %v, want %v", name, made, want)
		}
	}
}
