package tftest

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// runOne carries out one run block: its variables, the plan, the apply
// for an apply run, the expected failures and the assertions.
func (r *runner) runOne(f *File, fs *fileState, idx int, draw int) *RunResult {
	run := f.Runs[idx]
	start := time.Now()
	rr := &RunResult{Name: run.Name, Run: run, Command: run.Command}
	rr.Started = start
	defer func() {
		rr.Elapsed = time.Since(start)
		rr.verboseDiagnostics()
	}()
	tofu := r.opts.Dialect == dialect.Tofu

	l := r.config(f, run)
	if l.diags.HasErrors() {
		rr.Diagnostics, rr.Status = l.diags, Error
		return rr
	}
	if !tofu && len(fs.failedMocks) > 0 {
		for key := range usesProviders(run, l.cfg.Module) {
			if fs.failedMocks[key] {
				// The provider failed to configure: the file's error.
				rr.Status, rr.blocked = Skip, true
				return rr
			}
		}
	}
	if diags := r.runChecks(f, run); diags.HasErrors() {
		rr.Diagnostics, rr.Status = diags, Error
		return rr
	}
	rr.Diagnostics = runOverrideWarnings(run, l.cfg, r.opts.Dialect)
	stateKey := run.StateKey
	if stateKey == "" && run.Module != nil {
		stateKey = run.Module.Source
	}
	if lost := fs.lost[stateKey]; lost != nil {
		rr.Status, rr.NeedsProvider = Skip, lost.NeedsProvider
		rr.SkipReason = fmt.Sprintf("it starts from the state run %q left, which needs that provider (%s)", lost.Name, lost.SkipReason)
		r.forgetOutputs(fs, rr, cfgOutputs(l.cfg))
		return rr
	}

	overrides, diags := runOverrides(f, run, r.opts.Dialect)
	rr.Diagnostics = append(rr.Diagnostics, diags...)
	if diags := invalidMockValues(overrides, r.mocks(f, run), r.opts.Dialect); diags.HasErrors() {
		rr.Diagnostics, rr.Status = append(rr.Diagnostics, diags...), Error
		return rr
	}
	cfg := withModuleOverrides(l.cfg, overrides)

	raw, testVals, diags := r.variables(f, run, cfg, fs, rr)
	if rr.blocked {
		// Terraform skips a run that takes a file value that failed,
		// before anything else: the value's errors are the file's.
		rr.Diagnostics, rr.Status, rr.NotStarted = nil, Skip, true
		return rr
	}
	rr.Diagnostics = append(rr.Diagnostics, diags...)
	if diags.HasErrors() && !tofu {
		rr.Status = Error
		return rr
	}
	missing := tfvars.Missing(raw, cfg.Module.Variables)
	if !tofu {
		missing = unsetVariables(run, raw, cfg.Module.Variables)
	}
	if missing.HasErrors() {
		rr.Diagnostics = append(rr.Diagnostics, missing...)
		rr.Status = Error
		return rr
	}
	if rr.Diagnostics.HasErrors() {
		// OpenTofu goes on past a value that failed, to report the
		// required variables it leaves unset, then stops.
		rr.Status = Error
		return rr
	}

	tg := newTargeting(cfg, run.PlanOptions.Target, lang.Options{Dialect: r.opts.Dialect, Schemas: r.opts.Schemas})
	rr.targets = tg
	in := &instances{
		runInputs: runInputs{
			targets:        tg,
			phase:          planPhase,
			mockAtPlan:     tofu,
			tofu:           tofu,
			gen:            r.opts.Seed,
			draw:           draw,
			serial:         idx,
			prior:          moved(cfg, fs.states[stateKey]),
			refreshOnly:    run.PlanOptions.RefreshOnly,
			overrides:      overrides,
			mocks:          r.mocks(f, run),
			collections:    &r.collections,
			providersGiven: providersGiven(f, run),
		},
		notPlanned: map[string]bool{},
		applied:    map[string]cty.Value{},
	}
	in.reads, in.laterReads = r.planReads(f, idx)
	if diags := unmanagedReplaces(run); diags.HasErrors() {
		rr.Diagnostics, rr.Status = append(rr.Diagnostics, diags...), Error
		return rr
	}
	for _, t := range run.PlanOptions.Replace {
		in.replace = append(in.replace, formatTarget(t))
	}
	rr.Prior, rr.PriorOutputs = in.prior, fs.stateOutputs[stateKey]
	res, diags := r.evaluate(cfg, raw, in, nil)
	diags = tg.unplannedUnknowns(cfg, diags)
	// A rule of the module that read a drawn value could fail with another.
	rr.readDrawn = res.ConditionMarks().Has(marks.Drawn)
	rr.Result = res
	if res.UnexpandedErrors() != nil {
		// Terraform validates the configuration before each run
		// (hashicorp/terraform#33608), every block whatever its count:
		// what that finds and the plan does not, it stops at.
		if vdiags := r.validate(cfg, in.providersGiven); lang.NewErrors(diags, vdiags) != nil {
			rr.Diagnostics = append(rr.Diagnostics, vdiags...)
			rr.Status, rr.Stopped = Error, true
			return rr
		}
	}
	if len(run.PlanOptions.Target) > 0 {
		rr.Diagnostics = append(rr.Diagnostics, targetWarnings(run.Command, r.opts.Dialect)...)
	}
	exp := newExpectations(run)
	orig := diags
	if run.Command == Plan {
		diags = exp.validate(diags, res)
	} else {
		diags = exp.explainPlan(diags, r.opts.Dialect)
	}
	if u, ok := placeholderErrors(diags); ok {
		r.skipFor(rr, fs, cfg, u, "the plan's errors arise in instances whose number depends on it")
		r.forgetOutputs(fs, rr, cfgOutputs(cfg))
		return rr
	}
	if u, ok := r.unknownInstancesOfProvider(diags, cfg, in); ok {
		r.skipFor(rr, fs, cfg, u, "a count or for_each depends on it: Terraform's plan fails if the provider computes it, and knows the instances if it is an argument")
		r.forgetOutputs(fs, rr, cfgOutputs(cfg))
		return rr
	}
	from := len(rr.Diagnostics)
	rr.Diagnostics = append(rr.Diagnostics, diags...)
	if !tofu && run.Command == Plan {
		rr.shown = &shownSpan{from: from, to: len(rr.Diagnostics), orig: orig}
	}
	if rr.Diagnostics.HasErrors() {
		rr.Status, rr.Stopped = Error, true
		return rr
	}
	if run.Command == Plan {
		if !tofu {
			rr.skipped = unevaluated(cfg, exp.failed, lang.Options{Dialect: r.opts.Dialect, Schemas: r.opts.Schemas})
		}
		rr.Outputs, rr.NotPlanned = rr.uninitializedOutputs(tg.runOutputs(res, rr.PriorOutputs), cfg.Module), tg.leaveOut(res, in.notPlanned)
		outputs := objectOf(rr.Outputs)
		if !tofu {
			outputs = plannedOutputs(outputs)
			fs.outputs[run.Name] = outputs
		}
		var normalized func() (*lang.Result, cty.Value)
		if in.planned {
			normalized = sync.OnceValues(func() (*lang.Result, cty.Value) {
				nres, _ := r.evaluate(cfg, raw, in.normalizingAgain(), nil)
				return nres, objectOf(tg.runOutputs(nres, rr.PriorOutputs))
			})
		}
		rr.tableTyped = in.tableTyped
		r.assert(rr, run, res, outputs, fs, cfg, testVals, false, exp.pending(res, false), normalized)
		rr.drew = in.drew
		if rr.Status == Skip && !tofu {
			r.forgetOutputs(fs, rr, cfgOutputs(cfg))
		}
		return rr
	}

	// An apply creates what the plan has: a provider the file does not
	// mock would have to run.
	in.phase = applyPhase
	res, diags = r.evaluate(cfg, raw, in, res)
	diags = tg.unplannedUnknowns(cfg, diags)
	rr.readDrawn = rr.readDrawn || res.ConditionMarks().Has(marks.Drawn)
	if len(in.needs) > 0 {
		sort.Slice(in.needs, func(i, j int) bool { return in.needs[i].addr < in.needs[j].addr })
		n := in.needs[0]
		rr.Status, rr.NeedsProvider = Skip, n.source
		rr.SkipReason = "the apply creates " + n.addr
		if n.why != "" {
			rr.SkipReason = n.why
		}
		if len(in.needs) > 1 {
			rr.SkipReason += fmt.Sprintf(" (and %d more)", len(in.needs)-1)
		}
		fs.lost[stateKey] = rr
		r.forgetOutputs(fs, rr, cfgOutputs(cfg))
		return rr
	}
	rr.Result = res
	// The apply evaluates the configuration again: what the plan reported
	// already is not reported twice.
	from = len(rr.Diagnostics)
	rr.Diagnostics = appendNew(rr.Diagnostics, exp.validate(diags, res))
	if !tofu {
		rr.shown = &shownSpan{from: from, to: len(rr.Diagnostics), orig: appendNew(rr.Diagnostics[:from:from], diags)[from:]}
		// An expected failure stops the apply as it stops a plan: what
		// depends on the failed object is neither applied nor evaluated.
		rr.skipped = unevaluated(cfg, exp.failed, lang.Options{Dialect: r.opts.Dialect, Schemas: r.opts.Schemas})
	}
	fs.states[stateKey] = keepUnapplied(in.keepUntargeted(), in.prior, rr.skipped)
	rr.Outputs, rr.NotPlanned = rr.uninitializedOutputs(tg.runOutputs(res, rr.PriorOutputs), cfg.Module), tg.leaveOut(res, in.notPlanned)
	fs.stateOutputs[stateKey] = map[string]cty.Value{}
	for name, v := range rr.Outputs {
		if rr.skipped["output."+name] {
			// Not evaluated: the state keeps what it had.
			if p, ok := rr.PriorOutputs[name]; ok {
				fs.stateOutputs[stateKey][name] = p
			}
			continue
		}
		// A state keeps no output whose value is null.
		if uv, _ := v.UnmarkDeep(); !uv.IsNull() {
			fs.stateOutputs[stateKey][name] = v
		}
	}
	fs.outputs[run.Name] = objectOf(rr.Outputs)
	applied := exp.applyStatus(rr.Diagnostics)
	if !tofu && applied == Error || tofu && rr.Diagnostics.HasErrors() {
		rr.Status, rr.Stopped = Error, true
		return rr
	}
	rr.tableTyped = in.tableTyped
	r.assert(rr, run, res, fs.outputs[run.Name], fs, cfg, testVals, true, exp.pending(res, true), nil)
	rr.drew = in.drew
	if applied == Fail && (rr.Status == Pass || rr.Status == Fail) {
		// An expected failure that did not happen fails the run; its
		// assertions still run (Terraform 1.12 on). A run whose
		// assertions tfeval could not decide stays skipped: failed or
		// errored, which Terraform's would be is not known.
		rr.Status = Fail
	}
	return rr
}

