//go:build race

package typeexpr

// raceDetector says the tests run with the race detector, whose
// instrumentation changes how much maps and small objects allocate, so
// allocation counts are not held there.
const raceDetector = true
