package llm

import (
	"net/http"
	"testing"
	"time"
)

// TestParseRetryAfter reads Retry-After as seconds or an HTTP date, capped at the
// client's (MaxRetryAfter) or the embedder's (MaxEmbedRetryAfter) limit.
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		header string
		max    time.Duration
		want   time.Duration
	}{
		{header: "", max: MaxRetryAfter, want: 0},
		{header: "3", max: MaxRetryAfter, want: 3 * time.Second},
		{header: "2", max: MaxEmbedRetryAfter, want: 2 * time.Second},
		{header: " 1 ", max: MaxEmbedRetryAfter, want: time.Second},
		{header: "0.5", max: MaxRetryAfter, want: 500 * time.Millisecond},
		{header: "0", max: MaxEmbedRetryAfter, want: 0},
		{header: "-1", max: MaxRetryAfter, want: 0},
		{header: "-3", max: MaxEmbedRetryAfter, want: 0},
		{header: "9999", max: MaxRetryAfter, want: MaxRetryAfter},
		{header: "3600", max: MaxEmbedRetryAfter, want: MaxEmbedRetryAfter},
		{header: "NaN", max: MaxEmbedRetryAfter, want: 0},
		{header: "soon", max: MaxRetryAfter, want: 0},
		{header: now.Add(4 * time.Second).Format(http.TimeFormat), max: MaxRetryAfter, want: 4 * time.Second},
		{header: now.Add(7 * time.Second).Format(http.TimeFormat), max: MaxEmbedRetryAfter, want: 7 * time.Second},
		{header: now.Add(-7 * time.Second).Format(http.TimeFormat), max: MaxEmbedRetryAfter, want: 0},
	}
	for _, tc := range tests {
		if got := parseRetryAfter(tc.header, now, tc.max); got != tc.want {
			t.Errorf("parseRetryAfter(%q, now, %v) = %v, want %v", tc.header, tc.max, got, tc.want)
		}
	}
}
