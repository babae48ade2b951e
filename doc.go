// Package tfeval loads and evaluates Terraform and OpenTofu configurations
// exactly as those tools would during plan or in the console, without running
// them and without providers.
//
// Most users need only Evaluate: give it a module directory and the variable
// sources a command line would take, and walk the result's outputs, resource
// instances and diagnostics. The packages underneath (config, tfvars, funcs,
// lang, render) are usable on their own for finer control.
package tfeval
