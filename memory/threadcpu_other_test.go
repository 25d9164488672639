//go:build !linux

package memory_test

import "time"

// threadCPU is not measured on this platform.
func threadCPU() time.Duration { return -1 }
