//go:build unix

package sealed_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, or -1 (see cpuMetric).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
