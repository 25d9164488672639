package server

import (
	"net/http"
	"strings"
	"testing"
)

func TestMetrics(t *testing.T) {
	e := newTestEnv(t, nil)
	base := "/v1/users/" + userA + "/lists/favorites.crypto"
	e.ok("POST", base, e.keyA, `{"values": ["BTC", "ETH", "XMR"]}`, nil)
	e.ok("POST", base, e.keyA, `{"value": "btc"}`, nil)
	e.ok("POST", base+"/rank", e.keyA, `{"value": "XMR", "rank": 1}`, nil)
	e.ok("DELETE", base+"/items/ETH", e.keyA, "", nil)
	e.ok("POST", "/v1/users/"+userA+"/messages", e.keyA, `{"text": "My favorite cryptos are SOL."}`, nil)
	e.do("POST", "/v1/users/alice/messages", e.keyA, `{"text": "x"}`)
	e.srv.metrics.InvariantViolation()

	r := e.do("GET", "/metrics", "", "")
	if r.status != http.StatusOK {
		t.Fatalf("GET /metrics = %d", r.status)
	}
	text := string(r.body)
	for _, want := range []string{
		`factbase_rank_mutations_total{action="APPEND"} 4`,
		`factbase_rank_mutations_total{action="MOVE"} 1`,
		`factbase_rank_mutations_total{action="REMOVE"} 1`,
		`factbase_duplicates_blocked_total 1`,
		`factbase_invariant_violations_total 1`,
		`factbase_write_duration_seconds_count{outcome="ok"} 5`,
		`factbase_facts_written_total{kind="stored"} 4`,
		`factbase_http_request_duration_seconds_count{method="POST",route="/v1/users/{user}/lists/{key}",status="200"} 2`,
		`factbase_http_request_duration_seconds_count{method="POST",route="/v1/users/{user}/messages",status="422"} 1`,
		`factbase_canonicalizations_total{method="alias"} 1`,
		`factbase_canonicalization_confidence_count{method="alias"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
