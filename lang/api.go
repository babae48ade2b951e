package lang

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/marks"
)

// EvalExprInModule evaluates an expression in the scope of one module
// instance, named by its address ("" for the root module, e.g.
// `module.net["a"]`), as terraform console would if it could choose the
// instance.
//
// What the expression observes of a whole object of a resource without
// schema (keys of it, an equality with it) is unknown, marked Unread
// NoSchema with the resource, as in the configuration's own expressions.
func (r *Result) EvalExprInModule(expr hcl.Expression, moduleAddr string) (cty.Value, hcl.Diagnostics) {
	return r.evalInModule(expr, moduleAddr, true)
}

// evalInModule is EvalExprInModule, with what expr observes of whole
// objects unknown only with observe.
func (r *Result) evalInModule(expr hcl.Expression, moduleAddr string, observe bool) (cty.Value, hcl.Diagnostics) {
	if r == nil || r.ev == nil || len(r.Modules) == 0 {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No configuration", Detail: "There is no evaluated configuration to evaluate the expression in."}}
	}
	if lz := r.ev.lazy; lz != nil {
		lz.mu.Lock()
		defer lz.mu.Unlock()
		r.ev.limits.reset()
		if diags := r.ensureAll(); diags.HasErrors() {
			return cty.DynamicVal, diags
		}
	}
	mi := r.Module(moduleAddr)
	if mi == nil {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No such module instance", Detail: fmt.Sprintf("The configuration has no module instance %q.", moduleAddr)}}
	}
	v, diags := r.ev.scope(mi).evalExpr(expr, cty.DynamicPseudoType)
	if observe && !diags.HasErrors() {
		if addr, ok := r.observedWhole(mi, expr); ok {
			v = openStandIn(addr, deepMarks(v, nil))
		}
	}
	return v, diags
}

// EvalExprWithNames is EvalExprInModule with more root names defined
// beside the language's own, such as the `output` and `run` objects a
// test file's assertions refer to. A name given here is not resolved as
// a resource type, even where the configuration has a resource type of
// that name.
func (r *Result) EvalExprWithNames(expr hcl.Expression, moduleAddr string, names map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	if r == nil || r.ev == nil || len(r.Modules) == 0 || r.ev.lazy != nil {
		return r.evalInModule(expr, moduleAddr, false)
	}
	mi := r.Module(moduleAddr)
	if mi == nil {
		return r.evalInModule(expr, moduleAddr, false)
	}
	s := r.ev.scope(mi)
	if names == nil {
		names = map[string]cty.Value{}
	}
	s.setRare(func(r *scopeRare) { r.names = names })
	return s.evalExpr(expr, cty.DynamicPseudoType)
}

// DiagnosticContext is the context EvalExprWithNames evaluates expr in,
// reduced to what a diagnostic about expr needs to show the values it
// refers to (set it as the diagnostic's EvalContext, expr as its
// Expression): the test runner's failed assertions have it, as
// Terraform's do. It is nil where expr's references do not resolve.
func (r *Result) DiagnosticContext(expr hcl.Expression, moduleAddr string, names map[string]cty.Value) *hcl.EvalContext {
	if r == nil || r.ev == nil || len(r.Modules) == 0 || expr == nil {
		return nil
	}
	if lz := r.ev.lazy; lz != nil {
		// As EvalExprWithNames, which then ignores names.
		lz.mu.Lock()
		defer lz.mu.Unlock()
		if diags := r.ensureAll(); diags.HasErrors() {
			return nil
		}
		names = nil
	}
	mi := r.Module(moduleAddr)
	if mi == nil {
		return nil
	}
	s := r.ev.scope(mi)
	s.setRare(func(r *scopeRare) { r.names = names })
	_, _, ctx, diags := s.exprContext(expr)
	if diags.HasErrors() {
		return nil
	}
	return detachContext(expr, ctx, nil)
}

// unnamedRefs are the references of expr but those to s.names.
func (s *scope) unnamedRefs(expr hcl.Expression) []parsedRef {
	var travs []hcl.Traversal
	for _, t := range variables(expr) {
		if _, ok := s.names()[t.RootName()]; !ok {
			travs = append(travs, t)
		}
	}
	return parseRefs(travs, s.dialect())
}

