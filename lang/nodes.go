package lang

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
	"github.com/tfeval/tfeval/typeexpr"
)

// evalVariable prepares a variable's final value and runs its validations.
func (ev *evaluator) evalVariable(mi *ModuleInstance, n *node) {
	decl := mi.Config.Module.Variables[n.name]
	var given *tfvars.Value
	var addr string
	if mi.parent == nil {
		addr = "var." + n.name
		given = ev.opts.RootVariables[n.name]
	} else {
		addr = mi.Addr + ".var." + n.name
		if ev.opts.Validate && ev.opts.Dialect == dialect.Terraform {
			// terraform validate expands no module call: the variable
			// is named by the calls alone, without instance keys.
			addr = "module." + strings.Join(mi.Path, ".module.") + ".var." + n.name
		}
		var attrs hcl.Attributes
		if ca := ev.moduleObjects(mi.parent.Config.Module).callArgs(mi.Path[len(mi.Path)-1]); ca != nil {
			attrs = ca.attrs
		}
		if a, ok := attrs[n.name]; ok {
			ps := ev.scope(mi.parent)
			ps = ps.withCall(mi)
			v, diags := ps.evalExpr(a.Expr, cty.DynamicPseudoType)
			ev.addDiags(diags)
			if diags.HasErrors() {
				mi.setVariable(n.name, ev.errorStandIn(mi.Config, "var."+n.name, decl.Type))
				return
			}
			given = tfvars.FromModuleArg(v, a.Expr.Range())
			// Whatever marks a value ephemeral says so first.
			given.NoEphemeral = !ev.share().ephemeral.Load()
		} else if decl.Required() && !ev.opts.Validate {
			// The call's check reports the missing argument.
			mi.setVariable(n.name, placeholder(decl))
			return
		}
	}
	if decl.Ephemeral {
		ev.madeEphemeral() // Prepare marks the value
	}
	if ev.opts.Validate {
		ev.validateVariable(mi, decl, given, addr)
		return
	}
	v, diags := tfvars.Prepare(decl, given, addr)
	ev.addDiags(diags)
	if diags.HasErrors() {
		// An unsuitable value: what depends on it is not evaluated into
		// further errors.
		mi.setVariable(n.name, ev.errorStandIn(mi.Config, "var."+n.name, decl.Type))
		return
	}
	if mi.parent == nil && marks.HasUnread(v) {
		// A caller gave what tfeval could not know (tftest: the outputs of
		// a run it skipped); what derives from it is marked again where a
		// step drops the marks (a for over an unknown of no type).
		ev.madeUnread()
	}
	mi.setVariable(n.name, v)
	subject := ruleSubject(mi, decl, given)
	for _, rule := range decl.Validations {
		ev.checkValidation(mi, decl, rule, subject)
	}
}

// ruleSubject is where a variable's failed validation rule points: where
// its value was written (a variables file, the module call's argument),
// else, for a root module's default, at the declaration. A child module's
// default has no range: Terraform v1.11.4 reports its failure "on  line 0"
// (validate and plan alike), the source not available.
func ruleSubject(mi *ModuleInstance, decl *config.Variable, given *tfvars.Value) hcl.Range {
	switch {
	case given != nil && given.Source.HasRange():
		return given.Source.Range
	case given == nil && mi.parent != nil:
		return hcl.Range{}
	}
	return decl.DeclRange
}

