package lang

import (
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// This file keeps the Unread mark on values derived from unread ones.
// go-cty and hcl carry marks from operands to results, except in a few
// places where an unknown result is made afresh: try() and can(), a
// function whose argument has no exact type yet, a for expression over a
// value of unknown type, the ! operator. There, an unknown result would
// lose the mark and a count it decides would fail where Terraform (which
// knows the value) plans. So the unknowns of every evaluated value that
// carry no Unread mark get the Unread marks of the values the expression
// refers to. The values' marks are found once per named value and kept.

// unreadIn returns the Unread marks in the values refs name in scope s.
func (s *scope) unreadIn(refs []parsedRef) cty.ValueMarks {
	var found []marks.Unread
	add := func(us []marks.Unread) {
		for _, u := range us {
			if !containsUnread(found, u) {
				found = append(found, u)
			}
		}
	}
	mi := s.mod
	for _, pr := range refs {
		ref := pr.ref
		if ref == nil {
			continue
		}
		switch ref.kind {
		case refVar:
			add(mi.unreadOf("var."+ref.name, func() cty.Value { v, _ := mi.variable(ref.name); return v }))
		case refLocal:
			add(mi.unreadOf("local."+ref.name, func() cty.Value { v, _ := mi.local(ref.name); return v }))
		case refModule:
			call := mi.Config.Module.ModuleCalls[ref.name]
			if call == nil {
				continue
			}
			if child := mi.Config.Children[call.Name]; ref.output != "" && child != nil && child.Module != nil && child.Module.Outputs[ref.output] != nil {
				// A reference to one output waits for that output alone
				// (graph.targets): the marks are that output's, not those
				// of the call's other outputs, which may or may not be set
				// yet and hold none of what the reference reads.
				add(mi.unreadOf("module."+ref.name+"."+ref.output, func() cty.Value {
					return s.ev.callOutputs(mi, call, []string{ref.output})
				}))
				continue
			}
			add(mi.unreadOf("module."+ref.name, func() cty.Value { return s.ev.callValue(mi, call) }))
		case refResource:
			if rs := s.resourceState(ref); rs != nil {
				add(rs.unreadMarks())
				if t := s.adHocReads()[rs.cfg]; rs.schema == nil && t != nil && !readsWritten(rs, t) {
					// An expression from outside the configuration (a test
					// file's assertion) reads paths its resource's value
					// lacks: resourceValue fills them in with this mark,
					// which the value kept does not hold. Reading a whole
					// object or collection reads what the provider may add
					// to it too.
					add([]marks.Unread{{Cause: unreadCause(rs.cfg), Addr: configAddr(mi.Config, rs.cfg.Addr())}})
				}
			}
		case refEach:
			if s.eachValue != cty.NilVal && ref.name == "value" {
				add(marks.UnreadMarks(s.eachValue))
			}
			if s.eachKey != cty.NilVal {
				add(marks.UnreadMarks(s.eachKey))
			}
		case refCount:
			if s.countIndex != cty.NilVal {
				add(marks.UnreadMarks(s.countIndex))
			}
		case refSelf:
			if self := s.self(); self != cty.NilVal {
				add(marks.UnreadMarks(self))
			}
		}
	}
	return marks.UnreadSet(found)
}

// readsWritten reports whether every path t reads from a resource without
// schema (from each instance, with count or for_each) ends at a value of
// primitive type (or a collection of them, exactType) that the resource's
// value holds: an argument the
// configuration sets, which the provider plans as written, so that an
// unknown there is the configuration's own (a value known only once
// applied), not one the schema would tell. An unknown the planning itself
// made for want of the schema (an argument set to null, an attribute read
// but not set) carries its own Unread mark.
func readsWritten(rs *resourceState, t *readTree) bool {
	if !rs.expansion.multi() {
		return readsPrimitives(rs.whole, t)
	}
	whole, _ := rs.whole.Unmark()
	if !whole.IsKnown() || whole.IsNull() {
		return false
	}
	for it := whole.ElementIterator(); it.Next(); {
		if _, v := it.Element(); !readsPrimitives(v, t) {
			return false
		}
	}
	return true
}

// exactType reports whether a value of type ty holds nothing a schema
// could add to it: a primitive type, or a list, set or map of such. Without
// the schema, tfeval plans an object's attributes as tuples, objects or
// values of no type; a value of a collection type comes from the
// configuration (tolist, toset, tomap, a typed variable: an argument as
// written) or from a table of the provider's schema, which types a mocked
// object's attributes (a computed list of strings unknown in the plan).
func exactType(ty cty.Type) bool {
	switch {
	case ty.IsPrimitiveType():
		return true
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		return exactType(ty.ElementType())
	}
	return false
}

// readsPrimitives is readsWritten for one object.
func readsPrimitives(v cty.Value, t *readTree) bool {
	v, _ = v.Unmark()
	if t.elems == nil && len(t.attrs) == 0 {
		return exactType(v.Type())
	}
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	ty := v.Type()
	for name, sub := range t.attrs {
		switch {
		case ty.IsObjectType():
			if !ty.HasAttribute(name) || !readsPrimitives(v.GetAttr(name), sub) {
				return false
			}
		case ty.IsMapType():
			k := cty.StringVal(name)
			if !v.HasIndex(k).True() || !readsPrimitives(v.Index(k), sub) {
				return false
			}
		default:
			return false
		}
	}
	if t.elems != nil {
		if !ty.IsObjectType() && !ty.IsTupleType() && !ty.IsCollectionType() {
			return false
		}
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); !readsPrimitives(e, t.elems) {
				return false
			}
		}
	}
	return true
}

