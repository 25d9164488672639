package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
)

// PopulateUser gives user u data in every feature the store offers, each carrying
// marker in its text: facts of each cardinality with history, a message, an episode,
// a transcript, an entity, references, a saved sheet, a queued job and a user API
// key. Stores' own tests use it to look for the marker in their files after an
// erasure.
func PopulateUser(t *testing.T, s factbase.Store, e *memory.Engine, u factbase.UserID, marker string) {
	t.Helper()
	ctx := context.Background()
	apply(t, e, u, add("contact.email", marker+"@old.example"))
	apply(t, e, u, add("contact.email", marker+"@example.com"),
		add("favorites.crypto", marker+"coin"), add("favorites.crypto", "BTC"),
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes", Cardinality: factbase.Many, Value: marker + " tea", Text: "likes " + marker + " tea"}})
	if _, err := e.Chat.Say(ctx, u, "My favorite city is "+marker+"ville. My email is "+marker+"@mail.example."); err != nil {
		t.Fatalf("Say: %v", err)
	}
	if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Release v2.1 of " + marker + " is COMPLETE with 97% accuracy", Tags: []string{marker}}); err != nil {
		t.Fatalf("AddEpisode: %v", err)
	}
	log := fmt.Sprintf(`{"type":"user","uuid":"u-%[1]s","sessionId":"s-%[1]s","timestamp":"2026-01-02T03:04:05Z","cwd":"/home/%[1]s","message":{"role":"user","content":"fix the %[1]s error"}}
{"type":"assistant","uuid":"a-%[1]s","parentUuid":"u-%[1]s","sessionId":"s-%[1]s","timestamp":"2026-01-02T03:04:06Z","message":{"role":"assistant","content":[{"type":"tool_use","name":"Bash","input":{"command":"ssh root@%[1]s.example 'ls -la /srv/%[1]s'"}}]}}
`, marker)
	ingestString(t, e, u, "/logs/"+marker+".jsonl", log)
	if _, err := e.People.CreateEntity(ctx, u, factbase.Entity{Name: marker + " Person"}); err != nil {
		t.Fatalf("CreateEntity: %v", err)
	}
	if _, err := e.GenerateSheet(ctx, u, core.SheetOptions{}); err != nil {
		t.Fatalf("GenerateSheet: %v", err)
	}
	if _, err := s.EnqueueJob(ctx, factbase.Job{ID: "job-" + marker, User: u, Kind: "remember", Input: "remember " + marker, MaxAttempts: 1}); err != nil {
		t.Fatalf("EnqueueJob: %v", err)
	}
	_, k, err := factbase.NewKey(u, "key of "+marker, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateKey(ctx, k); err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
}

// UserRows returns what the store counts as user u's rows, per table.
func UserRows(t *testing.T, s factbase.Store, u factbase.UserID) map[string]int64 {
	t.Helper()
	var out map[string]int64
	err := s.View(context.Background(), u, func(tx factbase.ReadTx) error {
		var err error
		out, err = tx.UserRows(context.Background())
		return err
	})
	if err != nil {
		t.Fatalf("UserRows: %v", err)
	}
	return out
}

// userView is what a user can read back through the engine, as text.
func userView(t *testing.T, e *memory.Engine, u factbase.UserID, marker string) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	facts, err := e.Facts(ctx, u, factbase.FactFilter{History: true})
	if err != nil {
		t.Fatalf("Facts: %v", err)
	}
	for _, f := range facts {
		fmt.Fprintf(&b, "fact %s %s=%s current=%v\n", f.ID, f.Key, f.Value, f.Current)
	}
	eps, err := e.Ingest.Episodes(ctx, u, factbase.EpisodeFilter{})
	if err != nil {
		t.Fatalf("Episodes: %v", err)
	}
	for _, ep := range eps.Episodes {
		fmt.Fprintf(&b, "episode %s %s\n", ep.ID, ep.Content)
	}
	ents, err := e.People.Entities(ctx, u, true, 0, core.MaxPageSize)
	if err != nil {
		t.Fatalf("Entities: %v", err)
	}
	for _, en := range ents.Entities {
		fmt.Fprintf(&b, "entity %s %s\n", en.ID, en.Name)
	}
	sessions, _, err := e.Ingest.TranscriptSessions(ctx, u, "", 0, 0)
	if err != nil {
		t.Fatalf("TranscriptSessions: %v", err)
	}
	for _, s := range sessions {
		fmt.Fprintf(&b, "session %s %s\n", s.ID, s.File)
	}
	hits, err := e.Retrieve.Search(ctx, u, marker, retrieve.SearchOptions{})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	for _, h := range hits.Hits {
		fmt.Fprintf(&b, "hit %s %s %s\n", h.Kind, h.ID, h.Text)
	}
	return b.String()
}

