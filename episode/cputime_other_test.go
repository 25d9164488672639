//go:build !unix

package episode

// cpuNanos is not available here; benchmarks then report wall time only.
func cpuNanos() int64 { return -1 }
