package tftest

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
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
// to nothing (constants and Terraform's functions) is worked out; one that
// refers to run outputs or variables, calls a provider's function, or is
// written in JSON is left to the provider, as is every argument's name and
// type, which only the provider's schema gives.
func failedProviderConfigs(f *File, ctx *hcl.EvalContext) (hcl.Diagnostics, map[string]bool) {
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
		for _, e := range exprs {
			_, d := e.Value(ctx)
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
	sortByStart(attrs)
	for _, a := range attrs {
		if len(a.Expr.Variables()) > 0 || callsProviderFunction(a.Expr) {
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

func sortByStart(attrs []*hclsyntax.Attribute) {
	for i := 1; i < len(attrs); i++ {
		for j := i; j > 0 && attrs[j].SrcRange.Start.Byte < attrs[j-1].SrcRange.Start.Byte; j-- {
			attrs[j], attrs[j-1] = attrs[j-1], attrs[j]
		}
	}
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
