package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/factbase/factbase/embed"
)

// TestBenchJSON runs "factbase bench --scale tiny --json" and checks that the JSON
// has every workload, each with sane figures (positive and finite), every workload
// but the memory target's load beside a baseline, and the disk and memory figures.
func TestBenchJSON(t *testing.T) {
	out, stderr, code := run(t, testEnv(t), "bench", "--scale", "tiny", "--json", "--dir", t.TempDir())
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr)
	}
	var rep struct {
		Scale struct {
			Users int `json:"users"`
			Facts int `json:"facts_per_user"`
		} `json:"scale"`
		Embedder string `json:"embedder"`
		Results  []struct {
			Name            string  `json:"name"`
			Ops             int     `json:"ops"`
			PerSecond       float64 `json:"ops_per_second"`
			P50             float64 `json:"p50_us"`
			P99             float64 `json:"p99_us"`
			Throughput      float64 `json:"throughput"`
			Unit            string  `json:"unit"`
			Baseline        string  `json:"baseline"`
			RatioP50        float64 `json:"ratio_p50"`
			RatioThroughput float64 `json:"ratio_throughput"`
			Seconds         float64 `json:"seconds"`
			CPUSeconds      float64 `json:"cpu_seconds"`
			PeakRSS         float64 `json:"peak_rss_bytes"`
		} `json:"results"`
		Serve struct {
			Label   string  `json:"label"`
			Users   int     `json:"users"`
			Facts   int     `json:"facts"`
			PeakRSS float64 `json:"peak_rss_bytes"`
			Target  float64 `json:"target_bytes"`
		} `json:"serve"`
		PeakRSS      float64 `json:"peak_rss_bytes"`
		StoredFacts  int     `json:"stored_facts"`
		BytesPerFact float64 `json:"disk_bytes_per_fact"`
		Seconds      float64 `json:"seconds"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("bench --json printed %q: %v", out, err)
	}
	sane := func(what string, v float64) {
		t.Helper()
		if !(v > 0) || math.IsInf(v, 0) {
			t.Errorf("%s = %v, want a positive finite number", what, v)
		}
	}
	if want := embed.GloVeModel; rep.Embedder != want {
		t.Errorf("embedder = %q, want the default %q", rep.Embedder, want)
	}
	// Every workload the issue names, and each one's baseline.
	want := []string{"raw insert (baseline)", "raw select (baseline)", "raw bulk insert (baseline)",
		"raw FTS5 top 10 (baseline)", "raw sheet query (baseline)", "raw line insert (baseline)",
		"build: ", "medium load", "ranked append", "ranked MOVE", "list page of 100",
		"one-valued set", "point read by key", "hybrid search", "fact sheet generation", "transcript ingest"}
	for _, w := range want {
		n := 0
		for _, r := range rep.Results {
			if strings.HasPrefix(r.Name, w) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no result named %q...", w)
		}
	}
	for _, r := range rep.Results {
		sane(r.Name+": ops", float64(r.Ops))
		sane(r.Name+": ops/s", r.PerSecond)
		sane(r.Name+": p50", r.P50)
		sane(r.Name+": seconds", r.Seconds)
		sane(r.Name+": peak RSS", r.PeakRSS)
		if r.P99 < r.P50 {
			t.Errorf("%s: p99 %v < p50 %v", r.Name, r.P99, r.P50)
		}
		if r.CPUSeconds < 0 || math.IsInf(r.CPUSeconds, 0) || math.IsNaN(r.CPUSeconds) {
			t.Errorf("%s: cpu seconds = %v", r.Name, r.CPUSeconds)
		}
		if r.Unit != "" {
			sane(r.Name+": throughput", r.Throughput)
		}
		switch {
		case strings.HasSuffix(r.Name, "(baseline)"), strings.HasPrefix(r.Name, "medium load"):
			if r.Baseline != "" {
				t.Errorf("%s has a baseline %q", r.Name, r.Baseline)
			}
		case r.Unit != "":
			sane(r.Name+": throughput ratio to "+r.Baseline, r.RatioThroughput)
		default:
			sane(r.Name+": p50 ratio to "+r.Baseline, r.RatioP50)
		}
		if r.Baseline != "" && !strings.HasPrefix(r.Baseline, "raw ") {
			t.Errorf("%s: baseline %q is not a raw SQLite one", r.Name, r.Baseline)
		}
	}
	n := rep.Scale.Users * rep.Scale.Facts
	if rep.StoredFacts < n {
		t.Errorf("stored facts %d, want at least %d", rep.StoredFacts, n)
	}
	sane("disk bytes per fact", rep.BytesPerFact)
	sane("peak RSS", rep.PeakRSS)
	sane("seconds", rep.Seconds)
	sane("serve peak RSS", rep.Serve.PeakRSS)
	sane("serve target", rep.Serve.Target)
	if rep.Serve.Users != rep.Scale.Users || rep.Serve.Facts != n || rep.Serve.Label == "" {
		t.Errorf("serve: %d users, %d facts, label %q; want %d users, %d facts, a label", rep.Serve.Users, rep.Serve.Facts, rep.Serve.Label, rep.Scale.Users, n)
	}
}

// TestBenchText runs the table output at the tiny scale with no embedder: it names
// the disk and memory figures beside their targets.
func TestBenchText(t *testing.T) {
	out, stderr, code := run(t, testEnv(t), "bench", "--scale", "tiny", "--embedder", "none", "--dir", t.TempDir())
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr)
	}
	for _, w := range []string{"hybrid search", "transcript ingest", "embedder none", "bytes per fact", "the target of 1536", "peak RSS", "the target of 500 MB"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestBenchBadScale: an unknown scale is refused with the names of the known ones.
func TestBenchBadScale(t *testing.T) {
	_, stderr, code := run(t, testEnv(t), "bench", "--scale", "huge")
	if code == 0 || !strings.Contains(stderr, `"huge"`) || !strings.Contains(stderr, "medium") {
		t.Errorf("bench --scale huge: exit %d, stderr %q", code, stderr)
	}
}
