package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
)

// transcriptLog is a small session log: a task, an action connecting to a host, and
// a second action connecting to the same host in another spelling.
const transcriptLog = `{"type":"user","uuid":"u1","sessionId":"s-one","cwd":"/srv/app","timestamp":"2025-06-02T18:46:00Z","message":{"role":"user","content":"List the files on the server"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s-one","timestamp":"2025-06-02T18:47:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'"}}]}}
{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s-one","timestamp":"2025-06-02T18:48:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"ssh admin@Web01.Example.com uptime"}}]}}
`

// transcriptLog2 is another session connecting to one of the same hosts.
const transcriptLog2 = `{"type":"user","uuid":"u9","sessionId":"s-two","cwd":"/srv/web","timestamp":"2025-06-03T09:00:00Z","message":{"role":"user","content":"Is the web server up? Check 100%_sure"}}
{"type":"assistant","uuid":"a9","parentUuid":"u9","sessionId":"s-two","timestamp":"2025-06-03T09:01:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t9","name":"Bash","input":{"command":"ssh ops@web01.example.com systemctl status nginx"}}]}}
`

func ingestString(t *testing.T, e *memory.Engine, u factbase.UserID, name, log string) ingest.IngestSummary {
	t.Helper()
	sum, err := e.Ingest.IngestTranscript(context.Background(), u, strings.NewReader(log), name, ingest.IngestOptions{})
	if err != nil {
		t.Fatalf("IngestTranscript(%s): %v", name, err)
	}
	return sum
}