// planReads are the expressions whose reads of resources without schema
// the plan of run idx of f fills in: its assertions (lang.Options.Reads),
// and what the file's later runs read of its outputs (run.NAME.OUT...,
// lang.Options.OutputReads), which hold the objects it plans: in their
// assertions, in their variables blocks, and through a variable set from
// them, what they read of that variable (variableReads).
func (r *runner) planReads(f *File, idx int) ([]hcl.Expression, *lang.OutputReads) {
	run := f.Runs[idx]
	later := &lang.OutputReads{Ref: hcl.Traversal{hcl.TraverseRoot{Name: "run"}, hcl.TraverseAttr{Name: run.Name}}}
	fileRefs := r.opts.Dialect != dialect.Tofu && slices.ContainsFunc(sortedKeys(f.Variables), func(name string) bool {
		return refersToRun(f.Variables[name].Expr.Variables(), run.Name)
	})
	for j := idx + 1; j < len(f.Runs); j++ {
		l := f.Runs[j]
		var fileVars []string // the file's values l takes that read run.NAME
		if fileRefs {
			if lc := r.config(f, l).cfg; lc != nil && lc.Module != nil {
				for _, name := range sortedKeys(fileVarsTaken(f, l, lc.Module.Variables)) {
					if refersToRun(f.Variables[name].Expr.Variables(), run.Name) {
						fileVars = append(fileVars, name)
					}
				}
			}
		}
		if !refersToRun(runTraversals(l), run.Name) && len(fileVars) == 0 {
			continue
		}
		later.Exprs = append(later.Exprs, assertionExprs(l)...)
		var varReads map[string][]hcl.Traversal
		for _, name := range fileVars {
			e := f.Variables[name].Expr
			later.Exprs = append(later.Exprs, e)
			se, ok := e.(hclsyntax.Expression)
			if _, own := l.Variables[name]; !ok || own {
				continue
			}
			if varReads == nil {
				varReads = r.variableReads(f, j)
			}
			for _, path := range varReads[name] {
				later.Exprs = append(later.Exprs, &hclsyntax.RelativeTraversalExpr{Source: se, Traversal: path, SrcRange: e.Range()})
			}
		}
		for _, name := range sortedKeys(l.Variables) {
			e := l.Variables[name].Expr
			later.Exprs = append(later.Exprs, e)
			se, ok := e.(hclsyntax.Expression)
			if !ok || !refersToRun(e.Variables(), run.Name) {
				continue
			}
			if varReads == nil {
				varReads = r.variableReads(f, j)
			}
			for _, path := range varReads[name] {
				later.Exprs = append(later.Exprs, &hclsyntax.RelativeTraversalExpr{Source: se, Traversal: path, SrcRange: e.Range()})
			}
		}
	}
	if len(later.Exprs) == 0 {
		later = nil
	}
	return assertionExprs(run), later
}

