//go:build race

// Package race tells tests whether they run under the race detector (go test -race), which
// makes heavy sequential tests ten times slower and finds nothing in them, and under which
// sync.Pool drops a random quarter of what is put back in it.
package race

// Enabled reports whether the race detector is on.
const Enabled = true
