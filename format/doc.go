// Package format writes what tfeval reports, in every form it has: the
// `eval -json`, `vars -json` and `validate -json` documents (each with a
// format_version), the plan document `terraform show -json` writes
// (NewPlan), SARIF 2.1.0 for code-scanning services (NewSARIF), the text
// of `tfeval eval` and `tfeval vars`, diagnostics as Terraform prints them,
// and the dependency graph in DOT and Mermaid.
//
// It sits at the end of the data flow, files → config → lang → format:
// it reads evaluated results and loaded configurations and never changes
// them. Every writer is deterministic: map keys, resources, modules and
// checks come out in a fixed order.
package format