// testTranscripts checks the transcript primitives: checkpoints, sessions, subject
// links and the transcript queries, through the engine's ingest and directly.
func testTranscripts(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u, other := NewUser(), NewUser()

	sum := ingestString(t, e, u, "one.jsonl", transcriptLog)
	if sum.Stored == 0 || sum.Lines != 3 || sum.Offset != int64(len(transcriptLog)) {
		t.Fatalf("first ingest: %+v, want facts stored, 3 lines, offset %d", sum, len(transcriptLog))
	}
	again := ingestString(t, e, u, "one.jsonl", transcriptLog)
	if again.Stored != 0 || again.Lines != 0 || !again.Resumed {
		t.Errorf("second ingest of the same log: %+v, want nothing read or stored, resumed", again)
	}
	ingestString(t, e, u, "two.jsonl", transcriptLog2)

	t.Run("Checkpoint", func(t *testing.T) {
		cp, ok, err := e.Ingest.TranscriptCheckpoint(ctx, u, "one.jsonl")
		if err != nil || !ok {
			t.Fatalf("TranscriptCheckpoint = %v, %v", ok, err)
		}
		if cp.Offset != int64(len(transcriptLog)) || cp.Line != 3 || len(cp.Sum) != 32 || cp.UpdatedAt.IsZero() {
			t.Errorf("checkpoint = %+v, want offset %d, line 3, a 32-byte sum, a time", cp, len(transcriptLog))
		}
		if _, ok, err := e.Ingest.TranscriptCheckpoint(ctx, other, "one.jsonl"); ok || err != nil {
			t.Errorf("another user's checkpoint: %v, %v; want none", ok, err)
		}
		if _, ok, err := e.Ingest.TranscriptCheckpoint(ctx, u, "three.jsonl"); ok || err != nil {
			t.Errorf("checkpoint of an unknown file: %v, %v; want none", ok, err)
		}
		// Replace, and refuse a negative offset.
		err = s.Update(ctx, u, func(tx factbase.Tx) error {
			return tx.PutTranscriptCheckpoint(ctx, factbase.TranscriptCheckpoint{File: "one.jsonl", Offset: 7, Line: 1, Sum: []byte{1, 2}})
		})
		if err != nil {
			t.Fatal(err)
		}
		cp, _, _ = e.Ingest.TranscriptCheckpoint(ctx, u, "one.jsonl")
		if cp.Offset != 7 || cp.Line != 1 || !bytes.Equal(cp.Sum, []byte{1, 2}) {
			t.Errorf("replaced checkpoint = %+v, want offset 7, line 1, sum 0102", cp)
		}
		err = s.Update(ctx, u, func(tx factbase.Tx) error {
			return tx.PutTranscriptCheckpoint(ctx, factbase.TranscriptCheckpoint{File: "one.jsonl", Offset: -1})
		})
		if factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("negative offset: %v, want invalid", err)
		}
		// A failing transaction leaves the checkpoint as it was.
		boom := errors.New("boom")
		err = s.Update(ctx, u, func(tx factbase.Tx) error {
			if err := tx.PutTranscriptCheckpoint(ctx, factbase.TranscriptCheckpoint{File: "one.jsonl", Offset: 99, Sum: []byte{9}}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update = %v, want boom", err)
		}
		if cp, _, _ := e.Ingest.TranscriptCheckpoint(ctx, u, "one.jsonl"); cp.Offset != 7 {
			t.Errorf("checkpoint after a rolled back write: offset %d, want 7", cp.Offset)
		}
	})

	t.Run("Sessions", func(t *testing.T) {
		all, _, err := e.Ingest.TranscriptSessions(ctx, u, "", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ss := range all {
			got = append(got, fmt.Sprintf("%s %s %s u%d a%d %s..%s", ss.ID, ss.File, ss.CWD, ss.Users, ss.Assistants,
				ss.First.Format(time.TimeOnly), ss.Last.Format(time.TimeOnly)))
		}
		want := []string{"s-one one.jsonl /srv/app u1 a2 18:46:00..18:48:00", "s-two two.jsonl /srv/web u1 a1 09:00:00..09:01:00"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("sessions:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// Replace one file's row, add a row of the same session from another file,
		// then delete by file.
		err = s.Update(ctx, u, func(tx factbase.Tx) error {
			if err := tx.PutTranscriptSession(ctx, factbase.TranscriptSession{ID: "s-one", File: "one.jsonl", Users: 5}); err != nil {
				return err
			}
			return tx.PutTranscriptSession(ctx, factbase.TranscriptSession{ID: "s-one", File: "more.jsonl", Assistants: 2,
				First: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
		})
		if err != nil {
			t.Fatal(err)
		}
		rows, _, err := e.Ingest.TranscriptSessions(ctx, u, "s-one", 0, 0)
		if err != nil || len(rows) != 2 {
			t.Fatalf("sessions of s-one: %d rows, %v; want 2", len(rows), err)
		}
		if rows[0].File != "one.jsonl" || rows[0].Users != 5 || !rows[0].First.IsZero() || rows[0].CWD != "" {
			t.Errorf("replaced row = %+v, want one.jsonl with 5 users, no times, no cwd", rows[0])
		}
		if rows[1].File != "more.jsonl" || rows[1].Assistants != 2 {
			t.Errorf("second row = %+v, want more.jsonl with 2 assistants", rows[1])
		}
		var n int
		err = s.Update(ctx, u, func(tx factbase.Tx) (err error) {
			n, err = tx.DeleteTranscriptSessions(ctx, "more.jsonl")
			return err
		})
		if err != nil || n != 1 {
			t.Errorf("DeleteTranscriptSessions = %d, %v; want 1", n, err)
		}
		if rows, _, _ := e.Ingest.TranscriptSessions(ctx, u, "s-one", 0, 0); len(rows) != 1 {
			t.Errorf("after the delete: %d rows of s-one, want 1", len(rows))
		}
		if rows, _, _ := e.Ingest.TranscriptSessions(ctx, other, "", 0, 0); len(rows) != 0 {
			t.Errorf("another user sees %d sessions", len(rows))
		}
	})

	t.Run("Facts", func(t *testing.T) {
		// A manual fact with a transcript predicate is not a transcript fact.
		apply(t, e, u, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: "action_a1", Key: "connects_to_host",
			Value: "manual.example.com", Cardinality: factbase.Many}})
		cases := []struct {
			name string
			q    factbase.TranscriptQuery
			want []string // subject predicate object
		}{
			{"predicate", factbase.TranscriptQuery{Predicate: "connects_to_host"},
				[]string{"action_a1 192.168.20.4", "action_a2 Web01.Example.com", "action_a9 web01.example.com"}},
			{"predicate and session", factbase.TranscriptQuery{Predicate: "connects_to_host", Session: "s-two"},
				[]string{"action_a9 web01.example.com"}},
			{"subject", factbase.TranscriptQuery{Subject: "action_a2", MinConfidence: 1},
				[]string{"action_a2 Bash", "action_a2 ssh admin@Web01.Example.com uptime", "action_a2 task_u1"}},
			{"object substring, any case", factbase.TranscriptQuery{ObjectContains: "WEB01.example"},
				[]string{"action_a2 ssh admin@Web01.Example.com uptime", "action_a2 Web01.Example.com",
					"action_a9 ssh ops@web01.example.com systemctl status nginx", "action_a9 web01.example.com"}},
			{"object with LIKE wildcards", factbase.TranscriptQuery{ObjectContains: "100%_"},
				[]string{"task_u9 Is the web server up? Check 100%_sure"}},
			{"wildcards are literal", factbase.TranscriptQuery{ObjectContains: "1%0"}, nil},
			{"min confidence", factbase.TranscriptQuery{Session: "s-one", MinConfidence: 0.85},
				[]string{"action_a1 192.168.20.4", "action_a1 Bash", "action_a1 sshpass -p 'pwd' ssh root@192.168.20.4 'ls -la'",
					"action_a1 task_u1", "action_a2 Bash", "action_a2 Web01.Example.com", "action_a2 ssh admin@Web01.Example.com uptime",
					"action_a2 task_u1", "task_u1 List the files on the server", "task_u1 s-one"}},
			{"limit and offset", factbase.TranscriptQuery{Predicate: "connects_to_host", Limit: 1, Offset: 1},
				[]string{"action_a2 Web01.Example.com"}},
			{"unknown session", factbase.TranscriptQuery{Session: "s-none"}, nil},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				facts, _, err := e.Ingest.TranscriptFacts(ctx, u, tc.q)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, f := range facts {
					if f.Source.Kind != factbase.SourceTranscript || !f.Current {
						t.Errorf("fact %+v is not a current transcript fact", f)
					}
					got = append(got, f.Subject+" "+f.Value)
				}
				if tc.q.Limit == 0 { // the order within a transaction is the write order; compare as sets
					sortStrings(got)
					sortStrings(tc.want)
				}
				if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("TranscriptFacts(%+v):\n%s\nwant\n%s", tc.q, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
			})
		}
		if facts, _, err := e.Ingest.TranscriptFacts(ctx, other, factbase.TranscriptQuery{}); err != nil || len(facts) != 0 {
			t.Errorf("another user's query: %d facts, %v; want none", len(facts), err)
		}
	})

	t.Run("Objects", func(t *testing.T) {
		objs, _, err := e.Ingest.TranscriptObjects(ctx, u, factbase.TranscriptQuery{Predicate: "connects_to_host"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range objs {
			got = append(got, fmt.Sprintf("%s %d %v", o.Object, o.Facts, o.Sessions))
		}
		want := []string{"Web01.Example.com 2 [s-one s-two]", "192.168.20.4 1 [s-one]"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("hosts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		objs, _, err = e.Ingest.TranscriptObjects(ctx, u, factbase.TranscriptQuery{Predicate: "connects_to_host", Limit: 1, Offset: 1})
		if err != nil || len(objs) != 1 || objs[0].Object != "192.168.20.4" {
			t.Errorf("second page of hosts = %+v, %v; want 192.168.20.4", objs, err)
		}
		objs, _, err = e.Ingest.TranscriptObjects(ctx, u, factbase.TranscriptQuery{Predicate: "no_such_predicate"})
		if err != nil || objs == nil || len(objs) != 0 {
			t.Errorf("objects of an unknown predicate = %#v, %v; want an empty list", objs, err)
		}
	})

	t.Run("MemberBulk", func(t *testing.T) { testMemberBulk(t, s, e) })

	t.Run("Links", func(t *testing.T) {
		// Linking twice stores the link once; an empty subject is refused.
		for i := 0; i < 2; i++ {
			err := s.Update(ctx, u, func(tx factbase.Tx) error {
				return tx.LinkTranscriptSubjects(ctx, []factbase.TranscriptLink{{Subject: "action_a9", Session: "s-three"}})
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		facts, _, err := e.Ingest.TranscriptFacts(ctx, u, factbase.TranscriptQuery{Session: "s-three", Predicate: "used_tool"})
		if err != nil || len(facts) != 1 {
			t.Errorf("facts of s-three: %d, %v; want the one used_tool of action_a9", len(facts), err)
		}
		objs, _, _ := e.Ingest.TranscriptObjects(ctx, u, factbase.TranscriptQuery{Subject: "action_a9", Predicate: "connects_to_host"})
		if len(objs) != 1 || strings.Join(objs[0].Sessions, ",") != "s-three,s-two" || objs[0].Facts != 1 {
			t.Errorf("objects of action_a9 = %+v, want one fact in sessions s-three and s-two", objs)
		}
		// Many links at once (more than one statement of a store holds), the last
		// one to a subject with facts; stored links among them are skipped.
		var many []factbase.TranscriptLink
		for i := range 300 {
			many = append(many, factbase.TranscriptLink{Subject: fmt.Sprintf("action_bulk_%d", i), Session: "s-bulk"})
		}
		many = append(many, factbase.TranscriptLink{Subject: "action_a9", Session: "s-three"}, factbase.TranscriptLink{Subject: "action_a9", Session: "s-bulk"})
		if err := s.Update(ctx, u, func(tx factbase.Tx) error { return tx.LinkTranscriptSubjects(ctx, many) }); err != nil {
			t.Fatal(err)
		}
		facts, _, err = e.Ingest.TranscriptFacts(ctx, u, factbase.TranscriptQuery{Session: "s-bulk", Predicate: "used_tool"})
		if err != nil || len(facts) != 1 || facts[0].Subject != "action_a9" {
			t.Errorf("facts of s-bulk: %+v, %v; want the one used_tool of action_a9", facts, err)
		}
		err = s.Update(ctx, u, func(tx factbase.Tx) error {
			return tx.LinkTranscriptSubjects(ctx, []factbase.TranscriptLink{{Subject: "action_a9", Session: "s-four"}, {Subject: "", Session: "s"}})
		})
		if factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("empty subject: %v, want invalid", err)
		}
		if facts, _, _ := e.Ingest.TranscriptFacts(ctx, u, factbase.TranscriptQuery{Session: "s-four"}); len(facts) != 0 {
			t.Errorf("a refused batch of links stored %d facts' links, want none", len(facts))
		}
	})
}

// testMemberBulk checks the bulk set insert's primitives (MemberBulkTx) over more
// keys than one statement of a store binds, and the write path that uses them.
func testMemberBulk(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u, other := NewUser(), NewUser()
	setup := []factbase.Op{
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "tags", Value: "Alpha", Cardinality: factbase.Many}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.x", Value: "Gamma", Cardinality: factbase.Ranked}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: "x@example.com", Cardinality: factbase.One}},
	}
	if _, err := e.Apply(ctx, u, setup); err != nil {
		t.Fatal(err)
	}
	me := factbase.SubjectUser
	mk := func(subject, key, norm string) factbase.MemberKey {
		return factbase.MemberKey{Subject: subject, Key: key, Norm: norm}
	}
	keys := []factbase.MemberKey{mk(me, "tags", "alpha"), mk(me, "tags", "zeta"), mk(me, "favorites.x", "gamma"), mk(me, "contact.email", "x@example.com")}
	var facts []factbase.Fact
	var norms []string
	for i := range 600 {
		v := fmt.Sprintf("v%03d", i)
		keys = append(keys, mk("action_1", "used_tool", v))
		facts = append(facts, factbase.Fact{ID: fmt.Sprintf("%s-bulk-%d", u, i), Subject: "action_1", Key: "used_tool",
			Cardinality: factbase.Many, Value: v, ValueType: factbase.String, Category: factbase.Technical, Confidence: 0.5,
			Source: factbase.Source{Kind: factbase.SourceTranscript, ID: "f:1"}, Extractor: "rule",
			RecordedAt: time.Unix(1700000000, 0).UTC(), ValidFrom: time.Unix(1700000000, int64(i)).UTC(), Current: true})
		norms = append(norms, v)
	}
	present := func(m map[factbase.MemberKey]factbase.Fact) string {
		var out []string
		for k, f := range m {
			out = append(out, k.Subject+"/"+k.Key+"/"+k.Norm+"="+f.Value)
		}
		sortStrings(out)
		return strings.Join(out, ",")
	}
	rollback := errors.New("roll back")
	err := s.Update(ctx, u, func(tx factbase.Tx) error {
		m, err := tx.Members(ctx, keys)
		if err != nil {
			return err
		}
		if got := present(m); got != "user/favorites.x/gamma=Gamma,user/tags/alpha=Alpha" {
			t.Errorf("Members before the insert = %s, want the set's and the list's members only", got)
		}
		counts, err := tx.MemberCounts(ctx, keys)
		if err != nil {
			return err
		}
		if len(counts) != len(keys) || counts[0] != 1 || counts[1] != 0 || counts[2] != 1 || counts[3] != 0 || counts[4] != 0 {
			t.Errorf("MemberCounts before the insert = %v..., want 1 0 1 0 0...", counts[:min(len(counts), 5)])
		}
		if err := tx.InsertFacts(ctx, facts, norms[1:]); err == nil {
			t.Errorf("InsertFacts with a norm missing: no error")
		}
		if err := tx.InsertFacts(ctx, facts, norms); err != nil {
			return err
		}
		if m, err = tx.Members(ctx, keys); err != nil {
			return err
		}
		if len(m) != 2+len(facts) || m[keys[len(keys)-1]].ID != facts[len(facts)-1].ID || m[keys[len(keys)-1]].ValidFrom != facts[len(facts)-1].ValidFrom {
			t.Errorf("Members after inserting %d facts: %d found, last %+v", len(facts), len(m), m[keys[len(keys)-1]])
		}
		if counts, err = tx.MemberCounts(ctx, keys); err != nil {
			return err
		}
		for i, c := range counts[4:] {
			if c != 1 {
				t.Errorf("MemberCounts of inserted value %d = %d, want 1", i, c)
				break
			}
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("Update = %v, want the rollback", err)
	}
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		m, err := tx.Members(ctx, keys[4:])
		if err == nil && len(m) != 0 {
			t.Errorf("Members after a rolled back insert: %d found, want none", len(m))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, other, func(tx factbase.Tx) error {
		m, err := tx.Members(ctx, keys)
		if err == nil && len(m) != 0 {
			t.Errorf("another user's Members: %s, want none", present(m))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	// Through the write path: 600 members, each value twice, stored once.
	var ops []factbase.Op
	for i := range 1200 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: "action_2", Key: "used_tool",
			Value: fmt.Sprintf("Tool %d", i%600), Cardinality: factbase.Many}})
	}
	res, err := e.Apply(ctx, u, ops)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stored != 600 || len(res.Duplicates) != 600 || len(res.Facts) != 1200 {
		t.Errorf("bulk write: %d stored, %d duplicates, %d facts; want 600, 600, 1200", res.Stored, len(res.Duplicates), len(res.Facts))
	}
	if res, err = e.Apply(ctx, u, ops); err != nil || res.Stored != 0 || len(res.Duplicates) != 1200 {
		t.Errorf("the same write again: %d stored, %d duplicates, %v; want 0, 1200", res.Stored, len(res.Duplicates), err)
	}
	stored, err := e.Facts(ctx, u, factbase.FactFilter{Subject: "action_2", Key: "used_tool"})
	if err != nil || len(stored) != 600 || stored[0].Value != "Tool 0" || stored[599].Value != "Tool 599" {
		t.Errorf("stored members: %d, %v; want Tool 0..Tool 599 in order", len(stored), err)
	}
}

func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