// refersToRun reports whether one of ts refers to run.NAME.
func refersToRun(ts []hcl.Traversal, name string) bool {
	for _, t := range ts {
		if len(t) >= 2 && t.RootName() == "run" {
			if a, ok := t[1].(hcl.TraverseAttr); ok && a.Name == name {
				return true
			}
		}
	}
	return false
}

// variableReads is what run idx of f reads of its variables
// (lang.VariableReads): its module, its assertions, and through its
// outputs the file's later runs. It is worked out once.
func (r *runner) variableReads(f *File, idx int) map[string][]hcl.Traversal {
	l := f.Runs[idx]
	if reads, ok := r.varReads[l]; ok {
		return reads
	}
	own, later := r.planReads(f, idx)
	reads := lang.VariableReads(r.config(f, l).cfg, lang.Options{Dialect: r.opts.Dialect, Schemas: r.opts.Schemas, Functions: r.opts.Functions, Cwd: r.opts.WorkDir, Reads: own, OutputReads: later})
	if r.varReads == nil {
		r.varReads = map[*RunBlock]map[string][]hcl.Traversal{}
	}
	r.varReads[l] = reads
	return reads
}

// assertionExprs are the expressions of a run's assertions.
func assertionExprs(run *RunBlock) []hcl.Expression {
	out := make([]hcl.Expression, 0, 2*len(run.Asserts))
	for _, a := range run.Asserts {
		out = append(out, a.Condition, a.ErrorMessage)
	}
	return out
}

// evaluate plans the configuration, or with planned (the plan's result)
// applies it: an output the plan knew keeps its planned value.
func (r *runner) evaluate(cfg *config.Config, raw map[string]*tfvars.Value, in *instances, planned *lang.Result) (*lang.Result, hcl.Diagnostics) {
	applied := planned != nil
	var plannedOutputs func(module, name string) (cty.Value, bool)
	if applied {
		plannedOutputs = func(module, name string) (cty.Value, bool) {
			mi := planned.Module(module)
			if mi == nil {
				return cty.NilVal, false
			}
			v, ok := mi.ReadOutputs()[name]
			return v, ok
		}
	}
	fopts := r.opts.Functions
	fopts.PlanTimestamp = time.Now().UTC()
	if fopts.Now != nil {
		fopts.PlanTimestamp = fopts.Now().UTC()
	}
	return lang.Evaluate(cfg, lang.Options{
		Dialect:        r.opts.Dialect,
		Cwd:            r.opts.WorkDir,
		RootVariables:  raw,
		Schemas:        r.opts.Schemas,
		Functions:      fopts,
		Limits:         r.opts.Limits,
		Context:        r.opts.Context,
		Instances:      in.hook,
		Applied:        applied,
		PlannedOutputs: plannedOutputs,
		PlannedUnknown: r.plannedUnknown(cfg, in, applied),
		Reads:          in.reads,
		OutputReads:    in.laterReads,
		ProvidersGiven: in.providersGiven,
		// Mocked providers plan configured values as written. (A real
		// provider a run does not mock would follow its plugin SDK's
		// conventions; such runs read what only the provider knows, and
		// are planned as before.)
		PlanAsWritten: true,
		// What the plan expanded to no instance is validated too.
		ValidateUnexpanded: !applied,
		// Terraform's test command admits ephemeral root outputs.
		RootEphemeralOutputs: r.opts.Dialect == dialect.Terraform,
	})
}

