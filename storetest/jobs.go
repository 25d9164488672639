package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
)

// testJobs checks a store's durable job queue (factbase.JobStore, with
// Tx.CompleteJob in the write path's transactions).
func testJobs(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u1, u2 := NewUser(), NewUser()
	n := 0
	enqueue := func(t *testing.T, u factbase.UserID, kind string, max int) factbase.Job {
		t.Helper()
		n++
		j, err := s.EnqueueJob(ctx, factbase.Job{ID: fmt.Sprintf("job-%03d", n), User: u, Kind: kind, Input: "msg", MaxAttempts: max})
		if err != nil {
			t.Fatalf("EnqueueJob: %v", err)
		}
		return j
	}
	claim := func(t *testing.T, lease time.Duration, kinds ...string) (factbase.Job, bool) {
		t.Helper()
		j, ok, err := s.ClaimJob(ctx, lease, factbase.JobClaim{Kinds: kinds})
		if err != nil {
			t.Fatalf("ClaimJob: %v", err)
		}
		return j, ok
	}
	// complete runs the completion in a write-path transaction with one fact.
	complete := func(j factbase.Job, lease, value string) error {
		_, err := e.ApplyWith(ctx, j.User, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "job.value", Value: value}}},
			func(wr *core.Writer) error {
				tx := wr.Tx()
				return tx.CompleteJob(ctx, j.ID, lease, factbase.JobOutcome{Result: json.RawMessage(`{"stored":1}`), PromptTokens: 5, CompletionTokens: 2, Cost: 0.5})
			})
		return err
	}
	drain := func(t *testing.T) {
		t.Helper()
		for {
			j, ok := claim(t, time.Hour)
			if !ok {
				return
			}
			if _, err := s.FailJob(ctx, j.ID, j.Lease, factbase.JobFailure{Dead: true, Code: factbase.EINTERNAL, Message: "drained"}); err != nil {
				t.Fatal(err)
			}
		}
	}

	t.Run("enqueue validates", func(t *testing.T) {
		cases := []struct {
			name string
			j    factbase.Job
			code string
		}{
			{name: "no id", j: factbase.Job{User: u1, Kind: "k", MaxAttempts: 1}, code: factbase.EINVALID},
			{name: "bad user", j: factbase.Job{ID: "x1", User: "alice", Kind: "k", MaxAttempts: 1}, code: factbase.EINVALID},
			{name: "no kind", j: factbase.Job{ID: "x2", User: u1, MaxAttempts: 1}, code: factbase.EINVALID},
			{name: "no attempts", j: factbase.Job{ID: "x3", User: u1, Kind: "k"}, code: factbase.EINVALID},
		}
		for _, tc := range cases {
			if _, err := s.EnqueueJob(ctx, tc.j); factbase.ErrorCode(err) != tc.code {
				t.Errorf("%s: EnqueueJob error %v, want %s", tc.name, err, tc.code)
			}
		}
		j := enqueue(t, u1, "k", 3)
		if j.State != factbase.JobQueued || j.Attempts != 0 || j.MaxAttempts != 3 || j.RunAt.IsZero() || j.CreatedAt.IsZero() || j.Lease != "" {
			t.Errorf("enqueued job = %+v, want queued, 0 of 3 attempts, run now, no lease", j)
		}
		if _, err := s.EnqueueJob(ctx, factbase.Job{ID: j.ID, User: u1, Kind: "k", MaxAttempts: 1}); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Errorf("enqueueing a taken id: %v, want ECONFLICT", err)
		}
		drain(t)
	})

	t.Run("claim order, kinds and leases", func(t *testing.T) {
		a := enqueue(t, u1, "a", 3)
		b := enqueue(t, u2, "b", 3)
		c := enqueue(t, u1, "a", 3)
		got, ok := claim(t, time.Hour, "b")
		if !ok || got.ID != b.ID {
			t.Fatalf("claim of kind b = %v %v, want %s", got.ID, ok, b.ID)
		}
		if got.State != factbase.JobRunning || got.Attempts != 1 || got.Lease == "" || got.LeaseUntil == nil {
			t.Errorf("claimed job = %+v, want running, attempt 1, with a lease", got)
		}
		first, _ := claim(t, time.Hour)
		second, _ := claim(t, time.Hour)
		if first.ID != a.ID || second.ID != c.ID {
			t.Errorf("claims = %s, %s; want the oldest first: %s, %s", first.ID, second.ID, a.ID, c.ID)
		}
		if j, ok := claim(t, time.Hour); ok {
			t.Errorf("claimed %s while every job is leased", j.ID)
		}
		if err := s.ExtendJob(ctx, first.ID, "not-the-lease", time.Hour); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Errorf("ExtendJob with a wrong lease: %v, want ECONFLICT", err)
		}
		if err := s.ExtendJob(ctx, first.ID, first.Lease, 2*time.Hour); err != nil {
			t.Errorf("ExtendJob: %v", err)
		}
		if err := s.ReleaseJob(ctx, second.ID, second.Lease); err != nil {
			t.Fatalf("ReleaseJob: %v", err)
		}
		again, ok := claim(t, time.Hour)
		if !ok || again.ID != second.ID || again.Attempts != 1 {
			t.Errorf("after release, claim = %s attempt %d; want %s at attempt 1 (a release does not count)", again.ID, again.Attempts, second.ID)
		}
		for _, j := range []factbase.Job{got, first, again} {
			if _, err := s.FailJob(ctx, j.ID, j.Lease, factbase.JobFailure{Dead: true, Message: "test"}); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("fail, backoff and dead letter", func(t *testing.T) {
		j := enqueue(t, u1, "k", 2)
		c1, _ := claim(t, time.Hour)
		f, err := s.FailJob(ctx, c1.ID, c1.Lease, factbase.JobFailure{Code: factbase.ETIMEOUT, Message: "model timed out",
			RetryIn: time.Hour, PromptTokens: 10, CompletionTokens: 0, Cost: 0.25})
		if err != nil {
			t.Fatalf("FailJob: %v", err)
		}
		if f.State != factbase.JobQueued || f.Error != "model timed out" || f.ErrorCode != factbase.ETIMEOUT ||
			!f.RunAt.After(c1.UpdatedAt.Add(59*time.Minute)) || f.PromptTokens != 10 || f.Cost != 0.25 || f.LeaseUntil != nil {
			t.Errorf("after a failure, job = %+v; want queued an hour later with the error and usage", f)
		}
		if k, ok := claim(t, time.Hour); ok {
			t.Errorf("claimed %s during its backoff", k.ID)
		}
		if _, err := s.FailJob(ctx, c1.ID, c1.Lease, factbase.JobFailure{Message: "again"}); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Errorf("failing a job no longer held: %v, want ECONFLICT", err)
		}
		// Make it runnable again by hand: retry refuses a queued job.
		if _, err := s.RetryJob(ctx, j.ID, factbase.JobRetry{}); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Errorf("RetryJob of a queued job: %v, want ECONFLICT", err)
		}
		if _, err := s.RetryJob(ctx, "no-such-job", factbase.JobRetry{}); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("RetryJob of an unknown job: %v, want ENOTFOUND", err)
		}

		d := enqueue(t, u1, "k", 2)
		c2, _ := claim(t, time.Hour)
		if c2.ID != d.ID {
			t.Fatalf("claimed %s, want %s", c2.ID, d.ID)
		}
		f2, _ := s.FailJob(ctx, c2.ID, c2.Lease, factbase.JobFailure{Message: "first"})
		if f2.State != factbase.JobQueued {
			t.Fatalf("after attempt 1 of 2: %s, want queued", f2.State)
		}
		c3, _ := claim(t, time.Hour)
		dead, err := s.FailJob(ctx, c3.ID, c3.Lease, factbase.JobFailure{Code: factbase.EINVALID, Message: "second", RetryIn: time.Minute})
		if err != nil || dead.State != factbase.JobDead || dead.FinishedAt == nil || dead.Attempts != 2 || dead.Error != "second" {
			t.Fatalf("after attempt 2 of 2: %+v, %v; want dead with the last error", dead, err)
		}
		r, err := s.RetryJob(ctx, d.ID, factbase.JobRetry{})
		if err != nil || r.State != factbase.JobQueued || r.Attempts != 0 || r.FinishedAt != nil {
			t.Fatalf("RetryJob = %+v, %v; want queued with attempts reset", r, err)
		}
		c4, _ := claim(t, time.Hour)
		if c4.ID != d.ID || c4.Attempts != 1 {
			t.Errorf("after retry, claimed %s attempt %d; want %s attempt 1", c4.ID, c4.Attempts, d.ID)
		}
		now, err := s.FailJob(ctx, c4.ID, c4.Lease, factbase.JobFailure{Dead: true, Message: "permanent"})
		if err != nil || now.State != factbase.JobDead || now.Attempts != 1 {
			t.Errorf("a dead failure = %+v, %v; want dead at once", now, err)
		}
	})

	t.Run("expired lease is claimed again; the old holder cannot complete", func(t *testing.T) {
		drain(t)
		j := enqueue(t, u1, "k", 3)
		old, _ := claim(t, time.Millisecond)
		time.Sleep(10 * time.Millisecond)
		cur, ok := claim(t, time.Hour)
		if !ok || cur.ID != j.ID || cur.Attempts != 2 || cur.Lease == old.Lease {
			t.Fatalf("claim after expiry = %+v %v; want %s at attempt 2 with a new lease", cur, ok, j.ID)
		}
		if err := complete(old, old.Lease, "stale"); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Fatalf("completing with an expired lease: %v, want ECONFLICT", err)
		}
		if facts, _ := e.Get(ctx, u1, "", "job.value", nil); len(facts) != 0 {
			t.Fatalf("the stale completion's fact was written: %+v", facts)
		}
		if err := complete(cur, cur.Lease, "v1"); err != nil {
			t.Fatalf("completing with the current lease: %v", err)
		}
		done, err := s.Job(ctx, j.ID)
		if err != nil || done.State != factbase.JobDone || string(done.Result) != `{"stored":1}` || done.PromptTokens != 5 ||
			done.CompletionTokens != 2 || done.Cost != 0.5 || done.FinishedAt == nil || done.LeaseUntil != nil {
			t.Fatalf("completed job = %+v, %v", done, err)
		}
		if facts, _ := e.Get(ctx, u1, "", "job.value", nil); len(facts) != 1 || facts[0].Value != "v1" {
			t.Fatalf("facts after completion = %+v, want v1", facts)
		}
		if err := complete(cur, cur.Lease, "v2"); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Errorf("completing a done job again: %v, want ECONFLICT", err)
		}
		if k, ok := claim(t, time.Millisecond); ok {
			t.Errorf("claimed %s, a done job", k.ID)
		}
		// Another user's transaction cannot complete the job.
		k := enqueue(t, u1, "k", 3)
		kc, _ := claim(t, time.Hour)
		other := kc
		other.User = u2
		if err := complete(other, kc.Lease, "x"); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Errorf("completing u1's job in u2's transaction: %v, want ECONFLICT", err)
		}
		if err := complete(kc, kc.Lease, "v3"); err != nil || kc.ID != k.ID {
			t.Errorf("completing %s: %v", k.ID, err)
		}
	})

	t.Run("lease expired on the last attempt", func(t *testing.T) {
		drain(t)
		j := enqueue(t, u2, "k", 1)
		claim(t, time.Millisecond)
		time.Sleep(10 * time.Millisecond)
		if k, ok := claim(t, time.Hour); ok {
			t.Fatalf("claimed %s after its last attempt's lease expired", k.ID)
		}
		dead, err := s.Job(ctx, j.ID)
		if err != nil || dead.State != factbase.JobDead || dead.Error == "" || dead.ErrorCode != factbase.EUNAVAILABLE {
			t.Errorf("job = %+v, %v; want dead with the lease expiry as its reason", dead, err)
		}
	})

	t.Run("list and usage", func(t *testing.T) {
		list, err := s.Jobs(ctx, factbase.JobFilter{User: u1})
		if err != nil {
			t.Fatal(err)
		}
		for i, j := range list {
			if j.User != u1 {
				t.Errorf("Jobs(user u1) returned a job of %s", j.User)
			}
			if i > 0 && list[i-1].CreatedAt.Before(j.CreatedAt) {
				t.Errorf("Jobs is not newest first at %d", i)
			}
		}
		done, _ := s.Jobs(ctx, factbase.JobFilter{State: factbase.JobDone})
		if len(done) != 2 {
			t.Errorf("%d done jobs, want 2", len(done))
		}
		page1, _ := s.Jobs(ctx, factbase.JobFilter{Limit: 2})
		if len(page1) != 2 {
			t.Fatalf("page of 2 = %d jobs", len(page1))
		}
		page2, _ := s.Jobs(ctx, factbase.JobFilter{Limit: 2, Before: page1[1].ID})
		if len(page2) == 0 || page2[0].ID >= page1[1].ID {
			t.Errorf("next page starts at %v, want jobs older than %s", page2, page1[1].ID)
		}
		if _, err := s.Jobs(ctx, factbase.JobFilter{State: "lost"}); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("Jobs(state lost): %v, want EINVALID", err)
		}
		if _, err := s.Job(ctx, "nope"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
			t.Errorf("Job(nope): %v, want ENOTFOUND", err)
		}
		all, err := s.JobUsage(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		mine, _ := s.JobUsage(ctx, u1)
		if all.Jobs[factbase.JobDone] != 2 || mine.Jobs[factbase.JobDone] != 2 || mine.PromptTokens != 20 || mine.CompletionTokens != 4 ||
			mine.Cost != 1.25 || all.PromptTokens < mine.PromptTokens {
			t.Errorf("usage all %+v, u1 %+v; want 2 done, 20+4 tokens and $1.25 for u1", all, mine)
		}
	})

	t.Run("concurrent claims take each job once", func(t *testing.T) {
		drain(t)
		const jobs, workers = 60, 4
		for i := 0; i < jobs; i++ {
			enqueue(t, u1, "c", 1)
		}
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					j, ok, err := s.ClaimJob(ctx, time.Hour, factbase.JobClaim{Kinds: []string{"c"}})
					if err != nil {
						t.Error(err)
						return
					}
					if !ok {
						return
					}
					mu.Lock()
					seen[j.ID]++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(seen) != jobs {
			t.Errorf("%d distinct jobs claimed, want %d", len(seen), jobs)
		}
		for id, k := range seen {
			if k != 1 {
				t.Errorf("job %s claimed %d times", id, k)
			}
		}
	})
	t.Run("scrub the jobs that hold a value", func(t *testing.T) {
		drain(t)
		mk := func(u factbase.UserID, id, input string) {
			t.Helper()
			if _, err := s.EnqueueJob(ctx, factbase.Job{ID: id, User: u, Kind: "scrub", Input: input, MaxAttempts: 1}); err != nil {
				t.Fatal(err)
			}
		}
		mk(u1, "scrub-a", "my email is zorblat@example.com")
		mk(u1, "scrub-b", "my email is other@example.com")
		mk(u2, "scrub-c", "zorblat@example.com is u2's too")
		var n int
		err := s.Update(ctx, u1, func(tx factbase.Tx) (err error) {
			n, err = tx.ScrubJobs(ctx, []string{"", "zorblat@example.com"})
			return err
		})
		if err != nil || n != 1 {
			t.Fatalf("ScrubJobs = %d %v, want 1", n, err)
		}
		for id, want := range map[string]string{"scrub-a": "", "scrub-b": "my email is other@example.com",
			"scrub-c": "zorblat@example.com is u2's too"} {
			j, err := s.Job(ctx, id)
			if err != nil || j.Input != want {
				t.Errorf("job %s input %q %v, want %q", id, j.Input, err, want)
			}
		}
		drain(t)
	})
	t.Run("a job claimed only by its model; deferred; retargeted", func(t *testing.T) {
		drain(t)
		mk := func(id, model, endpoint string) {
			t.Helper()
			if _, err := s.EnqueueJob(ctx, factbase.Job{ID: id, User: u2, Kind: "m", Input: "msg", MaxAttempts: 1,
				Model: model, Endpoint: endpoint}); err != nil {
				t.Fatal(err)
			}
		}
		mk("model-a", "m1", "http://a/v1")
		mk("model-b", "m2", "http://b/v1")
		mk("model-none", "", "")
		if _, err := s.EnqueueJob(ctx, factbase.Job{ID: "model-bad", User: u2, Kind: "m", Input: "x", MaxAttempts: 1,
			Endpoint: "http://a/v1"}); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("a job with an endpoint and no model: %v, want EINVALID", err)
		}
		if j, err := s.Job(ctx, "model-a"); err != nil || j.Model != "m1" || j.Endpoint != "http://a/v1" {
			t.Fatalf("stored job %+v %v; want its model and endpoint", j, err)
		}
		claimAs := func(c factbase.JobClaim) (factbase.Job, bool) {
			t.Helper()
			j, ok, err := s.ClaimJob(ctx, time.Hour, c)
			if err != nil {
				t.Fatal(err)
			}
			return j, ok
		}
		// A worker without a model takes only the job that needs none.
		j, ok := claimAs(factbase.JobClaim{})
		if !ok || j.ID != "model-none" {
			t.Fatalf("a worker without a model claimed %q %v; want model-none", j.ID, ok)
		}
		if _, ok := claimAs(factbase.JobClaim{}); ok {
			t.Fatal("a worker without a model claimed a job queued for a model")
		}
		// The same model name at another endpoint is another model.
		if j, ok := claimAs(factbase.JobClaim{Model: "m1", Endpoint: "http://b/v1"}); ok {
			t.Fatalf("m1 at endpoint b claimed %s", j.ID)
		}
		// By id: only that job, though another is older.
		j, ok = claimAs(factbase.JobClaim{ID: "model-b", Model: "m2", Endpoint: "http://b/v1"})
		if !ok || j.ID != "model-b" {
			t.Fatalf("claim by id = %q %v; want model-b", j.ID, ok)
		}
		// Deferred: queued until later, the attempt not counted, the reason kept.
		until := time.Now().Add(time.Hour)
		d, err := s.DeferJob(ctx, j.ID, j.Lease, until, "the daily token budget is spent")
		if err != nil || d.State != factbase.JobQueued || d.Attempts != 0 || d.ErrorCode != factbase.JobDeferredCode ||
			d.Error != "the daily token budget is spent" || d.RunAt.Before(until.Add(-time.Second)) {
			t.Fatalf("DeferJob = %+v, %v; want queued until later, attempt not counted, the reason kept", d, err)
		}
		if _, err := s.DeferJob(ctx, j.ID, j.Lease, until, "again"); factbase.ErrorCode(err) != factbase.ECONFLICT {
			t.Errorf("deferring a job no longer held: %v, want ECONFLICT", err)
		}
		if j, ok := claimAs(factbase.JobClaim{Model: "m2", Endpoint: "http://b/v1"}); ok {
			t.Fatalf("claimed %s before its deferral ended", j.ID)
		}
		// A dead job retried for another model is claimed by that model's worker.
		a, ok := claimAs(factbase.JobClaim{Model: "m1", Endpoint: "http://a/v1"})
		if !ok || a.ID != "model-a" {
			t.Fatalf("m1 claimed %q %v; want model-a", a.ID, ok)
		}
		if _, err := s.FailJob(ctx, a.ID, a.Lease, factbase.JobFailure{Dead: true, Message: "down", PromptTokens: 7,
			CompletionTokens: 3}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RetryJob(ctx, a.ID, factbase.JobRetry{Retarget: true, Endpoint: "http://c/v1"}); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("retargeting to an endpoint without a model: %v, want EINVALID", err)
		}
		r, err := s.RetryJob(ctx, a.ID, factbase.JobRetry{Retarget: true, Model: "m3", Endpoint: "http://c/v1"})
		if err != nil || r.Model != "m3" || r.Endpoint != "http://c/v1" || r.State != factbase.JobQueued {
			t.Fatalf("RetryJob retargeted = %+v, %v; want queued for m3 at c", r, err)
		}
		if _, ok := claimAs(factbase.JobClaim{Model: "m1", Endpoint: "http://a/v1"}); ok {
			t.Fatal("the old model claimed a retargeted job")
		}
		if j, ok := claimAs(factbase.JobClaim{Model: "m3", Endpoint: "http://c/v1"}); !ok || j.ID != "model-a" {
			t.Fatalf("the new model claimed %q %v; want model-a", j.ID, ok)
		}
		// Tokens since a time: this user's, and everyone's.
		since := time.Now().Add(-time.Hour)
		if n, err := s.JobTokens(ctx, u2, since); err != nil || n != 10 {
			t.Errorf("JobTokens(u2) = %d %v, want 10", n, err)
		}
		if n, err := s.JobTokens(ctx, u2, time.Now().Add(time.Hour)); err != nil || n != 0 {
			t.Errorf("JobTokens(u2, in an hour) = %d %v, want 0", n, err)
		}
		if n, err := s.JobTokens(ctx, "", since); err != nil || n < 10 {
			t.Errorf("JobTokens(everyone) = %d %v, want at least 10", n, err)
		}
		drain(t)
	})
}
