package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/factbase/factbase/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
)

// lockedBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestToolCallsObserved: every tool call gets a log line with its tool, user,
// duration and outcome, and is counted and timed by tool (and outcome), whether it
// succeeded, failed in the tool, was refused by the schema or named no tool.
func TestToolCallsObserved(t *testing.T) {
	f := newFixture(t)
	logs := &lockedBuffer{}
	reg := prometheus.NewRegistry()
	srv, err := mcp.New(mcp.Options{Engine: f.engine, User: alice, Metrics: reg,
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatal(err)
	}
	// A second server on the same registry shares the metrics (as two handlers would).
	if _, err := mcp.New(mcp.Options{Engine: f.engine, Metrics: reg}); err != nil {
		t.Fatalf("a second server on one registry: %v", err)
	}
	cs := stdioSession(t, srv)
	var rem mcp.RememberOutput
	call(t, cs, "remember", map[string]any{"text": "My email is ana@example.com"}, &rem)
	callError(t, cs, "get_fact", map[string]any{"id": "nope"})
	callError(t, cs, "set_fact", map[string]any{"key": "favorites.movie", "value": "Alien", "rank": 0})
	if _, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Error("an unknown tool succeeded")
	}

	want := []struct{ tool, outcome string }{
		{"remember", "ok"}, {"get_fact", "not_found"}, {"set_fact", "refused"}, {"unknown", "error"},
	}
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["msg"] == "mcp tool call" {
			lines = append(lines, m)
		}
	}
	if len(lines) != len(want) {
		t.Fatalf("%d tool call log lines, want %d:\n%s", len(lines), len(want), logs)
	}
	for i, w := range want {
		l := lines[i]
		if l["tool"] != w.tool || l["outcome"] != w.outcome {
			t.Errorf("log line %d: tool %v, outcome %v; want %s, %s", i, l["tool"], l["outcome"], w.tool, w.outcome)
		}
		if d, ok := l["duration_ms"].(float64); !ok || d < 0 {
			t.Errorf("log line %d: duration_ms %v", i, l["duration_ms"])
		}
		if w.tool == "remember" || w.tool == "get_fact" {
			if l["user"] != string(alice) {
				t.Errorf("log line %d: user %v, want %s", i, l["user"], alice)
			}
		}
	}

	counts, durations := map[string]float64{}, map[string]uint64{}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, lp := range m.GetLabel() {
				labels[lp.GetName()] = lp.GetValue()
			}
			switch mf.GetName() {
			case "factbase_mcp_tool_calls_total":
				counts[labels["tool"]+"/"+labels["outcome"]] = m.GetCounter().GetValue()
			case "factbase_mcp_tool_call_duration_seconds":
				durations[labels["tool"]] = m.GetHistogram().GetSampleCount()
			}
		}
	}
	for _, w := range want {
		if got := counts[w.tool+"/"+w.outcome]; got != 1 {
			t.Errorf("factbase_mcp_tool_calls_total{tool=%q,outcome=%q} = %v, want 1", w.tool, w.outcome, got)
		}
		if got := durations[w.tool]; got != 1 {
			t.Errorf("factbase_mcp_tool_call_duration_seconds{tool=%q} count = %d, want 1", w.tool, got)
		}
	}
	if _, ok := counts["ask/ok"]; !ok {
		t.Errorf("no zero count for ask/ok: every tool's successes are counted from the start")
	}
}
