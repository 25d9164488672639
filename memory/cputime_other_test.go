//go:build !unix

package memory_test

import "time"

// processCPU is not measured here; the benchmarks then report wall time only.
func processCPU() time.Duration { return -1 }
