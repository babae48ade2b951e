// Package tftest runs a module's test files (`.tftest.hcl`, `.tftest.json`,
// and OpenTofu's `.tofutest.hcl`) offline, as `terraform test` v1.15.9 (or
// `tofu test` v1.12.6 in the OpenTofu dialect) judges them, with no provider
// and no credentials.
//
// ParseFile reads one test file into its blocks (variables, provider and
// mock_provider blocks, overrides, run blocks with their assertions and
// expected failures), with Terraform's diagnostics for what is malformed. Run
// runs every test file of a module: each run block is planned, and applied
// unless it says `command = plan`, against the file's in-memory state, with
// mocked providers and overrides giving values to what a provider would
// compute, and its assertions checked. The Report holds a status per run,
// per file and for the whole command, the four statuses of terraform test.
//
// What only a provider could answer is never guessed: a run whose
// assertions, outputs or expected failures depend on a value that a provider
// tfeval does not mock would give (a computed attribute of a real provider,
// a data source) is skipped, with the provider and the condition named,
// rather than passed or failed. Given provider schemas (Options.Schemas),
// mocked values take the attributes' types, as Terraform makes them.
//
// The package sits above lang (each run is an evaluation) and below the
// root package's Test and the command line's `tfeval test`, whose output
// formats (the -json event stream, text, JUnit XML) live in package format.
package tftest
