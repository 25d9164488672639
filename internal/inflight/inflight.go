// Package inflight counts work in flight and the most that was ever in flight at
// once: the in_flight and max_in_flight figures of the model client's and the
// worker pool's statistics.
package inflight

import "sync/atomic"

// Gauge counts work in flight and remembers its peak. The zero value is ready to
// use; it is safe for concurrent use.
type Gauge struct{ now, peak atomic.Int64 }

// Start counts one more piece of work in flight, raising the peak when that is the
// most so far, and returns the function that counts it out again.
func (g *Gauge) Start() (done func()) {
	n := g.now.Add(1)
	for {
		p := g.peak.Load()
		if n <= p || g.peak.CompareAndSwap(p, n) {
			break
		}
	}
	return func() { g.now.Add(-1) }
}

// Now returns how much work is in flight.
func (g *Gauge) Now() int64 { return g.now.Load() }

// Peak returns the most work that was in flight at once.
func (g *Gauge) Peak() int64 { return g.peak.Load() }
