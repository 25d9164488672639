package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/openaitest"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/prometheus/client_golang/prometheus"
)

// modelPool returns a worker pool over env's engine whose model is the scripted
// server ms, and makes env's server use it.
func modelPool(t *testing.T, env *testEnv, ms *openaitest.Server, o jobs.WorkerOptions, lo llm.Options) *jobs.Workers {
	t.Helper()
	lo.BaseURL, lo.Model = ms.URL, "fake"
	if lo.Backoff == 0 {
		lo.Backoff = time.Millisecond
	}
	c, err := llm.New(lo)
	if err != nil {
		t.Fatal(err)
	}
	o.Extractor, o.Endpoint = c, c.Endpoint()
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	w, err := jobs.NewWorkers(env.srv.opts.Engine.Jobs, o)
	if err != nil {
		t.Fatal(err)
	}
	env.srv.opts.Workers, env.srv.opts.Model = w, Dependency{Probe: c.Probe}
	reg := env.srv.opts.Metrics.Registry()
	for _, col := range []prometheus.Collector{NewModelCollector(c, w), NewJobStateCollector(env.store, nil)} {
		var dup prometheus.AlreadyRegisteredError
		if err := reg.Register(col); err != nil && !errors.As(err, &dup) { // a second pool: the first one's stay
			t.Fatal(err)
		}
	}
	return w
}

// TestRememberJobs: POST /memories stores the rules' facts at once and answers with
// them; without a model no job is queued; with one, the model's job is queued, and a
// worker applies what the model adds; GET /v1/jobs/{id} shows it to its user and
// hides it from another.
func TestRememberJobs(t *testing.T) {
	env := newTestEnv(t, nil)
	var rem jobs.Remembered
	env.ok("POST", "/v1/users/"+userA+"/memories", env.keyA, `{"text":"My email is ann@example.com."}`, &rem)
	if rem.Extraction != "rules" || rem.Job != nil || rem.Result.Stored != 1 {
		t.Fatalf("POST memories without a model = %+v, want the rules' fact stored and no job", rem)
	}
	if facts, _ := env.srv.opts.Engine.Get(context.Background(), userA, "", "contact.email", nil); len(facts) != 1 {
		t.Fatalf("the rules' fact is not stored at once: %+v", facts)
	}

	ms := openaitest.New(t, func(int, string) openaitest.Reply {
		return openaitest.Reply{Content: openaitest.Answer(openaitest.Fact("hobbies", "chess", "I play chess"))}
	})
	w := modelPool(t, env, ms, jobs.WorkerOptions{}, llm.Options{})
	r := env.do("POST", "/v1/users/"+userA+"/memories", env.keyA, `{"text":"I play chess and my phone is +1 555 0100."}`)
	r.json(t, &rem)
	if r.status != http.StatusOK || rem.Extraction != "rules+model" || rem.Job == nil || rem.Job.State != factbase.JobQueued ||
		rem.Job.Kind != factbase.JobExtract || rem.Job.Model != "fake" || strings.Contains(string(r.body), "lease") {
		t.Fatalf("POST memories with a model = %d %s, want the rules' facts and a queued job without its lease", r.status, r.body)
	}
	j := *rem.Job
	if ok, err := w.RunOne(context.Background()); !ok || err != nil {
		t.Fatalf("RunOne = %v, %v", ok, err)
	}
	var got factbase.Job
	env.ok("GET", "/v1/jobs/"+j.ID, env.keyA, "", &got)
	if got.State != factbase.JobDone || !strings.Contains(string(got.Result), `"rules":"message"`) || got.PromptTokens != 100 {
		t.Errorf("GET job = %+v (result %s), want done, the rules applied with the message, the model's tokens", got, got.Result)
	}
	if facts, _ := env.srv.opts.Engine.Get(context.Background(), userA, "", "hobbies", nil); len(facts) != 1 {
		t.Errorf("after the job, hobbies = %+v", facts)
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
	var u usage
	env.ok("GET", "/v1/users/"+userA+"/jobs/usage", env.keyA, "", &u)
	if u.Jobs[factbase.JobDone] != 1 || u.PromptTokens != 100 || u.Budget.UserTokens != 120 || u.Budget.Tokens != 120 {
		t.Errorf("usage = %+v, want one done job and its 120 tokens today", u)
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
	modelPool(t, env, openaitest.New(t, func(int, string) openaitest.Reply { return openaitest.Reply{} }), jobs.WorkerOptions{}, llm.Options{})
	var rem jobs.Remembered
	env.do("POST", "/v1/users/"+userA+"/memories", env.keyA, `{"text":"I play chess."}`).json(t, &rem)
	if rem.Job == nil {
		t.Fatalf("no job queued: %+v", rem)
	}
	j := *rem.Job
	c, ok, err := env.store.ClaimJob(context.Background(), time.Minute, factbase.JobClaim{Model: j.Model, Endpoint: j.Endpoint})
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
	// Dead again, it is retried for another model explicitly: this server's.
	c, ok, err = env.store.ClaimJob(context.Background(), time.Minute, factbase.JobClaim{Model: j.Model, Endpoint: j.Endpoint})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, err := env.store.FailJob(context.Background(), c.ID, c.Lease, factbase.JobFailure{Dead: true, Message: "down"}); err != nil {
		t.Fatal(err)
	}
	other := openaitest.New(t, func(int, string) openaitest.Reply { return openaitest.Reply{} })
	modelPool(t, env, other, jobs.WorkerOptions{}, llm.Options{})
	env.ok("POST", "/v1/jobs/"+j.ID+"/retry?retarget=true", env.keyA, "", &again)
	if again.State != factbase.JobQueued || again.Endpoint == j.Endpoint || !strings.HasPrefix(again.Endpoint, other.URL) {
		t.Errorf("retargeted job = %+v, want queued for the server at %s", again, other.URL)
	}
}
