package memory_test

import (
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase/internal/inflight"
	"github.com/factbase/factbase/llm"
)

// reply is one scripted answer of the fake model server.
type reply struct {
	status  int    // 0: 200
	content string // the completion's content
	finish  string // default "stop"
	hang    bool   // wait until the request is canceled
}

// modelServer is an httptest server speaking the OpenAI chat completions API, for
// the model's extraction (remember jobs) and its planner (Ask). script decides each
// answer from the user's message (or question) and how many times that message was
// asked about before.
type modelServer struct {
	srv    *httptest.Server
	script func(message string, attempt int) reply

	mu       sync.Mutex
	attempts map[string]int
	messages []string // every message asked about, in order
	inputs   []string // every user turn, in order
	inFlight inflight.Gauge
	total    atomic.Int64
	onReq    func(n int64) // called with the request count before answering
}

func newModelServer(t *testing.T, script func(message string, attempt int) reply) *modelServer {
	t.Helper()
	return newHookedModelServer(t, script, nil)
}

// newHookedModelServer is newModelServer with onReq set before the server starts.
func newHookedModelServer(t *testing.T, script func(message string, attempt int) reply, onReq func(n int64)) *modelServer {
	t.Helper()
	m := &modelServer{script: script, attempts: map[string]int{}, onReq: onReq}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *modelServer) serve(w http.ResponseWriter, r *http.Request) {
	defer m.inFlight.Start()()
	n := m.total.Add(1)
	if m.onReq != nil {
		m.onReq(n)
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, "wrong endpoint", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []llm.Message `json:"messages"`
	}
	var in struct {
		Message  string `json:"message"`  // an extraction's input
		Question string `json:"question"` // a plan's input
	}
	if json.Unmarshal(body, &req) != nil || len(req.Messages) != 2 || json.Unmarshal([]byte(req.Messages[1].Content), &in) != nil {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	msg := cmp.Or(in.Message, in.Question)
	m.mu.Lock()
	a := m.attempts[msg]
	m.attempts[msg] = a + 1
	m.messages = append(m.messages, msg)
	m.inputs = append(m.inputs, req.Messages[1].Content)
	m.mu.Unlock()
	rp := m.script(msg, a)
	if rp.hang {
		<-r.Context().Done()
		return
	}
	if rp.status != 0 && rp.status != 200 {
		w.WriteHeader(rp.status)
		w.Write([]byte(`{"error":{"message":"scripted failure"}}`))
		return
	}
	if rp.finish == "" {
		rp.finish = "stop"
	}
	json.NewEncoder(w).Encode(map[string]any{
		"choices": []any{map[string]any{"index": 0, "finish_reason": rp.finish,
			"message": map[string]any{"role": "assistant", "content": rp.content}}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20},
	})
}

// fact renders one proposed fact as the model writes it.
func fact(about, key, value, evidence string, conf float64, typ string) string {
	b, _ := json.Marshal(map[string]any{"about": about, "key": key, "value": value, "text": key + " is " + value,
		"type": typ, "confidence": conf, "durability": "durable", "sensitivity": "low", "temporal": "",
		"evidence": evidence, "remember_next_week": true})
	return string(b)
}

// answer renders a whole extraction answer.
func answer(facts []string, entities ...string) string {
	return `{"facts":[` + strings.Join(facts, ",") + `],"entities":[` + strings.Join(entities, ",") + `],"topics":["test"]}`
}

// client returns a model client of the server with options lo (model "fake-model"
// and a backoff of a millisecond unless lo says otherwise).
func (m *modelServer) client(t *testing.T, lo llm.Options) *llm.Client {
	t.Helper()
	lo.BaseURL, lo.Model = m.srv.URL, cmp.Or(lo.Model, "fake-model")
	if lo.Backoff == 0 {
		lo.Backoff = time.Millisecond
	}
	c, err := llm.New(lo)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
