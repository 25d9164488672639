package rowcodec

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// row is one row of column values as a driver returns them (int64, float64, string,
// []byte, nil); its Scan converts them into the destinations as both drivers do.
type row []any

func (r row) Scan(dest ...any) error {
	if len(dest) != len(r) {
		return fmt.Errorf("%d destinations for %d columns", len(dest), len(r))
	}
	for i, d := range dest {
		dv := reflect.ValueOf(d).Elem()
		if r[i] == nil {
			dv.SetZero()
			continue
		}
		sv := reflect.ValueOf(r[i])
		if dv.Kind() == reflect.Pointer {
			p := reflect.New(dv.Type().Elem())
			p.Elem().Set(sv.Convert(dv.Type().Elem()))
			dv.Set(p)
			continue
		}
		dv.Set(sv.Convert(dv.Type()))
	}
	return nil
}

// rows is a result set of rows, with the error it ends with.
type rows struct {
	rows   []row
	next   int
	err    error
	closed bool
}

func (rs *rows) Next() bool {
	if rs.closed || rs.next >= len(rs.rows) {
		return false
	}
	rs.next++
	return true
}

func (rs *rows) Scan(dest ...any) error { return rs.rows[rs.next-1].Scan(dest...) }
func (rs *rows) Err() error             { return rs.err }
func (rs *rows) Close()                 { rs.closed = true }

var (
	t0   = time.Date(2025, 6, 1, 12, 0, 0, 5, time.UTC)
	user = factbase.UserID("0190d3f2-7a9e-7b1c-8d4e-5f6a7b8c9d0e")
)

func TestEntityRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   factbase.Entity
		want factbase.Entity
	}{
		{
			name: "nil aliases and attributes",
			in:   factbase.Entity{ID: "e1", Name: "Ann", Role: factbase.RoleFriend},
			want: factbase.Entity{ID: "e1", User: user, Name: "Ann", Role: factbase.RoleFriend, Aliases: []string{}, CreatedAt: t0, UpdatedAt: t0},
		},
		{
			name: "everything kept, creation time too",
			in: factbase.Entity{ID: "e2", Relation: "son", Aliases: []string{"Bo"}, Attributes: map[string]string{"age": "7"},
				CreatedAt: t0.Add(-time.Hour), MergedInto: "e1"},
			want: factbase.Entity{ID: "e2", User: user, Relation: "son", Aliases: []string{"Bo"}, Attributes: map[string]string{"age": "7"},
				CreatedAt: t0.Add(-time.Hour), UpdatedAt: t0, MergedInto: "e1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args, err := EntityArgs("owner", tc.in, t0)
			if err != nil {
				t.Fatal(err)
			}
			if args[0] != "owner" {
				t.Errorf("EntityArgs()[0] = %v, want the owner", args[0])
			}
			got, err := Owner(user).Entity(row(args[1:]))
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Entity(EntityArgs(%+v)) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
		})
	}
	if _, err := EntityArgs("owner", factbase.Entity{Name: "no id"}, t0); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("EntityArgs(no id) error %v, want EINVALID", err)
	}
	bad := row{"e3", "", "other", "", "not json", "{}", int64(0), int64(0), ""}
	if _, err := Owner(user).Entity(bad); factbase.ErrorCode(err) != factbase.EINTERNAL {
		t.Errorf("Entity(bad aliases) error %v, want EINTERNAL", err)
	}
}

func TestConflictRoundTrip(t *testing.T) {
	resolved := t0.Add(time.Minute)
	in := factbase.Conflict{ID: "c1", Subject: "user", Key: "contact.email", CurrentID: "f1", CurrentValue: "a@x",
		Proposed: factbase.Fact{Key: "contact.email", Value: "b@x"}, Reason: "said by someone else",
		Status: factbase.ConflictConfirmed, ResolvedAt: &resolved, ResultID: "f2"}
	args, err := ConflictArgs(int64(7), in, t0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Owner(user).Conflict(row(args[1:]))
	want := in
	want.User, want.CreatedAt = user, t0
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Conflict(ConflictArgs()) = %+v, %v; want %+v", got, err, want)
	}
	if _, err := ConflictArgs(int64(7), factbase.Conflict{ID: "c1"}, t0); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("ConflictArgs(invalid) error %v, want EINVALID", err)
	}
}

