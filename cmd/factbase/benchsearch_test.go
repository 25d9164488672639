package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchSearch runs "factbase bench search" small, as JSON with the hashing
// embedder and as text without vectors: the JSON carries the load, both searches'
// latency and quality, and the disk and memory figures; the text names them; the
// load's progress goes to stderr.
func TestBenchSearch(t *testing.T) {
	out, stderr, code := run(t, testEnv(t), "bench", "search", "--n", "300", "--queries", "30", "--embedder", "hash", "--json", "--dir", t.TempDir())
	if code != 0 {
		t.Fatalf("bench search: exit %d: %s", code, stderr)
	}
	var rep struct {
		N            int     `json:"n"`
		Queries      int     `json:"queries"`
		Embedder     string  `json:"embedder"`
		AddPerSecond float64 `json:"add_per_second"`
		BytesPerMem  float64 `json:"bytes_per_memory"`
		RSS          int64   `json:"rss_bytes"`
		Search       struct {
			Latency struct {
				P50 float64 `json:"p50_ms"`
				P99 float64 `json:"p99_ms"`
			} `json:"latency"`
			All struct {
				Questions int     `json:"questions"`
				Recall    float64 `json:"recall_at_10"`
				Hit       float64 `json:"hit_at_1"`
			} `json:"all"`
		} `json:"search"`
		Exact struct {
			All struct {
				Questions int `json:"questions"`
			} `json:"all"`
		} `json:"exact"`
		Agreement float64 `json:"agreement_at_10"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench search --json printed %q: %v", out, err)
	}
	if rep.N != 300 || rep.Queries != 30 || rep.Embedder != "hash-256-v1" || rep.Search.All.Questions != 30 || rep.Exact.All.Questions != 30 {
		t.Errorf("report: %+v", rep)
	}
	if !(rep.AddPerSecond > 0) || !(rep.BytesPerMem > 0) || rep.RSS <= 0 || !(rep.Search.Latency.P50 > 0) || rep.Search.Latency.P99 < rep.Search.Latency.P50 {
		t.Errorf("figures: %+v", rep)
	}
	if rep.Search.All.Recall < 0.9 || rep.Agreement != 1 {
		t.Errorf("recall@10 %.2f, agreement with exact search %.2f", rep.Search.All.Recall, rep.Agreement)
	}
	if !strings.Contains(stderr, "loading 300 memories") {
		t.Errorf("stderr lacks the load's progress: %q", stderr)
	}

	out, stderr, code = run(t, testEnv(t), "bench", "search", "--n", "200", "--queries", "10", "--embedder", "none")
	if code != 0 {
		t.Fatalf("bench search: exit %d: %s", code, stderr)
	}
	for _, w := range []string{"200 memories", "embedder none", "bytes a memory", "RSS", "exact search", "recall@10", "hit@1"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}
