// Package opa is an example, in a module of its own so that tfeval does not
// depend on OPA: it evaluates a Rego policy with
// github.com/open-policy-agent/opa over the plan document tfeval writes
// (format.NewPlan, `tfeval show -json`) and over the one the real
// terraform binary recorded for the same configuration, and shows that the
// policy decides the same on both. Policy tools built on OPA (conftest,
// Spacelift, env0) read the document the same way.
package opa
