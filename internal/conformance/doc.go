// Package conformance scores tfeval against the recorded behaviour of
// Terraform and OpenTofu in testdata/conformance, by the same rules as
// shared/conformance/compare.py (and, for the test files of
// testdata/conformance/testcases, compare_test.py), and keeps the ratchet:
// the list of units known to fail may only shrink.
package conformance
