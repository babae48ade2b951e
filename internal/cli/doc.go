// Package cli is the tfeval command line: console, eval, validate and vars.
// It lives in a package, not in cmd/tfeval, so that the conformance tests can
// run it in-process on many cases at once; it therefore never reads the
// process working directory or environment itself but takes them as inputs.
package cli
