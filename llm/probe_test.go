package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// modelsServer is an OpenAI-compatible server's model list: GET /v1/models answers
// status (200 with a list), each request counted and its bearer key kept.
type modelsServer struct {
	*httptest.Server
	status atomic.Int64
	hits   atomic.Int64
	mu     sync.Mutex
	auth   string
}

func newModelsServer(t *testing.T) *modelsServer {
	t.Helper()
	m := &modelsServer{}
	m.status.Store(http.StatusOK)
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models" {
			t.Errorf("probe sent %s %s, want GET /v1/models", r.Method, r.URL.Path)
		}
		m.hits.Add(1)
		m.mu.Lock()
		m.auth = r.Header.Get("Authorization")
		m.mu.Unlock()
		if s := int(m.status.Load()); s != http.StatusOK {
			http.Error(w, http.StatusText(s), s)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"id":"m","object":"model"}]}`))
	}))
	t.Cleanup(m.Close)
	return m
}

// logLines decodes the JSON log lines in b.
func logLines(t *testing.T, b *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// TestProbeAnswers: any answer but a 5xx is reachable; the key is sent.
func TestProbeAnswers(t *testing.T) {
	cases := []struct {
		name   string
		status int
		code   string // "" for reachable
		reason string
	}{
		{name: "ok", status: 200},
		{name: "no model list", status: 404},
		{name: "key refused", status: 401},
		{name: "server error", status: 500, code: factbase.EUNAVAILABLE, reason: "the model server answered 500 Internal Server Error"},
		{name: "overloaded", status: 503, code: factbase.EUNAVAILABLE, reason: "answered 503 Service Unavailable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newModelsServer(t)
			m.status.Store(int64(tc.status))
			c, err := New(Options{BaseURL: m.URL, Model: "m", APIKey: "sk-probe"})
			if err != nil {
				t.Fatal(err)
			}
			err = c.Probe(context.Background())
			if got := factbase.ErrorCode(err); err != nil && got != tc.code || err == nil && tc.code != "" {
				t.Fatalf("Probe against a %d = %v, want code %q", tc.status, err, tc.code)
			}
			if tc.reason != "" && !strings.Contains(factbase.ErrorMessage(err), tc.reason) {
				t.Errorf("Probe message %q, want it to contain %q", factbase.ErrorMessage(err), tc.reason)
			}
			m.mu.Lock()
			defer m.mu.Unlock()
			if m.auth != "Bearer sk-probe" {
				t.Errorf("Authorization = %q, want the key as a bearer token", m.auth)
			}
		})
	}
}

// TestProbeUnreachable: a closed port and a silent server are unreachable, the reason
// naming neither the address nor the key.
func TestProbeUnreachable(t *testing.T) {
	t.Run("closed", func(t *testing.T) {
		m := newModelsServer(t)
		e, err := NewEmbedder(EmbedderOptions{BaseURL: m.URL + "/v1?api_key=sk-in-url", Model: "e"})
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
		err = e.Probe(context.Background())
		msg := factbase.ErrorMessage(err)
		if factbase.ErrorCode(err) != factbase.EUNAVAILABLE || msg != "cannot reach the embedding server: connection refused" {
			t.Errorf("Probe of a closed port = %v (%q), want EUNAVAILABLE, connection refused", err, msg)
		}
		if strings.Contains(err.Error(), "sk-in-url") || strings.Contains(err.Error(), "127.0.0.1") {
			t.Errorf("Probe error %q names the address or the key", err)
		}
	})
	t.Run("silent", func(t *testing.T) {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer srv.Close()
		defer close(release)
		c, err := New(Options{BaseURL: srv.URL, Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		c.probe.timeout = 20 * time.Millisecond
		err = c.Probe(context.Background())
		if factbase.ErrorCode(err) != factbase.ETIMEOUT || !strings.Contains(factbase.ErrorMessage(err), "no answer from the model server") {
			t.Errorf("Probe of a silent server = %v, want ETIMEOUT, no answer", err)
		}
	})
}

// TestProbeCache: an answer is kept for ProbeInterval, so many checks make one
// request; after it the server is asked again, and each change of state is logged
// once.
func TestProbeCache(t *testing.T) {
	m := newModelsServer(t)
	var logs bytes.Buffer
	c, err := New(Options{BaseURL: m.URL, Model: "m", Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c.probe.now = func() time.Time { return now }
	ctx := context.Background()

	for range 10 {
		if err := c.Probe(ctx); err != nil {
			t.Fatalf("Probe = %v, want reachable", err)
		}
	}
	if got := m.hits.Load(); got != 1 {
		t.Errorf("%d requests for 10 probes within the interval, want 1", got)
	}
	m.status.Store(http.StatusBadGateway)
	now = now.Add(ProbeInterval - time.Millisecond)
	if err := c.Probe(ctx); err != nil || m.hits.Load() != 1 {
		t.Errorf("Probe within the interval = %v after %d requests, want the kept answer", err, m.hits.Load())
	}
	now = now.Add(time.Millisecond)
	if err := c.Probe(ctx); factbase.ErrorCode(err) != factbase.EUNAVAILABLE || m.hits.Load() != 2 {
		t.Errorf("Probe after the interval = %v after %d requests, want a new request answering 502", err, m.hits.Load())
	}
	now = now.Add(ProbeInterval)
	c.Probe(ctx) // still down: no new log line
	m.status.Store(http.StatusOK)
	now = now.Add(ProbeInterval)
	if err := c.Probe(ctx); err != nil {
		t.Errorf("Probe once the server is back = %v", err)
	}

	var got []string
	for _, l := range logLines(t, &logs) {
		got = append(got, l["level"].(string)+" "+l["msg"].(string))
	}
	want := []string{"INFO llm: model server reachable", "WARN llm: model server unreachable", "INFO llm: model server reachable"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("log lines %q, want %q", got, want)
	}
}

// TestProbeCanceled: a caller that gives up does not leave its failure as the kept
// answer.
func TestProbeCanceled(t *testing.T) {
	m := newModelsServer(t)
	c, err := New(Options{BaseURL: m.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Probe(ctx); err == nil {
		t.Fatalf("Probe with a canceled context = nil, want an error")
	}
	if err := c.Probe(context.Background()); err != nil {
		t.Errorf("Probe after a canceled one = %v, want a fresh, reachable answer", err)
	}
}