// testEraseUser erases one user with data in every feature and checks that nothing
// of theirs is left, that another user's data is untouched, and that the erased user
// can start again.
func testEraseUser(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	a, b := NewUser(), NewUser()
	PopulateUser(t, s, e, a, "zorblat")
	PopulateUser(t, s, e, b, "quintex")
	beforeB := userView(t, e, b, "quintex")
	rowsB := UserRows(t, s, b)

	rowsA := UserRows(t, s, a)
	for _, table := range []string{"facts", "episodes"} {
		if rowsA[table] == 0 {
			t.Fatalf("before erasure user A owns no %s rows: %v", table, rowsA)
		}
	}
	if v := userView(t, e, a, "zorblat"); !strings.Contains(v, "zorblat") {
		t.Fatalf("before erasure user A reads back no marker:\n%s", v)
	}

	res, err := e.EraseUser(ctx, a)
	if err != nil {
		t.Fatalf("EraseUser: %v", err)
	}
	if res.User != a || res.Removed["facts"] == 0 || res.Removed["episodes"] == 0 || res.Total < res.Removed["facts"] {
		t.Errorf("EraseUser = %+v; want facts and episodes removed and a total", res)
	}
	if left := UserRows(t, s, a); len(left) != 0 {
		t.Errorf("after erasure user A still owns %v", left)
	}
	if v := userView(t, e, a, "zorblat"); v != "" {
		t.Errorf("after erasure user A reads back:\n%s", v)
	}
	if _, err := e.SavedSheet(ctx, a); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("SavedSheet after erasure: %v, want not found", err)
	}
	keys, err := s.Keys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if k.User == a {
			t.Errorf("key %s of the erased user is still stored", k.ID)
		}
	}
	if _, err := s.Job(ctx, "job-zorblat"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("job of the erased user: %v, want not found", err)
	}
	if _, err := s.Job(ctx, "job-quintex"); err != nil {
		t.Errorf("job of the other user: %v", err)
	}

	// The other user is untouched.
	if after := userView(t, e, b, "quintex"); after != beforeB {
		t.Errorf("user B changed:\nbefore\n%s\nafter\n%s", beforeB, after)
	}
	if after := UserRows(t, s, b); fmt.Sprint(after) != fmt.Sprint(rowsB) {
		t.Errorf("user B rows %v, want %v", after, rowsB)
	}

	// Again: nothing to erase.
	if _, err := e.EraseUser(ctx, a); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("second EraseUser: %v, want not found", err)
	}
	if _, err := e.EraseUser(ctx, "not-a-uuid"); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("EraseUser(not-a-uuid): %v, want invalid", err)
	}
	// The user can start again, with nothing of the old data.
	apply(t, e, a, add("contact.email", "new@example.com"))
	if got, err := e.Get(ctx, a, "", "contact.email", nil); err != nil || len(got) != 1 || got[0].Value != "new@example.com" {
		t.Errorf("after a new write user A reads %v, %v", got, err)
	}
	if hist, err := historyOf(ctx, e, a, "contact.email"); err != nil || len(hist) != 1 {
		t.Errorf("history after a new write: %d versions, %v; want 1", len(hist), err)
	}
	if res, err := e.EraseUser(ctx, a); err != nil || res.Removed["facts"] != 1 {
		t.Errorf("EraseUser of the new data: %+v, %v; want one fact removed", res, err)
	}
}

// testEraseLargeUser: a user with more rows than one erasure batch is erased in
// several transactions; every row goes, the tally counts each once, and another
// user's data stays.
func testEraseLargeUser(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e, u := newEngine(s)
	other := NewUser()
	const n = 2*core.EraseBatch + 300
	var ops []factbase.Op
	for i := range n {
		ops = append(ops, add(fmt.Sprintf("favorites.big%d", i%3), fmt.Sprintf("member-%05d", i)))
	}
	for i := 0; i < len(ops); i += 1000 {
		apply(t, e, u, ops[i:min(len(ops), i+1000)]...)
	}
	apply(t, e, other, add("contact.email", "other@example.com"))
	before := UserRows(t, s, u)
	res, err := e.EraseUser(ctx, u)
	if err != nil {
		t.Fatalf("EraseUser: %v", err)
	}
	if res.Removed["facts"] != n || res.Removed["list_events"] != before["list_events"] ||
		res.Removed["fact_references"] != before["fact_references"] {
		t.Errorf("removed %v, want every row of %v", res.Removed, before)
	}
	if left := UserRows(t, s, u); len(left) != 0 {
		t.Errorf("after erasure the user owns %v", left)
	}
	if got, err := e.Get(ctx, other, "", "contact.email", nil); err != nil || len(got) != 1 {
		t.Errorf("the other user's email: %v %v", got, err)
	}
}
