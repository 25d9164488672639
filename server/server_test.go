package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/sqlite"
)

const (
	userA = "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"
	userB = "9a1d3c5e-7f2b-4d6a-8c0e-1f3a5b7c9d2e"
)

// syncBuffer is a bytes.Buffer safe for the server's concurrent log writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testEnv is a server over a fresh SQLite store, with an application key and one
// key for each of two users.
type testEnv struct {
	t      testing.TB
	url    string
	client *http.Client
	store  *sqlite.Store
	srv    *Server
	logs   *syncBuffer
	app    string // application key
	keyA   string // user A's key
	keyB   string // user B's key
	keyAID string
}

func newTestEnv(t testing.TB, configure func(*Options)) *testEnv {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	env := &testEnv{t: t, store: st, logs: &syncBuffer{}}
	mk := func(user factbase.UserID) (string, string) {
		secret, k, err := factbase.NewKey(user, "test", time.Now())
		if err != nil {
			t.Fatalf("NewKey: %v", err)
		}
		if err := st.CreateKey(ctx, k); err != nil {
			t.Fatalf("CreateKey: %v", err)
		}
		return secret, k.ID
	}
	env.app, _ = mk("")
	env.keyA, env.keyAID = mk(userA)
	env.keyB, _ = mk(userB)
	m := NewMetrics()
	// The tests send bursts with one key: no request rate unless a test sets one.
	o := Options{Engine: memory.New(st, memory.Options{Observer: m}), Keys: st, Metrics: m,
		Logger: slog.New(slog.NewJSONHandler(env.logs, nil)), RateLimit: -1}
	if configure != nil {
		configure(&o)
	}
	env.srv = New(o)
	ts := httptest.NewServer(env.srv.Handler())
	t.Cleanup(ts.Close)
	env.url, env.client = ts.URL, ts.Client()
	return env
}

// response is what a request got back.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("response body %q is not JSON: %v", clip(string(r.body), 500), err)
	}
}

// problem decodes a problem+json body, failing the test if the response is not one.
func (r response) problem(t *testing.T) problemBody {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != problemType {
		t.Fatalf("Content-Type = %q, want %q (body %q)", ct, problemType, r.body)
	}
	var p problemBody
	r.json(t, &p)
	if p.Status != r.status || p.Title == "" || p.Detail == "" {
		t.Fatalf("problem body %s: want status %d, a title and a detail", r.body, r.status)
	}
	if bytes.Contains(r.body, []byte("goroutine")) || bytes.Contains(r.body, []byte(".go:")) {
		t.Fatalf("problem body %s carries a stack trace", r.body)
	}
	return p
}

type problemBody struct {
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
	} `json:"errors"`
}

// do sends a request with an optional key and JSON body.
func (e *testEnv) do(method, path, key, body string, header ...string) response {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		e.t.Fatalf("NewRequest: %v", err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// ok sends a request that must succeed and decodes its body into v (if not nil).
func (e *testEnv) ok(method, path, key, body string, v any) {
	e.t.Helper()
	r := e.do(method, path, key, body)
	if r.status != http.StatusOK {
		e.t.Fatalf("%s %s = %d %s, want 200", method, path, r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	if v != nil {
		r.json(e.t, v)
	}
}

// listValues returns the list's values as "1:A 2:B".
func (e *testEnv) listValues(user, key string) string {
	e.t.Helper()
	var p core.ListPage
	e.ok("GET", "/v1/users/"+user+"/lists/"+key, e.app, "", &p)
	var parts []string
	for _, f := range p.Items {
		parts = append(parts, itoa(f.Rank)+":"+f.Value)
	}
	return strings.Join(parts, " ")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestGracefulShutdown cancels Serve while a request is in flight: the request
// finishes, Serve returns, and the listener is closed.
func TestGracefulShutdown(t *testing.T) {
	e := newTestEnv(t, nil)
	l, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.srv.Serve(ctx, l) }()

	body := `{"values": ["BTC", "ETH"]}`
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", "http://"+l.Addr().String()+"/v1/users/"+userA+"/lists/favorites.crypto", pr)
	req.ContentLength = int64(len(body))
	req.Header.Set("Authorization", "Bearer "+e.keyA)
	req.Header.Set("Content-Type", "application/json")
	type result struct {
		status int
		err    error
	}
	done := make(chan result, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		done <- result{status: res.StatusCode}
	}()
	// Half the body: once the server has read the request's headers (its connection
	// is active, not waiting in the accept queue), the request is in flight.
	if _, err := pw.Write([]byte(body[:10])); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return e.srv.active.Load() > 0 })
	cancel()
	waitFor(t, func() bool { return strings.Contains(e.logs.String(), "shutting down") })
	if _, err := pw.Write([]byte(body[10:])); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	res := <-done
	if res.err != nil || res.status != http.StatusOK {
		t.Fatalf("the in-flight request: status %d, error %v; want 200", res.status, res.err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve returned %v, want nil", err)
	}
	if _, err := http.Get("http://" + l.Addr().String() + "/healthz"); err == nil {
		t.Errorf("the server still accepts connections after shutdown")
	}
	if got := e.listValues(userA, "favorites.crypto"); got != "1:BTC 2:ETH" {
		t.Errorf("the in-flight write stored %q, want 1:BTC 2:ETH", got)
	}
}

// waitFor polls cond until it holds; the test's own deadline bounds it.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(5 * time.Millisecond)
	}
}

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
