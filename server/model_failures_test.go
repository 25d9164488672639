package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/openaitest"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory/jobs"
)

// partner is the message of the model failure tests: the rules store three facts
// of it (the partner, the intolerance and the employer) whatever the model does.
const partner = "My partner Alex is gluten intolerant and works at Shopify."

// TestModelFailures sends one message through the HTTP API with a model server that
// fails in each way a model server fails, and checks that the rules' facts are
// stored at once in every case, and that the model's job ends in the right state
// with the right reason.
func TestModelFailures(t *testing.T) {
	good := openaitest.Reply{Content: openaitest.Answer(openaitest.Fact("hobbies", "Shopify", "works at Shopify"))}
	cases := []struct {
		name   string
		script func(n int) openaitest.Reply
		down   bool // the model server is closed before the message
		lo     llm.Options
		state  factbase.JobState
		kind   string // the reason's kind prefix, for a dead job
	}{
		{name: "server down", down: true, state: factbase.JobDead, kind: "connection"},
		{name: "timeout", script: func(int) openaitest.Reply { return openaitest.Reply{Hang: true} },
			lo: llm.Options{Timeout: 50 * time.Millisecond}, state: factbase.JobDead, kind: "timeout"},
		{name: "HTTP 500", script: func(int) openaitest.Reply { return openaitest.Reply{Status: 500} },
			state: factbase.JobDead, kind: "server_error"},
		{name: "429 with Retry-After, then an answer", script: func(n int) openaitest.Reply {
			if n == 0 {
				return openaitest.Reply{Status: 429, RetryAfter: 1}
			}
			return good
		}, state: factbase.JobDone},
		{name: "429 every time", script: func(int) openaitest.Reply { return openaitest.Reply{Status: 429, RetryAfter: 1} },
			state: factbase.JobDead, kind: "rate_limited"},
		{name: "prose instead of JSON", script: func(int) openaitest.Reply {
			return openaitest.Reply{Content: "Sure! Alex is gluten intolerant and works at Shopify."}
		}, state: factbase.JobDead, kind: "not_json"},
		{name: "JSON of the wrong schema", script: func(int) openaitest.Reply {
			return openaitest.Reply{Content: `{"facts":"Alex is gluten intolerant","entities":[],"topics":[]}`}
		}, state: factbase.JobDead, kind: "schema"},
		{name: "a slow stream", script: func(int) openaitest.Reply { return openaitest.Reply{Trickle: 20 * time.Millisecond} },
			lo: llm.Options{Timeout: 150 * time.Millisecond}, state: factbase.JobDead, kind: "timeout"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newTestEnv(t, nil)
			script := tc.script
			if script == nil {
				script = func(int) openaitest.Reply { return good }
			}
			ms := openaitest.New(t, func(n int, _ string) openaitest.Reply { return script(n) })
			if tc.lo.Retries == 0 {
				tc.lo.Retries = 1
			}
			w := modelPool(t, env, ms, jobs.WorkerOptions{MaxAttempts: 2}, tc.lo)
			if tc.down {
				ms.Close()
			}
			var rem jobs.Remembered
			r := env.do("POST", "/v1/users/"+userA+"/memories", env.keyA, `{"text":"`+partner+`"}`)
			r.json(t, &rem)
			if r.status != http.StatusOK || rem.Result.Stored != 3 || rem.Job == nil {
				t.Fatalf("POST memories = %d %s, want the rules' 3 facts at once and a queued job", r.status, r.body)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			j, err := w.RunJob(ctx, rem.Job.ID)
			if err != nil {
				t.Fatalf("RunJob: %v (job %+v)", err, j)
			}
			var got factbase.Job
			env.ok("GET", "/v1/jobs/"+j.ID, env.keyA, "", &got)
			if got.State != tc.state {
				t.Fatalf("job %s (%s), want %s", got.State, got.Error, tc.state)
			}
			if tc.kind != "" && !strings.HasPrefix(got.Error, tc.kind+": ") {
				t.Errorf("dead job's reason %q, want the kind %q first", got.Error, tc.kind)
			}
			// The rules' facts are stored whatever the model did.
			all, err := env.srv.opts.Engine.Facts(ctx, userA, factbase.FactFilter{})
			if err != nil {
				t.Fatal(err)
			}
			rules := 0
			for _, f := range all {
				if f.Extractor != jobs.ExtractorLLM {
					rules++
				}
			}
			if rules != 3 {
				t.Errorf("%d rule facts stored after the model's job, want 3: %+v", rules, all)
			}
			if tc.state == factbase.JobDone && len(all) != 4 {
				t.Errorf("%d facts after a good answer, want the rules' 3 and the model's 1", len(all))
			}
			// /readyz: ready while the store is; the model degraded when it cannot be
			// reached (a server that answers garbage is reachable).
			var ready struct{ Status, Store, Model, ModelReason string }
			r = env.do("GET", "/readyz", "", "")
			r.json(t, &ready)
			wantModel := "ok"
			if tc.down {
				wantModel = "degraded"
			}
			if r.status != http.StatusOK || ready.Store != "ok" || ready.Model != wantModel {
				t.Errorf("/readyz = %d %s, want 200 with the model %s", r.status, r.body, wantModel)
			}
			// /metrics: the job's state, and the failed calls by kind.
			metrics := string(env.do("GET", "/metrics", "", "").body)
			want := []string{`factbase_jobs{state="` + string(tc.state) + `"} 1`, `factbase_jobs_total{outcome="enqueued"} 1`}
			if tc.kind != "" {
				want = append(want, `factbase_llm_errors_total{code="`+factbase.ModelErrorKind(tc.kind).Code()+`",kind="`+tc.kind+`"} 2`)
			} else {
				want = append(want, `factbase_llm_tokens_total{type="prompt"} 100`, `factbase_llm_tokens_today 120`,
					`factbase_llm_daily_budget_tokens{scope="all"} 0`)
			}
			for _, w := range want {
				if !strings.Contains(metrics, w) {
					t.Errorf("/metrics lacks %q", w)
				}
			}
		})
	}
}
