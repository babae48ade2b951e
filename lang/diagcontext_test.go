package lang

import (
	"sort"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// The diagnostics Terraform shows the values of an expression under carry
// the expression and a detached context: no parent, only the root names
// the expression's references start with, and of the functions only the
// one the diagnostic is about. Those it shows none under (count's) carry
// neither; a for_each error about a sensitive value says so.
func TestDiagnosticExpressions(t *testing.T) {
	_, diags := evalFiles(t, map[string]string{
		"main.tf": `
variable "n" {
  default = 3
  validation {
    condition     = var.n > 5 && local.big
    error_message = "n too small"
  }
}
variable "sec" {
  default   = { a = "1" }
  sensitive = true
}
locals {
  big  = true
  obj  = { b = "x" }
}
resource "terraform_data" "x" {
  lifecycle {
    precondition {
      condition     = length(local.obj) > 4
      error_message = "x needs more"
    }
  }
}
resource "terraform_data" "s" {
  for_each = var.sec
}
resource "terraform_data" "c" {
  count = -1
}
output "o" {
  value = upper(local.obj)
}
check "health" {
  assert {
    condition     = { for k, v in { a = local.obj } : k => v.b } == {}
    error_message = "k"
  }
}
`}, Options{})
	type seen struct {
		roots    []string
		function string
		cause    ValueCause
	}
	got := map[string]seen{}
	for _, d := range diags {
		if d.EvalContext == nil {
			if d.Expression != nil {
				t.Errorf("%s: an expression without a context", d.Summary)
			}
			got[d.Summary] = seen{}
			continue
		}
		if d.Expression == nil || d.EvalContext.Parent() != nil || len(d.EvalContext.Functions) > 1 {
			t.Errorf("%s: context not detached (expression %v, parent %v, %d functions)", d.Summary, d.Expression, d.EvalContext.Parent(), len(d.EvalContext.Functions))
		}
		var s seen
		for name := range d.EvalContext.Variables {
			s.roots = append(s.roots, name)
		}
		sort.Strings(s.roots)
		for name := range d.EvalContext.Functions {
			s.function = name
		}
		s.cause, _ = hcl.DiagnosticExtra[ValueCause](d)
		got[d.Summary] = s
	}
	want := map[string]seen{
		"Invalid value for variable":   {roots: []string{"local", "var"}},
		"Resource precondition failed": {roots: []string{"local"}},
		"Invalid for_each argument":    {roots: []string{"var"}, cause: ValueCause{Sensitive: true}},
		"Invalid count argument":       {},
		"Invalid function argument":    {roots: []string{"local"}, function: "upper"},
		"Check block assertion failed": {roots: []string{"local"}},
	}
	for summary, w := range want {
		g, ok := got[summary]
		if !ok {
			t.Errorf("no %q diagnostic among %v", summary, diags)
			continue
		}
		if len(g.roots) != len(w.roots) || g.function != w.function || g.cause != w.cause {
			t.Errorf("%s: %+v, want %+v", summary, g, w)
			continue
		}
		for i := range g.roots {
			if g.roots[i] != w.roots[i] {
				t.Errorf("%s: roots %v, want %v", summary, g.roots, w.roots)
			}
		}
	}
}

// A detached context holds what the expression's references read, with a
// for expression's symbols from the child context it was evaluated in.
func TestDetachContext(t *testing.T) {
	parent := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var":   cty.ObjectVal(map[string]cty.Value{"x": cty.NumberIntVal(1)}),
		"local": cty.ObjectVal(map[string]cty.Value{"y": cty.NumberIntVal(2)}),
		"big":   cty.ObjectVal(map[string]cty.Value{"z": cty.True}),
	}}
	child := parent.NewChild()
	child.Variables = map[string]cty.Value{"v": cty.ObjectVal(map[string]cty.Value{"a": cty.True}), "var": cty.EmptyObjectVal}
	expr, diags := hclsyntax.ParseExpression([]byte(`var.x + local.y + v.a + count`), "x", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx := detachContext(expr, child, nil)
	if ctx.Parent() != nil || ctx.Functions != nil || len(ctx.Variables) != 3 {
		t.Fatalf("detached %v", ctx.Variables)
	}
	if !ctx.Variables["var"].RawEquals(cty.EmptyObjectVal) || !ctx.Variables["local"].RawEquals(parent.Variables["local"]) || ctx.Variables["v"].IsNull() {
		t.Errorf("detached %#v", ctx.Variables)
	}
}
