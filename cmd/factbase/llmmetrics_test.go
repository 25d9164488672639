package main

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/server"
	"github.com/factbase/factbase/sqlite"
	"github.com/prometheus/client_golang/prometheus"
)

// TestModelMetrics: the model's and the pool's counters reach Prometheus.
func TestModelMetrics(t *testing.T) {
	srv, _ := fakeModel(t, http.StatusOK, chessAnswer(""))
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := llm.New(llm.Options{BaseURL: srv.URL, Model: "fake", APIKey: "sk-test", PromptPrice: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	w, err := jobs.NewWorkers(memory.New(s, memory.Options{}).Jobs, jobs.WorkerOptions{Extractor: c})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Remember(ctx, testUser, "I play chess on Sundays."); err != nil {
		t.Fatal(err)
	}
	if ok, err := w.RunOne(ctx); !ok || err != nil {
		t.Fatalf("RunOne = %v, %v", ok, err)
	}
	reg := prometheus.NewRegistry()
	if err := reg.Register(server.NewModelCollector(c, w)); err != nil {
		t.Fatal(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			key := mf.GetName()
			for _, l := range m.GetLabel() {
				key += "{" + l.GetName() + "=" + l.GetValue() + "}"
			}
			v := m.GetCounter().GetValue() + m.GetGauge().GetValue()
			got[key] = v
		}
	}
	cases := []struct {
		series string
		want   float64
	}{
		{"factbase_llm_calls_total", 1},
		{"factbase_llm_requests_total", 1},
		{"factbase_llm_tokens_total{type=prompt}", 50},
		{"factbase_llm_tokens_total{type=completion}", 10},
		{"factbase_llm_cost_usd_total", 50},
		{"factbase_llm_errors_total{code=" + factbase.EINVALID + "}{kind=schema}", 0},
		{"factbase_llm_errors_total{code=" + factbase.ETIMEOUT + "}{kind=timeout}", 0},
		{"factbase_jobs_total{outcome=enqueued}", 1},
		{"factbase_jobs_total{outcome=done}", 1},
		{"factbase_jobs_total{outcome=dead}", 0},
		{"factbase_jobs_tokens_total{type=prompt}", 50},
		{"factbase_jobs_in_flight", 0},
	}
	for _, tc := range cases {
		v, ok := got[tc.series]
		if !ok || v != tc.want {
			t.Errorf("%s = %v (present %v), want %v", tc.series, v, ok, tc.want)
		}
	}
	if n := len(factbase.ModelErrorKinds); got["factbase_llm_errors_total{code=unavailable}{kind=server_error}"] != 0 || n < 10 {
		t.Errorf("every error kind should be exported")
	}
}
