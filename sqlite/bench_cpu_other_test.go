//go:build !linux

package sqlite_test

import "time"

// processCPU is not measured on this platform.
func processCPU() time.Duration { return -1 }
