//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time (user and system) the process has used so far, or -1 if
// it cannot be read.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