// validateVariable is what terraform validate does with a variable. What
// every other expression reads of it is unknown, but a child module's
// variable is given its call's argument (evaluated where the root's
// variables, count.index and each are unknown) or its default: the
// argument is converted to the variable's type, and the variable's own
// validation rules are checked against that value, so a constant that a
// rule refuses is an error of validate already. A rule reads every other
// variable as unknown (terraform validate v1.11.4 passes a rule comparing
// two variables whose constants it refuses in plan), and a root
// module's variables are unknown to their rules too.
func (ev *evaluator) validateVariable(mi *ModuleInstance, decl *config.Variable, given *tfvars.Value, addr string) {
	unknown := tfvars.Unknown(decl)
	subject := ruleSubject(mi, decl, given)
	value := unknown
	if mi.parent != nil && (given != nil || !decl.Required()) {
		v, diags := tfvars.Prepare(decl, given, addr)
		ev.addDiags(diags)
		if diags.HasErrors() {
			mi.setVariable(decl.Name, unknown)
			return
		}
		value = v
	}
	// The rules see the value; what depends on the variable is evaluated
	// only once this node is done, and sees it unknown.
	mi.setVariable(decl.Name, value)
	for _, rule := range decl.Validations {
		ev.checkValidation(mi, decl, rule, subject)
	}
	mi.setVariable(decl.Name, unknown)
}

func placeholder(decl *config.Variable) cty.Value {
	if decl.Type == cty.NilType {
		return cty.DynamicVal
	}
	return cty.UnknownVal(decl.Type)
}

// withCall returns the parent scope with the count or for_each keys of the
// call instance that created child.
func (s *scope) withCall(child *ModuleInstance) *scope {
	c := *s
	if s.ev.opts.Validate && s.dialect() == dialect.Terraform {
		// terraform validate expands no module call: it reads every
		// call's arguments with count.index, each.key and each.value
		// unknown, whether the call sets count or for_each or neither
		// (v1.11.4 reports neither reference when the call sets neither;
		// the plan does).
		c.countIndex, c.countSlot = cty.UnknownVal(cty.Number), 0
		c.eachKey, c.eachValue = cty.UnknownVal(cty.String), cty.DynamicVal
		return &c
	}
	call := s.mod.call(child.Path[len(child.Path)-1])
	if call == nil {
		return &c
	}
	counted := call.expansion.mode == expandCount || call.expansion.mode == expandPlaceholder && call.expansion.counted
	switch {
	case counted:
		c.countIndex, c.countSlot = child.callKey, 0
	case call.expansion.mode == expandForEach || call.expansion.mode == expandPlaceholder:
		c.eachKey = child.callKey
		c.eachValue = child.callEach
	}
	return &c
}

