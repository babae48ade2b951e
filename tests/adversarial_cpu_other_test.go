//go:build !unix

package tests

import "time"

// cpuTime is not measured here; the adversarial suite uses wall time alone.
func cpuTime() time.Duration { return 0 }
