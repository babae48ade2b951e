// Package limit holds the mechanisms behind tfeval's resource limits that
// more than one package needs: a nesting-depth check run on source text
// before hcl parses it (hcl's parser and evaluator recurse once per level, so
// unbounded nesting would overflow the stack, which Go cannot recover from),
// and Guard, which wraps the parts of an hcl expression that can multiply
// work or memory (for expressions and string templates) so that they stop
// with a diagnostic at a limit, plus the bound on the size of numbers
// (MaxNumberExponent) checked in sources and on computed values. Guard also
// compiles expressions into nodes that evaluate the common case faster than
// hcl (fast.go), falling back to hcl's own nodes. The public knobs are
// lang.Limits and funcs.Limits; this package only enforces the values it is
// given.
package limit