// validate evaluates the configuration as terraform validate does.
func (r *runner) validate(cfg *config.Config, providersGiven map[string]bool) hcl.Diagnostics {
	_, diags := lang.Evaluate(cfg, lang.Options{
		Dialect:        r.opts.Dialect,
		Cwd:            r.opts.WorkDir,
		Schemas:        r.opts.Schemas,
		Functions:      r.opts.Functions,
		Limits:         r.opts.Limits,
		Context:        r.opts.Context,
		Validate:       true,
		ProvidersGiven: providersGiven,
		// Terraform's test command admits ephemeral root outputs.
		RootEphemeralOutputs: r.opts.Dialect == dialect.Terraform,
	})
	return diags
}

// variables works out a run's root variable values. It also returns the
// values the test file gave (the file's and the run's), which OpenTofu's
// assertions see as var.
//
// In Terraform (1.13 on) the file's values, and the variables the file
// declares, are worked out once for the file: their diagnostics are the
// file's (rr.fileDiags), and a run that takes one that failed is skipped
// (rr.blocked).
func (r *runner) variables(f *File, run *RunBlock, cfg *config.Config, fs *fileState, rr *RunResult) (map[string]*tfvars.Value, map[string]cty.Value, hcl.Diagnostics) {
	decls := cfg.Module.Variables
	tofu := r.opts.Dialect == dialect.Tofu
	lookup := decls
	referred := referredVars(run)
	lookedUp := slices.Clone(referred)
	var undeclared []string
	if !tofu {
		// The global values the file's values read are looked up as the
		// run's own references are: Terraform works out every value of
		// the file, whether a run takes it or not.
		for _, name := range sortedKeys(f.Variables) {
			for _, t := range f.Variables[name].Expr.Variables() {
				ref, ok := varName(t)
				if _, file := f.Variables[ref]; ok && (ref == name || !file) && !slices.Contains(lookedUp, ref) {
					lookedUp = append(lookedUp, ref)
				}
			}
		}
		if names, with := undeclaredVars(lookedUp, decls); with != nil {
			undeclared, lookup = names, with
		}
	}
	if !tofu && len(f.VariableDefs) > 0 {
		// The file's own declaration of a variable says how its global
		// value is parsed, whatever the module declares.
		lookup = maps.Clone(lookup)
		maps.Copy(lookup, f.VariableDefs)
	}
	globals, diags := r.globals(f, lookup)
	var deprecated func(string) bool
	if !tofu {
		// The file's expressions read a global value the file does not
		// declare through Terraform's deprecated path.
		deprecated = func(name string) bool { _, def := f.VariableDefs[name]; return !def }
	}
	gobj := globalObject(globals, lookup, deprecated)
	var defined map[string]cty.Value
	if !tofu && len(f.VariableDefs) > 0 {
		var d hcl.Diagnostics
		defined, d = definedValues(f, run, decls, globals)
		rr.fileDiags = append(rr.fileDiags, d...)
		if d.HasErrors() {
			rr.blocked = true
			return nil, nil, diags
		}
		gobj = merged(gobj, defined)
	}

	diags = append(diags, checkTestRefs(f.Variables, !tofu, r.opts.Dialect)...)
	diags = append(diags, checkTestRefs(run.Variables, true, r.opts.Dialect)...)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	var fileVals map[string]cty.Value
	var fileRanges map[string]hcl.Range
	var d, unknown hcl.Diagnostics
	if tofu {
		fileVals, fileRanges, d = evalVariables(f.Variables, r.evalContext(map[string]cty.Value{"var": objectOf(gobj)}))
	} else {
		taken := fileVarsTaken(f, run, decls)
		unknown = r.unknownRuns(f, run, nil)
		// (The file's values' references to runs it does not have.)
		unknownFile := r.unknownRuns(f, &RunBlock{}, taken)
		fileVals, fileRanges, d = r.fileVariables(f, taken, gobj, fs)
		fs.globals = gobj
		if !unknown.HasErrors() && !readsLaterRun(f, run, taken) {
			rr.fileDiags = append(rr.fileDiags, unknownFile...)
			rr.fileDiags = append(rr.fileDiags, d...)
			if unknownFile.HasErrors() || slices.ContainsFunc(sortedKeys(taken), func(name string) bool { _, ok := fileVals[name]; return !ok }) {
				rr.blocked = true
				return nil, nil, diags
			}
			d = nil
		} else {
			unknown = append(unknown, unknownFile...)
		}
	}
	diags = append(diags, d...)
	runVars := gobj
	if !tofu {
		// Terraform's run blocks see the file's values as var too.
		runVars = merged(gobj, fileVals)
	}
	runCtx := r.evalContext(map[string]cty.Value{"var": objectOf(runVars), "run": objectOf(fs.outputs)})
	if !tofu {
		diags = append(diags, unknown...)
		diags = append(diags, unavailableVars(f, run, runVars)...)
		for _, name := range sortedKeys(run.Variables) {
			diags = append(diags, unknownRunValues(run.Variables[name].Expr, fs.outputs)...)
		}
		own, fileWide, takenFailed := undefinedGlobalRefs(f, run, decls, globals, defined, fileVals, fs)
		diags = append(diags, own...)
		rr.fileDiags = append(rr.fileDiags, fileWide...)
		if takenFailed {
			// A file's value that reads a global value that does not
			// parse fails, and the run that takes it is skipped.
			rr.blocked = true
			return nil, nil, diags
		}
		if diags.HasErrors() {
			return nil, nil, diags
		}
	}
	runVals, runRanges, d := evalVariables(run.Variables, runCtx)
	diags = append(diags, d...)
	if !tofu {
		for _, name := range sortedKeys(run.Variables) {
			// A value for a variable the run refers to is its own, as
			// Terraform sees it: no warning.
			if _, ok := decls[name]; !ok && !slices.Contains(referred, name) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Value for undeclared variable", Detail: fmt.Sprintf("The module under test does not declare a variable named %q, but it is declared in run block %q.", name, run.Name), Subject: run.Variables[name].Expr.Range().Ptr()})
			}
		}
	}
	testVals := merged(fileVals, runVals)
	ranges := map[string]hcl.Range{}
	for k, v := range fileRanges {
		ranges[k] = v
	}
	for k, v := range runRanges {
		ranges[k] = v
	}
	for name := range run.Variables {
		if _, ok := runVals[name]; !ok {
			// A run's value that failed leaves the variable without the file's.
			delete(testVals, name)
		}
	}
	for _, name := range undeclared {
		// Terraform's run sees the global value of a variable it refers
		// to that the module does not declare and the file does not give;
		// the module's plan does not.
		if _, given := testVals[name]; !given {
			if v, ok := gobj[name]; ok {
				testVals[name] = v
			}
		}
		delete(globals, name)
	}
	raw := rawValues(globals, testVals, ranges, decls)
	for name, v := range defined {
		// A variable the file declares gives the module's variable of that
		// name its value, unless the run sets it.
		if _, ok := decls[name]; ok {
			if _, given := testVals[name]; !given {
				raw[name] = tfvars.FromModuleArg(v, f.VariableDefs[name].DeclRange)
			}
		}
	}
	return raw, testVals, diags
}

