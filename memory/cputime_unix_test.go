//go:build unix

package memory_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has used, or -1,
// so that benchmarks can report CPU time beside wall time, which a machine shared
// with other work inflates.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
