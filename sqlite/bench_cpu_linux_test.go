//go:build linux

package sqlite_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used, or -1 (see cpuMetric).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