// checkValidation evaluates one validation rule of a variable. A rule that
// reads another variable whose own validation failed is skipped, as
// Terraform skips it: that value is already known to be wrong.
func (ev *evaluator) checkValidation(mi *ModuleInstance, decl *config.Variable, rule *config.CheckRule, subject hcl.Range) {
	for _, pr := range ev.exprRefs(mi.Config.Module, rule.Condition) {
		if pr.ref != nil && pr.ref.kind == refVar && pr.ref.name != decl.Name && mi.validationFailed(pr.ref.name) {
			return
		}
	}
	s := ev.scope(mi)
	// The rule's references are resolved together, as Terraform does
	// before it evaluates either expression: a bad one in error_message is
	// reported alone, also by validate, and the rule is not checked.
	if rule.ErrorMessage != nil {
		if _, diags := s.refContext(ev.exprRefs(mi.Config.Module, rule.ErrorMessage)); diags.HasErrors() {
			if _, cdiags := s.refContext(ev.exprRefs(mi.Config.Module, rule.Condition)); cdiags.HasErrors() {
				ev.addDiags(cdiags)
			}
			ev.addDiags(diags)
			return
		}
	}
	cond, ctx, diags := s.evalExprIn(rule.Condition, cty.DynamicPseudoType)
	ev.addDiags(diags)
	if diags.HasErrors() {
		return
	}
	ev.conditionRead(cond)
	ok, problem := conditionResult(cond)
	if problem != "" {
		ev.addDiag(withExpression(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid variable validation result", Detail: problem, Subject: rule.Condition.Range().Ptr()}, rule.Condition, ctx))
		return
	}
	if ok == nil || *ok {
		if rule.ErrorMessage != nil {
			ev.checkMessageValue(s, rule.ErrorMessage)
		}
		return
	}
	if ev.opts.Validate && rule.ErrorMessage != nil {
		// terraform validate reports a failed rule only when it can say
		// why: a message that reads what only the plan knows (the
		// refined "a${count.index}" a rule refuses) leaves the rule to it.
		if msg, diags := s.evalExpr(rule.ErrorMessage, cty.DynamicPseudoType); !diags.HasErrors() && !msg.IsWhollyKnown() {
			return
		}
	}
	mi.failValidation(decl.Name)
	msg := ev.validationMessage(s, rule)
	d := withExpression(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid value for variable",
		Detail:   fmt.Sprintf("%s\n\nThis was checked by the validation rule at %s.", msg, rule.DeclRange.String()),
		Subject:  subject.Ptr(),
		Extra:    FailedCondition{Module: mi.Addr, Object: "var." + decl.Name},
	}, rule.Condition, ctx)
	if ev.readsOnlyItself(mi.Config.Module, rule, decl.Name) {
		// A rule of the variable alone fails alike for every instance of
		// the call given the same value, and Terraform reports it once;
		// a rule that reads other objects is reported per instance.
		v, _ := mi.variable(decl.Name)
		ev.addDiagOnce(d, v.GoString())
		return
	}
	ev.addDiag(d)
}

// readsOnlyItself reports whether a validation rule of variable name of
// module m refers to nothing but that variable.
func (ev *evaluator) readsOnlyItself(m *config.Module, rule *config.CheckRule, name string) bool {
	for _, e := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
		if e == nil {
			continue
		}
		for _, pr := range ev.exprRefs(m, e) {
			if pr.ref == nil || pr.ref.kind != refVar || pr.ref.name != name {
				return false
			}
		}
	}
	return true
}

// validationMessage evaluates the error_message of a failed validation
// rule. One that cannot be shown (it failed, is not a known string, or is
// sensitive or ephemeral) gets a diagnostic of its own, and the rule's
// error a sentence saying so.
func (ev *evaluator) validationMessage(s *scope, rule *config.CheckRule) string {
	const hidden = "The error message could not be displayed."
	v, diags := s.evalExpr(rule.ErrorMessage, cty.DynamicPseudoType)
	ev.addDiags(diags)
	if diags.HasErrors() {
		return hidden
	}
	product := ev.opts.Dialect.Product()
	subject := rule.ErrorMessage.Range().Ptr()
	switch {
	case marks.Contains(v, marks.Sensitive):
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Error message refers to sensitive values", Detail: fmt.Sprintf("The error expression used to explain this condition refers to sensitive values. %s will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.", product), Subject: subject})
		return "The error message included a sensitive value, so it will not be displayed."
	case marks.Contains(v, marks.Ephemeral):
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Error message refers to ephemeral values", Detail: fmt.Sprintf("The error expression used to explain this condition refers to ephemeral values. %s will not display the resulting message.\n\nYou can correct this by removing references to ephemeral values, or by using the ephemeralasnull() function on the references to not reveal ephemeral data.", product), Subject: subject})
		return "The error message included an ephemeral value, so it will not be displayed."
	}
	v, _ = v.UnmarkDeep()
	sv, err := convert.Convert(v, cty.String)
	switch {
	case err != nil || sv.IsNull():
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid error message", Detail: "Unsuitable value for error message: string required.", Subject: subject})
		return hidden
	case !sv.IsKnown():
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid error message", Detail: "Unsuitable value for error message: expression refers to values that won't be known until the apply phase.", Subject: subject})
		return hidden
	}
	return strings.TrimSpace(sv.AsString())
}

// conditionRead adds the marks of a rule's condition value to
// Result.ConditionMarks.
func (ev *evaluator) conditionRead(cond cty.Value) {
	if !cond.IsMarked() {
		return
	}
	sh := ev.share()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.conditionMarks == nil {
		sh.conditionMarks = cty.ValueMarks{}
	}
	for m := range cond.Marks() {
		sh.conditionMarks[m] = struct{}{}
	}
}

