package lang

import (
	"testing"

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
