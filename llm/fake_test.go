package llm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// chatRequest is what the fake server reads from a request.
type chatRequest struct {
	Model          string    `json:"model"`
	Messages       []Message `json:"messages"`
	Temperature    *float64  `json:"temperature"`
	MaxTokens      int       `json:"max_tokens"`
	Stream         *bool     `json:"stream"`
	ResponseFormat struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Strict bool            `json:"strict"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

// fake is an httptest server speaking the OpenAI chat completions API. Each request
// is checked (method, path, headers, body shape) and answered by reply.
type fake struct {
	t     *testing.T
	srv   *httptest.Server
	key   string
	reply func(w http.ResponseWriter, req chatRequest, n int)
	recorder[chatRequest]
}

// recorder keeps the requests a fake server saw; the server's goroutines share it.
type recorder[R any] struct {
	mu   sync.Mutex
	reqs []R
}

// add records r and returns how many requests came before it.
func (rec *recorder[R]) add(r R) int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.reqs = append(rec.reqs, r)
	return len(rec.reqs) - 1
}

// requests returns the requests seen so far, in order.
func (rec *recorder[R]) requests() []R {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]R(nil), rec.reqs...)
}

func newFake(t *testing.T, key string, reply func(w http.ResponseWriter, req chatRequest, n int)) *fake {
	t.Helper()
	f := &fake{t: t, key: key, reply: reply}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		f.t.Errorf("request %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if got := r.Header.Get("Content-Type"); got != "application/json" {
		f.t.Errorf("Content-Type = %q, want application/json", got)
	}
	wantAuth := ""
	if f.key != "" {
		wantAuth = "Bearer " + f.key
	}
	if got := r.Header.Get("Authorization"); got != wantAuth {
		f.t.Errorf("Authorization = %q, want %q", got, wantAuth)
	}
	body, _ := io.ReadAll(r.Body)
	var req chatRequest
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		f.t.Errorf("request body %s: %v", body, err)
	}
	if req.Model == "" || len(req.Messages) == 0 || req.Stream == nil || *req.Stream || req.Temperature == nil || req.MaxTokens <= 0 {
		f.t.Errorf("request body %s lacks model, messages, stream false, temperature or max_tokens", body)
	}
	switch req.ResponseFormat.Type {
	case "json_schema":
		if js := req.ResponseFormat.JSONSchema; js == nil || !js.Strict || js.Name == "" || len(js.Schema) == 0 {
			f.t.Errorf("json_schema response_format without a strict named schema: %s", body)
		}
	case "json_object":
		if !strings.Contains(req.Messages[0].Content, "JSON Schema") {
			f.t.Errorf("JSON mode without the schema in the system message")
		}
	default:
		f.t.Errorf("response_format type %q", req.ResponseFormat.Type)
	}
	f.reply(w, req, f.add(req)+1)
}

// completion writes a chat completion whose first choice has content and finish.
func completion(w http.ResponseWriter, content, finish string, prompt, compl int) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": "m",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": content}}},
		"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": compl, "total_tokens": prompt + compl},
	})
}

// content answers every request with content.
func content(s string) func(w http.ResponseWriter, req chatRequest, n int) {
	return func(w http.ResponseWriter, req chatRequest, n int) { completion(w, s, "stop", 10, 5) }
}
