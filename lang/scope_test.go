package lang

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
)

// TestScopeRareCopiedOnWrite: what only some scopes set (self, a check,
// names, ad hoc reads) is shared by the copies of a scope, so setting it
// on one copy (a postcondition's self, a check's block) leaves the scope
// it was copied from, and every other copy, as they were.
func TestScopeRareCopiedOnWrite(t *testing.T) {
	check := &config.Check{Name: "c"}
	names := map[string]cty.Value{"n": cty.True}
	reads := map[*config.Resource]*readTree{}
	for _, tc := range []struct {
		name string
		set  func(*scopeRare)
		read func(*scope) bool // whether s has what set sets
	}{
		{"self", func(r *scopeRare) { r.self = cty.StringVal("x") }, func(s *scope) bool { return s.self() != cty.NilVal }},
		{"check", func(r *scopeRare) { r.check = check }, func(s *scope) bool { return s.check() == check }},
		{"names", func(r *scopeRare) { r.names = names }, func(s *scope) bool { return s.names() != nil }},
		{"adHocReads", func(r *scopeRare) { r.adHocReads = reads }, func(s *scope) bool { return s.adHocReads() != nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := &scope{}
			if tc.read(base) {
				t.Fatal("a new scope has it")
			}
			// A scope that already has something else set: the copy
			// keeps that, and the original does not get tc's.
			other := cty.StringVal("other")
			if tc.name == "self" {
				base.setRare(func(r *scopeRare) { r.names = names })
			} else {
				base.setRare(func(r *scopeRare) { r.self = other })
			}
			c := *base
			c.setRare(tc.set)
			if !tc.read(&c) {
				t.Error("the copy set does not have it")
			}
			if tc.name == "self" && c.names() == nil || tc.name != "self" && c.self() != other {
				t.Error("the copy lost what it had")
			}
			if tc.read(base) {
				t.Error("the scope copied from has it too")
			}
			if c.rare == base.rare {
				t.Error("setRare changed a shared scopeRare")
			}
			again := c
			if !tc.read(&again) {
				t.Error("a copy of the scope set does not have it")
			}
		})
	}
}

// TestNamedValueAgreesWithEvaluation: a reference to a variable or local
// value read without a context (namedValue) has the value, marks and
// steps evaluating it in its context gives; where it cannot be read so
// (a problem, a step Traverse does not take, a conversion that fails),
// evalExpr evaluates it, with the same diagnostics.
func TestNamedValueAgreesWithEvaluation(t *testing.T) {
	res, diags := evalFiles(t, map[string]string{"main.tf": `
variable "s" {
  default = "abc"
}
variable "obj" {
  type    = object({ a = string, l = list(number) })
  default = { a = "x", l = [1, 2] }
}
variable "secret" {
  default   = "p"
  sensitive = true
}
variable "unset" {
  type    = string
  default = null
}
resource "x_thing" "a" {}
locals {
  m = { k = "v" }
  n = 3
  r = x_thing.a.attr
  w = { v = x_thing.a.attr }
}`}, Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s := &scope{ev: res.ev, mod: res.Root()}
	for _, c := range []struct {
		src      string
		want     cty.Type
		shortcut bool
	}{
		{"var.s", cty.DynamicPseudoType, true},
		{"var.obj.a", cty.DynamicPseudoType, true},
		{"var.obj.l[1]", cty.String, true},
		{"var.secret", cty.DynamicPseudoType, true},
		{"var.unset", cty.String, true},
		{"local.m.k", cty.DynamicPseudoType, true},
		{"local.m[\"k\"]", cty.DynamicPseudoType, true},
		{"local.n", cty.String, true},
		{"local.r", cty.DynamicPseudoType, true},
		{"local.w.v", cty.String, true},
		{"var.obj.l[5]", cty.DynamicPseudoType, false},
		{"var.obj.nope", cty.DynamicPseudoType, false},
		{"var.obj", cty.Number, false},
		{"local.nope", cty.DynamicPseudoType, false},
		{"var.nope", cty.DynamicPseudoType, false},
		{"var", cty.DynamicPseudoType, false},
		{"path.module", cty.DynamicPseudoType, false},
	} {
		expr, pdiags := hclsyntax.ParseExpression([]byte(c.src), "test.tf", hcl.InitialPos)
		if pdiags.HasErrors() {
			t.Fatal(pdiags.Error())
		}
		before := res.ev.limits.steps.Load()
		_, _, ok := s.namedValue(expr, c.want)
		if ok != c.shortcut {
			t.Errorf("%s: read without a context %v, want %v", c.src, ok, c.shortcut)
		}
		res.ev.limits.steps.Store(before)
		got, gotDiags := s.evalExpr(expr, c.want)
		steps := res.ev.limits.steps.Load() - before
		want, _, wantDiags := s.evalExprIn(expr, c.want)
		if !got.RawEquals(want) {
			t.Errorf("%s: %#v, evaluated %#v", c.src, got, want)
		}
		if gotDiags.Error() != wantDiags.Error() {
			t.Errorf("%s: diagnostics %q, evaluated %q", c.src, gotDiags.Error(), wantDiags.Error())
		}
		if wantSteps := res.ev.limits.steps.Load() - before - steps; steps != wantSteps {
			t.Errorf("%s: %d steps, evaluated %d", c.src, steps, wantSteps)
		}
	}
}
