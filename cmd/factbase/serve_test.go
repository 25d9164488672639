package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase/internal/version"
)

const otherUser = "9a1d3c5e-7f2b-4d6a-8c0e-1f3a5b7c9d2e"

// lockedBuffer collects a stream the server writes from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is a running "factbase serve".
type served struct {
	base   string
	stdout *lockedBuffer
	stderr *lockedBuffer
	stop   func() int // cancels the context and returns the exit status
}

// serve starts "factbase serve" through Main, as the binary does, on a loopback port
// with the database of env, and waits until it listens.
func serve(t *testing.T, env map[string]string, args ...string) *served {
	t.Helper()
	return serveBuild(t, env, version.Info{}, args...)
}

// serveBuild is serve of a binary whose build is b (zero: the test binary's).
func serveBuild(t *testing.T, env map[string]string, b version.Info, args ...string) *served {
	t.Helper()
	s := &served{stdout: &lockedBuffer{}, stderr: &lockedBuffer{}}
	ready := make(chan string, 1)
	m := &Main{Stdin: strings.NewReader(""), Stdout: s.stdout, Stderr: s.stderr,
		Getenv: func(k string) string { return env[k] }, Ready: func(addr string) { ready <- addr }, Build: b}
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() { exit <- m.Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)) }()
	select {
	case addr := <-ready:
		s.base = "http://" + addr
	case code := <-exit:
		cancel()
		t.Fatalf("serve exited with %d before listening: %s", code, s.stderr.String())
	}
	var once sync.Once
	code := 0
	s.stop = func() int {
		once.Do(func() {
			cancel()
			code = <-exit
		})
		return code
	}
	t.Cleanup(func() { s.stop() })
	return s
}

// call sends one request and returns the status, the Content-Type and the body.
func call(t *testing.T, method, url, key, body string) (int, string, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), b
}

// createKey runs "factbase keys create" and returns the key it printed.
func createKey(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	out, stderr, code := run(t, env, append([]string{"keys", "create"}, args...)...)
	key := strings.TrimSpace(out)
	if code != 0 || !strings.HasPrefix(key, "fb_") || !strings.Contains(stderr, "shown only now") {
		t.Fatalf("keys create: exit %d, out %q, err %q", code, out, stderr)
	}
	return key
}

