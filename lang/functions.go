package lang

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tfeval/tfeval/config"
	"github.com/tfeval/tfeval/dialect"
	"github.com/tfeval/tfeval/funcs"
	"github.com/tfeval/tfeval/marks"
	"github.com/tfeval/tfeval/providerfuncs"
)

// providerFunctions builds the functions of the providers a module
// requires. Those tfeval computes (package providerfuncs, found by the
// provider's source address) compute; without the provider, the others can
// only return unknown values, of the declared result type when the schema
// gives one.
func (ev *evaluator) providerFunctions(m *config.Module) map[string]map[string]function.Function {
	out := map[string]map[string]function.Function{}
	// OpenTofu's validate calls no provider function.
	computes := !(ev.texts().tofu() && ev.opts.Validate)
	for _, local := range sortedKeys(m.RequiredProviders) {
		if declaresBuiltinProvider(m, local) {
			// The provider built into Terraform needs no schema: its
			// functions are tfeval's own.
			out[local] = funcs.BuiltinProviderFunctions(ev.opts.Dialect)
			continue
		}
		source := providerSource(m, local)
		ps := ev.opts.Schemas.provider(m, local)
		if ps == nil {
			// Without the provider's schema its functions are those tfeval
			// computes, and each other one the module calls returns an
			// unknown value.
			fns := map[string]function.Function{}
			if computes {
				for _, name := range providerfuncs.Names(source) {
					fn, _ := providerfuncs.Lookup(source, name)
					fns[name] = computedFunction("provider::"+local+"::"+name, fn)
				}
			}
			called := ev.unschemaedFunctions(m, local)
			for _, name := range called {
				if _, ok := fns[name]; !ok {
					fns[name] = standInFunction("provider::" + local + "::" + name)
				}
			}
			if len(called) > 0 {
				// Stand-ins, and computed functions that cannot always
				// answer, return unread values.
				ev.madeUnread()
			}
			if len(fns) > 0 {
				out[local] = fns
			}
			continue
		}
		fns := map[string]function.Function{}
		for name, sig := range ps.Functions {
			// The schema's function is computed only where its signature
			// is the one the table implements: another is another version
			// of the provider.
			if fn, ok := providerfuncs.Lookup(source, name); ok && computes && sig.matches(fn) {
				fns[name] = computedFunction("provider::"+local+"::"+name, fn)
			} else {
				fns[name] = unknownFunction(sig)
			}
		}
		// Which functions the module calls is known only from the read
		// analysis, which a configuration whose every resource has a
		// schema needs for nothing else: it is asked only where tfeval
		// computes some of the provider's functions.
		if len(providerfuncs.Names(source)) > 0 {
			for _, name := range ev.unschemaedFunctions(m, local) {
				if _, ok := providerfuncs.Lookup(source, name); ok {
					ev.madeUnread()
					break
				}
			}
		}
		if ev.texts().tofu() && ev.opts.Validate {
			// OpenTofu's validate does not look a provider's functions up.
			for _, name := range ev.unschemaedFunctions(m, local) {
				if _, ok := fns[name]; !ok {
					fns[name] = standInFunction("provider::" + local + "::" + name)
				}
			}
		}
		out[local] = fns
	}
	return out
}

// providerSource is the source address of the provider module m calls by
// a local name: its required_providers entry's, or hashicorp/LOCAL.
func providerSource(m *config.Module, local string) string {
	if rp := m.RequiredProviders[local]; rp != nil && rp.Source != "" {
		return rp.Source
	}
	return "hashicorp/" + local
}

// declaresBuiltinProvider reports whether module m's provider local is the
// provider built into Terraform.
func declaresBuiltinProvider(m *config.Module, local string) bool {
	rp := m.RequiredProviders[local]
	return rp != nil && strings.EqualFold(rp.Source, funcs.BuiltinProviderSource)
}

