// Package snippets runs the Go code blocks of the README and of the guides
// in docs/: each test holds one block verbatim, between the files it
// needs and the checks of what it did, so that a documented snippet that
// stops compiling or working fails the tests. tests/docs_test.go keeps
// the copies identical to the documents.
package snippets
