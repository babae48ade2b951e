// Package diagsort puts diagnostics in source order. hcl reports some of
// them in Go map order (arguments a schema does not accept, attributes of
// the wrong type that hcldec decodes from a map of specs), so the same
// input would otherwise print its errors in a different order from run to
// run.
package diagsort
