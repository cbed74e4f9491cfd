//go:build linux || darwin

package main

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// peakRSS returns the most memory the process has had resident so far, in bytes. On Linux it
// reads VmHWM, the peak of the process's own memory: getrusage's maxrss also counts what the
// process that started this one had resident when it did, which exec carries over (a check
// started by a 2 GB editor would think its own peak was 2 GB, and its budget with it).
func peakRSS() int64 {
	if runtime.GOOS == "linux" {
		if peak := statusPeak(); peak > 0 {
			return peak
		}
	}
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return u.Maxrss // bytes on macOS
	}
	return u.Maxrss << 10 // kilobytes on Linux
}

// statusPeak returns VmHWM from /proc/self/status in bytes, or 0 if it cannot be read.
func statusPeak() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kib, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			if err != nil {
				return 0
			}
			return kib << 10
		}
	}
	return 0
}
