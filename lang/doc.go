// Package lang evaluates a loaded configuration the way terraform plan (or,
// with Options.Console, terraform console) does, without providers: it
// resolves every named value, expands count and for_each, plans resource
// instances from their configuration (and provider schemas when given), and
// runs the language's checks, all in the order of a dependency graph built
// from the references between objects. The configuration of every provider
// block a resource uses is evaluated too, for its errors (provider.go): there
// is no provider to configure.
//
// Evaluate returns a Result holding every module instance's variables, locals,
// outputs and resource instances; Result.EvalExpr evaluates console input in
// any module's scope (EvalExprInModule in a chosen instance), Result.Checks
// gives the status of every condition rule. BuildGraph exposes the
// dependency graph itself, for `tfeval graph`. Package lang only
// evaluates: every document and rendering of the results (JSON, plan JSON,
// SARIF, text, DOT, Mermaid) is package format's.
//
// Objects whose dependencies are done are evaluated in parallel on
// GOMAXPROCS goroutines; each object's diagnostics are merged in graph
// order, so values and diagnostics are the same on one CPU or many.
// Per-block work (decoder specs, parsed references, function tables) is
// computed once and shared by every instance (cache.go).
package lang