// conditionResult interprets a condition value: nil when unknown, or a
// problem text when it is not a usable bool.
func conditionResult(v cty.Value) (*bool, string) {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() {
		return nil, ""
	}
	if v.IsNull() {
		return nil, "Validation condition expression must return either true or false, not null."
	}
	bv, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return nil, fmt.Sprintf("Invalid validation condition result value: %s.", err)
	}
	if !bv.IsKnown() {
		return nil, ""
	}
	b := bv.True()
	return &b, ""
}

// errorMessage evaluates a rule's error_message.
func (ev *evaluator) errorMessage(s *scope, rule *config.CheckRule, _ string) (string, bool) {
	v, diags := s.evalExpr(rule.ErrorMessage, cty.DynamicPseudoType)
	ev.addDiags(diags)
	if diags.HasErrors() {
		return "", false
	}
	if marks.Contains(v, marks.Sensitive) {
		return "The error message included a sensitive value, so it will not be displayed.", true
	}
	if marks.Contains(v, marks.Ephemeral) {
		return "The error message included an ephemeral value, so it will not be displayed.", true
	}
	v, _ = v.UnmarkDeep()
	sv, err := convert.Convert(v, cty.String)
	if err != nil || sv.IsNull() {
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid error message", Detail: "Unsuitable value for error message: string required.", Subject: rule.ErrorMessage.Range().Ptr()})
		return "", false
	}
	if !sv.IsKnown() {
		return "", false
	}
	return strings.TrimSpace(sv.AsString()), true
}

// evalLocal evaluates a local value.
func (ev *evaluator) evalLocal(mi *ModuleInstance, n *node) {
	l := mi.Config.Module.Locals[n.name]
	if n.selfRef {
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Self-referencing local value", Detail: fmt.Sprintf("Local value local.%s cannot use its own result as part of its definition.", n.name), Subject: l.Expr.Range().Ptr()})
		mi.setLocal(n.name, ev.errorStandIn(mi.Config, "local."+n.name, cty.DynamicPseudoType))
		return
	}
	v, diags := ev.scope(mi).evalExpr(l.Expr, cty.DynamicPseudoType)
	ev.addDiags(diags)
	if diags.HasErrors() {
		v = ev.errorStandIn(mi.Config, "local."+n.name, cty.DynamicPseudoType)
	}
	mi.setLocal(n.name, v)
}

