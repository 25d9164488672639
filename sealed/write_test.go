package sealed_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
)

// newMarker returns a word no store holds unless a test wrote it: "zanzibarquokka"
// and random letters, so that runs on a shared PostgreSQL server never see another
// run's.
func newMarker() string {
	b := make([]byte, 8)
	rand.Read(b)
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return "zanzibarquokka" + string(b)
}

// writeEverything writes texts holding marker m into every sealed field of every
// table, for user u, through the entry points that write them: facts (one-valued,
// with a text; a ranked list, whose list events hold values; a set), a message said,
// an episode with metadata (and the facts extracted from it), a person with an
// alias and an attribute, a conflict, a preference session, a transcript with its
// session's directory, branch and summary, jobs with an input, an error and a
// result, and a saved fact sheet. It returns the ids it wrote, by field.
func writeEverything(t *testing.T, s factbase.Store, u factbase.UserID, m string) map[string]string {
	t.Helper()
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	w := func(field string) string { return m + field }
	ids := map[string]string{}

	res, err := e.Apply(ctx, u, []factbase.Op{
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "pet.name", Value: w("petname") + " the cat", Text: "My cat is called " + w("pettext")}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.books", Value: w("bookone")}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.books", Value: "Dune " + w("booktwo"), Rank: 1}},
		{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "likes", Value: w("like"), Cardinality: factbase.Many}},
	})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	ids["fact"] = res.Facts[0].ID
	if _, err := e.Chat.Say(ctx, u, "My favorite drinks are "+w("drinkone")+" and "+w("drinktwo")); err != nil {
		t.Fatalf("Say: %v", err)
	}
	ep, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{
		// The marker is not a name the patterns read (as "NEXUS" in "NEXUS v2.3.1",
		// which becomes the key nexus.version: keys stay in the clear).
		Content:  "Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2%. Reviewed with " + w("episode") + ".",
		Tags:     []string{"deploy"},
		Metadata: map[string]string{"host": w("metadata")},
	})
	if err != nil {
		t.Fatalf("AddEpisode: %v", err)
	}
	ids["episode"] = ep.Episode.ID

	entity, conflict := e.NewID(), e.NewID()
	ids["entity"], ids["conflict"] = entity, conflict
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		if err := tx.PutEntity(ctx, factbase.Entity{ID: entity, User: u, Name: w("name"), Role: factbase.RoleFriend,
			Relation: "friend", Aliases: []string{w("alias")}, Attributes: map[string]string{"city": w("attribute")}}); err != nil {
			return err
		}
		if err := tx.PutConflict(ctx, factbase.Conflict{ID: conflict, User: u, Subject: factbase.SubjectUser, Key: "pet.name",
			CurrentID: res.Facts[0].ID, CurrentValue: w("current"), Reason: "changed by " + w("reason"),
			Proposed: factbase.Fact{Key: "pet.name", Value: w("proposed"), Text: "My cat is " + w("proposedtext")},
			Status:   factbase.ConflictPending}); err != nil {
			return err
		}
		return tx.NotePreferenceSession(ctx, "comm.length", w("preference"), "s1")
	})
	if err != nil {
		t.Fatalf("people: %v", err)
	}

	log := strings.Join([]string{
		fmt.Sprintf(`{"type":"user","uuid":"u1","sessionId":"s-scan","cwd":"/srv/%s","gitBranch":"%s","timestamp":"2025-06-02T18:46:00Z","message":{"role":"user","content":"Deploy %s now"}}`,
			w("cwd"), w("branch"), w("task")),
		fmt.Sprintf(`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s-scan","timestamp":"2025-06-02T18:47:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ssh root@%s.example.com uptime"}}]}}`,
			w("host")),
		fmt.Sprintf(`{"type":"summary","summary":"Deploying %s","leafUuid":"a1"}`, w("summary")),
	}, "\n") + "\n"
	if _, err := e.Ingest.IngestTranscript(ctx, u, strings.NewReader(log), "session.jsonl", ingest.IngestOptions{}); err != nil {
		t.Fatalf("IngestTranscript: %v", err)
	}

	// Jobs: one failed with a message, one completed with a result.
	failed, done := e.NewID(), e.NewID()
	ids["job"], ids["jobdone"] = failed, done
	for _, id := range []string{failed, done} {
		if _, err := s.EnqueueJob(ctx, factbase.Job{ID: id, User: u, Kind: factbase.JobExtract, Input: "remember " + w("jobinput"), MaxAttempts: 3}); err != nil {
			t.Fatalf("EnqueueJob: %v", err)
		}
	}
	claim := func(id string) factbase.Job {
		t.Helper()
		j, ok, err := s.ClaimJob(ctx, time.Minute, factbase.JobClaim{ID: id})
		if err != nil || !ok {
			t.Fatalf("ClaimJob(%s) = %v, %v", id, ok, err)
		}
		return j
	}
	j := claim(failed)
	if _, err := s.FailJob(ctx, j.ID, j.Lease, factbase.JobFailure{Code: factbase.EINVALID, Message: "the model said " + w("joberror"), RetryIn: time.Hour}); err != nil {
		t.Fatalf("FailJob: %v", err)
	}
	j = claim(done)
	result, _ := json.Marshal(map[string]string{"stored": w("jobresult")})
	if err := s.Update(ctx, u, func(tx factbase.Tx) error {
		return tx.CompleteJob(ctx, j.ID, j.Lease, factbase.JobOutcome{Result: result})
	}); err != nil {
		t.Fatalf("CompleteJob: %v", err)
	}

	sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
	if err != nil {
		t.Fatalf("GenerateSheet: %v", err)
	}
	ids["sheet"] = sh.ID
	return ids
}

