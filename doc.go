// Package tfeval loads and evaluates Terraform and OpenTofu configurations
// exactly as those tools would during plan or in the console, without running
// them and without providers.
//
// Most users need one call, Evaluate: give it a module directory, the
// dialect, and the variable sources a command line would take (environment,
// -var and -var-file via Var and VarFile, Go values), and it returns an
// Evaluation. Walk that with:
//
//   - Outputs and Output: the root module's outputs;
//   - Resources and Resource: every planned resource instance with its
//     evaluated arguments; Resource.Attr reads one, UnknownPaths and
//     SensitivePaths say which parts are known only after apply or secret;
//   - Variables: the root variables' final values and where each came from;
//   - Modules and Module: every module instance's variables, locals, outputs;
//   - Checks: the status of every validation, condition and check assertion;
//   - Diagnostics: errors and warnings in Terraform's words with source ranges;
//   - Eval: any further expression, in any module instance.
//
// Graph returns the configuration's dependency graph, for Graphviz or Mermaid.
//
// Values are go-cty values: v.IsKnown() is false for a value known only after
// apply, v.IsNull() is true for an unset argument, sensitive values carry
// marks.Sensitive, and render.Value prints any of them as terraform console
// does. The guides in the repository's docs/ directory show complete uses;
// the packages underneath (config, tfvars, funcs, lang, render) are usable on
// their own for finer control.
package tfeval
