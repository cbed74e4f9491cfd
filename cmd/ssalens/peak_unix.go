//go:build linux || darwin

package main

import (
	"runtime"
	"syscall"
)

// peakRSS returns the most memory the process has had resident so far, in bytes.
func peakRSS() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return u.Maxrss // bytes on macOS
	}
	return u.Maxrss << 10 // kilobytes on Linux
}
