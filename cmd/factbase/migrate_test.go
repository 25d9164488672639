package main

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/internal/userdata"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/sqlite"
)

// userSnapshot is everything of one user the test compares across stores, read
// through a store's own transactions.
type userSnapshot struct {
	Facts      []factbase.Fact
	Lists      map[string][]factbase.Fact
	Events     map[string][]factbase.ListEvent
	References map[string][]factbase.Reference
	Episodes   []factbase.Episode
	Sessions   []factbase.TranscriptSession
	Checkpoint factbase.TranscriptCheckpoint
	Objects    []factbase.TranscriptObject
	Vector     []string
	Text       []string
	Sheet      factbase.FactSheet
	// People, when the source store keeps them.
	Entities    []factbase.Entity
	Conflicts   []factbase.Conflict
	Preferences []string
}

func snapshot(t *testing.T, s factbase.Store, u factbase.UserID) userSnapshot {
	t.Helper()
	ctx := context.Background()
	snap := userSnapshot{Lists: map[string][]factbase.Fact{}, Events: map[string][]factbase.ListEvent{}, References: map[string][]factbase.Reference{}}
	vec, err := embed.NewHash(64).Embed(ctx, []string{"deploy nexus"})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		if snap.Facts, err = tx.Facts(ctx, factbase.FactFilter{History: true}); err != nil {
			return err
		}
		for _, key := range []string{"favorites.crypto", "favorites.tea"} {
			if snap.Lists[key], _, err = tx.ListPage(ctx, factbase.SubjectUser, key, 0, 100); err != nil {
				return err
			}
			if snap.Events[key], err = tx.ListEvents(ctx, factbase.SubjectUser, key, time.Now().Add(time.Hour)); err != nil {
				return err
			}
		}
		for _, f := range snap.Facts {
			if snap.References[f.ID], err = tx.References(ctx, f.ID); err != nil {
				return err
			}
		}
		st := tx
		if snap.Episodes, err = st.Episodes(ctx, factbase.EpisodeFilter{}); err != nil {
			return err
		}
		cs, err := st.VectorCandidates(ctx, factbase.VectorQuery{Kind: factbase.KindEpisode, Model: "hash-64-v1", Vector: vec[0], Limit: 10})
		if err != nil {
			return err
		}
		for _, c := range cs {
			snap.Vector = append(snap.Vector, c.ID)
		}
		cs, err = st.TextCandidates(ctx, factbase.TextQuery{Kind: factbase.KindFact, Terms: []string{"email"}, Limit: 10})
		if err != nil {
			return err
		}
		for _, c := range cs {
			snap.Text = append(snap.Text, c.ID)
		}
		if snap.Sessions, err = tx.TranscriptSessions(ctx, "", 0, 0); err != nil {
			return err
		}
		for i := range snap.Sessions {
			snap.Sessions[i].UpdatedAt = time.Time{} // the copy's own write time
		}
		if snap.Checkpoint, _, err = tx.TranscriptCheckpoint(ctx, "/tmp/session.jsonl"); err != nil {
			return err
		}
		snap.Checkpoint.UpdatedAt = time.Time{}
		if snap.Objects, err = tx.TranscriptObjects(ctx, factbase.TranscriptQuery{Session: "s1"}); err != nil {
			return err
		}
		if snap.Entities, err = tx.Entities(ctx, factbase.EntityFilter{}); err != nil {
			return err
		}
		for i := range snap.Entities {
			snap.Entities[i].UpdatedAt = time.Time{} // the copy's own write time
		}
		if snap.Conflicts, err = tx.Conflicts(ctx, factbase.ConflictFilter{}); err != nil {
			return err
		}
		if snap.Preferences, err = tx.PreferenceSessions(ctx, "communication.channel", "email"); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading user %s: %v", u, err)
	}
	if snap.Sheet, err = s.(factbase.SheetStore).LatestSheet(ctx, u); err != nil {
		t.Fatalf("LatestSheet: %v", err)
	}
	return snap
}

