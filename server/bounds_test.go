package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
)

// seedLists gives user A more than core.MaxPageSize of each thing a list route
// returns: entities (one of them, Dana, with that many facts), conflicts, an
// episode's facts (of type "paged") and transcript sessions. It returns Dana's id
// and the episode's.
func seedLists(t *testing.T, e *testEnv) (entity, episode string) {
	t.Helper()
	ctx := context.Background()
	u := factbase.UserID(userA)
	n := core.MaxPageSize + 1
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err := e.store.Update(ctx, u, func(tx factbase.Tx) error {
		for i := range n {
			en := factbase.Entity{ID: fmt.Sprintf("e%04d", i), Name: fmt.Sprintf("Person %d", i), Role: factbase.RoleFriend,
				CreatedAt: created.Add(time.Duration(i) * time.Second)}
			if i == 0 {
				en.Name = "Dana"
			}
			if err := tx.PutEntity(ctx, en); err != nil {
				return err
			}
			if err := tx.PutTranscriptSession(ctx, factbase.TranscriptSession{ID: fmt.Sprintf("s%04d", i), File: "f.jsonl",
				First: created.Add(time.Duration(i) * time.Second)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ops := make([]factbase.Op, n)
	for i := range ops {
		ops[i] = factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: "entity:e0000", Key: fmt.Sprintf("note.n%04d", i), Value: "x"}}
	}
	res, err := e.srv.opts.Engine.Apply(ctx, u, ops)
	if err != nil {
		t.Fatal(err)
	}
	err = e.store.Update(ctx, u, func(tx factbase.Tx) error {
		for i := range n {
			c := factbase.Conflict{ID: fmt.Sprintf("c%04d", i), Subject: "entity:e0000", Key: "note.n0000",
				CurrentID: res.Facts[0].ID, CurrentValue: "x", Proposed: factbase.Fact{Key: "note.n0000", Value: fmt.Sprint(i)},
				Reason: "test", Status: factbase.ConflictPending}
			if err := tx.PutConflict(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	given := make([]factbase.Fact, core.MaxPageSize)
	for i := range given {
		given[i] = factbase.Fact{Key: fmt.Sprintf("paged.k%04d", i), Value: "v", Type: "paged"}
	}
	ep, err := e.srv.opts.Engine.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: "Many facts.", NoExtract: true, Facts: given})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.opts.Engine.Ingest.AddEpisodeFacts(ctx, u, ep.Episode.ID, []factbase.Fact{{Key: "paged.last", Value: "v", Type: "paged"}}); err != nil {
		t.Fatal(err)
	}
	return "e0000", ep.Episode.ID
}

// TestListBounds checks every list route that can hold more than its maximum: the
// default page, a page of the maximum that says more remain, the last page that says
// none do, and a limit over the maximum refused with 422 naming query.limit.
func TestListBounds(t *testing.T) {
	e := newTestEnv(t, nil)
	entity, episode := seedLists(t, e)
	base := "/v1/users/" + userA
	cases := []struct {
		name, path, items string
		def, max          int
	}{
		{"entities", base + "/entities?", "entities", 100, 1000},
		{"entity facts", base + "/entities/" + entity + "?", "facts", 100, 1000},
		{"conflicts", base + "/conflicts?", "conflicts", 100, 1000},
		{"episode facts", base + "/episodes/" + episode + "?", "facts", 100, 1000},
		{"lookup", base + "/lookup?type=paged&", "facts", 10, 1000},
		{"facts", base + "/facts?subject=entity:" + entity + "&", "facts", 100, 1000},
		{"history", base + "/history/note.n0000?subject=entity:" + entity + "&", "versions", 100, 1000},
		{"transcript sessions", base + "/transcripts/sessions?", "sessions", 100, 1000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			count := func(query string) (int, bool) {
				t.Helper()
				var body map[string]json.RawMessage
				e.ok("GET", tc.path+query, e.keyA, "", &body)
				var items []json.RawMessage
				if err := json.Unmarshal(body[tc.items], &items); err != nil {
					t.Fatalf("GET %s%s: %s is not a list: %v", tc.path, query, tc.items, err)
				}
				var more bool
				json.Unmarshal(body["more"], &more)
				return len(items), more
			}
			if tc.name == "history" { // a key's versions: one here, so only the bounds
				if n, more := count(""); n != 1 || more {
					t.Errorf("history: %d versions, more %v; want 1, false", n, more)
				}
			} else {
				if n, more := count(""); n != tc.def || !more {
					t.Errorf("default page: %d items, more %v; want %d and more", n, more, tc.def)
				}
				if n, more := count(fmt.Sprintf("limit=%d", tc.max)); n != tc.max || !more {
					t.Errorf("limit %d: %d items, more %v; want %d and more", tc.max, n, more, tc.max)
				}
				if n, more := count(fmt.Sprintf("limit=%d&offset=%d", tc.max, tc.max)); n != 1 || more {
					t.Errorf("offset %d: %d items, more %v; want the last one, no more", tc.max, n, more)
				}
			}
			for _, q := range []string{fmt.Sprintf("limit=%d", tc.max+1), "offset=-1"} {
				r := e.do("GET", tc.path+q, e.keyA, "")
				if r.status != http.StatusUnprocessableEntity {
					t.Errorf("GET %s%s = %d, want 422", tc.path, q, r.status)
					continue
				}
				p := r.problem(t)
				param := "query." + strings.SplitN(q, "=", 2)[0]
				if len(p.Errors) == 0 || p.Errors[0].Location != param {
					t.Errorf("GET %s%s: problem %+v does not name %s", tc.path, q, p, param)
				}
			}
		})
	}
}

// TestSmallPages checks the paging of the routes whose maximum is too large to
// seed: transcript facts and objects, jobs (a cursor) and the backfill.
func TestSmallPages(t *testing.T) {
	e := newTestEnv(t, nil)
	ctx := context.Background()
	u := factbase.UserID(userA)
	base := "/v1/users/" + userA

	var ops []factbase.Op
	for i := range 3 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: fmt.Sprintf("action_%d", i), Key: "used_tool",
			Value: fmt.Sprintf("tool%d", i), Cardinality: factbase.Many, Source: factbase.Source{Kind: factbase.SourceTranscript, ID: "f:1"}}})
	}
	if _, err := e.srv.opts.Engine.Apply(ctx, u, ops); err != nil {
		t.Fatal(err)
	}
	var facts struct {
		Facts []transcriptFact `json:"facts"`
		More  bool             `json:"more"`
	}
	e.ok("GET", base+"/transcripts/facts?limit=2", e.keyA, "", &facts)
	if len(facts.Facts) != 2 || !facts.More {
		t.Errorf("transcript facts, limit 2: %d, more %v; want 2 and more", len(facts.Facts), facts.More)
	}
	e.ok("GET", base+"/transcripts/facts?limit=2&offset=2", e.keyA, "", &facts)
	if len(facts.Facts) != 1 || facts.More {
		t.Errorf("transcript facts, offset 2: %d, more %v; want 1, no more", len(facts.Facts), facts.More)
	}
	var objs struct {
		Objects []factbase.TranscriptObject `json:"objects"`
		More    bool                        `json:"more"`
	}
	e.ok("GET", base+"/transcripts/objects?limit=2", e.keyA, "", &objs)
	if len(objs.Objects) != 2 || !objs.More {
		t.Errorf("transcript objects, limit 2: %d, more %v; want 2 and more", len(objs.Objects), objs.More)
	}
	for _, path := range []string{"/transcripts/facts?limit=10001", "/transcripts/objects?limit=10001", "/jobs?limit=1001"} {
		if r := e.do("GET", base+path, e.keyA, ""); r.status != http.StatusUnprocessableEntity {
			t.Errorf("GET %s = %d, want 422", path, r.status)
		}
	}

	// Jobs: newest first, paged by the cursor "next".
	var ids []string
	for i := range 3 {
		j, err := e.store.EnqueueJob(ctx, factbase.Job{ID: fmt.Sprintf("0190000%d-0000-7000-8000-000000000000", i), User: u,
			Kind: factbase.JobRemember, Input: "hi", MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	var jobs jobList
	e.ok("GET", base+"/jobs?limit=2", e.keyA, "", &jobs)
	if len(jobs.Jobs) != 2 || jobs.Next != jobs.Jobs[1].ID {
		t.Fatalf("jobs, limit 2: %d, next %q; want 2 and next the second", len(jobs.Jobs), jobs.Next)
	}
	var last jobList
	e.ok("GET", base+"/jobs?limit=2&before="+jobs.Next, e.keyA, "", &last)
	if len(last.Jobs) != 1 || last.Jobs[0].ID != ids[0] || last.Next != "" {
		t.Errorf("jobs, second page: %+v; want the oldest job and no next", last)
	}

	// Backfill: at most about limit episodes a call, and what remains.
	for range 3 {
		e.ok("POST", base+"/episodes", e.keyA, `{"content": "NEXUS v2.3.1 deployed.", "no_extract": true}`, nil)
	}
	var bf ingest.BackfillResult
	e.ok("POST", base+"/episodes/backfill?limit=1", e.keyA, "", &bf)
	if bf.Episodes != 1 || bf.Remaining != 2 {
		t.Errorf("backfill, limit 1: %+v; want 1 episode, 2 remaining", bf)
	}
	e.ok("POST", base+"/episodes/backfill", e.keyA, "", &bf)
	if bf.Episodes != 2 || bf.Remaining != 0 {
		t.Errorf("backfill: %+v; want 2 episodes, 0 remaining", bf)
	}
	if r := e.do("POST", base+"/episodes/backfill?limit=10001", e.keyA, ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("backfill, limit 10001 = %d, want 422", r.status)
	}
}