func TestJob(t *testing.T) {
	done := row{"j1", string(user), "remember", "hi", "done", int64(1), int64(3), t0.UnixNano(), "", nil,
		"", "", `{"facts":1}`, int64(10), int64(5), 0.25, t0.UnixNano(), t0.UnixNano(), t0.UnixNano(), "m1", "http://m/v1"}
	got, err := Job(done)
	finished := t0
	want := factbase.Job{ID: "j1", User: user, Kind: "remember", Input: "hi", Model: "m1", Endpoint: "http://m/v1",
		State: factbase.JobDone, Attempts: 1, MaxAttempts: 3,
		RunAt: t0, Result: json.RawMessage(`{"facts":1}`), PromptTokens: 10, CompletionTokens: 5, Cost: 0.25,
		CreatedAt: t0, UpdatedAt: t0, FinishedAt: &finished}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Job() = %+v, %v; want %+v", got, err, want)
	}
	if r, err := JobResult(factbase.JobOutcome{}); r != "" || err != nil {
		t.Errorf("JobResult(no result) = %q, %v; want \"\"", r, err)
	}
	if _, err := JobResult(factbase.JobOutcome{Result: json.RawMessage("{")}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("JobResult(not JSON) error %v, want EINVALID", err)
	}
}

func TestUsage(t *testing.T) {
	rs := &rows{rows: []row{{"done", int64(2), int64(10), int64(4), 0.5}, {"dead", int64(1), int64(3), int64(0), 0.25}}}
	got, err := Usage(rs)
	want := factbase.JobUsage{Jobs: map[factbase.JobState]int{factbase.JobDone: 2, factbase.JobDead: 1},
		PromptTokens: 13, CompletionTokens: 4, Cost: 0.75}
	if err != nil || !reflect.DeepEqual(got, want) || !rs.closed {
		t.Errorf("Usage() = %+v, %v (closed %v); want %+v, closed", got, err, rs.closed, want)
	}
}

func TestKey(t *testing.T) {
	got, err := Key(row{"key_1", "laptop", "", "abc", t0.UnixNano(), nil})
	if err != nil || got.ID != "key_1" || got.User != "" || !got.CreatedAt.Equal(t0) || got.RevokedAt != nil {
		t.Errorf("Key() = %+v, %v", got, err)
	}
}