// evalOutput evaluates an output value with its preconditions and root module rules.
func (ev *evaluator) evalOutput(mi *ModuleInstance, n *node) {
	o := mi.Config.Module.Outputs[n.name]
	s := ev.scope(mi)
	root := mi.parent == nil
	t := ev.texts()
	if root && o.Ephemeral && !ev.opts.RootEphemeralOutputs {
		sum, det := t.ephemeralRootOutput()
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: sum, Detail: det, Subject: o.DeclRange.Ptr()})
		mi.setOutput(n.name, ev.errorStandIn(mi.Config, "output."+n.name, cty.DynamicPseudoType))
		return
	}
	for _, rule := range o.Preconditions {
		if !ev.checkRule(s, rule, "output."+n.name, hcl.DiagError, "Module output value precondition failed") {
			mi.setOutput(n.name, ev.errorStandIn(mi.Config, "output."+n.name, cty.DynamicPseudoType))
			return
		}
	}
	if ev.opts.Applied && ev.opts.PlannedOutputs != nil && !o.Ephemeral {
		// An ephemeral output is no part of the plan: it is evaluated
		// again.
		if pv, ok := ev.opts.PlannedOutputs(mi.Addr, n.name); ok {
			if uv, _ := pv.UnmarkDeep(); uv.IsWhollyKnown() {
				mi.setOutput(n.name, pv)
				return
			}
		}
	}
	v, diags := s.evalExpr(o.Expr, cty.DynamicPseudoType)
	ev.addDiags(diags)
	if diags.HasErrors() {
		mi.setOutput(n.name, ev.errorStandIn(mi.Config, "output."+n.name, cty.DynamicPseudoType))
		return
	}
	if o.ConstraintType != cty.NilType && !t.tofu() {
		cv, err := typeexpr.Convert(v, o.ConstraintType, o.TypeDefaults)
		if err != nil {
			ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid output value", Detail: fmt.Sprintf("The value expression does not match this output value's type constraint: %s.", err), Subject: o.Expr.Range().Ptr()})
			mi.setOutput(n.name, ev.errorStandIn(mi.Config, "output."+n.name, cty.DynamicPseudoType))
			return
		}
		v = cv
	}
	// Without an ephemeral value anywhere in the evaluation (madeEphemeral)
	// there is none in v to look for.
	if !o.Ephemeral && ev.share().ephemeral.Load() && marks.Contains(v, marks.Ephemeral) {
		sum, det := t.ephemeralOutputValue()
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: sum, Detail: det, Subject: o.Expr.Range().Ptr()})
		mi.setOutput(n.name, ev.errorStandIn(mi.Config, "output."+n.name, cty.DynamicPseudoType))
		return
	}
	if root && !o.Sensitive && (marks.Contains(v, marks.Sensitive) || ev.holdsSensitiveObject(mi, n.name, v)) {
		ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Output refers to sensitive values", Detail: t.outputSensitive(), Subject: o.DeclRange.Ptr()})
		mi.setOutput(n.name, ev.errorStandIn(mi.Config, "output."+n.name, cty.DynamicPseudoType))
		return
	}
	if o.Sensitive {
		v = v.Mark(marks.Sensitive)
	}
	if o.Ephemeral {
		ev.madeEphemeral()
		v = v.Mark(marks.Ephemeral)
	}
	if observed, ok := ev.observedOutput(mi, n.name, v); ok {
		mi.setReadOutput(n.name, observed, v)
		return
	}
	mi.setOutput(n.name, v)
}