func containsUnread(us []marks.Unread, u marks.Unread) bool {
	for _, x := range us {
		if x == u {
			return true
		}
	}
	return false
}

// withUnread gives the unknowns of v that carry no Unread mark the Unread
// marks of what refs name.
func (s *scope) withUnread(v cty.Value, refs []parsedRef) cty.Value {
	u := unreadOfRefs{s: s, refs: refs}
	return u.mark(v)
}

// unreadOfRefs is withUnread for several values evaluated with the same
// references (the attributes of one body): the Unread marks of what the
// references name are found once, on the first value that needs them,
// rather than once for each.
type unreadOfRefs struct {
	s     *scope
	refs  []parsedRef
	found bool
	marks cty.ValueMarks
}

func (u *unreadOfRefs) mark(v cty.Value) cty.Value {
	if !u.s.ev.share().unread.Load() || !marks.HasUnmarkedUnknown(v) {
		return v
	}
	if !u.found {
		u.marks, u.found = u.s.unreadIn(u.refs), true
	}
	return marks.MarkUnknowns(v, u.marks)
}

// resourceState finds the state of the resource a reference names, nil
// when it has none (yet).
func (s *scope) resourceState(ref *reference) *resourceState {
	cfg := findResource(s.mod.Config.Module, ref.addr())
	if cfg == nil {
		return nil
	}
	if cfg.Check != "" {
		return s.mod.scopedResource(ref.addr())
	}
	return s.mod.resource(ref.addr())
}

// unreadOf returns the Unread marks in the named value name, found with
// value on first use and kept: a named value does not change once set.
func (mi *ModuleInstance) unreadOf(name string, value func() cty.Value) []marks.Unread {
	mi.mu.RLock()
	us, ok := mi.unread[name]
	mi.mu.RUnlock()
	if ok {
		return us
	}
	v := value()
	if v == cty.NilVal {
		return nil
	}
	us = marks.UnreadMarks(v)
	mi.mu.Lock()
	if mi.unread == nil {
		mi.unread = map[string][]marks.Unread{}
	}
	mi.unread[name] = us
	mi.mu.Unlock()
	return us
}

// unreadMarks returns the Unread marks in a resource's whole value, found
// on first use, but those of attributes its provider plans
// (marks.ProviderPlans): they sit on those attributes alone, and the
// resource's other unknowns are Terraform's too, whatever reads them.
func (rs *resourceState) unreadMarks() []marks.Unread {
	rs.unreadOnce.Do(func() {
		rs.unread = slices.DeleteFunc(marks.UnreadMarks(rs.whole), func(u marks.Unread) bool { return u.Cause == marks.ProviderPlans })
	})
	return rs.unread
}

// resourceUnread is what a resourceState keeps of its Unread marks.
type resourceUnread struct {
	unreadOnce sync.Once
	unread     []marks.Unread
}

// errorStandIn is what an object whose evaluation failed with an error
// evaluates to: unknown, marked as unread for that reason, so that what is
// derived from it (a count, a for_each, a condition) is not reported as a
// further error. Terraform stops at the first error of an object and does
// not evaluate what depends on it.
func (ev *evaluator) errorStandIn(c *config.Config, addr string, ty cty.Type) cty.Value {
	ev.madeUnread()
	if ty == cty.NilType {
		ty = cty.DynamicPseudoType
	}
	return cty.UnknownVal(ty).WithMarks(marks.UnreadSet([]marks.Unread{{Cause: marks.Errored, Addr: configAddr(c, addr)}}))
}