func TestTranscriptRoundTrip(t *testing.T) {
	in := factbase.TranscriptSession{ID: "s1", File: "a.jsonl", CWD: "/p", Summary: "x", Last: t0, Users: 2, Assistants: 3, Other: 1}
	args, err := TranscriptSessionArgs("owner", in, t0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := TranscriptSession(row(args[1:]))
	want := in
	want.UpdatedAt = t0
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("TranscriptSession(TranscriptSessionArgs()) = %+v, %v; want %+v (First zero stays zero)", got, err, want)
	}
	cpArgs, err := CheckpointArgs("owner", factbase.TranscriptCheckpoint{File: "a.jsonl", Offset: 9, Line: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if sum, ok := cpArgs[4].([]byte); !ok || sum == nil {
		t.Errorf("CheckpointArgs() sum = %#v, want an empty, non-nil slice", cpArgs[4])
	}
	cp, err := Checkpoint("a.jsonl")(row(cpArgs[2:]))
	if err != nil || cp.File != "a.jsonl" || cp.Offset != 9 || cp.Line != 2 || !cp.UpdatedAt.Equal(t0) {
		t.Errorf("Checkpoint(CheckpointArgs()) = %+v, %v", cp, err)
	}
	if err := ValidateLinks([]factbase.TranscriptLink{{Subject: "a", Session: "s"}, {Session: "s"}}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("ValidateLinks(one without subject) = %v, want EINVALID", err)
	}
}

func TestObjectGroups(t *testing.T) {
	groups, err := ReadObjectGroups(&rows{rows: []row{{"ssh", "SSH", int64(3)}, {"git", "git", int64(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := groups.Norms(); !slices.Equal(got, []string{"ssh", "git"}) {
		t.Errorf("Norms() = %q, want ssh, git", got)
	}
	sessions := &rows{rows: []row{{"ssh", "s2"}, {"other", "s9"}, {"ssh", "s1"}}}
	if err := groups.AddSessions(sessions); err != nil || !sessions.closed {
		t.Fatalf("AddSessions() = %v (closed %v)", err, sessions.closed)
	}
	want := []factbase.TranscriptObject{{Object: "SSH", Facts: 3, Sessions: []string{"s1", "s2"}, SessionsTotal: 2}, {Object: "git", Facts: 1, Sessions: []string{}}}
	if got := groups.Objects(); !reflect.DeepEqual(got, want) {
		t.Errorf("Objects() = %+v, want %+v", got, want)
	}
	empty, err := ReadObjectGroups(&rows{})
	if err != nil || empty.Objects() != nil || len(empty.Norms()) != 0 {
		t.Errorf("ReadObjectGroups(no rows) = %+v, %v; want no groups", empty, err)
	}

	// A group lists the first MaxObjectSessions sessions and counts them all.
	big, err := ReadObjectGroups(&rows{rows: []row{{"h", "host", int64(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	many := &rows{}
	for i := range factbase.MaxObjectSessions + 5 {
		many.rows = append(many.rows, row{"h", fmt.Sprintf("s%04d", i)})
	}
	if err := big.AddSessions(many); err != nil {
		t.Fatal(err)
	}
	o := big.Objects()[0]
	if len(o.Sessions) != factbase.MaxObjectSessions || o.SessionsTotal != factbase.MaxObjectSessions+5 || o.Sessions[0] != "s0000" {
		t.Errorf("AddSessions(%d sessions) = %d listed, %d total, first %q; want %d, %d, s0000",
			factbase.MaxObjectSessions+5, len(o.Sessions), o.SessionsTotal, o.Sessions[0], factbase.MaxObjectSessions, factbase.MaxObjectSessions+5)
	}
}

func TestSheetRoundTrip(t *testing.T) {
	in := factbase.FactSheet{ID: "s1", User: user, CreatedAt: t0, Count: 1,
		Entries: []factbase.SheetEntry{{FactID: "f1", Text: "likes tea", Score: 2, LastReference: t0}},
		Dedup:   []factbase.SheetDedup{{Dropped: "f2", Kept: "f1", Reason: "same text"}}}
	r, err := EncodeSheet(in, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.FactIDs, []string{"f1", "f2", "f1"}) || r.Count != 1 {
		t.Errorf("EncodeSheet() = %+v, want fact ids f1 f2 f1 and count 1", r)
	}
	got, err := Owner(user).Sheet(row{in.ID, t0.UnixNano(), int64(r.Count), r.Entries, r.Dedup})
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Errorf("Sheet(EncodeSheet()) = %+v, %v; want %+v", got, err, in)
	}
	empty, err := EncodeSheet(factbase.FactSheet{ID: "s2", CreatedAt: t0}, time.Hour)
	if err != nil || empty.Entries != "[]" || empty.Dedup != "[]" {
		t.Errorf("EncodeSheet(no entries) = %+v, %v; want empty JSON arrays", empty, err)
	}
	if _, err := EncodeSheet(in, 0); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("EncodeSheet(no retention) error %v, want EINVALID", err)
	}
	if at := ReferenceAt(factbase.Reference{}, t0); at != t0.UnixNano() {
		t.Errorf("ReferenceAt(zero) = %d, want now", at)
	}
}

func TestEpisode(t *testing.T) {
	meta, err := EpisodeMetadata(nil)
	if err != nil || meta != "{}" {
		t.Fatalf("EpisodeMetadata(nil) = %q, %v", meta, err)
	}
	var r EpisodeRow
	var tags string
	if err := (row{"ep1", "deployed", "x", 0.5, t0.UnixNano(), []byte(meta), nil}).Scan(r.Dest(&tags)...); err != nil {
		t.Fatal(err)
	}
	got, err := Owner(user).Episode(&r, nil)
	want := factbase.Episode{ID: "ep1", User: user, Content: "deployed", Tags: []string{}, Importance: 0.5, CreatedAt: t0}
	if err != nil || !reflect.DeepEqual(got, want) || r.ID() != "ep1" {
		t.Errorf("Episode() = %+v, %v; want %+v", got, err, want)
	}
	meta, _ = EpisodeMetadata(map[string]string{"k": "v"})
	r.meta = []byte(meta)
	if got, _ := Owner(user).Episode(&r, []string{"a"}); got.Metadata["k"] != "v" || !slices.Equal(got.Tags, []string{"a"}) {
		t.Errorf("Episode(with metadata and tags) = %+v", got)
	}
}

func TestCandidatesAndEvents(t *testing.T) {
	rs := &rows{rows: []row{{"f1", 2.5, t0.UnixNano(), "user", 0.9}, {"f2", 1.0, t0.UnixNano(), "user", 0.8}}}
	got, err := Candidates(factbase.KindFact, rs)
	if err != nil || len(got) != 2 || got[0].Rank != 1 || got[1].Rank != 2 || got[1].ID != "f2" || got[0].Kind != factbase.KindFact {
		t.Errorf("Candidates() = %+v, %v", got, err)
	}
	e, err := ListEvent("user", "favorites.x")(row{t0.UnixNano(), "MOVE", "f1", "tea", int64(3), int64(1)})
	if err != nil || e.Subject != "user" || e.Action != "MOVE" || e.From != 3 || e.To != 1 || !e.At.Equal(t0) {
		t.Errorf("ListEvent() = %+v, %v", e, err)
	}
}

func TestAllAndOne(t *testing.T) {
	boom := errors.New("boom")
	rs := &rows{rows: []row{{"a"}, {"b"}}, err: boom}
	if _, err := All(rs, String); !errors.Is(err, boom) || !rs.closed {
		t.Errorf("All(rows ending in an error) = %v (closed %v), want boom and closed", err, rs.closed)
	}
	if got, err := All(&rows{}, String); got != nil || err != nil {
		t.Errorf("All(no rows) = %v, %v; want nil", got, err)
	}
	if got := NonNil[string](nil); got == nil || len(got) != 0 {
		t.Errorf("NonNil(nil) = %#v, want empty", got)
	}
	noRows := errors.New("no rows")
	if v, ok, err := One(row{"a"}, noRows, String); v != "a" || !ok || err != nil {
		t.Errorf("One(a row) = %q, %v, %v", v, ok, err)
	}
	missing := failing{noRows}
	if _, ok, err := One(missing, noRows, String); ok || err != nil {
		t.Errorf("One(no row) = %v, %v; want not found, no error", ok, err)
	}
	if _, ok, err := One(failing{boom}, noRows, String); ok || !errors.Is(err, boom) {
		t.Errorf("One(failing) = %v, %v; want boom", ok, err)
	}
}

type failing struct{ err error }

func (f failing) Scan(...any) error { return f.err }

func TestMembers(t *testing.T) {
	scanFact := func(r Scanner) (factbase.Fact, error) {
		var f factbase.Fact
		err := r.Scan(&f.Subject, &f.Key, &f.Value)
		return f, err
	}
	out := map[factbase.MemberKey]factbase.Fact{}
	rs := &rows{rows: []row{{"user", "favorites.tea", "Oolong", "oolong"}}}
	if err := Members(rs, scanFact, out); err != nil || !rs.closed {
		t.Fatalf("Members() = %v (closed %v)", err, rs.closed)
	}
	if f, ok := out[factbase.MemberKey{Subject: "user", Key: "favorites.tea", Norm: "oolong"}]; !ok || f.Value != "Oolong" {
		t.Errorf("Members() = %+v, want Oolong under its norm", out)
	}
}

func TestTimesAndColumns(t *testing.T) {
	if got := Prefixed("e.", EpisodeColumns); got != "e.id, e.content, e.tags, e.importance, e.created_at, e.metadata, e.extracted_at" {
		t.Errorf("Prefixed() = %q", got)
	}
	n := t0.UnixNano()
	if got := TimePtr(&n); got == nil || !got.Equal(t0) || TimePtr(nil) != nil {
		t.Errorf("TimePtr() = %v", got)
	}
	if !TimeOrZero(nil).IsZero() || Nanos(nil) != nil || NanosOrNull(time.Time{}) != nil || NanosOrNull(t0) != n || Nanos(&t0) != n {
		t.Error("a missing time is not NULL, or a time not its nanoseconds")
	}
}

// TestSheetTexts: a saved sheet's entry texts come out in order and go back in
// place, every other field of each entry kept, unknown ones included.
func TestSheetTexts(t *testing.T) {
	in := factbase.FactSheet{ID: "s1", User: user, CreatedAt: t0, Count: 3, Entries: []factbase.SheetEntry{
		{FactID: "f1", Category: factbase.Core, Text: "likes tea", Score: 2.5, LastReference: t0,
			Explain: factbase.SheetExplain{Weight: 10, Buckets: []factbase.SheetBucket{{Label: "<1h", Count: 1, Points: 10, Subtotal: 10}}}},
		{FactID: "f2", Text: ""},
		{FactID: "f3", Text: `quotes " and <tags> & ünïcode`},
	}, Dedup: []factbase.SheetDedup{}}
	r, err := EncodeSheet(in, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	texts, err := SheetTexts([]byte(r.Entries))
	if err != nil || !slices.Equal(texts, []string{"likes tea", "", `quotes " and <tags> & ünïcode`}) {
		t.Fatalf("SheetTexts = %q, %v", texts, err)
	}
	out, err := WithSheetTexts([]byte(r.Entries), []string{"fb1.x.1", "", "fb1.x.3"})
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.Entries = slices.Clone(in.Entries)
	want.Entries[0].Text, want.Entries[2].Text = "fb1.x.1", "fb1.x.3"
	got, err := Owner(user).Sheet(row{in.ID, t0.UnixNano(), int64(r.Count), out, r.Dedup})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the sheet with new texts = %+v, %v; want %+v", got, err, want)
	}
	// A field this version does not know stays.
	out, err = WithSheetTexts([]byte(`[{"fact_id":"f1","text":"a","future":{"x":[1,2]}}]`), []string{"b"})
	if err != nil || out != `[{"fact_id":"f1","future":{"x":[1,2]},"text":"b"}]` {
		t.Errorf("WithSheetTexts(unknown field) = %s, %v", out, err)
	}
	for _, bad := range []struct {
		entries string
		texts   []string
	}{
		{`[{"text":"a"}]`, []string{"a", "b"}},
		{`[null]`, []string{"a"}},
		{`{"text":"a"}`, []string{"a"}},
	} {
		if _, err := WithSheetTexts([]byte(bad.entries), bad.texts); err == nil {
			t.Errorf("WithSheetTexts(%s, %q) = nil error", bad.entries, bad.texts)
		}
	}
	if _, err := SheetTexts([]byte(`[{"text":1}]`)); err == nil {
		t.Error("SheetTexts of a text that is not a string = nil error")
	}
}
