// Package moduletest is the example of docs/testing-modules.md: a Go
// table test of a Terraform module (webapp/) that checks the outputs and
// resource arguments each set of inputs produces, and the errors and
// failed validation rules of the inputs the module rejects.
package moduletest
