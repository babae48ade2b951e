package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long suites on: any value
// but "", "0" and "false".
const Env = "TFEVAL_LONG"

// Enabled reports whether the long suites run: Env is set and the tests do
// not run with -short (the race detector's runs use -short).
func Enabled() bool {
	switch os.Getenv(Env) {
	case "", "0", "false":
		return false
	}
	return !testing.Short()
}

// Skip skips t unless the long suites run, naming what it would have done.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("%s: runs with %s=1", what, Env)
	}
}

// Pick is short when the long suites do not run and long when they do: a
// count of random cases, a size of generated input.
func Pick[T any](short, long T) T {
	if Enabled() {
		return long
	}
	return short
}