func TestServeEndToEnd(t *testing.T) {
	env := testEnv(t)
	app := createKey(t, env, "--name", "backend")
	keyB := createKey(t, env, "--user", otherUser, "--name", "b-phone")
	s := serve(t, env)

	if out := s.stdout.String(); !strings.Contains(out, "listening on "+s.base) || !strings.Contains(out, s.base+"/openapi.json") {
		t.Errorf("serve printed %q; want where it listens and the OpenAPI address", out)
	}
	status, ct, body := call(t, "GET", s.base+"/openapi.json", "", "")
	if status != 200 || !bytes.Contains(body, []byte(`"openapi":"3.1.0"`)) {
		t.Fatalf("GET /openapi.json = %d %s %.200s", status, ct, body)
	}

	users := s.base + "/v1/users/" + testUser
	status, _, body = call(t, "POST", users+"/messages", app, `{"text": "My favorite cryptos are BTC, ETH and XMR."}`)
	var say struct {
		Route  string `json:"route"`
		Result struct {
			Stored int `json:"stored"`
		} `json:"result"`
		Reply string `json:"reply"`
	}
	if err := json.Unmarshal(body, &say); status != 200 || err != nil || say.Route != "write" || say.Result.Stored != 3 {
		t.Fatalf("POST messages = %d %s", status, body)
	}
	status, _, body = call(t, "POST", users+"/questions", app, `{"text": "What is my favorite crypto?"}`)
	if status != 200 || !bytes.Contains(body, []byte(`"reply":"Your favorite cryptocurrency is BTC."`)) {
		t.Fatalf("POST questions = %d %s", status, body)
	}
	// The same data through the CLI, on the same database, while the server runs.
	out, _, code := run(t, env, "list", "show", "--user", testUser, "favorites.cryptocurrency")
	if code != 0 || !strings.Contains(out, "#1  BTC") {
		t.Errorf("list show beside the server: exit %d, %q", code, out)
	}

	listOf := func(user, key string) string {
		t.Helper()
		status, _, body := call(t, "GET", s.base+"/v1/users/"+user+"/lists/favorites.cryptocurrency", key, "")
		if status != 200 {
			t.Fatalf("reading the list: %d %s", status, body)
		}
		var p struct {
			Items []struct {
				Value string `json:"value"`
			} `json:"items"`
		}
		json.Unmarshal(body, &p)
		var vs []string
		for _, it := range p.Items {
			vs = append(vs, it.Value)
		}
		return strings.Join(vs, ",")
	}
	if got := listOf(otherUser, keyB); got != "" {
		t.Fatalf("user B's list = %q before any write, want empty", got)
	}

	// Each error class: the documented status, problem+json, and nothing changed.
	cases := []struct {
		name         string
		method, path string
		key, body    string
		status       int
		detail       string
	}{
		{"malformed JSON", "POST", "/v1/users/" + testUser + "/messages", app, `{"text": "My favorite crypto is SOL`, 400, "malformed JSON"},
		{"2 MiB body", "POST", "/v1/users/" + testUser + "/messages", app, `{"text": "` + strings.Repeat("SOL ", 512<<10) + `"}`, 413, "larger than the limit"},
		{"non-UUID user", "POST", "/v1/users/bob/messages", app, `{"text": "My favorite crypto is SOL."}`, 422, `user id "bob" is not a UUID`},
		{"no key", "POST", "/v1/users/" + testUser + "/messages", "", `{"text": "My favorite crypto is SOL."}`, 401, "missing API key"},
		{"another user's key", "POST", "/v1/users/" + testUser + "/messages", keyB, `{"text": "My favorite crypto is SOL."}`, 403, "is not for user"},
		{"another user's key reading", "GET", "/v1/users/" + testUser + "/lists/favorites.cryptocurrency", keyB, "", 403, "is not for user"},
		{"rank below 1", "POST", "/v1/users/" + testUser + "/lists/favorites.cryptocurrency/rank", app, `{"value": "SOL", "rank": 0}`, 422, "body.rank"},
		{"empty value", "POST", "/v1/users/" + testUser + "/facts", app, `{"key": "contact.email", "value": ""}`, 422, "body.value"},
		{"unknown fact", "GET", "/v1/users/" + testUser + "/facts/nope", app, "", 404, "not found"},
		{"unknown route", "GET", "/v1/nothing", app, "", 404, "no route"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, ct, body := call(t, tc.method, s.base+tc.path, tc.key, tc.body)
			var p struct {
				Status int    `json:"status"`
				Detail string `json:"detail"`
			}
			if err := json.Unmarshal(body, &p); status != tc.status || ct != "application/problem+json" || err != nil || p.Status != tc.status {
				t.Fatalf("%s %s = %d %s %.300s; want %d application/problem+json", tc.method, tc.path, status, ct, body, tc.status)
			}
			if !strings.Contains(p.Detail, tc.detail) {
				t.Errorf("detail %q does not contain %q", p.Detail, tc.detail)
			}
			if got := listOf(testUser, app); got != "BTC,ETH,XMR" {
				t.Errorf("user A's list is now %q, want BTC,ETH,XMR", got)
			}
		})
	}

	// User B's key works on B's own data, and A's list stays A's.
	status, _, body = call(t, "POST", s.base+"/v1/users/"+otherUser+"/lists/favorites.cryptocurrency", keyB, `{"value": "DOGE"}`)
	if status != 200 {
		t.Fatalf("B writing B's list = %d %s", status, body)
	}
	if got := listOf(otherUser, keyB); got != "DOGE" {
		t.Errorf("B's list = %q, want DOGE", got)
	}
	if got := listOf(testUser, app); got != "BTC,ETH,XMR" {
		t.Errorf("A's list = %q after B's write, want BTC,ETH,XMR", got)
	}

	for _, p := range []string{"/healthz", "/readyz", "/metrics"} {
		if status, _, body := call(t, "GET", s.base+p, "", ""); status != 200 {
			t.Errorf("GET %s = %d %s", p, status, body)
		}
	}
	_, _, metrics := call(t, "GET", s.base+"/metrics", "", "")
	for _, want := range []string{`factbase_rank_mutations_total{action="APPEND"} 4`, `factbase_write_duration_seconds_count{outcome="ok"}`} {
		if !bytes.Contains(metrics, []byte(want)) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	if code := s.stop(); code != 0 {
		t.Fatalf("serve exited %d after SIGINT-like cancel: %s", code, s.stderr.String())
	}
	logs := s.stderr.String()
	if !strings.Contains(logs, `"msg":"store closed"`) || !strings.Contains(logs, `"msg":"shutting down`) {
		t.Errorf("the logs do not show a clean shutdown: %s", logs)
	}
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		if strings.Contains(line, `"msg":"request"`) && !strings.Contains(line, `"request_id":"`) {
			t.Errorf("request log line without request_id: %s", line)
		}
	}
	if _, err := http.Get(s.base + "/healthz"); err == nil {
		t.Errorf("the server still answers after it stopped")
	}
}

