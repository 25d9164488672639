//go:build !unix

package transcript_test

import "time"

// cpuTime is not measured here; benchmarks then report no CPU throughput.
func cpuTime() time.Duration { return 0 }