// checkRule evaluates a precondition, postcondition or check assertion and
// reports a failure with the given severity and summary; it returns false
// when the rule failed or could not be evaluated because of errors.
func (ev *evaluator) checkRule(s *scope, rule *config.CheckRule, object string, sev hcl.DiagnosticSeverity, summary string) bool {
	if rule == nil || rule.Condition == nil {
		return true
	}
	cond, ctx, diags := s.evalExprIn(rule.Condition, cty.DynamicPseudoType)
	if diags.HasErrors() && ctx == nil {
		// Its references failed: Terraform's validate walk, before the
		// plan, reports that as an error whatever the rule.
		if refDiags := s.refProblems(rule.Condition, sev == hcl.DiagError); refDiags.HasErrors() {
			diags = refDiags
		}
	} else if sev == hcl.DiagWarning {
		for _, d := range diags {
			d.Severity = hcl.DiagWarning
		}
	}
	ev.addDiags(diags)
	if diags.HasErrors() || ctx == nil {
		ev.checkMessageRefs(s, rule, sev == hcl.DiagError)
		return !diags.HasErrors()
	}
	ev.conditionRead(cond)
	ok, problem := conditionResult(cond)
	if problem != "" {
		problem = strings.Replace(problem, "Validation condition", "Condition", 1)
		problem = strings.Replace(problem, "Invalid validation condition", "Invalid condition", 1)
		ev.addDiag(withExpression(&hcl.Diagnostic{Severity: sev, Summary: "Invalid condition result", Detail: problem, Subject: rule.Condition.Range().Ptr()}, rule.Condition, ctx))
		return false
	}
	if ok == nil {
		// An assertion tfeval cannot decide for lack of what Terraform
		// would know is not one Terraform defers to apply; validate
		// decides none.
		if sev == hcl.DiagWarning && !ev.opts.Validate && !marks.HasUnread(cond) {
			ev.addDiag(withExpression(&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Check block assertion known after apply", Detail: "The condition could not be evaluated at this time, a result will be known when this plan is applied.", Subject: rule.Condition.Range().Ptr()}, rule.Condition, ctx))
		}
		ev.checkMessageRefs(s, rule, sev == hcl.DiagError)
		return true
	}
	if *ok {
		ev.checkMessageRefs(s, rule, sev == hcl.DiagError)
		return true
	}
	msg, _ := ev.errorMessage(s, rule, "")
	ev.addDiag(withExpression(&hcl.Diagnostic{Severity: sev, Summary: summary, Detail: msg, Subject: rule.Condition.Range().Ptr(), Extra: FailedCondition{Module: s.mod.Addr, Object: object}}, rule.Condition, ctx))
	return sev != hcl.DiagError
}

// checkMessageRefs reports what is wrong with the references of a rule's
// error message where the rule did not need the message: Terraform's
// validate walk, before the plan, evaluates it whatever the condition.
func (ev *evaluator) checkMessageRefs(s *scope, rule *config.CheckRule, resourceRule bool) {
	msg := rule.ErrorMessage
	if msg == nil {
		return
	}
	if diags := s.refProblems(msg, resourceRule); len(diags) > 0 {
		ev.addDiags(diags)
		return
	}
	ev.checkMessageValue(s, msg)
}

// checkMessageValue evaluates an error message with the values of
// Terraform's validate walk, which evaluates it whatever its rule's
// condition: every value unknown but the locals it knows
// (unknownContext). Only a function called wrongly or such a local (a null
// in the template) can then fail, so messages that do neither are left.
func (ev *evaluator) checkMessageValue(s *scope, msg hcl.Expression) {
	refs := s.ev.exprRefs(s.module(), msg)
	readsLocal := false
	for _, pr := range refs {
		readsLocal = readsLocal || pr.ref != nil && pr.ref.kind == refLocal
	}
	if !readsLocal && !callsFunction(msg) {
		return
	}
	ctx, diags := s.refContext(refs)
	if diags.HasErrors() || ctx == nil {
		return
	}
	_, diags = msg.Value(unknownContext(ctx, s.mod.Config.Module))
	ev.addDiags(diags)
}

// callsFunction reports whether expression e calls a function.
func callsFunction(e hcl.Expression) bool {
	se, ok := e.(hclsyntax.Expression)
	if !ok {
		return false
	}
	found := false
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		_, call := n.(*hclsyntax.FunctionCallExpr)
		found = found || call
		return nil
	})
	return found
}

// evalCheck evaluates a check block: its scoped data resource, then its
// assertions, whose failures are warnings.
func (ev *evaluator) evalCheck(mi *ModuleInstance, n *node) {
	ch := mi.Config.Module.Checks[n.name]
	s := ev.scope(mi)
	s.setRare(func(r *scopeRare) { r.check = ch })
	switch {
	case ch.DataResource != nil && ev.unconfigured[n]:
		// Reported before the walk (checkProviderConfigs): the data
		// source is not read, and what refers to it reports nothing.
		res := ch.DataResource
		mi.setScoped(res.Addr(), &resourceState{cfg: res, expansion: expansion{mode: expandUnknown}, whole: ev.errorStandIn(mi.Config, res.Addr(), cty.DynamicPseudoType)})
	case ch.DataResource != nil:
		rs := ev.planResource(mi, ch.DataResource, s, false)
		mi.setScoped(ch.DataResource.Addr(), rs)
	}
	for _, rule := range ch.Asserts {
		if ev.opts.Validate {
			ev.validateRule(s, rule, true)
		} else {
			ev.checkRule(s, rule, "check."+n.name, hcl.DiagWarning, "Check block assertion failed")
		}
	}
}

