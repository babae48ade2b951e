package tftest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/lang"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/tfvars"
)

// failedProviderConfigs are Terraform's errors for the configurations of
// a file's provider blocks (not mock_provider) that cannot be worked out,
// and the providers they are of (by NAME or NAME.ALIAS). Terraform
// configures each provider block of a test file once for the file, before
// the runs that use it: what fails is the file's error, and a run that uses
// such a provider is skipped, with the file's later runs, as for a mock
// provider's defaults (failedMocks).
//
// A configuration may read the file's values (providerVars): those of its
// variables block, those of its variable blocks, and global values
// (command line, variables files, environment) of variables the file does
// not declare, through Terraform's deprecated path, with its warning and
// the errors of parsing the value (undefinedGlobalDiags). A reference to a
// variable that neither the file nor a global value gives is "Reference to
// unavailable variable", as the provider does not see the module's
// variables. One that refers to runs (itself or through the file's
// values), calls a provider's function, or is written in JSON is left to
// the provider, as is every argument's name and type, which only the
// provider's schema gives.
func (r *runner) failedProviderConfigs(f *File) (diags, valueDiags hcl.Diagnostics, failed map[string]bool) {
	ctx := r.evalContext(nil)
	failed = map[string]bool{}
	for _, p := range f.Providers {
		if p.Mock {
			continue
		}
		body, ok := p.Config.(*hclsyntax.Body)
		if !ok {
			continue
		}
		if d := r.invalidProviderRefs(f, p, body); d.HasErrors() {
			diags = append(diags, d...)
			failed[p.Key()] = true
			continue
		}
		var exprs []hclsyntax.Expression
		if !providerExprs(body, true, &exprs) {
			continue
		}
		vars, d, vd, known, skip := r.providerVars(f, exprs, ctx)
		diags = append(diags, d...)
		valueDiags = append(valueDiags, vd...)
		if d.HasErrors() || skip {
			// A value it reads failed: Terraform skips the provider,
			// and the runs that use it.
			failed[p.Key()] = true
			continue
		}
		if !known {
			continue
		}
		pctx := ctx.NewChild()
		pctx.Variables = map[string]cty.Value{"var": objectOf(vars)}
		for _, e := range exprs {
			_, d := e.Value(pctx)
			diags = append(diags, d...)
			if d.HasErrors() {
				failed[p.Key()] = true
			}
		}
	}
	return diags, valueDiags, failed
}

// providerExprs gathers the expressions of a provider block's body in
// source order (its arguments, then those of its nested blocks), and says
// whether tfeval can work them all out: none refers to anything or calls
// a provider's function, and no block is dynamic.
func providerExprs(body *hclsyntax.Body, top bool, out *[]hclsyntax.Expression) bool {
	attrs := make([]*hclsyntax.Attribute, 0, len(body.Attributes))
	for name, a := range body.Attributes {
		if top && (name == "alias" || name == "version") {
			continue
		}
		attrs = append(attrs, a)
	}
	slices.SortFunc(attrs, func(a, b *hclsyntax.Attribute) int { return a.SrcRange.Start.Byte - b.SrcRange.Start.Byte })
	for _, a := range attrs {
		for _, t := range a.Expr.Variables() {
			if t.RootName() != "var" {
				return false
			}
		}
		if callsProviderFunction(a.Expr) {
			return false
		}
		*out = append(*out, a.Expr)
	}
	for _, b := range body.Blocks {
		if b.Type == "dynamic" || !providerExprs(b.Body, false, out) {
			return false
		}
	}
	return true
}

