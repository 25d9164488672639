package main

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/jobs"
)

// fakeModel is an OpenAI-compatible server answering every chat completion with
// content (or with status, when not 200).
func fakeModel(t *testing.T, status int, content string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if status != http.StatusOK {
			w.WriteHeader(status)
			w.Write([]byte(`{"error":{"message":"no"}}`))
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": 50, "completion_tokens": 10}})
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// chessAnswer is the model's extraction of "I play chess": one durable hobby, and
// topics (the inside of a JSON array).
func chessAnswer(topics string) string {
	return `{"facts":[{"about":"user","key":"hobbies","value":"chess","text":"User plays chess","type":"hobby",
"confidence":0.9,"durability":"durable","sensitivity":"low","temporal":"","evidence":"I play chess","remember_next_week":true}],
"entities":[],"topics":[` + topics + `]}`
}

// modelEnv returns a test environment with its model configured: a fakeModel
// answering status and content, whose calls are counted.
func modelEnv(t *testing.T, status int, content string) (map[string]string, *atomic.Int64) {
	t.Helper()
	srv, calls := fakeModel(t, status, content)
	env := testEnv(t)
	env["FACTBASE_LLM_URL"], env["FACTBASE_LLM_MODEL"], env["FACTBASE_LLM_KEY"] = srv.URL, "fake", "sk-test"
	return env, calls
}

func TestRememberWithoutModel(t *testing.T) {
	env := testEnv(t)
	out, stderr, code := run(t, env, "remember", "--user", testUser, "My email is ann@example.com.")
	if code != 0 || !strings.Contains(out, "ann@example.com") || !strings.Contains(out, "rules: 1 stored") || strings.Contains(out, "job") {
		t.Fatalf("remember: exit %d, out %q, err %q; want the rules' fact stored at once and no job", code, out, stderr)
	}
	out, _, _ = run(t, env, "facts", "get", "--user", testUser, "contact.email")
	if strings.TrimSpace(out) != "ann@example.com" {
		t.Errorf("facts get contact.email = %q", out)
	}
	out, _, _ = run(t, env, "jobs", "list")
	if strings.TrimSpace(out) != "no jobs" {
		t.Errorf("jobs list = %q, want no jobs without a model", out)
	}
	// --wait has nothing to wait for.
	out, stderr, code = run(t, env, "remember", "--user", testUser, "--wait", "--json", "My favorite teas are oolong and chai.")
	var rem jobs.Remembered
	if err := json.Unmarshal([]byte(out), &rem); err != nil || code != 0 || rem.Job != nil || rem.Result.Stored != 2 {
		t.Fatalf("remember --wait --json: exit %d, out %q, err %q", code, out, stderr)
	}
	out, _, _ = run(t, env, "list", "show", "--user", testUser, "favorites.tea")
	if !strings.Contains(out, "oolong") || !strings.Contains(out, "chai") {
		t.Errorf("list show favorites.tea = %q", out)
	}
}

func TestRememberWithModel(t *testing.T) {
	env, calls := modelEnv(t, http.StatusOK, chessAnswer(`"games"`))
	env["FACTBASE_LLM_PROMPT_PRICE"] = "1000000" // a dollar a token, to see the cost
	out, stderr, code := run(t, env, "remember", "--user", testUser, "--wait", "I play chess on Sundays.")
	if code != 0 || !strings.Contains(out, "model: applied hobbies = chess") ||
		!strings.Contains(out, "model tokens: 50 prompt + 10 completion, $50") {
		t.Fatalf("remember --wait: exit %d, out %q, err %q", code, out, stderr)
	}
	if calls.Load() != 1 {
		t.Errorf("%d model calls, want 1", calls.Load())
	}
	out, _, _ = run(t, env, "facts", "get", "--user", testUser, "hobbies")
	if strings.TrimSpace(out) != "chess" {
		t.Errorf("facts get hobbies = %q, want chess (a set the model proposed)", out)
	}
	out, _, code = run(t, env, "jobs", "usage", "--user", testUser)
	if code != 0 || !strings.Contains(out, "1 done") || !strings.Contains(out, "50 prompt + 10 completion") ||
		!strings.Contains(out, "60 tokens (no budget); this user 60 (no budget)") {
		t.Errorf("jobs usage = %q", out)
	}
}

// TestRememberOwnJob: --wait runs its own job only; "jobs work" takes only the jobs
// of its model and says which it leaves; a dead job is retried for another model.
func TestRememberOwnJob(t *testing.T) {
	env, calls := modelEnv(t, http.StatusOK, chessAnswer(""))
	other, otherCalls := fakeModel(t, http.StatusOK, chessAnswer(""))
	// A job queued for another model server, then one for this one.
	alt := maps.Clone(env)
	alt["FACTBASE_LLM_URL"] = other.URL
	out, _, code := run(t, alt, "remember", "--user", testUser, "--json", "I play go.")
	var first jobs.Remembered
	if err := json.Unmarshal([]byte(out), &first); err != nil || code != 0 || first.Job == nil {
		t.Fatalf("remember for the other model: exit %d, out %q", code, out)
	}
	out, stderr, code := run(t, env, "remember", "--user", testUser, "--wait", "I play chess.")
	if code != 0 || !strings.Contains(out, "done") || calls.Load() != 1 || otherCalls.Load() != 0 {
		t.Fatalf("remember --wait: exit %d, out %q, err %q; %d/%d model calls, want its own job only", code, out, stderr,
			calls.Load(), otherCalls.Load())
	}
	if j := showJob(t, env, first.Job.ID); j.State != factbase.JobQueued {
		t.Errorf("the other model's job is %s after --wait, want queued", j.State)
	}
	out, stderr, code = run(t, env, "jobs", "work", "--drain")
	if code != 0 || !strings.Contains(out, "processed 0 jobs") || !strings.Contains(stderr, "skipping 1 queued jobs for the model") {
		t.Errorf("jobs work --drain with another model: exit %d, out %q, err %q", code, out, stderr)
	}
	out, stderr, code = run(t, alt, "jobs", "work", "--drain")
	if code != 0 || !strings.Contains(out, "processed 1 jobs: 1 done") || otherCalls.Load() != 1 {
		t.Errorf("jobs work --drain with its model: exit %d, out %q, err %q", code, out, stderr)
	}

	// A job that died against a refusing model is retried for another, explicitly.
	bad, _ := fakeModel(t, http.StatusBadRequest, "")
	dead := maps.Clone(env)
	dead["FACTBASE_LLM_URL"] = bad.URL
	out, _, code = run(t, dead, "remember", "--user", testUser, "--wait", "--json", "I play bridge.")
	var rem jobs.Remembered
	if err := json.Unmarshal([]byte(out), &rem); err != nil || code != 1 || rem.Job == nil || rem.Job.State != factbase.JobDead {
		t.Fatalf("remember --wait against a refusing model: exit %d, out %q", code, out)
	}
	out, stderr, code = run(t, env, "jobs", "retry", "--retarget", rem.Job.ID)
	if code != 0 || !strings.Contains(out, "queued again for the model fake at "+strings.TrimSuffix(env["FACTBASE_LLM_URL"], "/")) {
		t.Fatalf("jobs retry --retarget: exit %d, out %q, err %q", code, out, stderr)
	}
	out, _, code = run(t, env, "jobs", "work", "--drain")
	if code != 0 || !strings.Contains(out, "processed 1 jobs: 1 done") {
		t.Errorf("jobs work after the retarget: exit %d, out %q", code, out)
	}
}

// TestRememberBudget: over its daily token budget, a message's rules are stored and
// its model job waits for the next day; the reply and "jobs usage" say so.
func TestRememberBudget(t *testing.T) {
	env, calls := modelEnv(t, http.StatusOK, chessAnswer(""))
	env["FACTBASE_LLM_USER_DAILY_TOKENS"] = "50"
	if _, stderr, code := run(t, env, "remember", "--user", testUser, "--wait", "I play chess."); code != 0 {
		t.Fatalf("first remember: exit %d, err %q", code, stderr)
	}
	out, stderr, code := run(t, env, "remember", "--user", testUser, "--wait", "--timeout", "300ms", "My email is ann@example.com.")
	if code != 1 || !strings.Contains(stderr, "the rules' facts are stored") || !strings.Contains(stderr, "daily token budget") {
		t.Errorf("remember over budget: exit %d, out %q, err %q; want the rules stored and the job waiting for the budget", code, out, stderr)
	}
	if calls.Load() != 1 {
		t.Errorf("%d model calls, want 1: the second job waits", calls.Load())
	}
	if out, _, _ := run(t, env, "facts", "get", "--user", testUser, "contact.email"); strings.TrimSpace(out) != "ann@example.com" {
		t.Errorf("the rules' fact over budget = %q", out)
	}
	out, _, _ = run(t, env, "remember", "--user", testUser, "My phone is +1 555 0100.")
	if !strings.Contains(out, "model: this user's daily token budget for the model is spent (60 of 50 tokens today)") {
		t.Errorf("remember over budget = %q, want the reply to say the budget is spent", out)
	}
	out, _, _ = run(t, env, "jobs", "usage", "--user", testUser)
	if !strings.Contains(out, "this user 60 of 50") {
		t.Errorf("jobs usage = %q, want today's use against the budget", out)
	}
	out, _, _ = run(t, env, "jobs", "list", "--state", "queued")
	if !strings.Contains(out, "daily token budget") {
		t.Errorf("jobs list = %q, want the deferred job's reason", out)
	}
}

// showJob reads a job with "jobs show --json".
func showJob(t *testing.T, env map[string]string, id string) factbase.Job {
	t.Helper()
	out, stderr, code := run(t, env, "jobs", "show", "--json", id)
	var j factbase.Job
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 0 {
		t.Fatalf("jobs show: exit %d, out %q, err %q", code, out, stderr)
	}
	return j
}

func TestRememberErrors(t *testing.T) {
	env := testEnvDB(t)
	runCases(t, env, []cliCase{
		{"no message", []string{"remember", "--user", testUser}, 2, "needs the message"},
		{"no user", []string{"remember", "hello"}, 2, "--user is required"},
		{"url without model", []string{"remember", "--user", testUser, "--llm-url", "http://127.0.0.1:1", "hi"}, 2, "--llm-model"},
		{"bad url", []string{"remember", "--user", testUser, "--llm-url", "ftp://x", "--llm-model", "m", "hi"}, 1, "http or https"},
		{"no subcommand", []string{"jobs"}, 2, "needs a subcommand"},
		{"unknown subcommand", []string{"jobs", "frob"}, 2, "unknown subcommand"},
		{"show without id", []string{"jobs", "show"}, 2, "needs one job id"},
		{"show unknown", []string{"jobs", "show", "nope"}, 1, `job "nope" not found`},
		{"bad state", []string{"jobs", "list", "--state", "lost"}, 1, "not one of queued"},
		{"bad limit", []string{"jobs", "list", "--limit", "0"}, 2, "--limit"},
	})
}

// TestServeRemember: "factbase serve" with a model runs the workers: a message POSTed
// to /memories is extracted in the background, its job is visible over HTTP, and the
// model's counters are on /metrics.
func TestServeRemember(t *testing.T) {
	env, calls := modelEnv(t, http.StatusOK, chessAnswer(""))
	s := serve(t, env, "--no-auth")
	status, _, body := call(t, "POST", s.base+"/v1/users/"+testUser+"/memories", "", `{"text":"I play chess on Sundays."}`)
	var rem jobs.Remembered
	if err := json.Unmarshal(body, &rem); err != nil || status != http.StatusOK || rem.Job == nil {
		t.Fatalf("POST memories = %d %s", status, body)
	}
	j := *rem.Job
	deadline := time.Now().Add(30 * time.Second)
	for j.State != factbase.JobDone && j.State != factbase.JobDead {
		if time.Now().After(deadline) {
			t.Fatalf("job still %s", j.State)
		}
		time.Sleep(20 * time.Millisecond)
		_, _, body = call(t, "GET", s.base+"/v1/jobs/"+j.ID, "", "")
		if err := json.Unmarshal(body, &j); err != nil {
			t.Fatalf("GET job: %s", body)
		}
	}
	if j.State != factbase.JobDone || !strings.Contains(string(j.Result), `"action":"applied"`) || calls.Load() != 1 {
		t.Fatalf("job %s (%s), result %s, %d model calls", j.State, j.Error, j.Result, calls.Load())
	}
	// The worker counts the job done after its commit, which a reader of the job can
	// see first: wait for the counters as for the job.
	wants := []string{`factbase_llm_calls_total 1`, `factbase_jobs_total{outcome="done"} 1`, `factbase_jobs_total{outcome="enqueued"} 1`, `factbase_llm_tokens_total{type="prompt"} 50`}
	var missing []string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, _, metrics := call(t, "GET", s.base+"/metrics", "", "")
		missing = missing[:0]
		for _, want := range wants {
			if !strings.Contains(string(metrics), want) {
				missing = append(missing, want)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, want := range missing {
		t.Errorf("/metrics lacks %q", want)
	}
	if code := s.stop(); code != 0 {
		t.Errorf("serve exited %d: %s", code, s.stderr.String())
	}
}

// TestRememberTeacher: with a model configured, canon's teacher hook asks the same
// client about a topic the alias table does not know, and the list takes its answer.
func TestRememberTeacher(t *testing.T) {
	var teach atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ResponseFormat struct {
				JSONSchema struct {
					Name string `json:"name"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		content := `{"facts":[],"entities":[],"topics":[]}`
		if req.ResponseFormat.JSONSchema.Name == "topic" {
			teach.Add(1)
			content = `{"topic":"board game","confidence":0.9}`
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	defer srv.Close()
	env := testEnv(t)
	env["FACTBASE_LLM_URL"], env["FACTBASE_LLM_MODEL"] = srv.URL, "fake"
	out, stderr, code := run(t, env, "remember", "--user", testUser, "--wait", "My favorite tabletop pastimes are chess and go.")
	if code != 0 {
		t.Fatalf("remember: exit %d, out %q, err %q", code, out, stderr)
	}
	if teach.Load() == 0 {
		t.Fatalf("the teacher was not asked")
	}
	out, _, _ = run(t, env, "list", "show", "--user", testUser, "favorites.board_game")
	if !strings.Contains(out, "chess") || !strings.Contains(out, "go") {
		t.Errorf("list favorites.board_game = %q, want the teacher's topic to hold chess and go", out)
	}
	// Without a model no teacher is asked: the topic falls back to its normal form.
	delete(env, "FACTBASE_LLM_URL")
	n := teach.Load()
	if _, _, code := run(t, env, "remember", "--user", testUser, "--wait", "My favorite tabletop pastimes are checkers."); code != 0 || teach.Load() != n {
		t.Errorf("without a model: exit %d, teacher asked %d more times", code, teach.Load()-n)
	}
}
