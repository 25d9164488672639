//go:build !unix

package memory_test

import "time"

// ingestCPUTime is not measured here; the benchmarks then report no CPU throughput.
func ingestCPUTime() time.Duration { return 0 }
