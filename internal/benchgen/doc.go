// Package benchgen writes synthetic but realistic Terraform module trees of a
// chosen size, for benchmarking loading and evaluation.
//
// A tree is a monorepo: a root module with a terraform.tfvars calls about
// sqrt(N) service modules under modules/services, and each service calls its
// own leaf components under modules/components, all through local sources.
// The modules use typed variables with optional() defaults, maps of objects,
// locals built with for expressions and templates, count and for_each on
// resources and module calls, module outputs feeding sibling modules, the
// functions merge, lookup, cidrsubnet, jsonencode, format and flatten, and
// dynamic blocks on mock_thing, a resource of the made-up provider bench/mock
// whose schema is written next to the root as providers-schema.json.
// Everything else is terraform_data, so no real provider is needed.
//
// Options.Roots makes the tree a repository of many root modules under envs/
// calling the same modules, the shape of a monorepo scanned with
// tfeval -recursive.
//
// Generation is pure arithmetic over a fixed seed: the same Size always gives
// a byte-identical tree, and ExpectedInstances reports how many resource
// instances a complete plan of that tree must contain. Options.NoProvider
// swaps mock_thing for terraform_data with the same counts, so a stock
// terraform can plan the tree: BENCHGEN_TERRAFORM=small,medium go test
// checks that it does, with exactly ExpectedInstances instances.
package benchgen
