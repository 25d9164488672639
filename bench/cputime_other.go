//go:build !unix

package bench

import "time"

// cpuTime returns -1: the process's CPU time is read on Unix systems only.
func cpuTime() time.Duration { return -1 }