// readsLaterRun reports whether one of the file's values a run takes
// (taken) reads the run itself or a later one. Terraform's graph of the
// file then has a cycle; tfeval reports the value's errors as the run's.
func readsLaterRun(f *File, run *RunBlock, taken map[string]bool) bool {
	at := slices.Index(f.Runs, run)
	for name := range taken {
		for _, t := range f.Variables[name].Expr.Variables() {
			if t.RootName() != "run" || len(t) < 2 {
				continue
			}
			if a, ok := t[1].(hcl.TraverseAttr); ok && slices.IndexFunc(f.Runs, func(r *RunBlock) bool { return r.Name == a.Name }) >= at {
				return true
			}
		}
	}
	return false
}

// referredVars are the names of the variables a run refers to, in its
// assertions and its variables block (what Terraform counts as the run's
// references), in the order they first appear.
func referredVars(run *RunBlock) []string {
	exprs := assertionExprs(run)
	for _, name := range sortedKeys(run.Variables) {
		exprs = append(exprs, run.Variables[name].Expr)
	}
	var names []string
	for _, e := range exprs {
		for _, t := range e.Variables() {
			if t.RootName() != "var" || len(t) < 2 {
				continue
			}
			if at, ok := t[1].(hcl.TraverseAttr); ok && !slices.Contains(names, at.Name) {
				names = append(names, at.Name)
			}
		}
	}
	return names
}

// undeclaredVars are the variables among referred that decls does not
// declare, each as a declaration of the literal parsing mode undeclared
// values get, added to a copy of decls (nil when none).
func undeclaredVars(referred []string, decls map[string]*config.Variable) ([]string, map[string]*config.Variable) {
	var names []string
	var with map[string]*config.Variable
	for _, name := range referred {
		if _, declared := decls[name]; declared {
			continue
		}
		if with == nil {
			with = maps.Clone(decls)
		}
		with[name] = &config.Variable{Name: name, ParsingMode: config.VariableParseLiteral}
		names = append(names, name)
	}
	return names, with
}

// unsetVariables are Terraform's errors, in name order, for the required
// variables of a run's module that nothing gives a value: its test command
// says which run leaves them unset.
func unsetVariables(run *RunBlock, raw map[string]*tfvars.Value, decls map[string]*config.Variable) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(decls) {
		if _, ok := raw[name]; !ok && decls[name].Required() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No value for required variable", Detail: fmt.Sprintf("The module under test for run block %q has a required variable %q with no set value. Use a -var or -var-file command line argument or add this variable into a \"variables\" block within the test file or run block.", run.Name, name), Subject: decls[name].DeclRange.Ptr()})
		}
	}
	return diags
}