// fillSQLite writes two users' data of every kind migrate copies.
func fillSQLite(t *testing.T, path string, users ...factbase.UserID) {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := memory.New(s, memory.Options{Embedder: embed.NewHash(64)})
	for i, u := range users {
		add := func(key, value string) factbase.Op {
			return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value, Text: key + " is " + value}}
		}
		res, err := e.Apply(ctx, u, []factbase.Op{add("favorites.crypto", "BTC"), add("favorites.crypto", "ETH"), add("favorites.crypto", "XMR"),
			add("favorites.tea", "oolong"), add("favorites.tea", "sencha"), add("contact.email", "a@example.com")})
		if err != nil {
			t.Fatal(err)
		}
		ops := []factbase.Op{
			{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crypto", Value: "XMR", Rank: 1}},
			// XMR, ETH, BTC: the reverse of the order they were stated in, which a copy
			// that inserted members in that order would not rebuild.
			{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crypto", Value: "ETH", Rank: 2}},
			{Kind: factbase.OpRemove, Fact: factbase.Fact{Key: "favorites.tea", Value: "oolong"}},
			add("contact.email", "b@example.com"),
			{Kind: factbase.OpDelete, ID: res.Facts[4].ID}, // sencha, erased
		}
		if _, err := e.Apply(ctx, u, ops); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Deployed NEXUS v2.3.1, accuracy 94.2%", Tags: []string{"deploy"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.RecordReferences(ctx, u, []string{res.Facts[0].ID}, factbase.Source{Kind: factbase.SourceAnswer}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.GenerateSheet(ctx, u, core.SheetOptions{}); err != nil {
			t.Fatal(err)
		}
		err = s.Update(ctx, u, func(tx factbase.Tx) error {
			first := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
			if err := tx.PutTranscriptCheckpoint(ctx, factbase.TranscriptCheckpoint{File: "/tmp/session.jsonl", Offset: 1234, Line: 9, Sum: []byte{1, 2, 3}}); err != nil {
				return err
			}
			if err := tx.PutTranscriptSession(ctx, factbase.TranscriptSession{ID: "s1", File: "/tmp/session.jsonl", CWD: "/src", First: first, Last: first.Add(time.Hour), Users: 3 + i}); err != nil {
				return err
			}
			if err := tx.Insert(ctx, factbase.Fact{ID: "tr-" + string(u), Subject: "task_1", Key: "connects_to_host", Cardinality: factbase.Many,
				Value: "db.example.com", ValueType: factbase.String, Category: factbase.Technical, Confidence: 0.9,
				Source: factbase.Source{Kind: factbase.SourceTranscript, ID: "s1"}, RecordedAt: tx.Now(), ValidFrom: tx.Now(), Current: true}, "db.example.com"); err != nil {
				return err
			}
			if err := tx.LinkTranscriptSubjects(ctx, []factbase.TranscriptLink{{Subject: "task_1", Session: "s1"}}); err != nil {
				return err
			}
			if err := tx.PutEntity(ctx, factbase.Entity{ID: "e1", Name: "Sam", Role: factbase.RoleChild, Relation: "son",
				Aliases: []string{"the boy"}, Attributes: map[string]string{"age": "7"}}); err != nil {
				return err
			}
			if err := tx.PutConflict(ctx, factbase.Conflict{ID: "c1", Subject: factbase.SubjectUser, Key: "contact.email",
				Proposed: factbase.Fact{Key: "contact.email", Value: "c@example.com"}, Status: factbase.ConflictPending}); err != nil {
				return err
			}
			return tx.NotePreferenceSession(ctx, "communication.channel", "email", "s1")
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	_, key, err := factbase.NewKey("", "backend", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateKey(ctx, key); err != nil {
		t.Fatal(err)
	}
}

func TestMigrate(t *testing.T) {
	pgURL := pgTestURL(t)
	file := filepath.Join(t.TempDir(), "f.db")
	alice, bob := factbase.UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"), factbase.UserID("9a1d3c5e-7f2b-4d6a-8c0e-1f3a5b7c9d2e")
	fillSQLite(t, file, alice, bob)
	env := map[string]string{"HOME": t.TempDir()}

	// One user first, then the rest with --all (which finds alice copied and refuses).
	var res migrateResult
	mustJSON(t, env, &res, "migrate", "--from", "sqlite://"+file, "--to", pgURL, "--user", string(alice), "--json")
	if len(res.Users) != 1 || res.Users[0].User != alice {
		t.Fatalf("migrate --user reported %+v, want alice only", res)
	}
	// list_events: crypto's three appends and two moves, oolong's append and removal;
	// the erased sencha leaves none.
	for table, want := range map[string]int{"facts": 9, "list_events": 7, "episodes": 1, "transcript_sessions": 1,
		"transcript_checkpoints": 1, "transcript_subjects": 1} {
		if got := res.Users[0].Counts[table]; got != want {
			t.Errorf("copied %d rows of %s, want %d", got, table, want)
		}
	}
	for _, table := range []string{"entities", "conflicts", "preference_sessions"} {
		if got := res.Users[0].Counts[table]; got != 1 {
			t.Errorf("copied %d rows of %s, want 1", got, table)
		}
	}
	for _, table := range []string{"embeddings", "fact_references", "sheets"} {
		if res.Users[0].Counts[table] == 0 {
			t.Errorf("copied no %s", table)
		}
	}
	wantExit(t, env, 1, "already has data", "migrate", "--from", file, "--to", pgURL, "--all")
	mustRun(t, env, "migrate", "--from", file, "--to", pgURL, "--user", string(bob))

	ctx := context.Background()
	src, err := sqlite.Open(ctx, file, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := postgres.Open(ctx, pgURL, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	for _, u := range []factbase.UserID{alice, bob} {
		want, got := snapshot(t, src, u), snapshot(t, dst, u)
		if len(want.Facts) == 0 || len(want.Episodes) == 0 || len(want.Vector) == 0 || len(want.Text) == 0 || len(want.Objects) == 0 {
			t.Fatalf("the source snapshot of %s is missing data: %+v", u, want)
		}
		v := reflect.ValueOf(want)
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			if w, g := v.Field(i).Interface(), reflect.ValueOf(got).Field(i).Interface(); !reflect.DeepEqual(w, g) {
				t.Errorf("user %s: %s differs after the copy:\nsource      %+v\ndestination %+v", u, name, w, g)
			}
		}
	}
	// The copy goes on working through the engine: the write path's invariants hold.
	e := memory.New(dst, memory.Options{})
	res2, err := e.Apply(ctx, alice, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crypto", Value: "btc."}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crypto", Value: "SOL", Rank: 2}}})
	if err != nil || len(res2.Duplicates) != 1 || res2.Stored != 1 {
		t.Fatalf("writing to the copy: %+v, %v; want btc. a duplicate and SOL stored", res2, err)
	}

	// --all copies the keys (every user is refused here, so copy into a fresh schema).
	other := pgTestURL(t)
	out, stderr, code := run(t, env, "migrate", "--from", file, "--to", other, "--all")
	if code != 0 || !strings.Contains(out, "Migrated 2 users") || !strings.Contains(out, "Copied 1 API keys") {
		t.Fatalf("migrate --all: exit %d, out %q, err %q", code, out, stderr)
	}
}

func TestMigrateUsage(t *testing.T) {
	runCases(t, map[string]string{}, []cliCase{
		{name: "no flags", args: []string{"migrate"}, code: 2},
		{name: "no user or all", args: []string{"migrate", "--from", "f.db", "--to", "postgres://x/y"}, code: 2},
		{name: "both user and all", args: []string{"migrate", "--from", "f.db", "--to", "postgres://x/y", "--all", "--user", testUser}, code: 2},
		{name: "destination not postgres", args: []string{"migrate", "--from", "f.db", "--to", "g.db", "--all"}, code: 2},
		{name: "source postgres", args: []string{"migrate", "--from", "postgres://x/y", "--to", "postgres://x/z", "--all"}, code: 2},
		{name: "argument", args: []string{"migrate", "--from", "f.db", "--to", "postgres://x/y", "--all", "extra"}, code: 2},
	})
}

// TestInsertRanks: each current ranked member is inserted at its rank among the
// members of its list inserted before it, whatever order the source read them in;
// the order of the facts and every other rank stay.
func TestInsertRanks(t *testing.T) {
	f := func(id, key string, rank int, current bool) factbase.Fact {
		card := factbase.Ranked
		if rank == 0 {
			card = factbase.One
		}
		return factbase.Fact{ID: id, Subject: factbase.SubjectUser, Key: key, Cardinality: card, Rank: rank, Current: current}
	}
	cases := []struct {
		name  string
		facts []factbase.Fact
		want  string
	}{
		// x3 first (#1 of one), x2 before it (#1), x1 before both (#1): x1, x2, x3.
		{"lists and singles", []factbase.Fact{f("x3", "favorites.x", 3, true), f("e1", "contact.email", 0, false), f("y1", "favorites.y", 1, true),
			f("x2", "favorites.x", 2, true), f("gone", "favorites.x", 1, false), f("e2", "contact.email", 0, true), f("x1", "favorites.x", 1, true)},
			"x3#1 e1#0 y1#1 x2#1 gone#1 e2#0 x1#1"},
		{"one list", []factbase.Fact{f("a", "favorites.z", 2, true), f("b", "favorites.z", 4, true), f("c", "favorites.z", 1, true), f("d", "favorites.z", 3, true)},
			"a#1 b#2 c#1 d#3"},
	}
	for _, tc := range cases {
		var got []string
		for _, f := range userdata.InsertRanks(tc.facts) {
			got = append(got, fmt.Sprintf("%s#%d", f.ID, f.Rank))
		}
		if got := strings.Join(got, " "); got != tc.want {
			t.Errorf("%s: insert ranks %q, want %q", tc.name, got, tc.want)
		}
	}
}