// providerVars are the values of the variables a test file's provider
// configuration reads, as Terraform's graph of the file gives them, with
// the diagnostics of its references in source order: a value of the
// file's variables block (worked out from the file's other values and
// global values; one that refers to a run, itself or through another,
// leaves the configuration to the provider: known is false), a variable
// block's value (its global value as the block parses it, or its
// default), else the global value of a variable the file does not
// declare (undefinedGlobalDiags), else "Reference to unavailable
// variable". skip says a file's value the configuration reads failed,
// with valueDiags that value's errors, which are the file's (Terraform
// works out every value of the file), and Terraform skips the provider.
func (r *runner) providerVars(f *File, exprs []hclsyntax.Expression, ctx *hcl.EvalContext) (vals map[string]cty.Value, diags, valueDiags hcl.Diagnostics, known, skip bool) {
	// Every variable the configuration and the file's values it reads
	// refer to, looked up among the global values.
	var names []string
	seen := map[string]bool{}
	var visit func(e hcl.Expression)
	visit = func(e hcl.Expression) {
		for _, t := range e.Variables() {
			name, ok := varName(t)
			if !ok || seen[name] {
				continue
			}
			seen[name] = true
			names = append(names, name)
			if a, file := f.Variables[name]; file {
				visit(a.Expr)
			}
		}
	}
	for _, e := range exprs {
		visit(e)
	}
	if len(names) == 0 {
		return nil, nil, nil, true, false
	}
	_, lookup := undeclaredVars(names, map[string]*config.Variable{})
	maps.Copy(lookup, f.VariableDefs)
	globals, _ := r.globals(f, lookup)
	gobj := globalObject(globals, lookup, func(name string) bool { _, def := f.VariableDefs[name]; return !def })

	vals = map[string]cty.Value{}
	known = true
	// The file's values, each worked out once, as var.NAME of the others
	// and, for its own name, the global value.
	fileVals := map[string]cty.Value{}
	state := map[string]int{} // 1 working out, 2 done, 3 failed, 4 reads a run
	var fileValue func(name string) int
	fileValue = func(name string) int {
		if state[name] != 0 {
			if state[name] == 1 {
				return 4 // a cycle: left to Terraform's graph
			}
			return state[name]
		}
		state[name] = 1
		expr := f.Variables[name].Expr
		inner := map[string]cty.Value{}
		for _, t := range expr.Variables() {
			if t.RootName() != "var" {
				state[name] = 4
				return 4
			}
			ref, ok := varName(t)
			if !ok {
				state[name] = 3
				return 3
			}
			if _, file := f.Variables[ref]; file && ref != name {
				if st := fileValue(ref); st != 2 {
					state[name] = st
					return st
				}
				inner[ref] = fileVals[ref]
				continue
			}
			if v, d, ok := definedOrGlobal(f, ref, globals, gobj); ok && !d.HasErrors() {
				inner[ref] = v
				continue
			}
			state[name] = 3
			return 3
		}
		if se, ok := expr.(hclsyntax.Expression); !ok || callsProviderFunction(se) {
			state[name] = 4
			return 4
		}
		ectx := ctx.NewChild()
		ectx.Variables = map[string]cty.Value{"var": objectOf(inner)}
		v, d := expr.Value(ectx)
		if d.HasErrors() {
			valueDiags = append(valueDiags, d...)
			state[name] = 3
			return 3
		}
		fileVals[name] = v
		state[name] = 2
		return 2
	}

	for _, e := range exprs {
		for _, t := range e.Variables() {
			name, ok := varName(t)
			if !ok {
				continue
			}
			if _, file := f.Variables[name]; file {
				switch fileValue(name) {
				case 2:
					vals[name] = fileVals[name]
				case 3:
					skip = true
				default:
					known = false
				}
				continue
			}
			if _, def := f.VariableDefs[name]; def {
				v, d, _ := definedOrGlobal(f, name, globals, gobj)
				if d.HasErrors() {
					valueDiags = append(valueDiags, d...)
					skip = true
					continue
				}
				vals[name] = v
				continue
			}
			if _, given := globals[name]; given {
				diags = append(diags, undefinedGlobalDiags(name, t.SourceRange(), globals)...)
				vals[name] = gobj[name]
				continue
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to unavailable variable", Detail: fmt.Sprintf("The input variable %q does not exist within this test file.", name), Subject: t.SourceRange().Ptr()})
		}
	}
	return vals, diags, valueDiags, known, skip
}

// definedOrGlobal is the value of var.NAME in a test file's expression
// where the file's variables block does not give it: a variable block's
// value (its global value as the block parses it, or its default; the
// diagnostics are the block's), else the global value as undeclaredGlobal
// parses it (its diagnostics are the reference's). ok is false where
// neither gives one.
func definedOrGlobal(f *File, name string, globals map[string]*tfvars.Value, gobj map[string]cty.Value) (cty.Value, hcl.Diagnostics, bool) {
	if def, ok := f.VariableDefs[name]; ok {
		v, d := tfvars.Prepare(def, globals[name], "var."+name)
		if !d.HasErrors() && def.Sensitive {
			uv, ms := v.Unmark()
			delete(ms, marks.Sensitive)
			v = uv.WithMarks(ms)
		}
		return v, d, true
	}
	g, ok := globals[name]
	if !ok {
		return cty.NilVal, nil, false
	}
	_, d := undeclaredGlobal(name, g)
	return gobj[name], d, true
}

// invalidProviderRefs are Terraform's errors for a provider block that
// refers to what a test file's provider configuration cannot read: only
// var and run are given to it, and any other reference (local.NAME,
// path.module, a resource, output.NAME) is "Invalid reference", a
// malformed one or plan and state (reserved) the parser's error, which
// then stands alone. Terraform looks only at the arguments its schema
// knows (an unknown one is "Unsupported argument" when the block is
// decoded), so this needs the provider's schema (-schemas): without it,
// or where the block also reads var or run (whose values decide whether
// the provider is configured at all) or refers to anything inside a
// nested block, the block is left as before.
func (r *runner) invalidProviderRefs(f *File, p *Provider, body *hclsyntax.Body) hcl.Diagnostics {
	l := r.config(f, nil)
	if l == nil || l.cfg == nil || l.cfg.Module == nil {
		return nil
	}
	ps := r.opts.Schemas.ProviderSchema(l.cfg.Module, p.Name)
	if ps == nil || ps.Partial || ps.Provider == nil {
		return nil
	}
	for _, b := range body.Blocks {
		if bodyRefers(b.Body) {
			return nil
		}
	}
	attrs := make([]*hclsyntax.Attribute, 0, len(body.Attributes))
	for name, a := range body.Attributes {
		if name == "alias" || name == "version" || ps.Provider.Attributes[name] == nil {
			continue
		}
		attrs = append(attrs, a)
	}
	slices.SortFunc(attrs, func(a, b *hclsyntax.Attribute) int { return a.SrcRange.Start.Byte - b.SrcRange.Start.Byte })
	var parse, invalid hcl.Diagnostics
	for _, a := range attrs {
		for _, t := range a.Expr.Variables() {
			root := t.RootName()
			switch root {
			case "var", "run":
				return nil
			case "plan", "state":
				parse = append(parse, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reserved symbol name", Detail: fmt.Sprintf("The symbol name %q is reserved for use in a future Terraform version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root), Subject: t[0].SourceRange().Ptr()})
				continue
			}
			var rng hcl.Range
			switch root {
			case "output", "check":
				attr, ok := stepAttr(t)
				if !ok {
					return nil // the parser's own error: left as before
				}
				rng = hcl.RangeBetween(t[0].SourceRange(), attr)
			default:
				rr, d, ok := lang.ReferenceRange(t, r.opts.Dialect)
				if !ok {
					return nil
				}
				if d.HasErrors() {
					parse = append(parse, d...)
					continue
				}
				rng = rr
			}
			invalid = append(invalid, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid reference", Detail: "You can only reference run blocks and variables from within Terraform Test files.", Subject: rng.Ptr()})
		}
	}
	if parse.HasErrors() {
		return parse
	}
	if len(invalid) > 0 {
		return invalid
	}
	// Nothing the block reads: Terraform decodes it with the schema
	// (arguments the schema lacks are not read, whatever they refer to).
	if slices.ContainsFunc(body.Blocks, func(b *hclsyntax.Block) bool { return b.Type == "dynamic" }) {
		return nil
	}
	ctx := r.evalContext(nil).NewChild()
	ctx.Variables = map[string]cty.Value{"run": cty.EmptyObjectVal, "var": cty.EmptyObjectVal}
	diags, _ := lang.DecodeProviderConfig(r.opts.Schemas, l.cfg.Module, p.Name, withoutMeta(body), ctx)
	return diags
}

