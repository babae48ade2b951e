package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/internal/fastexpr"
	"github.com/tfeval/tfeval/internal/limit"
	"github.com/tfeval/tfeval/typeexpr"
)

// A module source or version may be built from variables and locals:
// Terraform 1.15 reads variables declared const = true there (any other is
// unknown during init), OpenTofu reads any variable (its static
// evaluation). Both must know the value before any module is read, so it
// is evaluated while the tree loads, from literals, those variables, locals
// built from them, path values and (OpenTofu) terraform.workspace.

// initOnlyDetail is Terraform's explanation for anything else in a module
// source or version.
const initOnlyDetail = "Only literal values and const variables can be evaluated during init."

// staticScope evaluates module sources and versions of one module of the
// tree.
type staticScope struct {
	l      *treeLoader
	cfg    *Config
	parent *staticScope // nil for the root module
	call   *ModuleCall  // the call of cfg in its parent, as written
	vars   map[string]*staticValue
	locals map[string]*staticValue
}

// staticValue is a variable's or local's value once evaluated: cty.NilVal
// when it failed (the reason is in diags, or reported elsewhere), unknown
// when it is not known before evaluation.
type staticValue struct {
	v     cty.Value
	diags hcl.Diagnostics
	busy  bool // being evaluated: a reference back is a cycle
}

// staticScope returns the scope of cfg, made on first use.
func (l *treeLoader) staticScope(cfg *Config) *staticScope {
	if s, ok := l.scopes[cfg]; ok {
		return s
	}
	s := &staticScope{l: l, cfg: cfg, vars: map[string]*staticValue{}, locals: map[string]*staticValue{}}
	if cfg.Parent != nil {
		s.parent = l.staticScope(cfg.Parent)
		s.call = cfg.Parent.Module.ModuleCalls[cfg.Path[len(cfg.Path)-1]]
	}
	if l.scopes == nil {
		l.scopes = map[*Config]*staticScope{}
	}
	l.scopes[cfg] = s
	return s
}

// rootValues are the root variables' values from Options.RootVariables,
// asked for once.
func (l *treeLoader) rootValues(decls map[string]*Variable) map[string]cty.Value {
	if l.rootVals == nil {
		l.rootVals = map[string]cty.Value{}
		if l.opts.RootVariables != nil {
			if vals := l.opts.RootVariables(decls); vals != nil {
				l.rootVals = vals
			}
		}
	}
	return l.rootVals
}

// resolveCall is call with its source and version evaluated. A source
// that cannot be evaluated stays empty, so the call is not loaded; why was
// reported where it was first met.
func (s *staticScope) resolveCall(call *ModuleCall) (*ModuleCall, hcl.Diagnostics) {
	rc := *call
	var diags hcl.Diagnostics
	if call.SourceExpr != nil {
		v, d := s.evalString(call.SourceExpr, "module source")
		diags = append(diags, d...)
		switch {
		case v == cty.NilVal:
		case v.IsNull() || v.AsString() == "":
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid module source address", Detail: "The module source address must not be empty.", Subject: call.SourceExpr.Range().Ptr()})
		default:
			rc.SourceAddr, rc.SourceExpr = v.AsString(), nil
		}
	}
	if call.VersionExpr != nil {
		v, d := s.evalString(call.VersionExpr, "module version")
		diags = append(diags, d...)
		if v != cty.NilVal && !v.IsNull() {
			rc.Version = v.AsString()
		}
		rc.VersionExpr = nil
	}
	return &rc, diags
}

// evalString evaluates a module's source or version (what says which): a
// known string or null, or cty.NilVal with the reason in the diagnostics.
func (s *staticScope) evalString(expr hcl.Expression, what string) (cty.Value, hcl.Diagnostics) {
	v, diags := s.eval(expr, what, false)
	switch {
	case v == cty.NilVal:
		return v, diags
	case !v.IsWhollyKnown():
		return cty.NilVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown " + what, Detail: s.unknownDetail(what), Subject: expr.Range().Ptr()})
	}
	str, err := convert.Convert(v, cty.String)
	if err != nil {
		return cty.NilVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what, Detail: fmt.Sprintf("The %s must be a string: %s.", what, err), Subject: expr.Range().Ptr()})
	}
	return str, diags
}

