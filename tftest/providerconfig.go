package tftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfeval/tfeval/config"
)

// failedProviderConfigs are Terraform's errors for the configurations of
// a file's provider blocks (not mock_provider) that cannot be worked out,
// and the providers they are of (by NAME or NAME.ALIAS). Terraform
// configures each provider block of a test file once for the file, before
// the runs that use it: what fails is the file's error, and a run that uses
// such a provider is skipped, with the file's later runs, as for a mock
// provider's defaults (failedMocks).
//
// Only what tfeval can know is reported: a block whose expressions refer
// to nothing but values of the file's variables block that themselves
// refer to nothing (constants and Terraform's functions) is worked out;
// a reference to a variable that neither the file nor a global value
// gives is "Reference to unavailable variable", as the provider does not
// see the module's variables, and one a global value gives is the warning
// "Variable referenced without definition" (the configuration is then the
// provider's); one that refers to run outputs or variable blocks, calls
// a provider's function, or is written in JSON is left to the provider, as
// is every argument's name and type, which only the provider's schema
// gives.
func (r *runner) failedProviderConfigs(f *File) (hcl.Diagnostics, map[string]bool) {
	ctx := r.evalContext(nil)
	var diags hcl.Diagnostics
	failed := map[string]bool{}
	for _, p := range f.Providers {
		if p.Mock {
			continue
		}
		body, ok := p.Config.(*hclsyntax.Body)
		if !ok {
			continue
		}
		var exprs []hclsyntax.Expression
		if !providerExprs(body, true, &exprs) {
			continue
		}
		if d := r.unavailableProviderVars(f, exprs); len(d) > 0 {
			diags = append(diags, d...)
			if d.HasErrors() {
				failed[p.Key()] = true
			}
			continue
		}
		vars, ok := constantFileValues(f, exprs, ctx)
		if !ok {
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
	return diags, failed
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

// unavailableProviderVars are Terraform's errors for the references of a
// test file's provider configuration to variables that neither the file
// (its variables block or variable blocks) nor a global value gives:
// the provider sees only those, not the module's variables or their
// defaults.
func (r *runner) unavailableProviderVars(f *File, exprs []hclsyntax.Expression) hcl.Diagnostics {
	var names []string
	var refs []hcl.Traversal
	for _, e := range exprs {
		for _, t := range e.Variables() {
			if len(t) < 2 {
				continue
			}
			at, ok := t[1].(hcl.TraverseAttr)
			if !ok {
				continue
			}
			_, file := f.Variables[at.Name]
			_, defined := f.VariableDefs[at.Name]
			if !file && !defined {
				refs = append(refs, t)
				names = append(names, at.Name)
			}
		}
	}
	if len(refs) == 0 {
		return nil
	}
	_, lookup := undeclaredVars(names, map[string]*config.Variable{})
	globals, _ := r.globals(f, lookup)
	var diags hcl.Diagnostics
	for i, t := range refs {
		if _, given := globals[names[i]]; !given {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to unavailable variable", Detail: fmt.Sprintf("The input variable %q does not exist within this test file.", names[i]), Subject: t.SourceRange().Ptr()})
		} else {
			// Terraform parses a global value without a definition,
			// and warns.
			diags = append(diags, undefinedGlobal(names[i], t.SourceRange()))
		}
	}
	return diags
}

// constantFileValues are the values of the file's variables block the
// expressions read (as var.NAME), where each is one tfeval can know
// before any run: it refers to nothing and works out. ok is false where
// one is not so (a global value, a variable block's, one that reads a run
// or another value, or fails), which leaves the provider's configuration
// to the provider.
func constantFileValues(f *File, exprs []hclsyntax.Expression, ctx *hcl.EvalContext) (map[string]cty.Value, bool) {
	vals := map[string]cty.Value{}
	for _, e := range exprs {
		for _, t := range e.Variables() {
			if len(t) < 2 {
				return nil, false
			}
			at, ok := t[1].(hcl.TraverseAttr)
			if !ok {
				return nil, false
			}
			if _, done := vals[at.Name]; done {
				continue
			}
			a, ok := f.Variables[at.Name]
			if !ok || len(a.Expr.Variables()) > 0 {
				return nil, false
			}
			if se, ok := a.Expr.(hclsyntax.Expression); !ok || callsProviderFunction(se) {
				return nil, false
			}
			v, diags := a.Expr.Value(ctx)
			if diags.HasErrors() {
				return nil, false
			}
			vals[at.Name] = v
		}
	}
	return vals, true
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