func TestServeKeys(t *testing.T) {
	env := testEnv(t)
	key := createKey(t, env, "--user", testUser, "--name", "phone")
	out, _, code := run(t, env, "keys", "list", "--json")
	var list struct {
		Keys []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
			User string `json:"user"`
			Key  string `json:"key"`
		} `json:"keys"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list.Keys) != 1 {
		t.Fatalf("keys list --json: exit %d, %q", code, out)
	}
	k := list.Keys[0]
	if k.Name != "phone" || k.User != testUser || k.Key != "" || strings.Contains(out, key) {
		t.Errorf("keys list shows %+v; want the name and user and never the key", k)
	}
	db, err := readFile(env["FACTBASE_DB"])
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(db, []byte(key)) {
		t.Errorf("the database file holds the key itself")
	}

	s := serve(t, env, "--key-cache", "0")
	url := s.base + "/v1/users/" + testUser + "/lists/favorites.crypto"
	if status, _, body := call(t, "GET", url, key, ""); status != 200 {
		t.Fatalf("GET with the key = %d %s", status, body)
	}
	out, _, code = run(t, env, "keys", "revoke", k.ID)
	if code != 0 || !strings.Contains(out, "Revoked "+k.ID) {
		t.Fatalf("keys revoke: exit %d, %q", code, out)
	}
	if status, _, body := call(t, "GET", url, key, ""); status != 401 || !bytes.Contains(body, []byte("revoked")) {
		t.Errorf("GET with the revoked key = %d %s, want 401", status, body)
	}
	out, _, _ = run(t, env, "keys", "list")
	if !strings.Contains(out, "revoked") {
		t.Errorf("keys list after revoking = %q", out)
	}
}

func TestServeFlags(t *testing.T) {
	env := testEnv(t)
	runCases(t, env, []cliCase{
		{"no-auth off loopback", []string{"serve", "--no-auth", "--addr", "0.0.0.0:0"}, 2, "only on a loopback address"},
		{"no-auth on all interfaces", []string{"serve", "--no-auth", "--addr", ":0"}, 2, "only on a loopback address"},
		{"bad log level", []string{"serve", "--log-level", "loud"}, 2, "--log-level"},
		{"arguments", []string{"serve", "extra"}, 2, "no arguments"},
		{"keys revoke unknown", []string{"keys", "revoke", "key_nope"}, 1, `key "key_nope" not found`},
		{"keys bad user", []string{"keys", "create", "--user", "bob"}, 1, `user id "bob" is not a UUID`},
		{"keys unknown subcommand", []string{"keys", "rotate"}, 2, "unknown keys subcommand"},
	})
}

func TestServeNoAuthOnLoopback(t *testing.T) {
	env := testEnv(t)
	s := serve(t, env, "--no-auth")
	// The server logs its warning once it serves, just after it reports the address.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !strings.Contains(s.stderr.String(), "authentication is off"); {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(s.stdout.String(), "authentication is OFF") || !strings.Contains(s.stderr.String(), "authentication is off") {
		t.Errorf("--no-auth was not announced: stdout %q, stderr %q", s.stdout.String(), s.stderr.String())
	}
	status, _, body := call(t, "POST", s.base+"/v1/users/"+testUser+"/lists/favorites.crypto", "", `{"value": "BTC"}`)
	if status != 200 {
		t.Errorf("a keyless write with --no-auth = %d %s", status, body)
	}
}

func TestIsLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:7411", true},
		{"127.0.0.2:80", true},
		{"[::1]:7411", true},
		{"localhost:7411", true},
		{"0.0.0.0:7411", false},
		{":7411", false},
		{"[::]:7411", false},
		{"192.168.1.2:7411", false},
		{"example.com:80", false},
		{"127.0.0.1", false},
	} {
		if got := isLoopback(tc.addr); got != tc.want {
			t.Errorf("isLoopback(%q) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

// readFile reads the database and its WAL, where fresh rows live.
func readFile(path string) ([]byte, error) {
	var all []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && p == path {
			return nil, err
		}
		all = append(all, b...)
	}
	return all, nil
}