// unschemaedFunctions lists, sorted, the functions of provider local that
// module m calls, for a provider whose schema was not given.
func (ev *evaluator) unschemaedFunctions(m *config.Module, local string) []string {
	prefix := "provider::" + local + "::"
	var names []string
	for full := range ev.reads().providerCalls[m] {
		if name, ok := strings.CutPrefix(full, prefix); ok && !strings.Contains(name, "::") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// standInFunction stands for a provider function whose signature is not
// known: it takes any arguments and returns an unknown value, marked as
// unread for lack of the schema.
func standInFunction(name string) function.Function {
	ms := marks.UnreadSet([]marks.Unread{{Cause: marks.NoSchema, Addr: name}})
	return function.New(&function.Spec{
		VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true},
		Type:     function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.DynamicVal.WithMarks(ms), nil
		},
	})
}

func unknownFunction(sig *FunctionSignature) function.Function {
	spec := &function.Spec{Type: function.StaticReturnType(sig.ReturnType)}
	for _, p := range sig.Params {
		spec.Params = append(spec.Params, function.Parameter{Name: p.Name, Type: p.Type, AllowNull: p.AllowNull, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true})
	}
	if sig.VarParam != nil {
		p := sig.VarParam
		spec.VarParam = &function.Parameter{Name: p.Name, Type: p.Type, AllowNull: p.AllowNull, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}
	}
	spec.Impl = func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.UnknownVal(retType), nil
	}
	return function.New(spec)
}

// computedFunction is a provider function tfeval computes, called as
// call. Its result is fn's, except that one fn cannot determine without the
// provider is unknown and marked unread, as a stand-in's is.
func computedFunction(call string, fn function.Function) function.Function {
	ms := marks.UnreadSet([]marks.Unread{{Cause: marks.NoSchema, Addr: call}})
	// fn checks its arguments itself (null, unknown, marks), so they pass
	// through as they are.
	pass := func(p function.Parameter) function.Parameter {
		p.AllowNull, p.AllowUnknown, p.AllowMarked = true, true, true
		p.AllowDynamicType = p.Type == cty.DynamicPseudoType
		return p
	}
	spec := &function.Spec{
		Type: fn.ReturnTypeForValues,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v, err := fn.Call(args)
			if err != nil || !v.HasMark(providerfuncs.Undetermined) {
				return v, err
			}
			_, vm := v.Unmark()
			delete(vm, providerfuncs.Undetermined)
			return cty.UnknownVal(retType).WithMarks(vm, ms), nil
		},
	}
	for _, p := range fn.Params() {
		spec.Params = append(spec.Params, pass(p))
	}
	if p := fn.VarParam(); p != nil {
		vp := pass(*p)
		spec.VarParam = &vp
	}
	return function.New(spec)
}

// matches reports whether the signature is fn's: the same parameters,
// taking the same values, and the same result type.
func (sig *FunctionSignature) matches(fn function.Function) bool {
	params := fn.Params()
	if len(params) != len(sig.Params) || (fn.VarParam() == nil) != (sig.VarParam == nil) {
		return false
	}
	argTypes := make([]cty.Type, len(params))
	same := func(p function.Parameter, q FunctionParam) bool {
		return p.Type.Equals(q.Type) && p.AllowNull == q.AllowNull && p.AllowUnknown == q.AllowUnknown
	}
	for i, p := range params {
		if !same(p, sig.Params[i]) {
			return false
		}
		argTypes[i] = p.Type
	}
	if vp := fn.VarParam(); vp != nil && !same(*vp, *sig.VarParam) {
		return false
	}
	ret, err := fn.ReturnType(argTypes)
	return err == nil && ret.Equals(sig.ReturnType)
}

