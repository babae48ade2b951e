package tftest

import (
	"fmt"
	"sort"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfeval/tfeval/config"
)

// undeclaredOutputs reports each reference of an assertion (its condition,
// then its error message) to a root module output the configuration under
// test does not declare: "Reference to undeclared output value", at the
// reference, as both binaries report it when they gather the assertion's
// references, before they evaluate the message or the condition.
func undeclaredOutputs(a *Assert, cfg *config.Config) hcl.Diagnostics {
	if cfg == nil || cfg.Module == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, e := range []hcl.Expression{a.Condition, a.ErrorMessage} {
		if e == nil {
			continue
		}
		for _, t := range e.Variables() {
			names := traversalNames(t)
			if len(names) < 2 || names[0] != "output" || cfg.Module.Outputs[names[1]] != nil {
				continue
			}
			detail := fmt.Sprintf("An output value with the name %q has not been declared.", names[1])
			if sug := outputSuggestion(names[1], cfg.Module.Outputs); sug != "" {
				detail += fmt.Sprintf(" Did you mean %q?", sug)
			}
			rng := leadingNames(t, 2).SourceRange()
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared output value", Detail: detail, Subject: rng.Ptr()})
		}
	}
	return diags
}

// outputSuggestion is a declared output's name within edit distance 2 of
// name, the first in name order.
func outputSuggestion(name string, outputs map[string]*config.Output) string {
	names := make([]string, 0, len(outputs))
	for k := range outputs {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if levenshtein.Distance(name, k, nil) < 3 {
			return k
		}
	}
	return ""
}