func (s *staticScope) unknownDetail(what string) string {
	if s.l.opts.Dialect == dialect.Tofu {
		return fmt.Sprintf("The %s depends on a value that is not known before the configuration is evaluated: only literals, variables, locals, path and terraform.workspace can be used.", what)
	}
	return fmt.Sprintf("The %s depends on a value that is not known during init: only literal values, variables declared with const = true and local values built from them can be used.", what)
}

// eval evaluates expr, which what ("module source", "module version",
// "provider for_each", "backend configuration") depends on: cty.NilVal when it cannot be evaluated at all, the reason in
// diags unless quiet (a validation condition that cannot be evaluated
// statically is simply not checked), or already reported; an unknown value
// when it reads something not known before evaluation.
func (s *staticScope) eval(expr hcl.Expression, what string, quiet bool) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	fail := func(d *hcl.Diagnostic) (cty.Value, hcl.Diagnostics) {
		if !quiet {
			diags = append(diags, d)
		}
		return cty.NilVal, diags
	}
	tofu := s.l.opts.Dialect == dialect.Tofu
	if call := providerFunctionCall(expr); call != nil {
		if tofu {
			return fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provider function in static context", Detail: fmt.Sprintf("The provider function %q cannot be called in a %s: providers are not available before the configuration is evaluated.", call.Name, what), Subject: call.NameRange.Ptr()})
		}
		return fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what, Detail: initOnlyDetail, Subject: call.NameRange.Ptr()})
	}

	vars, locals := map[string]cty.Value{}, map[string]cty.Value{}
	for _, trav := range expr.Variables() {
		root, rng := trav.RootName(), trav.SourceRange()
		name := ""
		if len(trav) > 1 {
			if attr, ok := trav[1].(hcl.TraverseAttr); ok {
				name = attr.Name
			}
		}
		var v cty.Value
		var d hcl.Diagnostics
		switch {
		case root == "var" && name != "":
			v, d = s.variable(name, rng, what, quiet)
			vars[name] = v
		case root == "local" && name != "":
			v, d = s.local(name, rng, what, quiet)
			locals[name] = v
		case root == "path" || (root == "terraform" && tofu):
			// In the context below; a wrong attribute is HCL's error.
			continue
		case root == "module" && tofu:
			return fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Module output not supported in static context", Detail: fmt.Sprintf("A %s cannot refer to the outputs of a module: they are not known before the configuration is evaluated.", what), Subject: rng.Ptr()})
		case tofu:
			return fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Dynamic value in static context", Detail: fmt.Sprintf("A %s can only refer to variables, locals, path and terraform.workspace, which are known before the configuration is evaluated.", what), Subject: rng.Ptr()})
		default:
			return fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what, Detail: initOnlyDetail, Subject: rng.Ptr()})
		}
		diags = append(diags, d...)
		if v == cty.NilVal {
			return cty.NilVal, diags
		}
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"var":   cty.ObjectVal(vars),
			"local": cty.ObjectVal(locals),
			"path":  s.pathObject(),
		},
		Functions: s.l.staticFunctions(),
	}
	if tofu {
		workspace := s.l.opts.Workspace
		if workspace == "" {
			workspace = "default"
		}
		ctx.Variables["terraform"] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal(workspace)})
	}
	v, d := s.l.staticGuard().Expr(expr).Value(ctx)
	d = uniqueDiags(d)
	if d.HasErrors() {
		if !quiet {
			diags = append(diags, d...)
		}
		return cty.NilVal, diags
	}
	v, _ = v.UnmarkDeep()
	return v, diags
}

