// Package funcs is the built-in function library of the Terraform and
// OpenTofu languages: every function either tool offers, with the names,
// argument rules, marks, unknown handling and error texts of the dialect
// being evaluated. Functions returns the table an hcl.EvalContext needs;
// Options carries what the functions may touch (files, clock, randomness).
package funcs
