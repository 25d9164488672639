package transcript

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sessionsOf(t *testing.T, files map[string]string, order []string) *Sessions {
	t.Helper()
	s := NewSessions()
	for _, name := range order {
		addAll(t, s, NewReader(strings.NewReader(files[name]), name, Options{}))
	}
	return s
}

// addAll adds every message of r to s; a read error fails the test.
func addAll(t *testing.T, s *Sessions, r *Reader) {
	t.Helper()
	for {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", r.file, err)
		}
		s.Add(m)
	}
}

func TestSessionsFixture(t *testing.T) {
	s := NewSessions()
	addAll(t, s, NewReader(bytes.NewReader(readFile(t, "testdata/sessions/basic.jsonl")), "basic.jsonl", Options{}))
	want := []Session{{
		ID: "5f3c1a9e-2b7d-4e8a-9c61-0d4e7b2a1f38", File: "basic.jsonl", CWD: "/home/anna/homelab", GitBranch: "main", Version: "1.0.61",
		Summary: "Move appdata backups to the Unraid array",
		First:   time.Date(2025, 6, 2, 18, 46, 0, 0, time.UTC), Last: time.Date(2025, 6, 2, 18, 46, 14, 518e6, time.UTC),
		Users: 7, Assistants: 7, Other: 3,
	}}
	if got := s.List(); !reflect.DeepEqual(got, want) {
		t.Errorf("List() =\n%+v\nwant\n%+v", got, want)
	}
	if got, ok := s.Get(want[0].ID); !ok || !reflect.DeepEqual(got, want[0]) {
		t.Errorf("Get = %+v, %v", got, ok)
	}
	if _, ok := s.Get("nope"); ok {
		t.Errorf("Get(nope) found a session")
	}
}

func TestSessionsSeveral(t *testing.T) {
	files := map[string]string{
		"a.jsonl": `{"type":"summary","summary":"old title","leafUuid":"x"}
{"type":"summary","summary":"New title","leafUuid":"y"}
{"type":"user","uuid":"1","sessionId":"s1","cwd":"/p1","timestamp":"2025-01-02T10:00:00Z","message":{"content":"hi"}}
{"type":"assistant","uuid":"2","sessionId":"s1","cwd":"/p1/sub","timestamp":"2025-01-02T09:00:00Z","message":{"content":"early clock"}}
{"type":"user","uuid":"3","sessionId":"s2","cwd":"/p2","timestamp":"2025-01-03T10:00:00Z","message":{"content":"other"}}
{"type":"summary","summary":"Second session title","leafUuid":"3"}
`,
		"b.jsonl": `{"type":"user","uuid":"4","sessionId":"s1","timestamp":"2025-01-04T10:00:00Z","gitBranch":"fix","message":{"content":"later, in another file"}}
`,
	}
	s := sessionsOf(t, files, []string{"a.jsonl", "b.jsonl"})
	got := s.List()
	want := []Session{
		{ID: "s1", File: "a.jsonl", CWD: "/p1", GitBranch: "fix", Summary: "New title",
			First: time.Date(2025, 1, 2, 9, 0, 0, 0, time.UTC), Last: time.Date(2025, 1, 4, 10, 0, 0, 0, time.UTC),
			Users: 2, Assistants: 1, Other: 2},
		{ID: "s2", File: "a.jsonl", CWD: "/p2", Summary: "Second session title",
			First: time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC), Last: time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC),
			Users: 1, Other: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List() =\n%+v\nwant\n%+v", got, want)
	}
}

func TestSessionMerge(t *testing.T) {
	t1 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	t3 := t1.Add(2 * time.Hour)
	stored := Session{ID: "s", File: "a", CWD: "/x", Version: "1", First: t2, Last: t2, Users: 2, Assistants: 3}
	update := Session{ID: "s", File: "a", CWD: "/y", Version: "2", Summary: "t", First: t1, Last: t3, Users: 1, Other: 1}
	got := stored.Merge(update)
	want := Session{ID: "s", File: "a", CWD: "/x", Version: "2", Summary: "t", First: t1, Last: t3, Users: 3, Assistants: 3, Other: 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge = %+v, want %+v", got, want)
	}
	if got := (Session{}).Merge(update); !reflect.DeepEqual(got, update) {
		t.Errorf("zero.Merge(u) = %+v, want u", got)
	}
}
