package main

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestRequestMix checks that the generated requests follow the mix the help text
// documents: 80% reads (1/2, 1/4, 1/4) and 20% writes (3/8, 2/8, 1/8, 1/8, 1/8).
func TestRequestMix(t *testing.T) {
	g := &gen{users: makeUsers(10)}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 200000
	var counts [nKinds]int
	for range n {
		read := rng.Float64() < 0.8
		kind, method, path, _ := g.request(rng, read)
		if isRead := kind <= kQuestion; isRead != read {
			t.Fatalf("%s %s: kind %s in the wrong class (read %v)", method, path, kindNames[kind], read)
		}
		if !strings.HasPrefix(path, "/v1/users/") {
			t.Fatalf("path %q is not under /v1/users/", path)
		}
		counts[kind]++
	}
	want := [nKinds]float64{.8 / 2, .8 / 4, .8 / 4, .2 * 3 / 8, .2 * 2 / 8, .2 / 8, .2 / 8, .2 / 8}
	for k, c := range counts {
		if got := float64(c) / n; math.Abs(got-want[k]) > 0.005 {
			t.Errorf("%s: %.3f of requests, want %.3f", kindNames[k], got, want[k])
		}
	}
}

func TestSummarize(t *testing.T) {
	var lat []time.Duration
	for i := 100; i >= 1; i-- { // unsorted on purpose
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	c := summarize("reads", lat)
	if c.N != 100 || c.P50 != 50 || c.P90 != 90 || c.P99 != 99 || c.Max != 100 {
		t.Errorf("summarize 1..100 ms = %+v, want n 100, p50 50, p90 90, p99 99, max 100", c)
	}
	if c := summarize("writes", nil); c.N != 0 || c.P99 != 0 {
		t.Errorf("summarize of nothing = %+v, want zeros", c)
	}
}

func TestServerCPU(t *testing.T) {
	body := "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n" +
		"# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.34\ngo_goroutines 9\n"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(body))
	}))
	defer ts.Close()
	g := &gen{base: ts.URL, client: ts.Client()}
	got, err := g.serverCPU(context.Background())
	if err != nil || got != 12.34 {
		t.Errorf("serverCPU = %v, %v; want 12.34", got, err)
	}
	body = "go_goroutines 9\n"
	if _, err := g.serverCPU(context.Background()); err == nil {
		t.Error("serverCPU without process_cpu_seconds_total: no error")
	}
}
