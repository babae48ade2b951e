//go:build !race

package funcs

// raceDetector says the tests run with the race detector (see race_on_test.go).
const raceDetector = false