// withoutMeta is a provider block's body without alias and version,
// which Terraform takes out before the provider sees the rest.
func withoutMeta(body *hclsyntax.Body) *hclsyntax.Body {
	if body.Attributes["alias"] == nil && body.Attributes["version"] == nil {
		return body
	}
	out := *body
	out.Attributes = hclsyntax.Attributes{}
	for name, a := range body.Attributes {
		if name != "alias" && name != "version" {
			out.Attributes[name] = a
		}
	}
	return &out
}

// bodyRefers reports whether any expression of body, or of a block in it,
// refers to anything.
func bodyRefers(body *hclsyntax.Body) bool {
	for _, a := range body.Attributes {
		if len(a.Expr.Variables()) > 0 {
			return true
		}
	}
	for _, b := range body.Blocks {
		if bodyRefers(b.Body) {
			return true
		}
	}
	return false
}

// stepAttr is the range of the attribute name that follows a traversal's
// root (output.NAME), if one does.
func stepAttr(t hcl.Traversal) (hcl.Range, bool) {
	if len(t) < 2 {
		return hcl.Range{}, false
	}
	a, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return hcl.Range{}, false
	}
	return a.SrcRange, true
}

// callsProviderFunction reports whether expr calls a provider-defined
// function (provider::NAME::FUNCTION), which only the provider runs.
func callsProviderFunction(expr hclsyntax.Expression) bool {
	found := false
	_ = hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if c, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.Contains(c.Name, "::") {
			found = true
		}
		return nil
	})
	return found
}
