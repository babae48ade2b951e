// Package fastexpr is an evaluator of the hcl expression nodes that
// dominate real configurations (references, for expressions, templates,
// comparisons, conditionals, object constructors, indexing, function
// calls), bounded by the limits it is given.
//
// hcl evaluates for expressions and templates internally, with no hook, so
// Guard.Expr returns a copy of an expression in which those nodes are
// wrapped to count elements and measure strings against the limits, and in
// which the common nodes are replaced by ones that take a shortcut in the
// common case (known, unmarked, non-null operands) and otherwise evaluate
// hcl's own node. A compiled expression gives exactly the values and
// diagnostics of hcl's own nodes, which the differential tests and
// FuzzFastEval check; only at a limit does it stop sooner.
package fastexpr
