// Package config is tfeval's parser front-end. It reads the files of a module
// directory the way Terraform and OpenTofu do (.tf, .tf.json, .tofu, override
// files, ignored files), decodes every block type into typed structures that
// keep their source ranges, runs the static checks that need no values, and
// assembles the tree of modules called from the root.
//
// Nothing here evaluates an expression that needs variable values: expressions
// are kept as hcl.Expression and bodies as hcl.Body for the lang package.
//
// Override files are merged here (merge.go) because the rules are about
// these structures; the body-level merge is package override's MergeBodies.
// Module calls are checked against the called module's variables while the
// tree is built, so evaluators need not repeat that check.
//
// Directories called through local sources are read and decoded ahead of
// the depth-first tree walk on GOMAXPROCS goroutines (prefetch.go); the walk
// alone decides what belongs to the tree and reports, in order.
//
// A ModuleCache (Options.Cache) keeps loaded modules for later loads in
// the same process, keyed by directory and path and checked against the
// contents of the directory's files on every load (cache.go).
package config