// unmanagedReplaces are the errors both binaries give, when a run plans,
// for a plan_options replace address that names no managed resource.
func unmanagedReplaces(run *RunBlock) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range run.PlanOptions.Replace {
		names := traversalNames(t)
		i := 0
		for i+1 < len(names) && names[i] == "module" {
			i += 2
		}
		if i < len(names) && (names[i] == "data" || names[i] == "ephemeral") {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Can only target managed resources for forced replacements.", Detail: formatTarget(t), Subject: t.SourceRange().Ptr()})
		}
	}
	return diags
}

// undefinedGlobalRefs are Terraform's warnings (1.13 on) where the test
// file reads a global value (command line, variables files, environment)
// of a variable it does not declare with a variable block nor give in its
// variables block: each such reference in the run's variables block; once
// a name, those of its assertions (and variables block) to a variable the
// module does not declare that the run does not set; and those of the
// file's variables block, once for the file (fileWide: the file's own
// diagnostics).
//
// takenFailed says a value the run takes (fileVarsTaken) read a global
// value whose parse failed: the value fails, and the run is skipped.
func undefinedGlobalRefs(f *File, run *RunBlock, decls map[string]*config.Variable, globals map[string]*tfvars.Value, defined, fileVals map[string]cty.Value, fs *fileState) (own, fileWide hcl.Diagnostics, takenFailed bool) {
	if len(globals) == 0 {
		return nil, nil, false
	}
	taken := fileVarsTaken(f, run, decls)
	fromGlobal := func(name string) bool {
		_, g := globals[name]
		_, d := f.VariableDefs[name]
		return g && !d
	}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(f.Variables) {
		if _, ok := fileVals[name]; !ok {
			continue // not worked out for this run
		}
		for _, t := range f.Variables[name].Expr.Variables() {
			ref, ok := varName(t)
			_, file := f.Variables[ref]
			if !ok || (file && ref != name) || !fromGlobal(ref) || fs.warned[t.SourceRange()] {
				continue
			}
			fs.warned[t.SourceRange()] = true
			d := undefinedGlobalDiags(ref, t.SourceRange(), globals)
			fileWide = append(fileWide, d...)
			takenFailed = takenFailed || taken[name] && d.HasErrors()
		}
	}
	last := map[string]hcl.Range{}
	var order []string
	note := func(t hcl.Traversal) {
		ref, ok := varName(t)
		if !ok {
			return
		}
		if _, seen := last[ref]; !seen {
			order = append(order, ref)
		}
		last[ref] = t.SourceRange()
	}
	for _, e := range assertionExprs(run) {
		for _, t := range e.Variables() {
			note(t)
		}
	}
	for _, name := range sortedKeys(run.Variables) {
		for _, t := range run.Variables[name].Expr.Variables() {
			note(t)
			ref, ok := varName(t)
			if _, file := fileVals[ref]; ok && !file && fromGlobal(ref) {
				diags = append(diags, undefinedGlobalDiags(ref, t.SourceRange(), globals)...)
			}
		}
	}
	for _, ref := range order {
		_, declared := decls[ref]
		_, own := run.Variables[ref]
		_, file := fileVals[ref]
		if !declared && !own && !file && fromGlobal(ref) {
			diags = append(diags, undefinedGlobalDiags(ref, last[ref], globals)...)
		}
	}
	return diags, fileWide, takenFailed
}

// varName is the NAME of a var.NAME traversal.
func varName(t hcl.Traversal) (string, bool) {
	if t.RootName() != "var" || len(t) < 2 {
		return "", false
	}
	a, ok := t[1].(hcl.TraverseAttr)
	return a.Name, ok
}

// undefinedGlobalDiags are Terraform's diagnostics for one reference of
// the test file to the global value of a variable it does not declare:
// the warning, then the errors of parsing the value as an expression
// (undeclaredGlobal).
func undefinedGlobalDiags(name string, rng hcl.Range, globals map[string]*tfvars.Value) hcl.Diagnostics {
	diags := hcl.Diagnostics{undefinedGlobal(name, rng)}
	if v, ok := globals[name]; ok {
		_, d := undeclaredGlobal(name, v)
		diags = append(diags, d...)
	}
	return diags
}

func undefinedGlobal(name string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Variable referenced without definition", Detail: fmt.Sprintf("Variable %q was referenced without providing a definition. Referencing undefined variables within Terraform Test files is deprecated, please add a `variable` block into the relevant test file to provide a definition for the variable. This will become required in future versions of Terraform.", name), Subject: rng.Ptr()}
}

// unavailableVars reports, as Terraform does, the var.NAME a run's
// variables refer to that neither the file nor the command line gives (a
// file value that failed has had its error).
func unavailableVars(f *File, run *RunBlock, vars map[string]cty.Value) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(run.Variables) {
		for _, t := range run.Variables[name].Expr.Variables() {
			if t.RootName() != "var" || len(t) < 2 {
				continue
			}
			a, ok := t[1].(hcl.TraverseAttr)
			if !ok {
				continue
			}
			_, file := f.Variables[a.Name]
			if _, ok := vars[a.Name]; !ok && !file {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to unavailable variable", Detail: fmt.Sprintf("The input variable %q does not exist within this test file.", a.Name), Subject: t.SourceRange().Ptr()})
			}
		}
	}
	return diags
}

