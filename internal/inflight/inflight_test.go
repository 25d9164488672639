package inflight

import (
	"sync"
	"testing"
)

func TestGauge(t *testing.T) {
	var g Gauge
	a, b := g.Start(), g.Start()
	if got, want := g.Now(), int64(2); got != want {
		t.Errorf("Now() = %d after two starts, want %d", got, want)
	}
	a()
	b()
	c := g.Start()
	if g.Now() != 1 || g.Peak() != 2 {
		t.Errorf("after a third start alone: Now() = %d, Peak() = %d; want 1, 2", g.Now(), g.Peak())
	}
	c()

	// Many at once: the peak is at most the number started and nothing stays in flight.
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			<-start
			g.Start()()
		})
	}
	close(start)
	wg.Wait()
	if g.Now() != 0 || g.Peak() < 2 || g.Peak() > 16 {
		t.Errorf("after 16 concurrent starts: Now() = %d, Peak() = %d; want 0 and a peak in 2..16", g.Now(), g.Peak())
	}
}
