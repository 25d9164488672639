package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
)

// resealFixture is what testReseal wrote for one user: the ids its rows are bound to.
type resealFixture struct {
	user                        factbase.UserID
	fact, ranked, blue, episode string
	entity, conflict, session   string
	sheet, job, jobDone         string
	sheetWant                   factbase.FactSheet
}

// writeResealRows writes, through the store's ordinary writes, a row of every table
// of factbase.SealedTables for u, each text holding mark.
func writeResealRows(t *testing.T, s factbase.Store, e *memory.Engine, u factbase.UserID, n int, mark string) resealFixture {
	t.Helper()
	ctx := context.Background()
	fx := resealFixture{user: u}
	res := apply(t, e, u,
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "note.drink", Value: "tea " + mark, Text: "likes tea " + mark}},
		add("favorites.color", "red "+mark), add("favorites.color", "blue "+mark))
	if len(res.Facts) != 3 {
		t.Fatalf("wrote %d facts, want 3: %+v", len(res.Facts), res)
	}
	fx.fact, fx.ranked, fx.blue = res.Facts[0].ID, res.Facts[1].ID, res.Facts[2].ID
	ep, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "a trip to the beach " + mark, Tags: []string{"travel"},
		Metadata: map[string]string{"place": "beach " + mark}, NoExtract: true})
	if err != nil {
		t.Fatal(err)
	}
	fx.episode = ep.Episode.ID
	fx.entity, fx.conflict, fx.session = fmt.Sprintf("ent-%d", n), fmt.Sprintf("con-%d", n), fmt.Sprintf("ses-%d", n)
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		if err := tx.PutEntity(ctx, factbase.Entity{ID: fx.entity, Name: "Ann " + mark, Role: factbase.RoleFriend,
			Aliases: []string{"annie " + mark}, Attributes: map[string]string{"job": "nurse " + mark}}); err != nil {
			return err
		}
		if err := tx.PutConflict(ctx, factbase.Conflict{ID: fx.conflict, Subject: factbase.SubjectUser, Key: "note.drink",
			CurrentID: fx.fact, CurrentValue: "tea " + mark, Proposed: factbase.Fact{Key: "note.drink", Value: "coffee " + mark},
			Reason: "changed " + mark, Status: factbase.ConflictPending}); err != nil {
			return err
		}
		return tx.PutTranscriptSession(ctx, factbase.TranscriptSession{ID: fx.session, File: "/logs/" + fx.session + ".jsonl",
			CWD: "/home/" + mark, GitBranch: mark + "-branch", Summary: "fixed " + mark})
	})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	fx.sheet = fmt.Sprintf("sheet-%d", n)
	sh := savedSheet(u, fx.sheet, at, fx.fact, fx.ranked)
	sh.Entries[0].Text = "likes tea " + mark
	sh.Entries[1].Text = "" // an entry without text stays without
	sh.Dedup = []factbase.SheetDedup{{Dropped: fx.ranked, Kept: fx.fact, Reason: "lower score"}}
	if _, err := s.SaveSheet(ctx, sh, 7*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	fx.sheetWant = sh
	fx.job, fx.jobDone = fmt.Sprintf("job-%d", n), fmt.Sprintf("job-%d-done", n)
	for _, id := range []string{fx.job, fx.jobDone} {
		if _, err := s.EnqueueJob(ctx, factbase.Job{ID: id, User: u, Kind: "remember", Input: `{"message":"hello ` + mark + `"}`, MaxAttempts: 2}); err != nil {
			t.Fatal(err)
		}
	}
	j, ok, err := s.ClaimJob(ctx, time.Hour, factbase.JobClaim{ID: fx.job})
	if err != nil || !ok {
		t.Fatalf("ClaimJob = %v, %v", ok, err)
	}
	if _, err := s.FailJob(ctx, j.ID, j.Lease, factbase.JobFailure{Code: factbase.EINTERNAL, Message: "failed on " + mark, RetryIn: time.Hour}); err != nil {
		t.Fatal(err)
	}
	j, ok, err = s.ClaimJob(ctx, time.Hour, factbase.JobClaim{ID: fx.jobDone})
	if err != nil || !ok {
		t.Fatalf("ClaimJob = %v, %v", ok, err)
	}
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		return tx.CompleteJob(ctx, j.ID, j.Lease, factbase.JobOutcome{Result: json.RawMessage(`{"note":"done ` + mark + `"}`)})
	})
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

