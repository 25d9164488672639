package llm

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestCallLogs: a retry is logged at WARN, a call that fails for good at WARN, or at
// ERROR when it needs a person, one the caller gave up at DEBUG; durations are
// strings Go can parse back, never counts of nanoseconds.
func TestCallLogs(t *testing.T) {
	fail := func(codes ...int) func(w http.ResponseWriter, req chatRequest, n int) {
		return func(w http.ResponseWriter, req chatRequest, n int) {
			w.WriteHeader(codes[min(n, len(codes))-1])
			w.Write([]byte(`{"error":{"message":"no"}}`))
		}
	}
	type line struct{ level, msg, kind string }
	cases := []struct {
		name    string
		reply   func(w http.ResponseWriter, req chatRequest, n int)
		retries int
		cancel  bool
		want    []line
	}{
		{name: "retried then failed", reply: fail(503, 502), retries: 1, want: []line{
			{"WARN", "llm: model request failed, retrying", "server_error"},
			{"WARN", "llm: model call failed", "server_error"},
		}},
		{name: "auth", reply: fail(401), retries: 3, want: []line{{"ERROR", "llm: model call failed", "auth"}}},
		{name: "rejected", reply: fail(400), retries: 3, want: []line{{"ERROR", "llm: model call failed", "rejected"}}},
		{name: "invalid output", reply: content(`{"name":"way too long a name"}`), want: []line{{"WARN", "llm: model call failed", "schema"}}},
		{name: "canceled", reply: content(`{}`), cancel: true, want: []line{{"DEBUG", "llm: model call failed", "canceled"}}},
		{name: "ok", reply: content(`{"name":"a","n":1,"tags":[]}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			f := newFake(t, "", tc.reply)
			c, _ := newClient(t, f, Options{Retries: tc.retries,
				Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancel {
				cancel()
			}
			defer cancel()
			var out pairOut
			c.CallJSON(ctx, JSONRequest{Name: "pair", Schema: pair, Messages: []Message{{Role: "user", Content: "hi"}}}, &out)
			got := logLines(t, &logs)
			if len(got) != len(tc.want) {
				t.Fatalf("%d log lines, want %d: %s", len(got), len(tc.want), logs.String())
			}
			for i, w := range tc.want {
				g := got[i]
				if g["level"] != w.level || g["msg"] != w.msg || g["kind"] != w.kind || g["model"] != "test-model" {
					t.Errorf("line %d = %v, want level %s, msg %q, kind %s, model test-model", i, g, w.level, w.msg, w.kind)
				}
				for _, k := range []string{"took", "retry_in"} {
					v, ok := g[k]
					if !ok {
						continue
					}
					s, isString := v.(string)
					if _, err := time.ParseDuration(s); !isString || err != nil {
						t.Errorf("line %d: %s = %#v, want a duration string such as \"2.7s\"", i, k, v)
					}
				}
				if _, ok := g["took"]; w.msg == "llm: model call failed" && !ok {
					t.Errorf("line %d lacks took: %v", i, g)
				}
				if _, ok := g["retry_in"]; w.msg == "llm: model request failed, retrying" && !ok {
					t.Errorf("line %d lacks retry_in: %v", i, g)
				}
			}
		})
	}
}

// TestEmbedderLogs: an embeddings request that fails for good is logged, naming
// what failed.
func TestEmbedderLogs(t *testing.T) {
	f := newEmbedServer(t, func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) {
		w.WriteHeader(http.StatusForbidden)
	})
	var logs bytes.Buffer
	e := newTestEmbedder(t, f, EmbedderOptions{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if _, err := e.Embed(context.Background(), []string{"a"}); err == nil {
		t.Fatal("Embed against a 403 succeeded")
	}
	got := logLines(t, &logs)
	if len(got) != 1 || got[0]["level"] != "ERROR" || got[0]["msg"] != "llm: embeddings call failed" || got[0]["kind"] != "auth" {
		t.Errorf("log lines %v, want one ERROR embeddings call failed, kind auth", got)
	}
}

func TestHumanDuration(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{2702304021 * time.Nanosecond, "2.702s"},
		{850 * time.Millisecond, "850ms"},
		{420123 * time.Nanosecond, "420µs"},
		{90 * time.Second, "1m30s"},
		{0, "0s"},
	}
	for _, tc := range cases {
		if got := humanDuration(tc.d); got != tc.want {
			t.Errorf("humanDuration(%d) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestKeyInURLNotInErrors: a key in the base URL's query reaches no error message or
// log line when the server cannot be reached (net/http names the URL in its errors).
func TestKeyInURLNotInErrors(t *testing.T) {
	f := newFake(t, "", content(`{}`))
	var logs bytes.Buffer
	c, err := New(Options{BaseURL: f.srv.URL + "/v1?api_key=sk-in-url", Model: "m", Retries: -1,
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Close()
	_, _, err = call(c)
	if err == nil || strings.Contains(err.Error(), "sk-in-url") || strings.Contains(logs.String(), "sk-in-url") {
		t.Errorf("error %v, logs %s: want neither to hold the key", err, logs.String())
	}
}