// CheckKind says which kind of rule a CheckResult reports on.
type CheckKind int

const (
	// CheckAssertion is an assert block of a check block.
	CheckAssertion CheckKind = iota
	// CheckValidation is a validation block of a variable.
	CheckValidation
	// CheckPrecondition is a precondition of a resource or an output.
	CheckPrecondition
	// CheckPostcondition is a postcondition of a resource.
	CheckPostcondition
)

// String names the kind as the configuration does: "assert", "validation",
// "precondition" or "postcondition".
func (k CheckKind) String() string {
	switch k {
	case CheckAssertion:
		return "assert"
	case CheckValidation:
		return "validation"
	case CheckPrecondition:
		return "precondition"
	case CheckPostcondition:
		return "postcondition"
	}
	return fmt.Sprintf("CheckKind(%d)", int(k))
}

// CheckStatus is the outcome of one rule, with Terraform's four statuses.
type CheckStatus int

const (
	// CheckPass means the condition is true.
	CheckPass CheckStatus = iota
	// CheckFail means the condition is false.
	CheckFail
	// CheckUnknown means the condition depends on values known only after apply.
	CheckUnknown
	// CheckError means the condition could not be evaluated (see Diagnostics).
	CheckError
)

// String is "pass", "fail", "unknown" or "error", as terraform show -json writes statuses.
func (s CheckStatus) String() string {
	switch s {
	case CheckPass:
		return "pass"
	case CheckFail:
		return "fail"
	case CheckUnknown:
		return "unknown"
	case CheckError:
		return "error"
	}
	return fmt.Sprintf("CheckStatus(%d)", int(s))
}

// FailedCondition is the hcl.Diagnostic Extra of the failure of a custom
// condition (a variable validation, an output or resource pre- or
// postcondition, a check block assertion): which checkable object it
// belongs to, as terraform test's expect_failures names objects. Read it
// with hcl.DiagnosticExtra[FailedCondition], which also finds it under
// the extras tfeval wraps around it.
type FailedCondition struct {
	// Module is the module instance address, "" for the root.
	Module string
	// Object is the object within that module without instance keys:
	// var.NAME, output.NAME, check.NAME, or a resource's address.
	Object string
}

// ConditionMarks are the marks the values of the configuration's rules'
// conditions carried when the evaluation checked them (variable
// validations, preconditions, postconditions, check assertions): a caller
// that marks values of its own (a test runner, the values it drew at
// random) learns whether a rule read one, so whether another value could
// have failed it. It is nil when none was marked.
func (r *Result) ConditionMarks() cty.ValueMarks {
	if r == nil || r.ev == nil {
		return nil
	}
	sh := r.ev.share()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return maps.Clone(sh.conditionMarks)
}

// CheckResult is the outcome of one condition rule in one object instance.
type CheckResult struct {
	// Object is the address of the object the rule belongs to, module
	// instance included: `check.health`, `var.env`, `output.url`,
	// `module.a.terraform_data.x[0]`.
	Object string
	// Module is the module instance address, "" for the root.
	Module string
	Kind   CheckKind
	// Index is the rule's position among the object's rules of this kind.
	Index  int
	Status CheckStatus
	// ErrorMessage is the evaluated error_message of a failed rule (a note
	// in its place when it would reveal a sensitive or ephemeral value).
	ErrorMessage string
	// Range is the condition expression's range.
	Range hcl.Range
	// Diagnostics explain a CheckError status.
	Diagnostics hcl.Diagnostics
	// Unread, for a CheckUnknown status, names what tfeval lacked that
	// Terraform would have known (see marks.Unread); empty when Terraform
	// too would know the condition only after apply.
	Unread []marks.Unread
}

// Checks evaluates every custom condition of every module instance against
// the final values: check block assertions, variable validations, output
// preconditions and resource preconditions and postconditions. Evaluate
// already reported failures as diagnostics; Checks gives each rule's status,
// passing ones included, sorted by object address, kind and index. The
// final values never change, so the first call's results are remembered
// and later calls return a copy of them.
func (r *Result) Checks() []CheckResult {
	if r == nil || r.ev == nil {
		return nil
	}
	r.checksOnce.Do(func() { r.checks = r.evalChecks() })
	return slices.Clone(r.checks)
}

