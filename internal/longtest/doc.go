// Package longtest says whether the exhaustive test suites run: the whole
// hostile-input catalogue, the scale and growth measurements and the large
// generated trees. They run when TFEVAL_LONG is set (CI sets it in .ci/run)
// and not with -short; without it each suite keeps a small case of every
// class, so `go test ./...` stays quick and nothing goes unguarded. It is
// for tests only.
package longtest
