//go:build unix

package memory_test

import "syscall"

// sheetCPUNanos returns the CPU time, user plus system, this process has used. The
// sheet benchmarks report it beside wall time because a shared machine inflates wall
// time.
func sheetCPUNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
