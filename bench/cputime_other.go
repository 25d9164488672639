//go:build !unix

package bench

import "time"

// CPUTime returns -1: the process's CPU time is read on Unix systems only.
func CPUTime() time.Duration { return -1 }
