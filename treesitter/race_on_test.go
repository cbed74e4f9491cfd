//go:build race

package treesitter

// raceDetector reports whether the tests run under the race detector (go test -race), under
// which sync.Pool drops a random quarter of what is put back in it: a parse may then make a new
// parser, whose C state stays in the pool, and a test cannot count the C memory its trees hold.
const raceDetector = true
