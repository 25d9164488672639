package core

import (
	"testing"
	"time"
)

func TestNextEraseBatch(t *testing.T) {
	for _, tc := range []struct {
		size int
		took time.Duration
		want int
	}{
		{1000, 800 * time.Millisecond, 250}, // too slow: a quarter at most per step
		{1000, 100 * time.Millisecond, 500},
		{1000, 50 * time.Millisecond, 1000},
		{1000, 10 * time.Millisecond, 4000}, // too fast: four times at most
		{100, time.Second, 50},              // never below 50
		{10000, time.Millisecond, 20000},    // never above 20,000
		{1000, 0, 4000},
	} {
		if got := nextEraseBatch(tc.size, tc.took); got != tc.want {
			t.Errorf("nextEraseBatch(%d, %v) = %d, want %d", tc.size, tc.took, got, tc.want)
		}
	}
}
