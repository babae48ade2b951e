// Package funcs is the built-in function library of the Terraform and
// OpenTofu languages: every function either tool offers, with the names,
// argument rules, marks, unknown handling and error texts of the dialect
// being evaluated.
//
// Functions returns the table an hcl.EvalContext needs: each built-in under
// NAME and core::NAME, and each Options.ProviderFunctions entry as
// provider::LOCAL::NAME (for OpenTofu's aliased form, use "NAME::ALIAS" as
// LOCAL). Options says what the functions may touch: BaseDir and Sandbox for
// the file functions, Now and Rand for timestamp/uuid/bcrypt, PureOnly for
// plan-time evaluation (impure functions unknown), PlanTimestamp, and
// ConsoleMode (type() instead of plantimestamp()). Names lists a dialect's
// table, Description gives each function's help line, TypeType/TypeFromVal
// recognise type() results, and UnknownFunctionDiags rewrites HCL's
// unknown-function diagnostics for namespaced names into each tool's texts.
// BuiltinProviderFunctions are the functions of the provider built into
// both tools (encode_tfvars, decode_tfvars, encode_expr), which a module
// calls as provider::LOCAL::NAME once it declares BuiltinProviderSource.
//
// Most functions come straight from go-cty's stdlib, hcl's tryfunc and
// go-cty-yaml, as upstream uses them; the rest live here, one file per
// family (cidr, collection, conversion, crypto, datetime, encoding,
// filesystem, sensitive, string, template), with the per-dialect table in
// table.go.
//
// One table serves one evaluation, which is a plan: files do not change
// while it runs, so a table reads each file as text once, lists a
// directory once per fileset pattern, and decodes each jsondecode or
// yamldecode document once (decodecache.go), within bounds on what it
// keeps. With ConsoleMode, where files may change between lines, files and
// directories are read at every call. A Cache (Options.Cache, cache.go)
// shares the same across tables, so that a scan of many root modules
// reading the same files reads, lists and decodes each once, within a
// byte bound.
package funcs