// readEverything reads back what writeEverything wrote and returns every text it
// found, joined: the texts must open again.
func readEverything(t *testing.T, s factbase.Store, u factbase.UserID, ids map[string]string) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	add := func(xs ...string) {
		for _, x := range xs {
			b.WriteString(x)
			b.WriteByte('\n')
		}
	}
	err := s.View(ctx, u, func(tx factbase.ReadTx) error {
		fs, err := tx.Facts(ctx, factbase.FactFilter{History: true})
		if err != nil {
			return err
		}
		for _, f := range fs {
			add(f.Value, f.Text)
		}
		evs, err := tx.ListEvents(ctx, factbase.SubjectUser, "favorites.books", time.Now().Add(time.Hour))
		if err != nil {
			return err
		}
		for _, ev := range evs {
			add("event " + ev.Value)
		}
		ep, err := tx.Episode(ctx, ids["episode"])
		if err != nil {
			return err
		}
		add(ep.Content, ep.Metadata["host"])
		en, err := tx.Entity(ctx, ids["entity"])
		if err != nil {
			return err
		}
		add(en.Name, en.Attributes["city"])
		add(en.Aliases...)
		c, err := tx.Conflict(ctx, ids["conflict"])
		if err != nil {
			return err
		}
		add(c.CurrentValue, c.Reason, c.Proposed.Value, c.Proposed.Text)
		ps, err := tx.ExportPreferenceSessions(ctx)
		if err != nil {
			return err
		}
		for _, p := range ps {
			add(p.Norm)
		}
		ss, err := tx.TranscriptSessions(ctx, "", 0, 0)
		if err != nil {
			return err
		}
		for _, s := range ss {
			add(s.CWD, s.GitBranch, s.Summary)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	for _, id := range []string{ids["job"], ids["jobdone"]} {
		j, err := s.Job(ctx, id)
		if err != nil {
			t.Fatalf("Job(%s): %v", id, err)
		}
		add(j.Input, j.Error, string(j.Result))
	}
	sh, err := s.LatestSheet(ctx, u)
	if err != nil {
		t.Fatalf("LatestSheet: %v", err)
	}
	for _, en := range sh.Entries {
		add(en.Text)
	}
	return b.String()
}

// everyField names the fields writeEverything writes a marker into.
var everyField = []string{"petname", "pettext", "bookone", "booktwo", "like", "drinkone", "drinktwo", "episode",
	"metadata", "name", "alias", "attribute", "current", "reason", "proposed", "proposedtext", "preference",
	"cwd", "branch", "task", "host", "summary", "jobinput", "joberror", "jobresult"}

// checkReadBack fails the test unless every field's text was read back.
func checkReadBack(t *testing.T, got, m string) {
	t.Helper()
	for _, f := range everyField {
		if !strings.Contains(got, m+f) {
			t.Errorf("%s%s was not read back", m, f)
		}
	}
	if !strings.Contains(got, "event Dune "+m+"booktwo") {
		t.Error("a list event's value was not read back")
	}
}