// unknownRuns reports references to run blocks the file does not have:
// the run's own, and those of the file's variables it takes.
func (r *runner) unknownRuns(f *File, run *RunBlock, taken map[string]bool) hcl.Diagnostics {
	names := map[string]bool{}
	for _, other := range f.Runs {
		names[other.Name] = true
	}
	var diags hcl.Diagnostics
	ts := runTraversals(run)
	asserted := map[hcl.Range]bool{}
	for _, e := range assertionExprs(run) {
		for _, t := range e.Variables() {
			asserted[t.SourceRange()] = true
		}
	}
	for _, name := range sortedKeys(taken) {
		ts = append(ts, f.Variables[name].Expr.Variables()...)
	}
	for _, t := range ts {
		if t.RootName() != "run" || len(t) < 2 {
			continue
		}
		a, ok := t[1].(hcl.TraverseAttr)
		switch {
		case !ok || names[a.Name]:
		case asserted[t.SourceRange()]:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared run block", Detail: fmt.Sprintf("There is no run %q declared in this test suite.", a.Name), Subject: t.SourceRange().Ptr()})
		default:
			diags = append(diags, undefinedRun(a.Name, t.SourceRange()))
		}
	}
	return diags
}

// evalContext is a context for test file expressions with the given variables.
func (r *runner) evalContext(vars map[string]cty.Value) *hcl.EvalContext {
	return &hcl.EvalContext{Variables: vars, Functions: r.fns}
}

// mocks are the mocked provider configurations of a run, by the name the
// module under test gives them: with a providers argument, those it maps;
// without, every mock_provider block by its own name.
func (r *runner) mocks(f *File, run *RunBlock) map[string]*Provider {
	byKey := map[string]*Provider{}
	for _, p := range f.Providers {
		byKey[p.Key()] = p
	}
	out := map[string]*Provider{}
	if len(run.Providers) > 0 {
		for _, m := range run.Providers {
			if p := byKey[m.InTest]; p != nil && p.Mock {
				out[m.InModule] = p
			}
		}
		return out
	}
	for key, p := range byKey {
		if p.Mock {
			out[key] = p
		}
	}
	return out
}

// providersGiven are the provider configurations of the module under test
// that a run gives from the test file in place of the module's own blocks:
// with a providers argument, those it maps; without, every provider and
// mock_provider block of the file, by its own name. The module's other
// provider blocks are its own configuration.
func providersGiven(f *File, run *RunBlock) map[string]bool {
	out := map[string]bool{}
	if len(run.Providers) > 0 {
		for _, m := range run.Providers {
			out[m.InModule] = true
		}
		return out
	}
	for _, p := range f.Providers {
		out[p.Key()] = true
	}
	return out
}

// outputsOf is the object of a run's root module outputs: run.NAME.
func outputsOf(res *lang.Result) cty.Value {
	root := res.Root()
	if root == nil {
		return cty.EmptyObjectVal
	}
	return objectOf(root.ReadOutputs())
}

// cfgOutputs are the output names of a module.
func cfgOutputs(cfg *config.Config) []string {
	if cfg == nil || cfg.Module == nil {
		return nil
	}
	return sortedKeys(cfg.Module.Outputs)
}

// forgetOutputs makes the outputs of a run that was skipped for want of
// a provider unknown, marked as the provider's, for the runs after it.
func (r *runner) forgetOutputs(fs *fileState, rr *RunResult, names []string) {
	ms := marks.UnreadSet([]marks.Unread{{Cause: marks.ProviderNotRun, Addr: "run." + rr.Name}})
	attrs := map[string]cty.Value{}
	for _, n := range names {
		attrs[n] = cty.DynamicVal.WithMarks(ms)
	}
	if r.opts.Dialect == dialect.Tofu && rr.Command != Apply {
		return
	}
	fs.outputs[rr.Name] = objectOf(attrs)
	fs.skipped[rr.Name] = rr
}

// skipFor skips a run for what u says tfeval did not have: the outputs
// of an earlier run skipped in fs need what that run needs.
func (r *runner) skipFor(rr *RunResult, fs *fileState, cfg *config.Config, u marks.Unread, what string) {
	rr.Status = Skip
	rr.NeedsProvider, rr.SkipReason = unreadNeed(cfg, u)
	if name, ok := strings.CutPrefix(u.Addr, "run."); ok && rr.NeedsProvider == "" && u.Cause == marks.ProviderNotRun && fs.skipped[name] != nil {
		rr.NeedsProvider = fs.skipped[name].NeedsProvider
	}
	if what != "" {
		rr.SkipReason += ": " + what
	}
}

// unreadNeed names the provider an Unread mark stands for, and why.
func unreadNeed(cfg *config.Config, u marks.Unread) (string, string) {
	switch u.Cause {
	case marks.ModuleNotInstalled:
		return "", u.Describe()
	case marks.Errored:
		return "", u.Describe()
	}
	res, c := findConfigResource(cfg, u.Addr)
	if res == nil {
		if strings.HasPrefix(u.Addr, "provider::") {
			parts := strings.Split(u.Addr, "::")
			if len(parts) == 3 {
				return providerSource(cfg.Module, parts[1]), "provider function " + u.Addr + " (not run)"
			}
		}
		return "", u.Describe()
	}
	_, source := providerOf(c, res)
	why := u.Describe()
	switch u.Cause {
	case marks.NoSchema:
		why = u.Addr + " (its attributes need the provider's schema: give -schemas)"
	case marks.ProviderNotRun:
		why = u.Addr + " (computed by the provider)"
	}
	return source, why
}

