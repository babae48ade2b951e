package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
)

// traversalSet renders traversals in a sorted list: dynblock collects a
// body's attributes in map order, so only the set is comparable.
func traversalSet(ts []hcl.Traversal) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = fmt.Sprintf("%s@%s", t.RootName(), t.SourceRange())
	}
	slices.Sort(out)
	return out
}

func checkBodyVariables(t *testing.T, what string, body hcl.Body, spec hcldec.Spec) {
	t.Helper()
	got, want := traversalSet(bodyVariables(body, spec)), traversalSet(dynblock.VariablesHCLDec(body, spec))
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

// TestBodyVariables compares bodyVariables with dynblock on nested and
// dynamic blocks (iterators renamed, shadowed and inherited, labels,
// invalid iterators) and on every block body of the fixtures.
func TestBodyVariables(t *testing.T) {
	inner := &hcldec.BlockListSpec{TypeName: "opt", Nested: hcldec.ObjectSpec{
		"k": &hcldec.AttrSpec{Name: "k", Type: cty.DynamicPseudoType},
	}}
	spec := hcldec.ObjectSpec{
		"a": &hcldec.AttrSpec{Name: "a", Type: cty.DynamicPseudoType},
		"rule": &hcldec.BlockListSpec{TypeName: "rule", Nested: hcldec.ObjectSpec{
			"port": &hcldec.AttrSpec{Name: "port", Type: cty.DynamicPseudoType},
			"opt":  inner,
		}},
		"named": &hcldec.BlockMapSpec{TypeName: "named", LabelNames: []string{"key"}, Nested: hcldec.ObjectSpec{
			"v": &hcldec.AttrSpec{Name: "v", Type: cty.DynamicPseudoType},
		}},
	}
	forEachParsed(t, []string{
		`a = var.x`,
		"a = var.x\nunknown = var.y\nrule {\n port = local.p\n}\n",
		"dynamic \"rule\" {\n for_each = var.rules\n content {\n port = rule.value + local.q\n }\n}\n",
		"dynamic \"rule\" {\n for_each = var.rules\n iterator = r\n content {\n port = r.value + rule.x\n dynamic \"opt\" {\n for_each = r.value.opts\n content {\n k = opt.key + r.key + var.z\n }\n }\n }\n}\n",
		"dynamic \"rule\" {\n for_each = rule\n content {\n dynamic \"opt\" {\n for_each = [rule.value, opt]\n iterator = rule\n content {\n k = rule.key\n }\n }\n }\n}\n",
		"dynamic \"named\" {\n for_each = var.m\n labels = [named.key, var.l]\n content {\n v = named.value\n }\n}\n",
		"dynamic \"rule\" {\n for_each = var.r\n iterator = \"bad\"\n content {\n port = var.p\n }\n}\n",
		"dynamic \"rule\" {\n for_each = var.r\n content {\n port = 1\n }\n content {\n port = rule.x + var.two\n }\n}\n",
		"dynamic \"missing\" {\n for_each = var.r\n content {\n port = var.never\n }\n}\n",
		"dynamic {\n for_each = var.r\n}\nnamed \"k\" {\n v = var.v\n}\nnamed {\n v = var.nolabel\n}\n",
		"rule {\n opt {\n k = [for x in var.xs : x + rule]\n }\n}\n",
		// Nested bodies, read without hcl's copies: blocks with labels
		// their type does not take, dynamic blocks without one label,
		// content blocks with labels, unknown attributes.
		"rule {\n port = var.p\n other = var.no\n opt \"l\" {\n k = var.labelled\n }\n opt {\n k = var.k\n }\n dynamic {\n for_each = var.nolabel\n }\n dynamic \"opt\" \"x\" {\n for_each = var.twolabels\n }\n dynamic \"opt\" {\n for_each = var.o\n iterator = it\n content \"c\" {\n k = var.labelledcontent\n }\n content {\n k = it.value + opt.x + rule.y\n }\n }\n}\n",
		"dynamic \"rule\" {\n for_each = var.r\n content {\n dynamic \"opt\" {\n for_each = rule.value\n labels = [rule.key]\n content {\n k = opt.value + rule.value + var.deep\n }\n }\n unknown {\n x = var.never\n }\n }\n}\n",
	}, func(name string, body hcl.Body) {
		checkBodyVariables(t, name, body, spec)
	})

	bodies := 0
	parsedFixtures(t, func(path string, body *hclsyntax.Body) {
		for _, b := range body.Blocks {
			bodies++
			checkBodyVariables(t, fmt.Sprintf("%s: %s block", path, b.Type), b.Body, impliedSpec(b.Body))
			checkBodyVariables(t, fmt.Sprintf("%s: %s block, fixed spec", path, b.Type), b.Body, spec)
		}
	})
	if bodies < 200 {
		t.Errorf("only %d fixture blocks compared", bodies)
	}
}

// TestResourceBodyVariables: a resource body's references, read from its
// block's syntax without the meta-arguments config took out, are those
// read through the body config left, for every resource of the fixtures'
// modules, with the spec its body implies and with one that names
// meta-arguments too; and for resources with meta-arguments, dynamic
// blocks and a body an override file changed.
func TestResourceBodyVariables(t *testing.T) {
	meta := hcldec.ObjectSpec{
		"a":        &hcldec.AttrSpec{Name: "a", Type: cty.DynamicPseudoType},
		"count":    &hcldec.AttrSpec{Name: "count", Type: cty.DynamicPseudoType},
		"provider": &hcldec.AttrSpec{Name: "provider", Type: cty.DynamicPseudoType},
		"lifecycle": &hcldec.BlockListSpec{TypeName: "lifecycle", Nested: hcldec.ObjectSpec{
			"ignore_changes": &hcldec.AttrSpec{Name: "ignore_changes", Type: cty.DynamicPseudoType},
		}},
		"rule": &hcldec.BlockListSpec{TypeName: "rule", Nested: hcldec.ObjectSpec{
			"port": &hcldec.AttrSpec{Name: "port", Type: cty.DynamicPseudoType},
		}},
	}
	check := func(where string, res *config.Resource) {
		for _, spec := range []hcldec.Spec{resourceImpliedSpec(res), meta} {
			schema := hcldec.ImpliedSchema(spec)
			got, want := traversalSet(resourceBodyVariables(res, spec, schema)), traversalSet(bodyVariablesOf(res.Config, spec, schema))
			if !slices.Equal(got, want) {
				t.Errorf("%s:\n got %v\nwant %v", where, got, want)
			}
		}
	}
	compared := 0
	eachFixtureResource(t, func(where string, res *config.Resource) {
		if _, _, ok := res.VisibleSyntax(); ok {
			compared++
		}
		check(where, res)
	})
	if compared < 50 {
		t.Errorf("only %d resources read from their syntax", compared)
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.tf": `resource "x" "a" {
  count    = var.n
  provider = x.other
  a        = var.a
  depends_on = [x.b]
  lifecycle {
    ignore_changes = [a]
    precondition {
      condition     = var.ok
      error_message = "no"
    }
  }
  rule {
    port = local.p
  }
  dynamic "rule" {
    for_each = var.rules
    content {
      port = rule.value + var.q
    }
  }
  dynamic "lifecycle" {
    for_each = var.never
  }
  provisioner "local-exec" {
    command = var.cmd
  }
  connection {
    host = var.host
  }
}
resource "x" "b" {
  a = 1
}
`,
		"main_override.tf": "resource \"x\" \"b\" {\n  a = var.overridden\n  count = var.c\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _ := config.Load(dir, config.Options{})
	if cfg == nil || cfg.Module == nil {
		t.Fatal("no module")
	}
	a, b := cfg.Module.ManagedResources["x.a"], cfg.Module.ManagedResources["x.b"]
	if _, _, ok := a.VisibleSyntax(); !ok {
		t.Fatal("x.a is not read from its syntax")
	}
	check("x.a", a)
	check("x.b, overridden", b)
	if got := traversalSet(resourceBodyVariables(a, meta, hcldec.ImpliedSchema(meta))); len(got) != 5 {
		t.Errorf("x.a with meta-argument names in its spec: %v, want var.a, local.p, var.rules, var.q and var.never (a dynamic block is not hidden by its label)", got)
	}
}

// FuzzBodyVariables compares bodyVariables with dynblock on arbitrary
// bodies, read with the spec they imply and with a fixed one.
func FuzzBodyVariables(f *testing.F) {
	for _, s := range []string{
		"a = var.x\nrule {\n port = local.p\n}\n",
		"dynamic \"rule\" {\n for_each = var.rules\n iterator = r\n content {\n port = r.value\n dynamic \"opt\" {\n for_each = r.value\n content {\n k = opt.key + r.key\n }\n }\n }\n}\n",
		"dynamic \"named\" {\n for_each = var.m\n labels = [named.key]\n content {\n v = named.value\n }\n}\n",
	} {
		f.Add(s)
	}
	spec := hcldec.ObjectSpec{
		"a": &hcldec.AttrSpec{Name: "a", Type: cty.DynamicPseudoType},
		"rule": &hcldec.BlockListSpec{TypeName: "rule", Nested: hcldec.ObjectSpec{
			"port": &hcldec.AttrSpec{Name: "port", Type: cty.DynamicPseudoType},
			"opt": &hcldec.BlockSetSpec{TypeName: "opt", Nested: hcldec.ObjectSpec{
				"k": &hcldec.AttrSpec{Name: "k", Type: cty.DynamicPseudoType},
			}},
		}},
		"named": &hcldec.BlockMapSpec{TypeName: "named", LabelNames: []string{"key"}, Nested: hcldec.ObjectSpec{
			"v": &hcldec.AttrSpec{Name: "v", Type: cty.DynamicPseudoType},
		}},
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		file, _ := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		if file == nil || file.Body == nil {
			return
		}
		checkBodyVariables(t, "fixed spec", file.Body, spec)
		checkBodyVariables(t, "implied spec", file.Body, impliedSpec(file.Body))
	})
}

// forEachParsed parses each source as a native-syntax file and calls check
// with its body, named by the source's index.
func forEachParsed(t *testing.T, srcs []string, check func(name string, body hcl.Body)) {
	t.Helper()
	for i, src := range srcs {
		f, diags := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%d: %s", i, diags.Error())
		}
		check(fmt.Sprintf("case %d", i), f.Body)
	}
}

// TestUngeneratedContentReferences: a reference inside a dynamic block's
// content is resolved only where the block is generated, as Terraform
// expands a body before it checks the references left: a misspelt
// iterator or an undeclared name there is no error while the collection
// is empty or unknown, and is one for the instances it has elements in.
func TestUngeneratedContentReferences(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{"main.tf": `
variable "lists" {
  default = [[], ["a"]]
}
resource "terraform_data" "u" {
  input = ["a"]
}
resource "aws_thing" "counted" {
  count = 2
  dynamic "setting" {
    for_each = var.lists[count.index]
    content {
      value = settings.value
    }
  }
}
resource "aws_thing" "unknown" {
  dynamic "setting" {
    for_each = terraform_data.u.output
    content {
      value = local.nope
    }
  }
  nested {
    dynamic "inner" {
      for_each = []
      content {
        value = var.nope
      }
    }
  }
}
resource "aws_thing" "outside" {
  name = var.missing
  dynamic "setting" {
    for_each = []
    content {
      value = var.nope
    }
  }
}`}, Options{})
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s@%d", d.Summary, d.Subject.Start.Line))
	}
	want := []string{"Reference to undeclared resource@13", "Reference to undeclared input variable@34"}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}

// TestAppendOutside: the traversals of an expression are walked into the
// caller's list, those starting at an iterator in scope taken out again,
// in the order variables gives them, and with room in the list nothing
// is allocated but the list of names a for expression binds.
func TestAppendOutside(t *testing.T) {
	inner := &iteratorScope{name: "rule", parent: &iteratorScope{name: "setting"}}
	for src, want := range map[string][]string{
		`var.a`:                    {"var"},
		`"${var.a}-${rule.value}"`: {"var"},
		`[for s in setting.value : s if local.x] `:                            {"local"},
		`merge(local.tags, rule.value.tags, each.value, { n = count.index })`: {"local", "each", "count"},
		`[for x in var.list : x.name]`:                                        {"var"},
		`setting.key`:                                                         nil,
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		prefix := hcl.Traversal{hcl.TraverseRoot{Name: "before"}}
		out := make([]hcl.Traversal, 1, 16)
		out[0] = prefix
		appendOutside(&out, expr, inner)
		got := []string{}
		for _, tr := range out[1:] {
			got = append(got, tr.RootName())
		}
		var kept []string
		for _, tr := range variables(expr) {
			if !inner.inScope(tr.RootName()) {
				kept = append(kept, tr.RootName())
			}
		}
		if out[0].RootName() != "before" || !slices.Equal(got, kept) || len(got) != len(want) || !slices.Equal(got, append([]string{}, want...)) {
			t.Errorf("%s: %v, want %v (variables then filtered: %v)", src, got, want, kept)
		}
		max := 0.0
		if strings.Contains(src, "for ") {
			max = 1
		}
		if n := testing.AllocsPerRun(10, func() {
			out = out[:1]
			appendOutside(&out, expr, inner)
		}); n > max {
			t.Errorf("%s: %.0f allocations with room in the list", src, n)
		}
	}
}