// erroredUpstream reports whether any of us is an error stand-in's mark.
func erroredUpstream(us []marks.Unread) bool {
	for _, u := range us {
		if u.Cause == marks.Errored {
			return true
		}
	}
	return false
}

// madeUnread records that a value has been marked unread. Every place that
// makes the mark afresh calls it first, and whatever derives a value from
// one is evaluated after it.
func (ev *evaluator) madeUnread() {
	ev.share().unread.Store(true)
}

// placeholderExtra is the hcl.Diagnostic Extra of a diagnostic that arose
// while evaluating a placeholder instance (see PlaceholderUnread).
type placeholderExtra struct {
	unread  []marks.Unread
	wrapped any
}

// UnwrapDiagnosticExtra keeps what the diagnostic carried before visible
// to hcl.DiagnosticExtra.
func (p placeholderExtra) UnwrapDiagnosticExtra() any { return p.wrapped }

// markPlaceholder marks diagnostics as arising in a placeholder instance
// whose count or for_each depends on us.
func markPlaceholder(diags hcl.Diagnostics, us []marks.Unread) {
	for _, d := range diags {
		if _, ok := hcl.DiagnosticExtra[placeholderExtra](d); !ok {
			d.Extra = placeholderExtra{unread: us, wrapped: d.Extra}
		}
	}
}

// unknownInstancesExtra is what a count or for_each tfeval could not know
// depended on, carried by its "Instances not known" warning.
type unknownInstancesExtra []marks.Unread

// UnknownInstancesUnread reports whether a diagnostic is the warning that
// a count or for_each is not known (a placeholder instance stands for its
// instances), and returns what it depended on.
func UnknownInstancesUnread(d *hcl.Diagnostic) ([]marks.Unread, bool) {
	us, ok := hcl.DiagnosticExtra[unknownInstancesExtra](d)
	return us, ok
}

// PlaceholderUnread reports whether a diagnostic arose while evaluating a
// placeholder instance: one that stands for the instances of a count or
// for_each tfeval could not know (see ModuleInstance.Placeholder), which
// Terraform might find to be no instance at all. It also returns what
// the count or for_each depended on.
func PlaceholderUnread(d *hcl.Diagnostic) ([]marks.Unread, bool) {
	p, ok := hcl.DiagnosticExtra[placeholderExtra](d)
	return p.unread, ok
}

// dropUnreadConditionals removes hcl's "Inconsistent conditional result
// types" errors raised in node (an expression or body) where a result of
// the conditional holds an Unread value: tfeval does not know the type
// Terraform would give it (an attribute of a resource without schema is
// of unknown type, and the instances of one such resource are objects of
// differing types), so the conflict may be its own. The conditional's
// value is then unknown, as hcl returns it, and gets the Unread marks of
// what the expression refers to.
func dropUnreadConditionals(diags hcl.Diagnostics, node any) hcl.Diagnostics {
	if !diags.HasErrors() {
		return diags
	}
	var kept hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == "Inconsistent conditional result types" && conditionalReadsUnread(d, node) {
			continue
		}
		kept = append(kept, d)
	}
	return kept
}

// conditionalReadsUnread reports whether a result of the conditional that
// diagnostic d is about holds an Unread value. hcl names the conditional
// itself when the result types do not unify, and only the result that
// does not convert when they do: the conditional is then found in node
// by its range.
func conditionalReadsUnread(d *hcl.Diagnostic, node any) bool {
	if d.Expression == nil || d.EvalContext == nil {
		return false
	}
	cond, ok := d.Expression.(*hclsyntax.ConditionalExpr)
	if !ok && d.Context != nil {
		if n, isNode := node.(hclsyntax.Node); isNode {
			hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
				if c, isCond := n.(*hclsyntax.ConditionalExpr); isCond && cond == nil && c.SrcRange == *d.Context && (c.TrueResult == d.Expression || c.FalseResult == d.Expression) {
					cond = c
				}
				return nil
			})
		}
	}
	results := []hcl.Expression{d.Expression}
	if cond != nil {
		results = []hcl.Expression{cond.TrueResult, cond.FalseResult}
	}
	for _, e := range results {
		if v, _ := e.Value(d.EvalContext); marks.HasUnread(v) {
			return true
		}
	}
	return false
}
