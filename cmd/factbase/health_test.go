package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/server"
	"github.com/factbase/factbase/sqlite"
	"github.com/prometheus/client_golang/prometheus"
)

// fakeOpenAI is an OpenAI-compatible server: chat completions answer content, the
// embeddings endpoint three-dimensional vectors, the model list a list; requests are
// counted by path.
type fakeOpenAI struct {
	*httptest.Server
	chat, embeddings, models atomic.Int64
}

func newFakeOpenAI(t *testing.T, content string) *fakeOpenAI {
	t.Helper()
	f := &fakeOpenAI{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "POST /v1/chat/completions":
			f.chat.Add(1)
			json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
				"usage": map[string]any{"prompt_tokens": 50, "completion_tokens": 10}})
		case "POST /v1/embeddings":
			f.embeddings.Add(1)
			var req struct {
				Input []string `json:"input"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			data := []any{}
			for i := range req.Input {
				data = append(data, map[string]any{"index": i, "embedding": []float32{1, float32(i), 2}})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data})
		case "GET /v1/models":
			f.models.Add(1)
			w.Write([]byte(`{"object":"list","data":[]}`))
		default:
			http.Error(w, "not found", http.StatusNotFound)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

// logLines decodes the JSON log lines of a server's standard error.
func logLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// logLine returns the first log line whose msg is msg.
func logLine(t *testing.T, lines []map[string]any, msg string) map[string]any {
	t.Helper()
	for _, l := range lines {
		if l["msg"] == msg {
			return l
		}
	}
	t.Fatalf("no log line %q", msg)
	return nil
}

// durationsAreStrings fails the test for a log line whose duration attribute is a
// number (slog writes a time.Duration as nanoseconds unless told otherwise).
func durationsAreStrings(t *testing.T, lines []map[string]any) {
	t.Helper()
	for _, l := range lines {
		for _, k := range []string{"in", "took", "retry_in", "timeout", "wait"} {
			if v, ok := l[k]; ok {
				if s, isString := v.(string); !isString {
					t.Errorf("log line %v: %s = %v, want a duration string", l, k, v)
				} else if _, err := time.ParseDuration(s); err != nil {
					t.Errorf("log line %v: %s = %q is not a duration", l, k, s)
				}
			}
		}
	}
}

// waitJob polls a job until done says it is far enough, and returns it.
func waitJob(t *testing.T, base, id string, done func(factbase.Job) bool) factbase.Job {
	t.Helper()
	var j factbase.Job
	for deadline := time.Now().Add(30 * time.Second); ; {
		_, _, body := call(t, "GET", base+"/v1/jobs/"+id, "", "")
		if err := json.Unmarshal(body, &j); err != nil {
			t.Fatalf("GET job: %s", body)
		}
		if done(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %s after 30s", id, j.State)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeModelHealth: serve names its model and embedder at start-up without their
// credentials and without calling them; a real call moves the model's counters and
// the jobs gauge on /metrics; once the model server is gone /readyz is still 200,
// but says the model and the embedder are degraded, and why.
func TestServeModelHealth(t *testing.T) {
	f := newFakeOpenAI(t, chessAnswer(""))
	u, _ := url.Parse(f.URL)
	env := testEnv(t)
	env["FACTBASE_LLM_URL"] = "http://fb:llm-pass@" + u.Host + "/v1?api_key=llm-secret"
	env["FACTBASE_LLM_MODEL"], env["FACTBASE_LLM_KEY"] = "fake", "sk-test"
	env["FACTBASE_EMBEDDER"], env["FACTBASE_EMBED_MODEL"] = "openai", "fake-embed"
	env["FACTBASE_EMBED_URL"] = f.URL + "?key=embed-secret"
	s := serve(t, env, "--no-auth")

	lines := logLines(t, s.stderr.String())
	if st := logLine(t, lines, "store"); st["kind"] != "sqlite" || st["db"] != env["FACTBASE_DB"] || st["vectors"] != "sqlite-vec" {
		t.Errorf("store line %v, want sqlite, the database path and vectors sqlite-vec", st)
	}
	m := logLine(t, lines, "model")
	if want := "http://fb:xxxxx@" + u.Host + "/v1/chat/completions?api_key=xxxxx"; m["endpoint"] != want || m["model"] != "fake" || m["timeout"] != "1m0s" {
		t.Errorf("model line %v, want endpoint %s, model fake, timeout 1m0s", m, want)
	}
	emb := logLine(t, lines, "embedder")
	if want := f.URL + "/v1/embeddings?key=xxxxx"; emb["endpoint"] != want || emb["model"] != "openai:fake-embed" {
		t.Errorf("embedder line %v, want endpoint %s, model openai:fake-embed", emb, want)
	}
	for _, secret := range []string{"llm-pass", "llm-secret", "embed-secret", "sk-test"} {
		if strings.Contains(s.stderr.String()+s.stdout.String(), secret) {
			t.Errorf("serve's output shows the secret %q", secret)
		}
	}
	if n := f.chat.Load() + f.embeddings.Load() + f.models.Load(); n != 0 {
		t.Errorf("%d requests to the model server at start-up, want none", n)
	}

	status, _, body := call(t, "POST", s.base+"/v1/users/"+testUser+"/memories", "", `{"text":"I play chess on Sundays."}`)
	var rem jobs.Remembered
	if err := json.Unmarshal(body, &rem); err != nil || status != http.StatusOK || rem.Job == nil {
		t.Fatalf("POST memories = %d %s", status, body)
	}
	j := *rem.Job
	j = waitJob(t, s.base, j.ID, func(j factbase.Job) bool { return j.State == factbase.JobDone || j.State == factbase.JobDead })
	if j.State != factbase.JobDone || f.chat.Load() != 1 {
		t.Fatalf("job %s (%s) after %d model calls, want done after 1", j.State, j.Error, f.chat.Load())
	}
	_, _, metrics := call(t, "GET", s.base+"/metrics", "", "")
	for _, want := range []string{
		`factbase_llm_calls_total 1`,
		`factbase_llm_requests_total 1`,
		`factbase_llm_tokens_total{type="prompt"} 50`,
		`factbase_llm_tokens_total{type="completion"} 10`,
		`factbase_llm_errors_total{code="unavailable",kind="connection"} 0`,
		`factbase_jobs{state="done"} 1`,
		`factbase_jobs{state="queued"} 0`,
		`factbase_jobs{state="running"} 0`,
		`factbase_jobs{state="dead"} 0`,
	} {
		if !bytes.Contains(metrics, []byte(want)) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	// No /readyz before this point: its probe's answer is kept a few seconds.
	f.Close()
	status, _, body = call(t, "GET", s.base+"/readyz", "", "")
	var r map[string]string
	if err := json.Unmarshal(body, &r); err != nil || status != http.StatusOK {
		t.Fatalf("GET /readyz with the model server gone = %d %s, want 200", status, body)
	}
	want := map[string]string{"status": "degraded", "store": "ok", "vectors": "sqlite-vec",
		"model": "degraded", "model_reason": "cannot reach the model server: connection refused",
		"embedder": "degraded", "embedder_reason": "cannot reach the embedding server: connection refused"}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("readyz %s = %q, want %q (body %s)", k, r[k], v, body)
		}
	}
	if code := s.stop(); code != 0 {
		t.Errorf("serve exited %d: %s", code, s.stderr.String())
	}
	lines = logLines(t, s.stderr.String())
	durationsAreStrings(t, lines)
	if w := logLine(t, lines, "llm: model server unreachable"); w["level"] != "WARN" {
		t.Errorf("unreachable line %v, want WARN", w)
	}
}

// TestServeModelFailure: a model call refused for its key is counted by kind on
// /metrics and logged at ERROR with a human duration.
func TestServeModelFailure(t *testing.T) {
	env, calls := modelEnv(t, http.StatusUnauthorized, "")
	s := serve(t, env, "--no-auth")
	status, _, body := call(t, "POST", s.base+"/v1/users/"+testUser+"/memories", "", `{"text":"I play chess on Sundays."}`)
	var rem jobs.Remembered
	if err := json.Unmarshal(body, &rem); err != nil || status != http.StatusOK || rem.Job == nil {
		t.Fatalf("POST memories = %d %s", status, body)
	}
	j := *rem.Job
	j = waitJob(t, s.base, j.ID, func(j factbase.Job) bool { return j.Error != "" })
	if calls.Load() != 1 {
		t.Errorf("%d model calls, want 1 (a refused key is not retried at once)", calls.Load())
	}
	_, _, metrics := call(t, "GET", s.base+"/metrics", "", "")
	for _, want := range []string{
		`factbase_llm_calls_total 1`,
		`factbase_llm_errors_total{code="unavailable",kind="auth"} 1`,
		`factbase_llm_errors_total{code="unavailable",kind="server_error"} 0`,
	} {
		if !bytes.Contains(metrics, []byte(want)) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code := s.stop(); code != 0 {
		t.Errorf("serve exited %d: %s", code, s.stderr.String())
	}
	lines := logLines(t, s.stderr.String())
	durationsAreStrings(t, lines)
	l := logLine(t, lines, "llm: model call failed")
	if l["level"] != "ERROR" || l["kind"] != "auth" || l["took"] == nil {
		t.Errorf("failure line %v, want ERROR, kind auth, took", l)
	}
}

// TestServeNoModelReadyz: with no model and the built-in embedder, /readyz is ready
// and says so, and nothing is probed.
func TestServeNoModelReadyz(t *testing.T) {
	s := serve(t, testEnv(t), "--no-auth")
	status, _, body := call(t, "GET", s.base+"/readyz", "", "")
	var r map[string]string
	if err := json.Unmarshal(body, &r); err != nil || status != http.StatusOK {
		t.Fatalf("GET /readyz = %d %s", status, body)
	}
	if r["status"] != "ready" || r["store"] != "ok" || r["model"] != "none" || r["embedder"] != "builtin" ||
		r["model_reason"] != "" || r["embedder_reason"] != "" {
		t.Errorf("GET /readyz = %s, want ready, store ok, model none, embedder builtin", body)
	}
	lines := logLines(t, s.stderr.String())
	if m := logLine(t, lines, "model"); m["model"] != "none: rules only" {
		t.Errorf("model line %v, want none: rules only", m)
	}
	if e := logLine(t, lines, "embedder"); e["endpoint"] != "builtin" || e["dim"] == float64(0) {
		t.Errorf("embedder line %v, want builtin with its dimension", e)
	}
}

// TestLoggerDurations: the command's loggers write durations as people read them.
func TestLoggerDurations(t *testing.T) {
	var buf bytes.Buffer
	m := &Main{Stderr: &buf}
	log, err := m.jsonLogger("info")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("job failed, will retry", "in", 2702304021*time.Nanosecond, "n", 3)
	log.WithGroup("g").Info("x", "took", 850*time.Millisecond)
	got := buf.String()
	for _, want := range []string{`"in":"2.7s"`, `"n":3`, `"g":{"took":"850ms"}`} {
		if !strings.Contains(got, want) {
			t.Errorf("log %s lacks %s", got, want)
		}
	}
}

func TestRoundDuration(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{2702304021 * time.Nanosecond, "2.7s"},
		{2712304021 * time.Nanosecond, "2.71s"},
		{850123456 * time.Nanosecond, "850ms"},
		{1234567 * time.Nanosecond, "1.23ms"},
		{999 * time.Nanosecond, "999ns"},
		{-2702304021 * time.Nanosecond, "-2.7s"},
		{90*time.Second + 400*time.Millisecond, "1m30.4s"},
		{3723 * time.Second, "1h2m0s"},
		{0, "0s"},
	}
	for _, tc := range cases {
		if got := roundDuration(tc.d).String(); got != tc.want {
			t.Errorf("roundDuration(%d) = %s, want %s", tc.d, got, tc.want)
		}
	}
}

// TestJobStateGauge: factbase_jobs counts the store's jobs by state, every state
// present; a store that cannot answer leaves the gauge out without failing the
// scrape.
func TestJobStateGauge(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, user := range []string{testUser, testUser, otherUser, otherUser} {
		j := factbase.Job{ID: fmt.Sprintf("job-%d", i), User: factbase.UserID(user), Kind: factbase.JobRemember,
			Input: "x", MaxAttempts: 3}
		if _, err := s.EnqueueJob(ctx, j); err != nil {
			t.Fatalf("EnqueueJob: %v", err)
		}
	}
	// One job running, one dead: claimed (oldest first), the second failed for good.
	claim := func() factbase.Job {
		j, ok, err := s.ClaimJob(ctx, time.Minute, factbase.JobClaim{})
		if err != nil || !ok {
			t.Fatalf("ClaimJob = %v, %v", ok, err)
		}
		return j
	}
	claim()
	dead := claim()
	if _, err := s.FailJob(ctx, dead.ID, dead.Lease, factbase.JobFailure{Code: factbase.EINVALID, Message: "no", Dead: true}); err != nil {
		t.Fatalf("FailJob: %v", err)
	}
	reg := prometheus.NewRegistry()
	var logs bytes.Buffer
	m := &Main{Stderr: &logs}
	log, _ := m.jsonLogger("info")
	reg.MustRegister(server.NewJobStateCollector(s, log))
	gauge := func() map[string]float64 {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatalf("Gather: %v", err)
		}
		got := map[string]float64{}
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				got[m.GetLabel()[0].GetValue()] = m.GetGauge().GetValue()
			}
		}
		return got
	}
	got := gauge()
	want := map[string]float64{"queued": 2, "running": 1, "done": 0, "dead": 1}
	if len(got) != len(want) {
		t.Errorf("factbase_jobs = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("factbase_jobs{state=%q} = %v, want %v", k, got[k], v)
		}
	}
	s.Close()
	if got := gauge(); len(got) != 0 {
		t.Errorf("factbase_jobs with the store closed = %v, want no series", got)
	}
	if !strings.Contains(logs.String(), "cannot read the jobs by state") {
		t.Errorf("no warning for the failed read: %s", logs.String())
	}
}
