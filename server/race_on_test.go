//go:build race

package server

// raceDetector reports whether the tests run under the race detector (go test -race), which
// makes the heavy sequential tests ten times slower and finds nothing in them: they skip.
const raceDetector = true