// validateRule is what terraform validate does with a resource's
// conditions and a check block's assertions, which the plan decides: it
// evaluates the condition and the error message and reports what fails
// to evaluate. Those are errors for a check block's assertion too, whose
// failure is only a warning (terraform validate v1.11.4).
func (ev *evaluator) validateRule(s *scope, rule *config.CheckRule, assertion bool) {
	for _, e := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
		if e == nil {
			continue
		}
		if diags := s.refProblems(e, !assertion); diags.HasErrors() {
			ev.addDiags(diags)
			continue
		}
		_, diags := s.evalExpr(e, cty.DynamicPseudoType)
		ev.addDiags(diags)
	}
}

// evalCall expands a module call and checks its arguments against the
// called module's variables.
func (ev *evaluator) evalCall(mi *ModuleInstance, n *node) {
	call := mi.Config.Module.ModuleCalls[n.name]
	child := mi.Config.Children[n.name]
	cs := &callState{cfg: call}
	mi.setCall(n.name, cs)
	if child == nil || child.Module == nil {
		cs.expansion = expansion{mode: expandUnknown}
		return
	}
	ev.checkCallArguments(mi, call, child)
	s := ev.scope(mi)
	exp, diags := s.expand(call.Count, call.ForEach, "module."+n.name)
	if call.Count == nil && call.ForEach == nil && call.Enabled != nil {
		exp, diags = s.expandEnabled(call.Enabled)
	}
	ev.addDiags(diags)
	cs.expansion = exp
	if exp.mode == expandUnknown {
		return
	}
	for i, k := range exp.keys {
		addr := instanceAddr("module."+n.name, k)
		if mi.Addr != "" {
			addr = mi.Addr + "." + addr
		}
		inst := ev.newInstance(child, mi, addr, k, exp.values[i])
		inst.Call = call
		inst.Placeholder = mi.Placeholder || exp.mode == expandPlaceholder
		inst.placeholderUnread = mi.placeholderUnread
		if exp.mode == expandPlaceholder {
			inst.placeholderUnread = append(append([]marks.Unread(nil), mi.placeholderUnread...), exp.unread...)
		}
		cs.children = append(cs.children, inst)
		ev.addModuleInstance(inst)
	}
}

// checkCallArguments reports arguments the called module does not declare
// and required variables the call does not set. The arguments are those
// the module's objects read once (callArgs) for every instance and
// evaluation sharing them.
func (ev *evaluator) checkCallArguments(mi *ModuleInstance, call *config.ModuleCall, child *config.Config) {
	if call.Config == nil {
		return
	}
	var attrs hcl.Attributes
	var diags hcl.Diagnostics
	if ca := ev.moduleObjects(mi.Config.Module).callArgs(call.Name); ca != nil {
		attrs, diags = ca.attrs, ca.diags
	} else {
		attrs, diags = readCallAttributes(call)
	}
	for _, d := range diags {
		c := *d
		ev.addDiag(&c)
	}
	vars := child.Module.Variables
	for _, name := range sortedKeys(attrs) {
		if _, ok := vars[name]; !ok {
			a := attrs[name]
			ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: fmt.Sprintf("An argument named %q is not expected here.", name), Subject: a.NameRange.Ptr()})
		}
	}
	for _, name := range sortedKeys(vars) {
		if _, ok := attrs[name]; !ok && vars[name].Required() {
			ev.addDiag(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required argument", Detail: fmt.Sprintf("The argument %q is required, but no definition was found.", name), Subject: call.DeclRange.Ptr()})
		}
	}
}

// callValue is what module.NAME evaluates to in a module instance.
func (ev *evaluator) callValue(mi *ModuleInstance, call *config.ModuleCall) cty.Value {
	return ev.callOutputs(mi, call, nil)
}

