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
// contents of the directory's files on every load (cache.go); a directory
// reached by a new path copies the parse kept for another path, its ranges
// renamed (relocate.go), instead of parsing the files again.
//
// # Adding a block type
//
// A new top-level block type (as moved, import or check were added) is
// read here and evaluated in lang; the files to touch, in order:
//
//   - schema.go: its header (type and labels) in newFileSchema, for the
//     dialects that have it (a block one dialect lacks is "Unsupported
//     block type" there, as in that tool).
//   - types.go: the struct it decodes to, with its expressions kept as
//     hcl.Expression and its ranges, and its field in Module.
//   - decode_file.go: its field in file and its case in decodeFile;
//     decode_module.go (or a decode_NAME.go of its own, when it is large):
//     the decoder, with Terraform's diagnostics for what is wrong in it.
//   - module.go: appendFile adds it to the Module (duplicates reported
//     there); merge.go: mergeFile, for what an override file may change
//     of it.
//   - names.go: the check of its name, when it has one.
//   - in package lang, if it has expressions to evaluate: graph.go (a
//     nodeKind, its nodes in buildGraph and their references in
//     nodeRefs), evaluate.go (evalNodeIn), nodes.go (what evaluating it
//     does), refs.go (when expressions may refer to it) and
//     graph_export.go (the kind tfeval graph prints).
//
// Each of those files has a twin _test.go for the new case, and the
// conformance corpus (testdata/conformance) records what Terraform and
// OpenTofu do with the block.
package config
