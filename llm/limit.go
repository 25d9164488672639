package llm

import (
	"context"
	"math"
	"sync"
	"time"
)

// semaphore bounds how many requests are in flight at once.
type semaphore chan struct{}

func (s semaphore) acquire(ctx context.Context) error {
	select {
	case s <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s semaphore) release() { <-s }

// bucket is a token bucket: it holds at most burst tokens, refilled at rate per
// second; every request takes one. A request that finds the bucket empty reserves the
// next token and waits for it, so waiters are served in order and the long-run rate
// never exceeds rate. The zero rate means no limit.
type bucket struct {
	rate  float64 // tokens per second; 0: unlimited
	burst float64

	mu     sync.Mutex
	tokens float64   // may go negative: tokens reserved by waiters
	last   time.Time // when tokens was last brought up to date
}

func newBucket(rate float64, burst int) *bucket {
	if burst < 1 {
		burst = max(1, int(math.Ceil(rate)))
	}
	return &bucket{rate: rate, burst: float64(burst), tokens: float64(burst)}
}

// reserve takes a token at time now and returns how long the caller must wait before
// using it (0 if one was available).
func (b *bucket) reserve(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.last.IsZero() {
		b.last = now
	}
	if el := now.Sub(b.last); el > 0 {
		b.tokens = math.Min(b.burst, b.tokens+el.Seconds()*b.rate)
		b.last = now
	}
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / b.rate * float64(time.Second))
}

// cancel gives back a token reserved by a caller that will not use it.
func (b *bucket) cancel() {
	b.mu.Lock()
	b.tokens = math.Min(b.burst, b.tokens+1)
	b.mu.Unlock()
}

// wait blocks until the caller may send one request, or ctx ends.
func (b *bucket) wait(ctx context.Context) error {
	if b == nil || b.rate <= 0 {
		return nil
	}
	d := b.reserve(time.Now())
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		b.cancel()
		return ctx.Err()
	}
}
