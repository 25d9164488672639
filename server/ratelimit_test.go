package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestRateLimit: a key over its rate gets 429 problem+json with Retry-After and the
// RateLimit-* headers, and /metrics counts it; another key is not affected; health
// checks are never limited; a --no-auth server has no limit unless one is set.
func TestRateLimit(t *testing.T) {
	env := newTestEnv(t, func(o *Options) { o.RateLimit, o.RateBurst = 0.5, 2 })
	path := "/v1/users/" + userA + "/facts"
	for i := 0; i < 2; i++ {
		r := env.do("GET", path, env.keyA, "")
		if r.status != http.StatusOK || r.header.Get("RateLimit-Limit") != "2" || r.header.Get("RateLimit-Remaining") != strconv.Itoa(1-i) {
			t.Fatalf("request %d = %d, RateLimit-Limit %q Remaining %q; want 200, 2, %d", i, r.status,
				r.header.Get("RateLimit-Limit"), r.header.Get("RateLimit-Remaining"), 1-i)
		}
	}
	r := env.do("GET", path, env.keyA, "")
	retry, err := strconv.Atoi(r.header.Get("Retry-After"))
	if r.status != http.StatusTooManyRequests || err != nil || retry < 1 || retry > 2 ||
		r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("RateLimit-Reset") != r.header.Get("Retry-After") ||
		!strings.Contains(r.header.Get("Content-Type"), "application/problem+json") || !strings.Contains(string(r.body), "retry after") {
		t.Fatalf("over the rate = %d %v %s, want 429 problem+json with Retry-After 1-2 s", r.status, r.header, r.body)
	}
	if r := env.do("GET", "/v1/users/"+userB+"/facts", env.keyB, ""); r.status != http.StatusOK {
		t.Errorf("another key over A's rate = %d, want 200", r.status)
	}
	for i := 0; i < 5; i++ {
		if r := env.do("GET", "/healthz", "", ""); r.status != http.StatusOK {
			t.Fatalf("/healthz = %d, want it never limited", r.status)
		}
	}
	if m := string(env.do("GET", "/metrics", "", "").body); !strings.Contains(m, "factbase_http_rate_limited_total 1") {
		t.Errorf("/metrics lacks the refusal count")
	}

	open := newTestEnv(t, func(o *Options) { o.NoAuth, o.Keys = true, nil })
	for i := 0; i < 60; i++ {
		if r := open.do("GET", path, "", ""); r.status != http.StatusOK {
			t.Fatalf("--no-auth request %d = %d, want no limit by default", i, r.status)
		}
	}
	limited := newTestEnv(t, func(o *Options) { o.NoAuth, o.Keys, o.RateLimit, o.RateBurst = true, nil, 1, 1 })
	limited.do("GET", path, "", "")
	if r := limited.do("GET", path, "", ""); r.status != http.StatusTooManyRequests {
		t.Errorf("--no-auth with a limit set: second request = %d, want 429 (by client address)", r.status)
	}
}