// variable is the value of var.name in the scope's module. Terraform knows
// only const variables during init: any other is unknown.
func (s *staticScope) variable(name string, rng hcl.Range, what string, quiet bool) (cty.Value, hcl.Diagnostics) {
	decl := s.cfg.Module.Variables[name]
	if decl == nil {
		if quiet {
			return cty.NilVal, nil
		}
		return cty.NilVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared input variable", Detail: fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", name, name), Subject: rng.Ptr()}}
	}
	if s.l.opts.Dialect != dialect.Tofu && !decl.Const {
		return cty.UnknownVal(decl.Type), nil
	}
	sv, ok := s.vars[name]
	if !ok {
		sv = &staticValue{}
		s.vars[name] = sv
		sv.v, sv.diags = s.variableValue(decl, what)
		if sv.v != cty.NilVal && sv.v.IsWhollyKnown() {
			sv.diags = append(sv.diags, s.validate(decl, what)...)
			if sv.diags.HasErrors() {
				sv.v = cty.NilVal
			}
		}
	}
	return sv.v, s.report(sv, quiet)
}

// report returns a value's diagnostics the first time they are not quiet:
// each problem is reported once, where it is first met.
func (s *staticScope) report(sv *staticValue, quiet bool) hcl.Diagnostics {
	if quiet {
		return nil
	}
	d := sv.diags
	sv.diags = nil
	return d
}

// variableValue finds a variable's value: the root's as given or its
// default; a child's from its caller's argument, evaluated in the caller's
// scope, or its default.
func (s *staticScope) variableValue(decl *Variable, what string) (cty.Value, hcl.Diagnostics) {
	var given cty.Value
	var diags hcl.Diagnostics
	if s.parent == nil {
		given = s.l.rootValues(s.cfg.Module.Variables)[decl.Name]
	} else if attrs, _ := s.call.Config.JustAttributes(); attrs[decl.Name] != nil {
		given, diags = s.parent.eval(attrs[decl.Name].Expr, what, false)
		if given == cty.NilVal || !given.IsWhollyKnown() {
			return given, diags
		}
	}
	if given == cty.NilVal || (given.IsNull() && !decl.Nullable) {
		if !decl.Required() {
			return decl.Default, diags
		}
		if s.parent != nil {
			// The call's missing argument is reported with the call.
			return cty.NilVal, diags
		}
		return cty.NilVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No value for required variable", Detail: fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", decl.Name), Subject: decl.DeclRange.Ptr()})
	}
	if decl.TypeDefaults != nil && !given.IsNull() {
		given = decl.TypeDefaults.Apply(given)
	}
	v, err := typeexpr.ConvertValue(given, decl.ConstraintType)
	if err != nil {
		return cty.NilVal, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for input variable", Detail: fmt.Sprintf("The given value is not suitable for var.%s declared at %s: %s.", decl.Name, decl.DeclRange, err), Subject: decl.DeclRange.Ptr()})
	}
	return v, diags
}

// validate checks a variable's validation rules that can be checked
// before anything is evaluated, as init does for a const variable used in
// a module source: a rule reading anything else is left to evaluation.
func (s *staticScope) validate(decl *Variable, what string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, rule := range decl.Validations {
		cond, _ := s.eval(rule.Condition, what, true)
		if cond == cty.NilVal || !cond.IsKnown() || cond.Type() != cty.Bool || cond.IsNull() || cond.True() {
			continue
		}
		msg := "The error message could not be displayed."
		if m, _ := s.eval(rule.ErrorMessage, what, true); m != cty.NilVal && m.IsWhollyKnown() {
			if str, err := convert.Convert(m, cty.String); err == nil && !str.IsNull() {
				msg = strings.TrimSpace(str.AsString())
			}
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for variable",
			Detail:   fmt.Sprintf("%s\n\nThis was checked by the validation rule at %s.", msg, rule.DeclRange.String()),
			Subject:  decl.DeclRange.Ptr(),
		})
	}
	return diags
}

