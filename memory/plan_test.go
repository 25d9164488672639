package memory_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
)

// TestAskPlanner: a question no rule understood goes to the model's planner, whose
// plan is checked against the user's keys before anything is read.
func TestAskPlanner(t *testing.T) {
	cases := []struct {
		name     string
		question string
		status   int    // the model server's answer status (0: 200)
		plan     string // the model's answer
		reply    string // a part of the reply
		planned  bool
		code     string // the error code, if Ask fails
		calls    int64
	}{
		{name: "rank", question: "Which film do I like second best, would you say?", plan: `{"kind":"rank","key":"favorites.movie","rank":2}`,
			reply: "Your #2 favorite movie is Heat.", planned: true, calls: 1},
		{name: "list", question: "Tell me the films I adore.", plan: `{"kind":"list","key":"favorites.movie","rank":0}`,
			reply: "#1 Alien, #2 Heat", planned: true, calls: 1},
		{name: "fact", question: "Where do I earn my living these days?", plan: `{"kind":"fact","key":"work.employer","rank":0}`,
			reply: "Your employer: Acme.", planned: true, calls: 1},
		{name: "a key the user does not have", question: "Where do I live, do you know?", plan: `{"kind":"fact","key":"home.city","rank":0}`,
			reply: "I don't know your home city yet.", planned: true, calls: 1},
		{name: "kind and key disagree", question: "Where do I earn my living these days?", plan: `{"kind":"fact","key":"favorites.movie","rank":0}`,
			reply: "could not tell", planned: true, calls: 1},
		{name: "not about the user", question: "How tall is the Eiffel tower?", plan: `{"kind":"none","key":"","rank":0}`,
			reply: "I can only answer", calls: 1},
		{name: "invalid plan", question: "Where do I earn my living these days?", plan: `{"kind":"delete","key":"work.employer","rank":0}`,
			code: factbase.EINVALID, calls: 1},
		{name: "model down", question: "Where do I earn my living these days?", status: 503,
			code: factbase.EUNAVAILABLE, calls: 1},
		{name: "the rules understood", question: "What are my favorite movies?", plan: `{"kind":"none","key":"","rank":0}`,
			reply: "#1 Alien, #2 Heat", calls: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				if tc.status != 0 {
					w.WriteHeader(tc.status)
					return
				}
				json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"finish_reason": "stop",
					"message": map[string]any{"role": "assistant", "content": tc.plan}}}})
			}))
			defer srv.Close()
			c, err := llm.New(llm.Options{BaseURL: srv.URL, Model: "planner", Retries: -1, Backoff: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			e := memory.New(s, memory.Options{Planner: c})
			ctx := context.Background()
			if _, err := e.Apply(ctx, alice, []factbase.Op{
				{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.movie", Value: "Alien"}},
				{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.movie", Value: "Heat"}},
				{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "work.employer", Value: "Acme"}},
			}); err != nil {
				t.Fatal(err)
			}
			res, err := e.Chat.Ask(ctx, alice, tc.question)
			if tc.code != "" {
				if factbase.ErrorCode(err) != tc.code {
					t.Fatalf("Ask error %v, want %s", err, tc.code)
				}
			} else if err != nil {
				t.Fatalf("Ask: %v", err)
			} else {
				if !strings.Contains(res.Reply, tc.reply) {
					t.Errorf("reply %q, want it to contain %q", res.Reply, tc.reply)
				}
				if (res.Planned == "planner") != tc.planned {
					t.Errorf("planned = %q, want planned %v", res.Planned, tc.planned)
				}
			}
			if calls.Load() != tc.calls {
				t.Errorf("%d model calls, want %d", calls.Load(), tc.calls)
			}
		})
	}
	// Without a planner no model is called and the question gets the usual reply.
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "g.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := memory.New(s, memory.Options{}).Chat.Ask(context.Background(), alice, "Where do I earn my living these days?")
	if err != nil || res.Planned != "" || !strings.Contains(res.Reply, "I can only answer") {
		t.Errorf("without a planner: %+v, %v", res, err)
	}
}
