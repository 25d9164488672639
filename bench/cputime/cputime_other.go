//go:build !unix

package cputime

import "time"

// Used returns -1: the process's CPU time is read on Unix systems only.
func Used() time.Duration { return -1 }