// findConfigResource finds the resource a configuration address names
// (module path without keys), with the module it is in.
func findConfigResource(cfg *config.Config, addr string) (*config.Resource, *config.Config) {
	c := cfg
	for strings.HasPrefix(addr, "module.") {
		rest := strings.TrimPrefix(addr, "module.")
		name, after, ok := strings.Cut(rest, ".")
		if !ok {
			return nil, nil
		}
		child := c.Children[name]
		if child == nil {
			return nil, nil
		}
		c, addr = child, after
	}
	m := c.Module
	if m == nil {
		return nil, nil
	}
	if r := m.ManagedResources[addr]; r != nil {
		return r, c
	}
	if r := m.DataResources[addr]; r != nil {
		return r, c
	}
	return nil, nil
}

// targetWarnings are the warnings of a plan (and apply) with plan_options.target.
func targetWarnings(cmd Command, d dialect.Dialect) hcl.Diagnostics {
	product, opt := d.Product(), "the -target option"
	if d == dialect.Tofu {
		opt = "either the -target option or the -exclude option"
	}
	diags := hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Resource targeting is in effect", Detail: fmt.Sprintf("You are creating a plan with %s, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when %s specifically suggests to use it as part of an error message.", opt, product)}}
	if cmd == Apply {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Applied changes may be incomplete", Detail: fmt.Sprintf("The plan was created with %s in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    %s plan\n\nNote that the -target option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when %s specifically suggests to use it as part of an error message.", opt, d, product)})
	}
	return diags
}

// appendNew appends to diags those of more it does not have yet. Those
// more repeats are kept: Terraform's mocked provider reports an error
// once for each attribute it fills, in the same words.
func appendNew(diags, more hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	key := func(d *hcl.Diagnostic) string {
		k := fmt.Sprintf("%d|%s|%s", d.Severity, d.Summary, d.Detail)
		if d.Subject != nil {
			k += "|" + d.Subject.String()
		}
		return k
	}
	for _, d := range diags {
		seen[key(d)] = true
	}
	for _, d := range more {
		if !seen[key(d)] {
			diags = append(diags, d)
		}
	}
	return diags
}

// plannedUnknown is the run's lang.Options.PlannedUnknown: while planning,
// what an object the run creates of a provider whose schema tfeval has
// computes is unknown to Terraform too (marks.ProviderNotRun on one of the
// configuration's managed resources; not an earlier run's output, which
// Terraform has) when the test mocks the provider or overrides the object
// (without its own override_during = plan): Terraform then plans it as its
// mocks do, every computed attribute the configuration leaves unset
// unknown. A real provider's plan may know one (aws plans
// aws_acm_certificate's domain_validation_options from its domain names),
// which only the provider says. hashicorp/random's objects need no such
// rule: the plan holds what they draw as plainly unknown already, and their
// defaults known (planRandom); what else of theirs tfeval leaves unread is
// a skip (unknownInstancesOfProvider).
func (r *runner) plannedUnknown(cfg *config.Config, in *instances, applied bool) func(marks.Unread) bool {
	if applied || in.phase != planPhase {
		return nil
	}
	return func(u marks.Unread) bool {
		if u.Cause != marks.ProviderNotRun {
			return false
		}
		res, c := findConfigResource(cfg, u.Addr)
		if res == nil || res.Mode != config.ManagedResourceMode {
			return false
		}
		if r.opts.Schemas.ResourceSchema(c.Module, res) == nil {
			return false
		}
		key, _ := providerOf(c, res)
		return in.mocks[key] != nil || in.overridden(u.Addr)
	}
}

// overridden says whether an override_resource of the run or the file
// targets the managed resource addr (a configuration address without
// instance keys) as a whole.
func (in *instances) overridden(addr string) bool {
	for _, o := range in.overrides {
		if o.Kind == OverrideResource && formatTarget(o.Target) == addr {
			return true
		}
	}
	return false
}

// unknownInstancesOfProvider finds, in a plan's diagnostics, a count or
// for_each left unknown by an attribute of a managed resource of the
// configuration whose provider the test file does not mock
// (marks.NoSchema or marks.ProviderNotRun): without the schema, Terraform's
// plan knows it if it is an argument the configuration sets, and not if
// the provider computes it; with the schema (a computed attribute), the
// provider's plan may still know it (see plannedUnknown), unless the test
// overrides the object. It returns that Unread.
func (r *runner) unknownInstancesOfProvider(diags hcl.Diagnostics, cfg *config.Config, in *instances) (marks.Unread, bool) {
	for _, d := range diags {
		us, ok := lang.UnknownInstancesUnread(d)
		if !ok {
			continue
		}
		for _, u := range us {
			if u.Cause != marks.ProviderNotRun && u.Cause != marks.NoSchema {
				continue
			}
			res, c := findConfigResource(cfg, u.Addr)
			if res == nil || res.Mode != config.ManagedResourceMode || builtin(res) {
				continue
			}
			key, _ := providerOf(c, res)
			if in.mocks[key] == nil && (r.opts.Schemas.ResourceSchema(c.Module, res) == nil || !in.overridden(u.Addr)) {
				return u, true
			}
		}
	}
	return marks.Unread{}, false
}

// placeholderErrors reports whether every error of diags arose in an
// instance that stands for instances tfeval could not count: Terraform,
// which knows how many there are, may find none and report nothing. It
// returns what the count depended on.
func placeholderErrors(diags hcl.Diagnostics) (marks.Unread, bool) {
	var first *marks.Unread
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		us, ok := lang.PlaceholderUnread(d)
		if !ok {
			return marks.Unread{}, false
		}
		for _, u := range us {
			if first == nil && u.Cause != marks.Errored {
				first = &u
			}
		}
	}
	if first == nil {
		return marks.Unread{}, false
	}
	return *first, true
}
