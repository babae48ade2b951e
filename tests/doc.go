// Package tests holds the tests that cut across tfeval's packages: the
// documentation (README and docs/ code blocks and commands), security
// (adversarial inputs, the sandbox, concurrency, cancellation), fuzzing
// of whole evaluations, module caches, memory growth and the benchmarks.
// Each package's own tests are next to its code; these evaluate whole
// module trees through the public API, from files under ../testdata.
package tests
