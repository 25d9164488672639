//go:build unix

package search

import "syscall"

// cpuNanos returns the CPU time, user plus system, this process has used. Benchmarks
// report it beside wall time because a shared machine inflates wall time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
