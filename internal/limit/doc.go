// Package limit holds the bounds on untrusted input that more than one
// package needs, checked before the expensive work they guard: a
// nesting-depth check run on source text before hcl parses it (hcl's parser
// and evaluator recurse once per level, so unbounded nesting would overflow
// the stack, which Go cannot recover from), the bound on the size of numbers
// (MaxNumberExponent) checked in sources and on computed values, and the
// reading of configuration files (regular files only, of bounded size).
// ParseTemplate parses a long template in pieces, because hcl's template
// parser takes time that grows with the square of a template's lines, and
// ParseConfig parses a configuration file's long heredocs the same way,
// and a long file in pieces, which spares hcl's lexer growing one slice
// for all of its tokens. The
// public knobs are lang.Limits and funcs.Limits; this package only enforces
// the values it is given. The bounds on for expressions and templates are
// enforced while evaluating, by package fastexpr.
package limit