// callValueFor is module.NAME as the references refs (all in one
// expression) need it. Until every output of the call is set, a reference
// to one output depends on that output alone (graph.targets), and the
// others stand in as unknown; when every reference to the call names an
// output, the expression can read nothing but those outputs, so the
// instances' objects are built with them alone rather than with all of
// the module's outputs for each reference.
func (ev *evaluator) callValueFor(mi *ModuleInstance, call *config.ModuleCall, refs []parsedRef) cty.Value {
	child := mi.Config.Children[call.Name]
	if child == nil || child.Module == nil {
		return ev.callOutputs(mi, call, nil)
	}
	var names []string
	for _, pr := range refs {
		ref := pr.ref
		if ref == nil || ref.kind != refModule || ref.name != call.Name {
			continue
		}
		if ref.output == "" || child.Module.Outputs[ref.output] == nil {
			return ev.callOutputs(mi, call, nil)
		}
		if !slices.Contains(names, ref.output) {
			names = append(names, ref.output)
		}
	}
	return ev.callOutputs(mi, call, names)
}

// callOutputs is module.NAME with the given outputs of each instance, or
// with all of them when names is nil.
func (ev *evaluator) callOutputs(mi *ModuleInstance, call *config.ModuleCall, names []string) cty.Value {
	all := names == nil
	cs := mi.call(call.Name)
	if cs == nil {
		return cty.DynamicVal
	}
	if slices.Contains(mi.Config.NotInstalled, call.Name) {
		// Terraform would know the module's outputs; tfeval has no module.
		ev.madeUnread()
		return cty.DynamicVal.WithMarks(marks.UnreadSet([]marks.Unread{{Cause: marks.ModuleNotInstalled, Addr: configAddr(mi.Config, "module."+call.Name)}}))
	}
	if cs.expansion.mode == expandUnknown {
		return ev.errorStandIn(mi.Config, "module."+call.Name, cty.DynamicPseudoType)
	}
	if cs.expansion.mode == expandPlaceholder {
		return wholeValue(cs.expansion, nil)
	}
	if v := cs.value.Load(); v != nil {
		return *v
	}
	if names == nil {
		names = slices.Collect(maps.Keys(mi.Config.Children[call.Name].Module.Outputs))
	}
	complete := true
	vals := make([]cty.Value, len(cs.children))
	for i, inst := range cs.children {
		outs := make(map[string]cty.Value, len(names))
		for _, name := range names {
			v, ok := inst.output(name)
			if !ok {
				v = cty.DynamicVal
				complete = false
			} else if ev.opts.Validate {
				// terraform validate reads every output of a call as
				// unknown: an argument or expression built from a
				// constant output is checked by the plan only. Nor is
				// the unknown sensitive or ephemeral (Terraform's and
				// OpenTofu's validate walks build it afresh, without the
				// output's marks): a root output of a sensitive child
				// output is "Output refers to sensitive values" at plan
				// time only. tfeval's own marks (what it could not know)
				// stay.
				_, vmarks := v.UnmarkDeep()
				delete(vmarks, marks.Sensitive)
				delete(vmarks, marks.Ephemeral)
				v = cty.DynamicVal.WithMarks(vmarks)
			}
			outs[name] = v
		}
		vals[i] = cty.ObjectVal(outs)
	}
	v := wholeValue(cs.expansion, vals)
	if complete && all {
		// Every output is set, once: the value no longer changes, and
		// each later reference (an output of the root reading one of the
		// child's hundred) takes it as it is.
		cs.value.Store(&v)
	}
	return v
}

// callAttributes are the input arguments of a module call.
func callAttributes(call *config.ModuleCall) hcl.Attributes {
	attrs, _ := readCallAttributes(call)
	return attrs
}

// readCallAttributes are the input arguments of a module call and what
// reading them reported.
func readCallAttributes(call *config.ModuleCall) (hcl.Attributes, hcl.Diagnostics) {
	if call == nil || call.Config == nil {
		return nil, nil
	}
	return call.Config.JustAttributes()
}