// evalChecks is Checks without the memory.
func (r *Result) evalChecks() []CheckResult {
	var out []CheckResult
	for _, mi := range r.Modules {
		m := mi.Config.Module
		prefix := mi.Addr
		if prefix != "" {
			prefix += "."
		}
		for _, name := range sortedKeys(m.Variables) {
			for i, rule := range m.Variables[name].Validations {
				out = append(out, r.ev.ruleResult(r.ev.scope(mi), rule, prefix+"var."+name, mi.Addr, CheckValidation, i))
			}
		}
		for _, name := range sortedKeys(m.Outputs) {
			for i, rule := range m.Outputs[name].Preconditions {
				out = append(out, r.ev.ruleResult(r.ev.scope(mi), rule, prefix+"output."+name, mi.Addr, CheckPrecondition, i))
			}
		}
		for _, name := range sortedKeys(m.Checks) {
			ch := m.Checks[name]
			s := r.ev.scope(mi)
			s.setRare(func(r *scopeRare) { r.check = ch })
			for i, rule := range ch.Asserts {
				out = append(out, r.ev.ruleResult(s, rule, prefix+"check."+name, mi.Addr, CheckAssertion, i))
			}
		}
		for _, addr := range sortedKeys(mi.resources) {
			rs := mi.resources[addr]
			if len(rs.cfg.Preconditions)+len(rs.cfg.Postconditions) == 0 || rs.expansion.mode == expandUnknown {
				continue
			}
			for i, ri := range rs.instances {
				if i >= len(rs.expansion.keys) {
					break
				}
				s := r.ev.scope(mi).withKeys(rs.expansion, i)
				for j, rule := range rs.cfg.Preconditions {
					out = append(out, r.ev.ruleResult(s, rule, ri.Addr, mi.Addr, CheckPrecondition, j))
				}
				ps := *s
				ps.setRare(func(r *scopeRare) { r.self = ri.Value })
				for j, rule := range rs.cfg.Postconditions {
					out = append(out, r.ev.ruleResult(&ps, rule, ri.Addr, mi.Addr, CheckPostcondition, j))
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Object != b.Object {
			return a.Object < b.Object
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Index < b.Index
	})
	return out
}

// ruleResult evaluates one rule without recording anything in the
// evaluation, so Checks can be called any number of times.
func (ev *evaluator) ruleResult(s *scope, rule *config.CheckRule, object, module string, kind CheckKind, index int) CheckResult {
	cr := CheckResult{Object: object, Module: module, Kind: kind, Index: index}
	if rule == nil || rule.Condition == nil {
		cr.Status = CheckPass
		return cr
	}
	cr.Range = rule.Condition.Range()
	cond, diags := s.evalExpr(rule.Condition, cty.DynamicPseudoType)
	if diags.HasErrors() {
		cr.Status, cr.Diagnostics = CheckError, diags
		return cr
	}
	ok, problem := conditionResult(cond)
	switch {
	case problem != "":
		cr.Status = CheckError
		cr.Diagnostics = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid condition result", Detail: problem, Subject: cr.Range.Ptr()}}
	case ok == nil:
		cr.Status = CheckUnknown
		cr.Unread = marks.UnreadMarks(cond)
	case *ok:
		cr.Status = CheckPass
	default:
		cr.Status = CheckFail
		cr.ErrorMessage = ruleMessage(s, rule)
	}
	return cr
}

// ruleMessage evaluates a failed rule's error_message, hiding marked values
// as the diagnostics do.
func ruleMessage(s *scope, rule *config.CheckRule) string {
	v, diags := s.evalExpr(rule.ErrorMessage, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return ""
	}
	if marks.Contains(v, marks.Sensitive) {
		return "The error message included a sensitive value, so it will not be displayed."
	}
	if marks.Contains(v, marks.Ephemeral) {
		return "The error message included an ephemeral value, so it will not be displayed."
	}
	v, _ = v.UnmarkDeep()
	sv, err := convert.Convert(v, cty.String)
	if err != nil || sv.IsNull() || !sv.IsKnown() {
		return ""
	}
	return strings.TrimSpace(sv.AsString())
}
