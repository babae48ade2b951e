// Package literal decodes an expression evaluated without variables or
// functions into a Go bool or string, with the diagnostics hcl's gohcl
// decoder gives for the same (held to it by TestAgreesWithGohcl): a value
// that does not convert is "Unsuitable value type", and so is a null or,
// after the expression's own diagnostics, an unknown one. It keeps gohcl,
// and hcl's writer that gohcl links in, out of every process.
package literal
