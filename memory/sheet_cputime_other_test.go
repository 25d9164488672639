//go:build !unix

package memory_test

// sheetCPUNanos is not available here; the sheet benchmarks then report wall time only.
func sheetCPUNanos() int64 { return -1 }
