package corpus

import (
	"bytes"
	"slices"
	"testing"
	"time"
)

// MiddleLine returns the number of the middle line of src, counted from 0, and the offset at
// which it starts: where the keystroke benchmarks of every stage type (treesitter's
// BenchmarkReparse, analysis's BenchmarkKeystroke, the server's BenchmarkEditThenFresh*), so
// that each stage's figure is the floor of the next one's.
func MiddleLine(src []byte) (line, offset int) {
	line = bytes.Count(src, []byte("\n")) / 2
	for range line {
		offset += bytes.IndexByte(src[offset:], '\n') + 1
	}
	return line, offset
}

// ReportLatency reports the median, the 99th percentile and the maximum of durations, the times
// of a benchmark's iterations (keystrokes, files opened), in milliseconds. The percentile is
// the nearest rank's, the ⌈0.99·n⌉th smallest: of 100 durations the 99th, of 20 the largest.
func ReportLatency(b *testing.B, durations []time.Duration) {
	slices.Sort(durations)
	n := len(durations)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(durations[n/2]), "median-ms")
	b.ReportMetric(ms(durations[(99*n+99)/100-1]), "p99-ms")
	b.ReportMetric(ms(durations[n-1]), "max-ms")
}
