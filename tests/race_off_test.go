//go:build !race

package tests

// raceSlowdown scales timing bounds: the race detector slows evaluation several times.
const raceSlowdown = 1