// local is the value of local.name in the scope's module.
func (s *staticScope) local(name string, rng hcl.Range, what string, quiet bool) (cty.Value, hcl.Diagnostics) {
	decl := s.cfg.Module.Locals[name]
	if decl == nil {
		if quiet {
			return cty.NilVal, nil
		}
		return cty.NilVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared local value", Detail: fmt.Sprintf("A local value with the name %q has not been declared.", name), Subject: rng.Ptr()}}
	}
	sv, ok := s.locals[name]
	switch {
	case ok && sv.busy:
		if quiet {
			return cty.NilVal, nil
		}
		return cty.NilVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Circular reference", Detail: fmt.Sprintf("local.%s refers back to itself while the %s is evaluated.", name, what), Subject: rng.Ptr()}}
	case !ok:
		sv = &staticValue{busy: true}
		s.locals[name] = sv
		sv.v, sv.diags = s.eval(decl.Expr, what, quiet)
		sv.busy = false
		if quiet && sv.v == cty.NilVal {
			// Evaluated again, with its reasons, if a source needs it.
			delete(s.locals, name)
		}
	}
	return sv.v, s.report(sv, quiet)
}

// pathObject is path.module, path.root and path.cwd in the scope's module.
func (s *staticScope) pathObject() cty.Value {
	cwd := s.l.opts.WorkDir
	if abs, err := filepath.Abs(resolve(cwd, ".")); err == nil {
		cwd = abs
	}
	return cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal(s.cfg.Module.SourceDir),
		"root":   cty.StringVal(s.l.rootSourceDir),
		"cwd":    cty.StringVal(filepath.ToSlash(cwd)),
	})
}

// staticFunctions are the built-in functions, as plan has them, made once
// per load.
func (l *treeLoader) staticFunctions() map[string]function.Function {
	if l.funcs == nil {
		base := l.opts.WorkDir
		if base == "" {
			base = "."
		}
		box := l.box.Root()
		if box == "" {
			box = l.opts.Sandbox // unresolvable: the functions refuse every file
		}
		l.funcs = funcs.Functions(funcs.Options{Dialect: l.opts.Dialect, BaseDir: base, Sandbox: box, PureOnly: true, Step: l.staticStep, Charge: l.staticCharge})
	}
	return l.funcs
}

// uniqueDiags drops repeats of a diagnostic: hcl reports a limit a for
// expression reaches once for every element left.
func uniqueDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	if len(diags) < 2 {
		return diags
	}
	seen := map[string]bool{}
	out := diags[:0:0]
	for _, d := range diags {
		key := d.Summary + "\x00" + d.Detail
		if d.Subject != nil {
			key += "\x00" + d.Subject.String()
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}

// staticSteps bounds the work of the expressions a load evaluates (module
// sources and versions, and what they refer to), as Limits.MaxSteps bounds
// an evaluation's: they are hostile input like any other.
const staticSteps = 1_000_000

// staticGuard bounds the for expressions, templates and values of the
// expressions a load evaluates, as evaluation's guard does.
func (l *treeLoader) staticGuard() *fastexpr.Guard {
	if l.guard == nil {
		l.guard = &fastexpr.Guard{MaxElements: funcs.DefaultMaxElements, MaxStringLength: funcs.DefaultMaxStringLength, MaxValueSize: limit.DefaultMaxValueSize, Step: l.staticStep}
	}
	return l.guard
}

// staticStep charges one step of the load's budget; it fails once the
// budget is spent or the load's context is done.
func (l *treeLoader) staticStep() error { return l.staticCharge(1) }

func (l *treeLoader) staticCharge(n int64) error {
	if l.steps.Add(n) > staticSteps {
		return fmt.Errorf("the expressions evaluated while loading took more than %d steps, the limit", staticSteps)
	}
	if d := cancelled(l.opts.Context); d != nil {
		return fmt.Errorf("%s", d.Detail)
	}
	return nil
}

// providerFunctionCall finds a call of a provider function in expr.
func providerFunctionCall(expr hcl.Expression) *hclsyntax.FunctionCallExpr {
	se, ok := expr.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	var found *hclsyntax.FunctionCallExpr
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && found == nil && strings.HasPrefix(call.Name, funcs.ProviderNamespace) {
			found = call
		}
		return nil
	})
	return found
}