// checkFunctionCalls reports calls of namespaced functions that cannot be
// resolved, with the wording of the dialect.
func (s *scope) checkFunctionCalls(expr hcl.Expression) hcl.Diagnostics {
	se, ok := expr.(hclsyntax.Expression)
	if !ok || !s.ev.hasNamespacedCalls(se) {
		return nil
	}
	var diags hcl.Diagnostics
	mod := s.mod.Config.Module
	tofu := s.ev.texts().tofu()
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		call, ok := n.(*hclsyntax.FunctionCallExpr)
		if !ok || !strings.Contains(call.Name, "::") {
			return nil
		}
		rng := call.NameRange.Ptr()
		parts := strings.Split(call.Name, "::")
		switch {
		case parts[0] == "core":
			return nil
		case parts[0] != "provider":
			if tofu {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown function namespace", Detail: fmt.Sprintf("Function %q does not exist within a valid namespace (provider,core)", call.Name), Subject: rng})
			} else {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown provider function", Detail: fmt.Sprintf("The function namespace %q is not valid. Provider function calls must use the \"provider::\" namespace prefix.", parts[0]), Subject: rng})
			}
		case len(parts) != 3:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown provider function", Detail: fmt.Sprintf("There is no function named %q.", call.Name), Subject: rng})
		default:
			local, name := parts[1], parts[2]
			if _, ok := mod.RequiredProviders[local]; !ok {
				switch {
				case tofu && s.ev.opts.Console:
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "BUG: Uninitialized function provider", Detail: fmt.Sprintf("Provider function %q has not been tracked properly", call.Name), Subject: rng})
				case tofu:
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown function provider", Detail: fmt.Sprintf("Provider %q does not exist within the required_providers of this module", local), Subject: rng})
				default:
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown provider function", Detail: fmt.Sprintf("There is no function named %q. Ensure that provider name %q is declared in this module's required_providers block, and that this provider offers a function named %q.", call.Name, local, name), Subject: rng})
				}
				return nil
			}
			ps := s.ev.opts.Schemas.provider(mod, local)
			if ps == nil {
				return nil
			}
			if _, ok := ps.Functions[name]; !ok {
				if tofu && s.ev.opts.Validate {
					// OpenTofu's validate does not look functions up.
					return nil
				}
				if tofu {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Function not found in provider", Detail: fmt.Sprintf("Function %q was not registered by provider", call.Name), Subject: rng})
				} else {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown provider function", Detail: fmt.Sprintf("The function %q is not available from the provider %q.", name, local), Subject: rng})
				}
			}
		}
		return nil
	})
	return diags
}

// orderedSuggestion returns diag with the function hcl suggests for an
// unknown function name chosen in name order. hcl suggests the first close
// name in the order of the function table, a map, so with several close
// names the suggestion changed from run to run; whether there is one does
// not depend on the order. Other diagnostics are returned as they are.
func orderedSuggestion(diag *hcl.Diagnostic) *hcl.Diagnostic {
	extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallUnknownDiagExtra](diag)
	if !ok || extra.CalledFunctionNamespace() != "" || diag.EvalContext == nil || !strings.Contains(diag.Detail, "Did you mean") {
		return diag
	}
	// hcl suggests from the functions of the context the call was
	// evaluated in itself, not its parents'.
	name := extra.CalledFunctionName()
	if sug := nameSuggestion(name, sortedKeys(diag.EvalContext.Functions)); sug != "" {
		out := *diag
		out.Detail = fmt.Sprintf("There is no function named %q. Did you mean %q?", name, sug)
		return &out
	}
	return diag
}

// appliedCan is can once applied. can is unknown for a value that is not
// wholly known, but after an apply Terraform knows every value of the
// state, so can of a reference to a resource or module call (an instance
// of it, an output), which evaluates without error, is true, also where
// tfeval, without the provider's schema, cannot know all of its
// attributes. Anything else is can's own answer.
func appliedCan(can function.Function, d dialect.Dialect) function.Function {
	return function.New(&function.Spec{
		Description: can.Description(),
		Params:      can.Params(),
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			closure := customdecode.ExpressionClosureFromVal(args[0])
			if trav, diags := hcl.AbsTraversalForExpr(closure.Expression); !diags.HasErrors() {
				ref, rdiags := parseRef(trav, d)
				whole := ref != nil && !rdiags.HasErrors() && len(ref.remaining) == 0 && (ref.kind == refResource || ref.kind == refModule)
				if whole {
					if _, vdiags := closure.Value(); !vdiags.HasErrors() {
						return cty.True, nil
					}
				}
			}
			return can.Call(args)
		},
	})
}
