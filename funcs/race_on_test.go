//go:build race

package funcs

// raceDetector says the tests run with the race detector, under which
// sync.Pool drops what it holds at random: regexp then allocates a new
// matcher for every match, and allocation counts mean nothing.
const raceDetector = true
