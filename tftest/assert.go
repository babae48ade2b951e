package tftest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/internal/address"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// ephemeralAssertions are Terraform's errors for an assertion that reads
// an ephemeral resource, which is closed by the time assertions are
// evaluated: each reference is "Ephemeral resources cannot be asserted",
// and each resource read is then "Ephemeral resource instance has
// expired". Both point at the reference to the resource instance.
func ephemeralAssertions(a *Assert) hcl.Diagnostics {
	var diags, expired hcl.Diagnostics
	seen := map[string]bool{}
	for _, e := range []hcl.Expression{a.Condition, a.ErrorMessage} {
		for _, t := range e.Variables() {
			if t.RootName() != "ephemeral" || len(traversalNames(t)) < 3 {
				continue
			}
			ref := leadingNames(t, 3) // MODE.TYPE.NAME[KEY]
			rng := hcl.RangeBetween(ref[0].SourceRange(), ref[len(ref)-1].SourceRange())
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Ephemeral resources cannot be asserted", Detail: "Ephemeral resources are closed when the test is finished, and are not available within the test context for assertions.", Subject: rng.Ptr()})
			addr := formatTarget(ref)
			if seen[addr] {
				continue
			}
			seen[addr] = true
			expired = append(expired, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Ephemeral resource instance has expired", Detail: fmt.Sprintf("The remote object for %s is no longer available due to a renewal error, so Terraform cannot evaluate this expression.", addr), Subject: rng.Ptr()})
		}
	}
	return append(diags, expired...)
}

// assert evaluates a run's assertions against its plan or applied state
// (and the root module outputs they see), and sets the run's status from
// them.
// A verdict that depends on something tfeval could not know (pending: an
// expected failure or a check block's assertion) is a skip, unless an
// assertion failed or errored. An assertion that failed is undecided too
// when it depends on what a provider the test does not mock plans
// (normalized, nil when the plan has no such object: the plan and its
// outputs with those objects unknown).
func (r *runner) assert(rr *RunResult, run *RunBlock, res *lang.Result, outputs cty.Value, fs *fileState, cfg *config.Config, testVals map[string]cty.Value, applied bool, pending *undecided, normalized func() (*lang.Result, cty.Value)) {
	tofu := r.opts.Dialect == dialect.Tofu
	names := map[string]cty.Value{"output": outputs, "run": objectOf(fs.outputs)}
	if tofu {
		names["var"] = r.tofuVars(res, testVals)
	} else if vars, ok := testOnlyVars(res, testVals); ok {
		names["var"] = vars
	}
	status := Pass
	var firstUnread *marks.Unread
	var unreadAt string
	what := func() string { return "the condition at " + unreadAt + " depends on it" }
	if pending != nil {
		firstUnread = &pending.unread
		what = func() string { return pending.what }
	}
	for _, a := range run.Asserts {
		ar := AssertionResult{Range: a.Condition.Range()}
		if tofu {
			if diags := append(r.tofuRunRefs(a, fs), undeclaredOutputs(a, cfg)...); diags.HasErrors() {
				rr.Diagnostics = append(rr.Diagnostics, diags...)
				ar.Status = Error
				rr.Assertions = append(rr.Assertions, ar)
				status = Error
				continue
			}
		}
		if !tofu {
			diags := append(ephemeralAssertions(a), undeclaredOutputs(a, cfg)...)
			if cfg != nil {
				diags = append(diags, rr.targets.uninitialized(a, cfg.Module)...)
				if rr.skipped != nil {
					diags = append(diags, uninitialized(a, cfg.Module, func(id string) bool { return rr.skipped[id] })...)
				}
			}
			if diags.HasErrors() {
				rr.Diagnostics = append(rr.Diagnostics, diags...)
				ar.Status = Error
				rr.Assertions = append(rr.Assertions, ar)
				status = Error
				continue
			}
		}
		// Terraform evaluates the error message first, whatever the
		// condition gives: a message that cannot be evaluated is an
		// error, one with a sensitive value a warning.
		msg, mdiags := r.errorMessage(a, res, names)
		rr.Diagnostics = append(rr.Diagnostics, mdiags...)
		v, diags := res.EvalExprWithNames(a.Condition, "", names)
		rr.Diagnostics = append(rr.Diagnostics, diags...)
		if diags.HasErrors() || mdiags.HasErrors() {
			ar.Status = Error
			rr.Assertions = append(rr.Assertions, ar)
			status = Error
			continue
		}
		if marks.Contains(v, marks.Drawn) {
			rr.readDrawn = true
		}
		uv, _ := v.UnmarkDeep()
		if uv.IsKnown() {
			if addr, ok := r.typeUncertain(a.Condition, res, names, cfg, rr.tableTyped); ok {
				ar.Status = Skip
				if firstUnread == nil {
					firstUnread, unreadAt = &marks.Unread{Cause: marks.NoSchema, Addr: addr}, a.Condition.Range().String()
				}
				rr.Assertions = append(rr.Assertions, ar)
				continue
			}
		}
		switch {
		case !uv.IsKnown():
			if us := providerUnread(v); len(us) > 0 {
				ar.Status = Skip
				if firstUnread == nil {
					firstUnread, unreadAt = &us[0], a.Condition.Range().String()
				}
				break
			}
			if applied && !readsUninitializedOutput(a.Condition, rr.skipped) {
				ar.Status = Skip
				if rr.SkipReason == "" {
					rr.SkipReason = "the condition at " + a.Condition.Range().String() + " is not known to tfeval after apply"
				}
				break
			}
			if !tofu {
				ar.Status = Error
				rr.Diagnostics = append(rr.Diagnostics, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown condition value", Expression: a.Condition, EvalContext: res.DiagnosticContext(a.Condition, "", names), Detail: "Condition expression could not be evaluated at this time. This means you have executed a `run` block with `command = plan` and one of the values your condition depended on is not known until after the plan has been applied. Either remove this value from your condition, or execute an `apply` command from this `run` block. Alternatively, if there is an override for this value, you can make it available during the plan phase by setting `override_during = plan` in the `override_` block.", Subject: a.Condition.Range().Ptr()})
				status = Error
				break
			}
			// OpenTofu counts an unknown condition as a failed one.
			ar.Status = Fail
			failed(rr, &ar, a, msg, res.DiagnosticContext(a.Condition, "", names))
			status = max(status, Fail)
		case uv.IsNull():
			ar.Status = Error
			rr.Diagnostics = append(rr.Diagnostics, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid condition run", Detail: "Condition expression must return either true or false, not null.", Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: res.DiagnosticContext(a.Condition, "", names)})
			status = Error
		default:
			bv, err := convert.Convert(uv, cty.Bool)
			if err != nil {
				ar.Status = Error
				rr.Diagnostics = append(rr.Diagnostics, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid condition run", Detail: fmt.Sprintf("Invalid condition run value: %s.", err), Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: res.DiagnosticContext(a.Condition, "", names)})
				status = Error
				break
			}
			if bv.True() {
				ar.Status = Pass
				break
			}
			if u, ok := normalizedUnread(a, normalized, names); ok {
				ar.Status = Skip
				if firstUnread == nil {
					firstUnread, unreadAt = &u, a.Condition.Range().String()
				}
				break
			}
			ar.Status = Fail
			failed(rr, &ar, a, msg, res.DiagnosticContext(a.Condition, "", names))
			status = max(status, Fail)
		}
		rr.Assertions = append(rr.Assertions, ar)
	}
	if status == Pass && (firstUnread != nil || rr.SkipReason != "") {
		rr.Status = Skip
		if firstUnread != nil {
			r.skipFor(rr, fs, cfg, *firstUnread, what())
		}
		return
	}
	rr.SkipReason = ""
	rr.Status = status
}

// readsUninitializedOutput reports whether a condition reads a root
// module output the operation did not evaluate for an expected failure
// (skipped): Terraform reads it as unknown, after an apply too.
func readsUninitializedOutput(cond hcl.Expression, skipped map[string]bool) bool {
	if len(skipped) == 0 {
		return false
	}
	for _, t := range cond.Variables() {
		if names := traversalNames(t); len(names) >= 2 && names[0] == "output" && skipped["output."+names[1]] {
			return true
		}
	}
	return false
}

// normalizedUnread is the provider a failed assertion's condition waits
// on when the objects of providers the test does not mock are unknown
// (normalized): such a provider may plan an argument otherwise than the
// configuration gives it, so the failure is not certain.
func normalizedUnread(a *Assert, normalized func() (*lang.Result, cty.Value), names map[string]cty.Value) (marks.Unread, bool) {
	if normalized == nil {
		return marks.Unread{}, false
	}
	nres, outputs := normalized()
	nnames := make(map[string]cty.Value, len(names))
	for k, v := range names {
		nnames[k] = v
	}
	nnames["output"] = outputs
	v, diags := nres.EvalExprWithNames(a.Condition, "", nnames)
	if uv, _ := v.UnmarkDeep(); diags.HasErrors() || uv.IsKnown() {
		return marks.Unread{}, false
	}
	for _, u := range providerUnread(v) {
		if u.Cause == marks.ProviderNotRun {
			return u, true
		}
	}
	return marks.Unread{}, false
}

// errorMessage evaluates an assertion's error message as Terraform does:
// a value that is not a string, or is null, is an error; one that refers
// to a sensitive value gives a warning and is not shown; an unknown one is
// empty.
func (r *runner) errorMessage(a *Assert, res *lang.Result, names map[string]cty.Value) (string, hcl.Diagnostics) {
	v, diags := res.EvalExprWithNames(a.ErrorMessage, "", names)
	if diags.HasErrors() {
		return "", diags
	}
	invalid := func(why string) hcl.Diagnostics {
		return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid error message", Detail: "Unsuitable value for error message: " + why + ".", Subject: a.ErrorMessage.Range().Ptr()})
	}
	sv, err := convert.Convert(v, cty.String)
	switch {
	case err != nil:
		return "", invalid(err.Error())
	case !sv.IsKnown():
		return "", diags
	case sv.IsNull():
		return "", invalid("must not be null")
	case marks.Contains(sv, marks.Sensitive):
		return "", append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Error message refers to sensitive values", Detail: fmt.Sprintf("The error expression used to explain this condition refers to sensitive values, so %s will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.", r.opts.Dialect.Product()), Subject: a.ErrorMessage.Range().Ptr()})
	}
	us, _ := sv.UnmarkDeep()
	return strings.TrimSpace(us.AsString()), diags
}

// failed reports a failed assertion with its evaluated error message and
// the context its condition was evaluated in, for the values it refers to.
// Terraform names the ephemeral values among them (not the sensitive
// ones), whatever made the assertion fail.
func failed(rr *RunResult, ar *AssertionResult, a *Assert, msg string, ctx *hcl.EvalContext) {
	ar.ErrorMessage = msg
	rr.Diagnostics = append(rr.Diagnostics, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Test assertion failed", Detail: msg, Subject: a.Condition.Range().Ptr(), Expression: a.Condition, EvalContext: ctx, Extra: lang.ValueCause{Ephemeral: true}})
}

// providerUnread are the Unread marks of an unknown condition that stand
// for something tfeval lacked (a provider's answer, a schema, a module);
// not those of an object whose evaluation failed, which Terraform would
// not know either.
func providerUnread(v cty.Value) []marks.Unread {
	var out []marks.Unread
	for _, u := range marks.UnreadMarks(v) {
		if u.Cause != marks.Errored {
			out = append(out, u)
		}
	}
	return out
}

// testOnlyVars is the var object Terraform's assertions see when the test
// file gives values to variables the module does not declare: the
// module's variables, and those values beside them. ok is false when
// there are none, and var is the module's own.
func testOnlyVars(res *lang.Result, testVals map[string]cty.Value) (cty.Value, bool) {
	root := res.Root()
	if root == nil {
		return cty.NilVal, false
	}
	vars := map[string]cty.Value{}
	extra := false
	for k, v := range testVals {
		if _, declared := root.Config.Module.Variables[k]; !declared {
			vars[k] = v
			extra = true
		}
	}
	if !extra {
		return cty.NilVal, false
	}
	for k, v := range root.Variables {
		vars[k] = v
	}
	return objectOf(vars), true
}

// tofuVars is the var object OpenTofu's assertions see: the module's
// variables, with what the test gave over them (-var values as the text
// given, the file's and the run's variables blocks).
func (r *runner) tofuVars(res *lang.Result, testVals map[string]cty.Value) cty.Value {
	vars := map[string]cty.Value{}
	if root := res.Root(); root != nil {
		for k, v := range root.Variables {
			vars[k] = v
		}
	}
	for _, a := range r.opts.VarArgs {
		if a.Kind != tfvars.VarFlag {
			continue
		}
		if name, val, diags := tfvars.ParseVarFlag(a.Text); !diags.HasErrors() {
			vars[name] = cty.StringVal(val)
		}
	}
	for k, v := range testVals {
		vars[k] = v
	}
	return objectOf(vars)
}

// tofuRunRefs checks an assertion's references to run blocks as OpenTofu
// does: only a finished apply run's outputs can be referred to; another
// reference makes the assertion's references fail as a whole, and its
// condition and message are evaluated with nothing defined.
func (r *runner) tofuRunRefs(a *Assert, fs *fileState) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, e := range []hcl.Expression{a.Condition, a.ErrorMessage} {
		for _, t := range e.Variables() {
			if t.RootName() != "run" || len(t) < 2 {
				continue
			}
			at, ok := t[1].(hcl.TraverseAttr)
			if !ok {
				continue
			}
			if _, ok := fs.outputs[at.Name]; ok {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared resource", Detail: fmt.Sprintf("There is no managed resource \"run\" %q definition in the root module.", at.Name), Subject: hcl.RangeBetween(t[0].SourceRange(), at.SrcRange).Ptr()})
		}
	}
	if !diags.HasErrors() {
		return nil
	}
	empty := r.evalContext(map[string]cty.Value{})
	for _, e := range []hcl.Expression{a.Condition, a.ErrorMessage} {
		_, d := e.Value(empty)
		diags = append(diags, d...)
	}
	return diags
}

// typeUncertain finds, in a decided condition, an equality where one side
// reads an argument of a resource or data source whose provider schema
// tfeval does not have and the schema's type would have converted the
// argument: a number or bool compared with a string (-1 given for a string
// attribute is "-1", "443" given for a number attribute is 443), values of
// different collection or structural types equal once converted (a tuple
// given for a set attribute compared with the set), or the same JSON
// document written differently (which providers normalize). Terraform's
// answer depends on it. It returns the resource's address.
func (r *runner) typeUncertain(expr hcl.Expression, res *lang.Result, names map[string]cty.Value, cfg *config.Config, typed map[string]bool) (string, bool) {
	se, ok := expr.(hclsyntax.Expression)
	if !ok {
		return "", false
	}
	w := &uncertainWalk{r: r, res: res, names: names, cfg: cfg, typed: typed}
	hclsyntax.Walk(se, w)
	return w.found, w.found != ""
}

// uncertainWalk is typeUncertain's walk of a condition. A comparison
// inside a for expression over resource instances
// (alltrue([for x in aws_thing.t : x.a == 1])) is judged for every
// element, with the for's variables bound.
type uncertainWalk struct {
	r     *runner
	res   *lang.Result
	names map[string]cty.Value
	cfg   *config.Config
	fors  []*hclsyntax.ForExpr
	found string
	// moot are comparisons whose value nothing reads: the whole argument
	// of can(), which an equality never makes fail.
	moot map[*hclsyntax.BinaryOpExpr]bool
	// typed are the attributes the table of the provider's schema typed
	// (RunResult.tableTyped).
	typed map[string]bool
	// bound are bindings' answers by for expression: its collection is
	// evaluated once for the walk, not once for each node inside it.
	bound map[*hclsyntax.ForExpr][]map[string]cty.Value
}

func (w *uncertainWalk) Enter(n hclsyntax.Node) hcl.Diagnostics {
	if w.found == "" {
		w.found = w.observed(n)
	}
	switch n := n.(type) {
	case *hclsyntax.ForExpr:
		w.fors = append(w.fors, n)
	case *hclsyntax.FunctionCallExpr:
		if n.Name == "can" && len(n.Args) == 1 {
			if op, ok := unparen(n.Args[0]).(*hclsyntax.BinaryOpExpr); ok {
				if w.moot == nil {
					w.moot = map[*hclsyntax.BinaryOpExpr]bool{}
				}
				w.moot[op] = true
			}
		}
	case *hclsyntax.ScopeTraversalExpr:
		if w.found == "" {
			w.found = w.r.blockIndexed(n.Traversal, w.cfg)
		}
	case *hclsyntax.BinaryOpExpr:
		if w.found == "" && !w.moot[n] && (n.Op == hclsyntax.OpEqual || n.Op == hclsyntax.OpNotEqual) {
			for _, names := range w.bindings() {
				if w.found = w.comparison(n, names); w.found != "" {
					break
				}
			}
		}
	}
	return nil
}

// observed is the address of the resource without schema whose whole
// object n observes the attributes of (keys of it, a for expression over
// it, an index by a computed key, an equality with it): tfeval's object
// lacks the attributes neither the configuration nor the test reads, so
// the condition's answer is not Terraform's. "" when n observes none.
func (w *uncertainWalk) observed(n hclsyntax.Node) string {
	operands, deep := lang.ObservedOperands(n)
	if len(operands) == 0 {
		return ""
	}
	// An operand that reads neither of the innermost for's variables has
	// the same value with every binding: it is judged once, with the
	// first, where the length(output.resources[k].name) of a for over 560
	// kinds evaluated the whole output.resources for each of them.
	// (Had it found an object with the first, the walk would have
	// stopped there.)
	free := make([]bool, len(operands))
	if len(w.fors) > 0 {
		f := w.fors[len(w.fors)-1]
		for i, x := range operands {
			free[i] = !readsName(x, f.ValVar) && (f.KeyVar == "" || !readsName(x, f.KeyVar))
		}
	}
	for b, names := range w.bindings() {
		for i, x := range operands {
			if b > 0 && free[i] {
				continue
			}
			if addr, ok := w.wholeObject(x, names, deep); ok {
				return addr
			}
		}
	}
	return ""
}

// wholeObject is the address of the resource without schema whose whole
// object x's value, evaluated with names, is (WholeObjectWithoutSchema),
// and whether there is one.
func (w *uncertainWalk) wholeObject(x hclsyntax.Expression, names map[string]cty.Value, deep bool) (string, bool) {
	v, diags := w.res.EvalExprWithNames(x, "", names)
	if diags.HasErrors() {
		return "", false
	}
	return w.res.WholeObjectWithoutSchema(v, deep)
}

// readsName reports whether x reads the variable name (a for's, bound in
// an enclosing scope).
func readsName(x hclsyntax.Expression, name string) bool {
	for _, t := range hclsyntax.Variables(x) {
		if t.RootName() == name {
			return true
		}
	}
	return false
}

func (w *uncertainWalk) Exit(n hclsyntax.Node) hcl.Diagnostics {
	if f, ok := n.(*hclsyntax.ForExpr); ok && len(w.fors) > 0 && w.fors[len(w.fors)-1] == f {
		w.fors = w.fors[:len(w.fors)-1]
	}
	return nil
}

// bindings are the names a comparison is evaluated with: the condition's
// own, and inside a for expression those with the innermost for's
// variables bound to each element of its collection in turn.
func (w *uncertainWalk) bindings() []map[string]cty.Value {
	if len(w.fors) == 0 {
		return []map[string]cty.Value{w.names}
	}
	f := w.fors[len(w.fors)-1]
	if bs, ok := w.bound[f]; ok {
		return bs
	}
	bs := w.bindingsOf(f)
	if w.bound == nil {
		w.bound = map[*hclsyntax.ForExpr][]map[string]cty.Value{}
	}
	w.bound[f] = bs
	return bs
}

// bindingsOf is bindings for the for expression f.
func (w *uncertainWalk) bindingsOf(f *hclsyntax.ForExpr) []map[string]cty.Value {
	coll, diags := w.res.EvalExprWithNames(f.CollExpr, "", w.names)
	coll, _ = coll.UnmarkDeep()
	if diags.HasErrors() || !coll.IsKnown() || coll.IsNull() || !coll.CanIterateElements() {
		return nil
	}
	var out []map[string]cty.Value
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		names := make(map[string]cty.Value, len(w.names)+2)
		for n, nv := range w.names {
			names[n] = nv
		}
		names[f.ValVar] = v
		if f.KeyVar != "" {
			names[f.KeyVar] = k
		}
		out = append(out, names)
	}
	return out
}

// ref is schemalessRef of one side of a comparison, where a side that
// reads a for's variable reads the for's collection.
func (w *uncertainWalk) ref(side hclsyntax.Expression) string {
	if found := w.r.schemalessRef(side, w.cfg, w.typed); found != "" || len(w.fors) == 0 {
		return found
	}
	f := w.fors[len(w.fors)-1]
	for _, t := range side.Variables() {
		if root := t.RootName(); root == f.ValVar || root == f.KeyVar {
			return w.r.schemalessRef(f.CollExpr, w.cfg, w.typed)
		}
	}
	return ""
}

// comparison is the address of the resource without schema whose
// argument decides op, evaluated with names; "" when op is decided.
func (w *uncertainWalk) comparison(op *hclsyntax.BinaryOpExpr, names map[string]cty.Value) string {
	lv, ld := w.res.EvalExprWithNames(op.LHS, "", names)
	rv, rd := w.res.EvalExprWithNames(op.RHS, "", names)
	if ld.HasErrors() || rd.HasErrors() {
		return ""
	}
	either := func() string {
		if found := w.ref(op.LHS); found != "" {
			return found
		}
		return w.ref(op.RHS)
	}
	lt, rt := primitiveType(lv), primitiveType(rv)
	if lt != cty.NilType && rt != cty.NilType {
		if lt == cty.String && rt == cty.String && sameJSONDocument(lv, rv) {
			// Providers normalize a JSON document given to an
			// argument (an event pattern, a policy) in the plan.
			return either()
		}
		if lt == rt || (lt != cty.String && rt != cty.String) {
			return ""
		}
		// The schema may convert either side: a number given for a
		// string attribute, or a string that reads as a number or
		// bool ("443") given for a number or bool attribute.
		str, sv, other, ot := op.LHS, lv, op.RHS, rt
		if rt == cty.String {
			str, sv, other, ot = op.RHS, rv, op.LHS, lt
		}
		if found := w.ref(other); found != "" || !convertsTo(sv, ot) {
			return found
		}
		return w.ref(str)
	}
	// A tuple or object the configuration gives an argument is a list,
	// set, map or fuller object in the schema, which never equals the
	// tuple or object it is compared with.
	if equalStructures(lv, rv) {
		if ul, _ := lv.UnmarkDeep(); ul.LengthInt() == 0 && (w.instancesOf(op.LHS) || w.instancesOf(op.RHS)) {
			// No instance: the empty object or tuple of a count or
			// for_each, whatever the schema.
			return ""
		}
		lf, rf := w.readAsIs(op.LHS), w.readAsIs(op.RHS)
		if lf == "" || rf == "" {
			return lf + rf
		}
		return ""
	}
	// Collections: the configuration's tuple may be a set or list
	// in the schema, equal to the other side once converted.
	if !equalOnceConverted(lv, rv) {
		return ""
	}
	return either()
}

// readAsIs is ref of a side that is a reference alone (aws_thing.t.zones,
// output.zones, a for's variable): its value is the argument's own, typed
// by the schema. A side that computes from the argument (jsondecode of it,
// keys of it, a for over it) makes a value whose type the schema does not
// decide.
func (w *uncertainWalk) readAsIs(side hclsyntax.Expression) string {
	side = unparen(side)
	if _, ok := side.(*hclsyntax.ScopeTraversalExpr); !ok {
		return ""
	}
	return w.ref(side)
}

// instancesOf reports whether side is a resource's (or data source's)
// instances: a reference to it alone, where it has count or for_each.
func (w *uncertainWalk) instancesOf(side hclsyntax.Expression) bool {
	t, ok := unparen(side).(*hclsyntax.ScopeTraversalExpr)
	if !ok {
		return false
	}
	names := traversalNames(t.Traversal)
	if len(names) != len(t.Traversal) {
		return false // an index step: one instance
	}
	addr := strings.Join(names, ".")
	if len(names) != 2 && !(len(names) == 3 && names[0] == "data") {
		return false
	}
	res, _ := findConfigResource(w.cfg, addr)
	return res != nil && (res.Count != nil || res.ForEach != nil)
}

// unparen is e without the parentheses around it.
func unparen(e hclsyntax.Expression) hclsyntax.Expression {
	for {
		p, ok := e.(*hclsyntax.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expression
	}
}

// equalStructures reports whether two known values are the same tuple or
// object (empty ones too: an empty list is not an empty tuple).
func equalStructures(a, b cty.Value) bool {
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() || a.IsNull() || b.IsNull() {
		return false
	}
	if ty := a.Type(); !ty.IsTupleType() && !ty.IsObjectType() {
		return false
	}
	return a.RawEquals(b)
}

// equalOnceConverted reports whether two known values of different
// structural or collection types are equal once one is converted to the
// other's type (a tuple and the set of its elements).
func equalOnceConverted(a, b cty.Value) bool {
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	if !a.IsWhollyKnown() || !b.IsWhollyKnown() || a.IsNull() || b.IsNull() || a.Type().Equals(b.Type()) {
		return false
	}
	for _, p := range [][2]cty.Value{{a, b}, {b, a}} {
		if cv, err := convert.Convert(p[0], p[1].Type()); err == nil && cv.RawEquals(p[1]) {
			return true
		}
	}
	return false
}

// sameJSONDocument reports whether two different strings are the same
// JSON object or array written differently (key order, spacing).
func sameJSONDocument(a, b cty.Value) bool {
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	as, bs := strings.TrimSpace(a.AsString()), strings.TrimSpace(b.AsString())
	if as == bs || as == "" || bs == "" || (as[0] != '{' && as[0] != '[') {
		return false
	}
	var ad, bd any
	if json.Unmarshal([]byte(as), &ad) != nil || json.Unmarshal([]byte(bs), &bd) != nil {
		return false
	}
	return reflect.DeepEqual(ad, bd)
}

// convertsTo reports whether v converts to type ty.
func convertsTo(v cty.Value, ty cty.Type) bool {
	v, _ = v.UnmarkDeep()
	_, err := convert.Convert(v, ty)
	return err == nil
}

// primitiveType is the type of a known primitive value, cty.NilType for
// anything else.
func primitiveType(v cty.Value) cty.Type {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() || !v.Type().IsPrimitiveType() {
		return cty.NilType
	}
	return v.Type()
}

// schemalessRef is the address of a resource or data source without
// schema that expr refers to directly, or through outputs whose value is
// one reference (output.NAME, module.NAME.OUTPUT); "" when none. A
// reference to an argument its provider declares of dynamic type does not
// count: the schema would keep the type the configuration gives it.
func (r *runner) schemalessRef(expr hcl.Expression, cfg *config.Config, typed map[string]bool) string {
	for _, t := range expr.Variables() {
		if addr := r.schemalessNames(traversalNames(t), cfg, 0, typed); addr != "" {
			return addr
		}
	}
	return ""
}

// schemalessNames is schemalessRef of one reference, by the names it
// steps through, in module cfg.
func (r *runner) schemalessNames(names []string, cfg *config.Config, depth int, typed map[string]bool) string {
	if cfg == nil || cfg.Module == nil || depth > 8 {
		return ""
	}
	if len(names) >= 3 && names[0] == "resource" {
		names = names[1:] // resource.TYPE.NAME names a managed resource as TYPE.NAME does
	}
	addr := ""
	switch {
	case len(names) >= 2 && names[0] == "output":
		return r.outputRef(cfg, names[1], names[2:], depth, typed)
	case len(names) >= 3 && names[0] == "module":
		if found := r.outputRef(cfg.Children[names[1]], names[2], names[3:], depth, typed); found != "" {
			return "module." + names[1] + "." + found
		}
		return ""
	case len(names) >= 3 && names[0] == "data":
		addr = "data." + names[1] + "." + names[2]
	case len(names) >= 2:
		addr = names[0] + "." + names[1]
	default:
		return ""
	}
	res, c := findConfigResource(cfg, addr)
	if res == nil || (res.Mode == config.ManagedResourceMode && builtin(res)) {
		return ""
	}
	if attr := len(strings.Split(addr, ".")); len(names) > attr && lang.DynamicArgument(c.Module, res, names[attr]) {
		return "" // the schema keeps the configuration's type
	}
	if r.opts.Schemas.ResourceSchema(c.Module, res) != nil {
		return ""
	}
	if attr := len(strings.Split(addr, ".")); len(names) > attr && typed[address.ModulePrefix(c.Path)+addr+"."+names[attr]] {
		return "" // the table of the provider's schema typed it
	}
	return addr
}

// outputRef follows output name of module cfg, read at the attributes
// rest, to the resource without schema its value reads when that value is
// one reference.
func (r *runner) outputRef(cfg *config.Config, name string, rest []string, depth int, typed map[string]bool) string {
	if cfg == nil || cfg.Module == nil || cfg.Module.Outputs[name] == nil {
		return ""
	}
	t, diags := hcl.AbsTraversalForExpr(cfg.Module.Outputs[name].Expr)
	if diags.HasErrors() {
		return ""
	}
	return r.schemalessNames(append(traversalNames(t), rest...), cfg, depth+1, typed)
}
