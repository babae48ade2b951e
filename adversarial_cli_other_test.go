//go:build !unix

package tfeval_test

// rlimitExecEnv names the variable that makes this test binary exec the
// CLI under a data limit, which only Unix systems have.
const rlimitExecEnv = "TFEVAL_TEST_RLIMIT_EXEC"

func execWithDataLimit(string) { panic("resource limits are Unix-only") }
