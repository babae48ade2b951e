package opa

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/rego"
)

// Decisions are what a policy package decides about one plan document:
// its rules' values by name (sets as sorted lists).
type Decisions map[string]any

// Decide evaluates every rule of the Rego package pkg (e.g.
// "tfeval.network") in the policy source over a plan document.
func Decide(ctx context.Context, module, source string, pkg string, plan []byte) (Decisions, error) {
	var input any
	if err := json.Unmarshal(plan, &input); err != nil {
		return nil, fmt.Errorf("plan document: %w", err)
	}
	r := rego.New(
		rego.Query("data."+pkg),
		rego.Module(module, source),
		rego.Input(input),
	)
	rs, err := r.Eval(ctx)
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, fmt.Errorf("policy package %s: no result", pkg)
	}
	values, ok := rs[0].Expressions[0].Value.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("policy package %s: result %T", pkg, rs[0].Expressions[0].Value)
	}
	out := Decisions{}
	for name, v := range values {
		out[name] = sorted(v)
	}
	return out, nil
}

// sorted puts the members of sets (which OPA returns as arrays in no
// promised order) in order, so decisions compare as values.
func sorted(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := append([]any(nil), list...)
	sort.Slice(out, func(i, j int) bool {
		a, _ := json.Marshal(out[i])
		b, _ := json.Marshal(out[j])
		return string(a) < string(b)
	})
	return out
}