// checkEarlyValues checks the other values that must be known before the
// configuration is evaluated, in cfg and the modules below it: a backend
// configuration (the root's only: Terraform allows no variable there at
// all, OpenTofu what its static evaluation knows) and OpenTofu's provider
// for_each.
func (l *treeLoader) checkEarlyValues(cfg *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	m := cfg.Module
	if m == nil {
		return nil
	}
	if cfg.Parent == nil && m.Backend != nil {
		for _, attr := range bodyAttributes(m.Backend.Config) {
			if l.opts.Dialect == dialect.Tofu {
				v, d := l.staticScope(cfg).eval(attr.Expr, "backend configuration", false)
				diags = append(diags, d...)
				if v != cty.NilVal && !v.IsWhollyKnown() {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown backend configuration", Detail: l.staticScope(cfg).unknownDetail("backend configuration"), Subject: attr.Expr.Range().Ptr()})
				}
				continue
			}
			// Terraform reads the backend with no variables or functions.
			_, d := attr.Expr.Value(nil)
			diags = append(diags, d...)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		p := m.ProviderConfigs[key]
		if p.ForEach == nil {
			continue
		}
		v, d := l.staticScope(cfg).eval(p.ForEach, "provider for_each", false)
		diags = append(diags, d...)
		if v != cty.NilVal && !v.IsWhollyKnown() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown provider for_each", Detail: l.staticScope(cfg).unknownDetail("provider for_each"), Subject: p.ForEach.Range().Ptr()})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Children)) {
		diags = append(diags, l.checkEarlyValues(cfg.Children[name])...)
	}
	return diags
}

// bodyAttributes lists the attributes of a body and of the blocks in it,
// in source order.
func bodyAttributes(body hcl.Body) []*hcl.Attribute {
	if sb, ok := body.(*hclsyntax.Body); ok {
		var out []*hcl.Attribute
		var walk func(b *hclsyntax.Body)
		walk = func(b *hclsyntax.Body) {
			attrs := make(hcl.Attributes, len(b.Attributes))
			for name, a := range b.Attributes {
				attrs[name] = a.AsHCLAttribute()
			}
			out = append(out, sortedAttributes(attrs)...)
			for _, blk := range b.Blocks {
				walk(blk.Body)
			}
		}
		walk(sb)
		return out
	}
	attrs, _ := body.JustAttributes()
	return sortedAttributes(attrs)
}

// SourceResolver evaluates module sources and versions built from
// variables as Load does, for a program that walks the module calls
// itself (an installer). Give it each module's Config, with Parent and
// Path set, as the walk goes down.
type SourceResolver struct{ l *treeLoader }

// NewSourceResolver resolves calls below the root module whose directory
// is rootDir (as path.root gives it); opts gives the dialect, the working
// directory, the sandbox, RootVariables and Workspace.
func NewSourceResolver(rootDir string, opts Options) *SourceResolver {
	// The file functions a source calls read through the sandbox, as in a
	// load; one that cannot be resolved is left to them, and they refuse
	// every file then.
	box, _ := sandboxOf(opts)
	return &SourceResolver{l: &treeLoader{opts: opts, box: box, rootSourceDir: sourceDirOf(rootDir)}}
}

// Resolve returns call with its source and version evaluated in cfg, the
// module that makes the call; a call whose source is a literal is returned
// as it is. A source that cannot be evaluated stays empty, and why is in
// the diagnostics (once, where first met).
func (r *SourceResolver) Resolve(cfg *Config, call *ModuleCall) (*ModuleCall, hcl.Diagnostics) {
	if call.SourceExpr == nil && call.VersionExpr == nil {
		return call, nil
	}
	return r.l.staticScope(cfg).resolveCall(call)
}
