//go:build linux

package memory_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used, or -1. Benchmarks
// lock their goroutine to its thread, so that the difference over one call is that
// call's CPU time (the store runs in the caller's goroutine), which a machine shared
// with other work does not inflate as it does wall time.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
