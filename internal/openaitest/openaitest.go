// Package openaitest is a model server for tests: a real HTTP server on a loopback
// port speaking the OpenAI chat completions wire format, whose answers a test
// scripts, including the ways a model server fails (down, slow, 5xx, 429 with
// Retry-After, prose, JSON of the wrong shape, a body that trickles).
package openaitest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Reply is one scripted answer. The zero Reply answers 200 with an empty
// extraction.
type Reply struct {
	Status     int    // 0: 200
	RetryAfter int    // seconds, sent as Retry-After with a non-200 Status
	Content    string // the completion's content (default: an empty extraction)
	Finish     string // the finish reason (default "stop")
	Hang       bool   // answer nothing until the request is canceled
	// Trickle sends the status and headers at once and then one byte of the body at
	// this interval, until the request is canceled: a slow stream.
	Trickle time.Duration
}

// Empty is an extraction answer with nothing in it.
const Empty = `{"facts":[],"entities":[],"topics":[]}`

// Server is the model server. Script decides each answer from the request's
// number (from 0) and the user turn's message.
type Server struct {
	*httptest.Server
	script func(n int, message string) Reply

	mu       sync.Mutex
	messages []string
}

// New starts a server that answers with script; it is closed when the test ends.
func New(t testing.TB, script func(n int, message string) Reply) *Server {
	t.Helper()
	s := &Server{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the messages of the chat requests so far, in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.messages...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/v1/models" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"fake","object":"model"}]}`)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"no such endpoint"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	var in struct {
		Message  string `json:"message"`
		Question string `json:"question"`
	}
	last := req.Messages[len(req.Messages)-1].Content
	msg := last
	if json.Unmarshal([]byte(last), &in) == nil && in.Message+in.Question != "" {
		msg = in.Message + in.Question
	}
	s.mu.Lock()
	n := len(s.messages)
	s.messages = append(s.messages, msg)
	s.mu.Unlock()
	rp := s.script(n, msg)
	switch {
	case rp.Hang:
		<-r.Context().Done()
		return
	case rp.Status != 0 && rp.Status != http.StatusOK:
		if rp.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(rp.RetryAfter))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rp.Status)
		io.WriteString(w, `{"error":{"message":"scripted failure"}}`)
		return
	}
	if rp.Content == "" {
		rp.Content = Empty
	}
	if rp.Finish == "" {
		rp.Finish = "stop"
	}
	out, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "model": "fake",
		"choices": []any{map[string]any{"index": 0, "finish_reason": rp.Finish,
			"message": map[string]any{"role": "assistant", "content": rp.Content}}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
	})
	w.Header().Set("Content-Type", "application/json")
	if rp.Trickle <= 0 {
		w.Write(out)
		return
	}
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	for i := 0; i < len(out); i++ {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(rp.Trickle):
		}
		w.Write(out[i : i+1])
		if fl != nil {
			fl.Flush()
		}
	}
}

// Fact renders one proposed fact of an extraction answer, quoting evidence.
func Fact(key, value, evidence string) string {
	b, _ := json.Marshal(map[string]any{"about": "user", "key": key, "value": value, "text": key + " is " + value,
		"type": "other", "confidence": 0.9, "durability": "durable", "sensitivity": "low", "temporal": "",
		"evidence": evidence, "remember_next_week": true})
	return string(b)
}

// Answer renders an extraction answer with facts (each from Fact).
func Answer(facts ...string) string {
	return `{"facts":[` + strings.Join(facts, ",") + `],"entities":[],"topics":["test"]}`
}
