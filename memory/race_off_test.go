//go:build !race

package memory_test

// raceEnabled is true when the tests run under the race detector, which slows the
// SQLite driver (pure Go) many times over: load tests scale down.
const raceEnabled = false
