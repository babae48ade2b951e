//go:build !race

package tfeval_test

// raceSlowdown scales timing bounds: the race detector slows evaluation several times.
const raceSlowdown = 1
