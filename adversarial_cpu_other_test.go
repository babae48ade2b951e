//go:build !unix

package tfeval_test

import "time"

// cpuTime is not measured here: tests that bound CPU time then bound nothing
// but that the work ends (TestAdversarialCLI, which needs Unix resource
// limits, does not run).
func cpuTime() time.Duration { return 0 }
