package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/jobs"
)

// TestRememberJobs: POST /memories enqueues and answers 202 at once; a worker (rules
// only) processes the job; GET /v1/jobs/{id} shows it to its user and hides it from
// another.
func TestRememberJobs(t *testing.T) {
	env := newTestEnv(t, nil)
	r := env.do("POST", "/v1/users/"+userA+"/memories", env.keyA, `{"text":"My email is ann@example.com."}`)
	if r.status != http.StatusAccepted {
		t.Fatalf("POST memories = %d %s, want 202", r.status, r.body)
	}
	var j factbase.Job
	r.json(t, &j)
	if j.ID == "" || j.State != factbase.JobQueued || j.User != userA || strings.Contains(string(r.body), "lease") {
		t.Fatalf("POST memories returned %s, want a queued job of user A without its lease", r.body)
	}
	// Nothing is written until a worker runs the job.
	if facts, _ := env.srv.opts.Engine.Get(context.Background(), userA, "", "contact.email", nil); len(facts) != 0 {
		t.Fatalf("the message was applied synchronously: %+v", facts)
	}
	w, err := jobs.NewWorkers(env.srv.opts.Engine.Jobs, jobs.WorkerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := w.RunOne(context.Background()); !ok || err != nil {
		t.Fatalf("RunOne = %v, %v", ok, err)
	}
	var got factbase.Job
	env.ok("GET", "/v1/jobs/"+j.ID, env.keyA, "", &got)
	if got.State != factbase.JobDone || !strings.Contains(string(got.Result), `"stored":1`) {
		t.Errorf("GET job = %+v (result %s), want done with one fact stored", got, got.Result)
	}
	if facts, _ := env.srv.opts.Engine.Get(context.Background(), userA, "", "contact.email", nil); len(facts) != 1 {
		t.Errorf("after the job, contact.email = %+v", facts)
	}
	env.ok("GET", "/v1/jobs/"+j.ID, env.app, "", &got) // an application key sees every user's jobs
	if r := env.do("GET", "/v1/jobs/"+j.ID, env.keyB, ""); r.status != http.StatusNotFound {
		t.Errorf("user B's key reading A's job = %d, want 404", r.status)
	}
	if r := env.do("GET", "/v1/jobs/no-such-job", env.app, ""); r.status != http.StatusNotFound {
		t.Errorf("unknown job = %d, want 404", r.status)
	}
	var list jobList
	env.ok("GET", "/v1/users/"+userA+"/jobs?state=done", env.keyA, "", &list)
	if len(list.Jobs) != 1 || list.Jobs[0].ID != j.ID {
		t.Errorf("list of done jobs = %+v", list.Jobs)
	}
	if r := env.do("GET", "/v1/users/"+userA+"/jobs", env.keyB, ""); r.status != http.StatusForbidden {
		t.Errorf("user B listing A's jobs = %d, want 403", r.status)
	}
	var usage factbase.JobUsage
	env.ok("GET", "/v1/users/"+userA+"/jobs/usage", env.keyA, "", &usage)
	if usage.Jobs[factbase.JobDone] != 1 || usage.PromptTokens != 0 {
		t.Errorf("usage = %+v, want one done job and no model tokens", usage)
	}
	if r := env.do("GET", "/v1/users/"+userA+"/jobs/usage", env.keyB, ""); r.status != http.StatusForbidden {
		t.Errorf("user B reading A's usage = %d, want 403", r.status)
	}
	if r := env.do("POST", "/v1/jobs/"+j.ID+"/retry", env.keyA, ""); r.status != http.StatusConflict {
		t.Errorf("retrying a done job = %d, want 409", r.status)
	}
	cases := []struct {
		name, body string
		status     int
	}{
		{name: "empty text", body: `{"text":""}`, status: http.StatusUnprocessableEntity},
		{name: "white space", body: `{"text":"   "}`, status: http.StatusUnprocessableEntity},
		{name: "no text", body: `{}`, status: http.StatusUnprocessableEntity},
	}
	for _, tc := range cases {
		if r := env.do("POST", "/v1/users/"+userA+"/memories", env.keyA, tc.body); r.status != tc.status {
			t.Errorf("%s: POST memories = %d %s, want %d", tc.name, r.status, r.body, tc.status)
		}
	}
	if r := env.do("POST", "/v1/users/"+userA+"/memories", env.keyB, `{"text":"hi"}`); r.status != http.StatusForbidden {
		t.Errorf("user B remembering for A = %d, want 403", r.status)
	}
}

// TestRememberJobRetry: a dead job shows its reason and is queued again by retry.
func TestRememberJobRetry(t *testing.T) {
	env := newTestEnv(t, nil)
	var j factbase.Job
	env.do("POST", "/v1/users/"+userA+"/memories", env.keyA, `{"text":"I play chess."}`).json(t, &j)
	c, ok, err := env.store.ClaimJob(context.Background(), time.Minute)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, err := env.store.FailJob(context.Background(), c.ID, c.Lease, factbase.JobFailure{Dead: true,
		Code: factbase.EUNAVAILABLE, Message: "auth: the model server answered 401"}); err != nil {
		t.Fatal(err)
	}
	var dead factbase.Job
	env.ok("GET", "/v1/jobs/"+j.ID, env.keyA, "", &dead)
	if dead.State != factbase.JobDead || !strings.Contains(dead.Error, "401") {
		t.Fatalf("job = %+v, want dead with its reason", dead)
	}
	if r := env.do("POST", "/v1/jobs/"+j.ID+"/retry", env.keyB, ""); r.status != http.StatusNotFound {
		t.Errorf("user B retrying A's job = %d, want 404", r.status)
	}
	var again factbase.Job
	env.ok("POST", "/v1/jobs/"+j.ID+"/retry", env.keyA, "", &again)
	if again.State != factbase.JobQueued || again.Attempts != 0 {
		t.Errorf("retried job = %+v, want queued with attempts reset", again)
	}
}