// checkResealed reads every row of fx back through the ordinary reads and checks
// that each text holds mark, and no other marker.
func checkResealed(t *testing.T, s factbase.Store, fx resealFixture, mark string, stale ...string) {
	t.Helper()
	ctx := context.Background()
	var texts []string
	want := func(what, got, w string) {
		t.Helper()
		texts = append(texts, got)
		if got != w {
			t.Errorf("%s = %q, want %q", what, got, w)
		}
	}
	err := s.View(ctx, fx.user, func(tx factbase.ReadTx) error {
		f, err := tx.Fact(ctx, fx.fact)
		if err != nil {
			return err
		}
		want("fact value", f.Value, "tea "+mark)
		want("fact text", f.Text, "likes tea "+mark)
		events, err := tx.ListEvents(ctx, factbase.SubjectUser, "favorites.color", time.Now().Add(time.Hour))
		if err != nil {
			return err
		}
		if len(events) == 0 {
			t.Errorf("no list events")
		}
		for _, ev := range events {
			if ev.FactID == fx.ranked {
				want("list event value", ev.Value, "red "+mark)
			}
		}
		ep, err := tx.Episode(ctx, fx.episode)
		if err != nil {
			return err
		}
		want("episode content", ep.Content, "a trip to the beach "+mark)
		want("episode metadata", ep.Metadata["place"], "beach "+mark)
		if !slices.Equal(ep.Tags, []string{"travel"}) {
			t.Errorf("episode tags = %q, want travel", ep.Tags)
		}
		en, err := tx.Entity(ctx, fx.entity)
		if err != nil {
			return err
		}
		want("entity name", en.Name, "Ann "+mark)
		want("entity alias", strings.Join(en.Aliases, "|"), "annie "+mark)
		want("entity attribute", en.Attributes["job"], "nurse "+mark)
		c, err := tx.Conflict(ctx, fx.conflict)
		if err != nil {
			return err
		}
		want("conflict current value", c.CurrentValue, "tea "+mark)
		want("conflict proposed value", c.Proposed.Value, "coffee "+mark)
		want("conflict reason", c.Reason, "changed "+mark)
		sessions, err := tx.TranscriptSessions(ctx, fx.session, 0, 0)
		if err != nil {
			return err
		}
		if len(sessions) != 1 {
			t.Fatalf("TranscriptSessions(%s) = %d rows, want 1", fx.session, len(sessions))
		}
		want("session cwd", sessions[0].CWD, "/home/"+mark)
		want("session branch", sessions[0].GitBranch, mark+"-branch")
		want("session summary", sessions[0].Summary, "fixed "+mark)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := s.LatestSheet(ctx, fx.user)
	if err != nil {
		t.Fatal(err)
	}
	wantSheet := fx.sheetWant
	wantSheet.Entries = slices.Clone(wantSheet.Entries)
	wantSheet.Entries[0].Text = "likes tea " + mark
	if !reflect.DeepEqual(sh, wantSheet) {
		t.Errorf("the saved sheet = %+v\nwant %+v", sh, wantSheet)
	}
	j, err := s.Job(ctx, fx.job)
	if err != nil {
		t.Fatal(err)
	}
	want("job input", j.Input, `{"message":"hello `+mark+`"}`)
	want("job error", j.Error, "failed on "+mark)
	if j.State != factbase.JobQueued || j.Attempts != 1 {
		t.Errorf("the failed job is %s after %d attempts, want queued after 1", j.State, j.Attempts)
	}
	j, err = s.Job(ctx, fx.jobDone)
	if err != nil {
		t.Fatal(err)
	}
	want("job result", string(j.Result), `{"note":"done `+mark+`"}`)
	for _, text := range texts {
		for _, old := range stale {
			if strings.Contains(text, old) {
				t.Errorf("%q still holds %s", text, old)
			}
		}
	}
}

// testReseal checks ResealRows (factbase.ResealStore): every sealed text of every
// table is passed to fn with its user and the id it is bound to, the texts fn
// changes (and only those) are written back where the ordinary reads find them, the
// full-text index follows a plain fact's and episode's new texts, batches page
// through every user's rows in a stable order whatever is written between them, and
// fn's error writes nothing.
func testReseal(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	var fxs []resealFixture
	users := map[factbase.UserID]bool{}
	for i := range 3 {
		fx := writeResealRows(t, s, e, NewUser(), i, "mk1")
		fxs = append(fxs, fx)
		users[fx.user] = true
	}
	tables := make([]string, 0, len(factbase.SealedTables))
	for table := range factbase.SealedTables {
		tables = append(tables, table)
	}
	slices.Sort(tables)

	// Bound ids per table, as each row's Row must be.
	bound := func(fx resealFixture, table string) []string {
		switch table {
		case "facts":
			return []string{fx.fact, fx.ranked, fx.blue}
		case "list_events":
			return []string{fx.ranked, fx.blue}
		case "episodes":
			return []string{fx.episode}
		case "entities":
			return []string{fx.entity}
		case "conflicts":
			return []string{fx.conflict}
		case "transcript_sessions":
			return []string{fx.session}
		case "sheets":
			return []string{fx.sheet}
		case "jobs":
			return []string{fx.job, fx.jobDone}
		}
		t.Fatalf("SealedTables names %s, which this test does not know: add it", table)
		return nil
	}

	// rowKey names a row as fn sees it (a list's events of one fact differ only in
	// their position, so rows are counted, not only named).
	rowKey := func(r factbase.SealedRow) string { return fmt.Sprintf("%s %s %q", r.User, r.Row, r.Texts) }

	// The first pass: one batch of each table rewrites mk1 into mk2.
	rowsOf := map[string]int{}
	firstPass := map[string]map[string]int{}
	for _, table := range tables {
		var seen, marked int
		firstPass[table] = map[string]int{}
		next, n, err := s.ResealRows(ctx, table, "", 1000, func(rows []factbase.SealedRow) error {
			for i, r := range rows {
				seen++
				if !users[r.User] {
					t.Errorf("%s: row %s has user %q, not one of the test's", table, r.Row, r.User)
				}
				if len(r.Texts) != len(factbase.SealedTables[table]) && table != "sheets" {
					t.Errorf("%s: row %s has %d texts, want %d", table, r.Row, len(r.Texts), len(factbase.SealedTables[table]))
				}
				ok := false
				for _, fx := range fxs {
					ok = ok || fx.user == r.User && slices.Contains(bound(fx, table), r.Row)
				}
				if !ok {
					t.Errorf("%s: row %q of %s is not one the test bound its texts to", table, r.Row, r.User)
				}
				if slices.ContainsFunc(r.Texts, func(s string) bool { return strings.Contains(s, "mk1") }) {
					marked++
				}
				for j, text := range r.Texts {
					rows[i].Texts[j] = strings.ReplaceAll(text, "mk1", "mk2")
				}
				firstPass[table][rowKey(rows[i])]++
			}
			return nil
		})
		if err != nil {
			t.Fatalf("ResealRows(%s): %v", table, err)
		}
		if next != "" {
			t.Errorf("ResealRows(%s) read every row but returned next %q", table, next)
		}
		if seen == 0 || n != marked {
			t.Errorf("ResealRows(%s) passed %d rows, %d with a mark, and wrote back %d", table, seen, marked, n)
		}
		rowsOf[table] = seen
	}
	for _, table := range []string{"facts", "list_events", "episodes", "entities", "conflicts", "transcript_sessions", "sheets", "jobs"} {
		if want := len(bound(fxs[0], table)) * len(fxs); table != "list_events" && rowsOf[table] != want {
			t.Errorf("ResealRows(%s) passed %d rows, want %d", table, rowsOf[table], want)
		}
	}
	for _, fx := range fxs {
		checkResealed(t, s, fx, "mk2", "mk1")
	}
	// The full text follows plain texts rewritten.
	for _, fx := range fxs {
		for kind, id := range map[string]string{factbase.KindFact: fx.fact, factbase.KindEpisode: fx.episode} {
			if got := textIDs(t, s, fx.user, factbase.TextQuery{Kind: kind, Terms: []string{"mk2"}, Limit: 10}); !slices.Contains(got, id) {
				t.Errorf("a %s search for the new text finds %v, want %s among them", kind, got, id)
			}
			if got := textIDs(t, s, fx.user, factbase.TextQuery{Kind: kind, Terms: []string{"mk1"}, Limit: 10}); len(got) != 0 {
				t.Errorf("a %s search for the old text finds %v", kind, got)
			}
		}
	}

	// fn's error writes nothing back, not even the texts it changed before failing.
	boom := errors.New("boom")
	_, _, err := s.ResealRows(ctx, "facts", "", 1000, func(rows []factbase.SealedRow) error {
		for i := range rows {
			rows[i].Texts[0] = "lost"
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("ResealRows with a failing fn = %v, want %v", err, boom)
	}
	checkResealed(t, s, fxs[0], "mk2")

	// The second pass, two rows at a time: every row once, however the rows are
	// written between batches; n counts the rows written back.
	later := NewUser()
	for ti, table := range tables {
		var (
			after    string
			batches  int
			seen     = map[string]int{}
			written  int
			changed  int
			inserted bool
		)
		for {
			next, n, err := s.ResealRows(ctx, table, after, 2, func(rows []factbase.SealedRow) error {
				if len(rows) == 0 || len(rows) > 2 {
					t.Errorf("%s: a batch of %d rows, want 1 or 2", table, len(rows))
				}
				for i, r := range rows {
					if r.User == later {
						continue // written between batches: may be passed or not
					}
					seen[rowKey(r)]++
					// Only the rows of the first user change: n must count them alone.
					if r.User == fxs[0].user {
						changed++
						for j, text := range r.Texts {
							rows[i].Texts[j] = strings.ReplaceAll(text, "mk2", "mk3")
						}
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("ResealRows(%s, %q, 2): %v", table, after, err)
			}
			written += n
			batches++
			if !inserted {
				// A row written between batches must not shift the pages.
				writeResealRows(t, s, e, later, 100+ti, fmt.Sprintf("late%d", ti))
				inserted = true
			}
			if next == "" {
				break
			}
			if next == after {
				t.Fatalf("ResealRows(%s) returned next %q again", table, next)
			}
			after = next
			if batches > 100 {
				t.Fatalf("ResealRows(%s) pages without end", table)
			}
		}
		if !reflect.DeepEqual(seen, firstPass[table]) {
			t.Errorf("%s: the second pass passed the rows %v\nthe first %v", table, seen, firstPass[table])
		}
		if written != changed || written == 0 {
			t.Errorf("%s: the second pass wrote back %d rows, want the %d it changed", table, written, changed)
		}
		if batches < (rowsOf[table]+1)/2 {
			t.Errorf("%s: %d rows in %d batches of 2", table, rowsOf[table], batches)
		}
	}
	checkResealed(t, s, fxs[0], "mk3", "mk2", "mk1")
	checkResealed(t, s, fxs[1], "mk2", "mk3", "mk1")

	for _, tc := range []struct {
		name, table, after string
		limit              int
	}{
		{"unknown table", "users", "", 10},
		{"keys table", "api_keys", "", 10},
		{"no limit", "facts", "", 0},
		{"bad position", "facts", "not a position", 10},
		{"position of another table", "facts", `["1","2","3"]`, 10},
	} {
		_, _, err := s.ResealRows(ctx, tc.table, tc.after, tc.limit, func([]factbase.SealedRow) error {
			t.Errorf("%s: fn called", tc.name)
			return nil
		})
		if factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("ResealRows(%s) = %v, want EINVALID", tc.name, err)
		}
	}
	// fn may not change a row's number of texts.
	_, _, err = s.ResealRows(ctx, "facts", "", 10, func(rows []factbase.SealedRow) error {
		rows[0].Texts = rows[0].Texts[:1]
		return nil
	})
	if factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("ResealRows with fn dropping a text = %v, want EINVALID", err)
	}
}
