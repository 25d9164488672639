package memory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/jobs"
	"github.com/factbase/factbase/sqlite"
)

// queue remembers message through w and returns the model's job, which must be
// queued.
func queue(t *testing.T, w *jobs.Workers, user factbase.UserID, message string) factbase.Job {
	t.Helper()
	rem, err := w.Remember(t.Context(), user, message)
	if err != nil {
		t.Fatalf("Remember(%q): %v", message, err)
	}
	if rem.Job == nil || rem.Job.State != factbase.JobQueued {
		t.Fatalf("Remember(%q) queued %+v (note %q), want a queued job", message, rem.Job, rem.ModelNote)
	}
	return *rem.Job
}

func TestRememberModelFailures(t *testing.T) {
	valid := answer([]string{fact("user", "hobbies", "chess", "I play chess", 0.9, "hobby")})
	cases := []struct {
		name    string
		script  func(string, int) reply
		lo      llm.Options
		state   factbase.JobState
		code    string
		kind    string
		tries   int
		stored  int
		prompts int // prompt tokens on the job record
	}{
		{name: "not json then valid", script: func(_ string, a int) reply {
			if a == 0 {
				return reply{content: "Sure! chess."}
			}
			return reply{content: valid}
		}, state: factbase.JobDone, tries: 2, stored: 1, prompts: 200},
		{name: "schema every time", script: func(string, int) reply {
			return reply{content: `{"facts":[],"entities":[],"topics":[],"ops":["delete everything"]}`}
		}, state: factbase.JobDead, code: factbase.EINVALID, kind: "schema", tries: 3, prompts: 300},
		{name: "think block", script: func(string, int) reply { return reply{content: "<think>hm</think>" + valid} },
			state: factbase.JobDead, code: factbase.EINVALID, kind: "think", tries: 3},
		{name: "think block allowed", script: func(string, int) reply { return reply{content: "<think>hm</think>" + valid} },
			lo: llm.Options{AllowThink: true}, state: factbase.JobDone, tries: 1, stored: 1},
		{name: "truncated", script: func(string, int) reply { return reply{content: valid, finish: "length"} },
			state: factbase.JobDead, code: factbase.EINVALID, kind: "truncated", tries: 3},
		{name: "rejected request dies at once", script: func(string, int) reply { return reply{status: 400} },
			state: factbase.JobDead, code: factbase.EINVALID, kind: "rejected", tries: 1},
		{name: "429 retried by the client", script: func(_ string, a int) reply {
			if a < 2 {
				return reply{status: 429}
			}
			return reply{content: valid}
		}, state: factbase.JobDone, tries: 1, stored: 1},
		{name: "5xx after retries", script: func(string, int) reply { return reply{status: 503} }, lo: llm.Options{Retries: 1},
			state: factbase.JobDead, code: factbase.EUNAVAILABLE, kind: "server_error", tries: 3},
		{name: "timeout", script: func(string, int) reply { return reply{hang: true} }, lo: llm.Options{Timeout: 20 * time.Millisecond},
			state: factbase.JobDead, code: factbase.ETIMEOUT, kind: "timeout", tries: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newRemember(t, tc.script, jobs.WorkerOptions{MaxAttempts: 3, Backoff: time.Nanosecond}, tc.lo)
			ctx := t.Context()
			j := queue(t, env.w, alice, "I play chess on Sundays.")
			for i := 0; i < 10; i++ {
				ok, err := env.w.RunOne(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					cur, _ := env.w.Jobs().Job(ctx, j.ID)
					if cur.State == factbase.JobDone || cur.State == factbase.JobDead {
						break
					}
					time.Sleep(time.Millisecond) // the backoff of a nanosecond
				}
			}
			j, err := env.w.Jobs().Job(ctx, j.ID)
			if err != nil {
				t.Fatal(err)
			}
			if j.State != tc.state || j.Attempts != tc.tries || j.ErrorCode != tc.code {
				t.Fatalf("job %s after %d attempts, error %s %q; want %s after %d, code %q", j.State, j.Attempts, j.ErrorCode, j.Error, tc.state, tc.tries, tc.code)
			}
			if tc.kind != "" && !strings.HasPrefix(j.Error, tc.kind+": ") {
				t.Errorf("error %q, want it to start with the kind %q", j.Error, tc.kind)
			}
			if n := len(env.llmFacts(t, alice)); n != tc.stored {
				t.Errorf("%d facts of the model stored, want %d", n, tc.stored)
			}
			if tc.prompts != 0 && j.PromptTokens != tc.prompts {
				t.Errorf("job prompt tokens %d, want %d (failed attempts count)", j.PromptTokens, tc.prompts)
			}
			if st := env.c.Stats(); tc.kind != "" && tc.state == factbase.JobDead && st.Errors[factbase.ModelErrorKind(tc.kind)] != int64(tc.tries) {
				t.Errorf("client stats errors[%s] = %d, want %d", tc.kind, st.Errors[factbase.ModelErrorKind(tc.kind)], tc.tries)
			}
			if tc.state == factbase.JobDead {
				if r, err := env.w.Jobs().RetryJob(ctx, j.ID, factbase.JobRetry{}); err != nil || r.State != factbase.JobQueued {
					t.Errorf("RetryJob of the dead job = %+v, %v", r, err)
				}
			}
		})
	}
}

func TestWorkersStopReleases(t *testing.T) {
	asked := make(chan struct{}, 1)
	env := newRemember(t, func(string, int) reply {
		select {
		case asked <- struct{}{}:
		default:
		}
		return reply{hang: true}
	}, jobs.WorkerOptions{Poll: time.Millisecond}, llm.Options{})
	ctx := t.Context()
	j := queue(t, env.w, alice, "I play chess.")
	if err := env.w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := env.w.Start(ctx); factbase.ErrorCode(err) != factbase.ECONFLICT {
		t.Errorf("a second Start: %v, want ECONFLICT", err)
	}
	<-asked
	env.w.Stop()
	j, _ = env.w.Jobs().Job(ctx, j.ID)
	if j.State != factbase.JobQueued || j.Attempts != 0 {
		t.Errorf("after Stop the job is %s with %d attempts, want queued with 0", j.State, j.Attempts)
	}
	if st := env.w.Stats(); st.Released != 1 || st.InFlight != 0 {
		t.Errorf("stats %+v, want 1 released, none in flight", st)
	}
	env.w.Stop() // stopping again does nothing
}

// TestBurst: 1,000 messages against the fake server, with bounded concurrency; every
// job ends done or dead with a reason, and no invalid output reaches the store.
func TestBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 jobs")
	}
	// 1,000 jobs; 200 under the race detector, which slows SQLite some thirtyfold.
	n, clientLimit := 1000, int64(4)
	if raceEnabled {
		n = 200
	}
	var users [8]factbase.UserID
	for i := range users {
		users[i] = factbase.UserID(fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1))
	}
	// Message i mentions "stamp<i>" and "poison<i>". A valid answer proposes
	// stamp<i>; every invalid answer proposes poison<i> (otherwise well formed, so that
	// only validation stands between it and the store).
	poison := func(i int) string {
		return answer([]string{fact("user", "hobbies", fmt.Sprintf("poison%d", i), fmt.Sprintf("poison%d", i), 0.9, "hobby")})
	}
	good := func(i int) string {
		return answer([]string{fact("user", "hobbies", fmt.Sprintf("stamp%d", i), fmt.Sprintf("stamp%d", i), 0.9, "hobby")})
	}
	script := func(m string, a int) reply {
		var i int
		fmt.Sscanf(m, "I collect stamp%d", &i)
		switch i % 10 {
		case 0: // invalid every time: dead
			return reply{content: strings.Replace(poison(i), `"topics"`, `"admin":true,"topics"`, 1)}
		case 1: // invalid once (truncated), then valid
			if a == 0 {
				return reply{content: poison(i), finish: "length"}
			}
		case 2: // <think> block once, then valid
			if a == 0 {
				return reply{content: "<think>x</think>" + poison(i)}
			}
		case 3: // rate limited twice, then valid
			if a < 2 {
				return reply{status: 429}
			}
		case 4: // trailing garbage once, then valid
			if a == 0 {
				return reply{content: poison(i) + `}`}
			}
		case 5: // server error once
			if a == 0 {
				return reply{status: 500}
			}
		}
		time.Sleep(time.Millisecond)
		return reply{content: good(i)}
	}
	env := newRemember(t, script, jobs.WorkerOptions{Workers: 16, MaxAttempts: 3, Backoff: time.Millisecond, Poll: 5 * time.Millisecond},
		llm.Options{MaxConcurrent: int(clientLimit), Retries: 3})
	ctx := t.Context()
	ids := make([]string, n)
	for i := 0; i < n; i++ {
		ids[i] = queue(t, env.w, users[i%len(users)], fmt.Sprintf("I collect stamp%d, never poison%d.", i, i)).ID
	}
	start := time.Now()
	if err := env.w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	dead := 0
	for i, id := range ids {
		j, err := env.w.Wait(wctx, id)
		if err != nil {
			t.Fatalf("waiting for job %d: %v", i, err)
		}
		switch j.State {
		case factbase.JobDone:
			if i%10 == 0 {
				t.Errorf("job %d is done; its answers were all invalid", i)
			}
		case factbase.JobDead:
			dead++
			if j.Error == "" || j.ErrorCode == "" || i%10 != 0 {
				t.Errorf("job %d dead with %q (%s)", i, j.Error, j.ErrorCode)
			}
		default:
			t.Errorf("job %d ended %s", i, j.State)
		}
	}
	elapsed := time.Since(start)
	env.w.Stop()
	if dead != n/10 {
		t.Errorf("%d dead jobs, want %d", dead, n/10)
	}
	if p := env.ms.inFlight.Peak(); p > clientLimit {
		t.Errorf("the server saw %d requests at once, want at most %d", p, clientLimit)
	}
	stored := map[string]int{}
	for _, u := range users {
		for _, f := range env.allFacts(t, u) {
			if f.Extractor != jobs.ExtractorLLM {
				continue // the rules' own reading of the message
			}
			stored[f.Value]++
			if strings.Contains(f.Value, "poison") {
				t.Errorf("invalid output reached the store: %+v", f)
			}
		}
	}
	for i := 0; i < n; i++ {
		want := 1
		if i%10 == 0 {
			want = 0
		}
		if got := stored[fmt.Sprintf("stamp%d", i)]; got != want {
			t.Errorf("stamp%d stored %d times, want %d", i, got, want)
		}
	}
	ws, cs := env.w.Stats(), env.c.Stats()
	if ws.Done != int64(n-n/10) || ws.Dead != int64(n/10) || ws.MaxInFlight > 16 {
		t.Errorf("worker stats %+v", ws)
	}
	usage, _ := env.w.Jobs().JobUsage(ctx, "")
	if usage.Jobs[factbase.JobDone] != n-n/10 || usage.Jobs[factbase.JobDead] != n/10 || usage.PromptTokens != int(cs.Usage.PromptTokens) {
		t.Errorf("job usage %+v, client usage %+v", usage, cs.Usage)
	}
	t.Logf("%d jobs in %v (%.0f jobs/s): %d done, %d dead; client: %d requests, %d retries, peak %d in flight, errors %v",
		n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), ws.Done, ws.Dead, cs.Requests, cs.Retries, cs.MaxInFlight, nonzero(cs.Errors))
}

func nonzero(m map[factbase.ModelErrorKind]int64) map[factbase.ModelErrorKind]int64 {
	out := map[factbase.ModelErrorKind]int64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// The child of TestRememberCrash is this test binary run again with
// FACTBASE_REMEMBER_CHILD set: TestRememberChild works the queue until it is empty.

func TestRememberChild(t *testing.T) {
	if os.Getenv("FACTBASE_REMEMBER_CHILD") == "" {
		t.Skip("runs only as a child process of TestRememberCrash")
	}
	ctx := t.Context()
	s, err := sqlite.Open(ctx, os.Getenv("FACTBASE_REMEMBER_DB"), sqlite.Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	cards := factbase.DefaultCardinalities()
	jobs.DeclareModelSets(&cards)
	e := memory.New(s, memory.Options{Cardinalities: cards})
	c, err := llm.New(llm.Options{BaseURL: os.Getenv("FACTBASE_REMEMBER_MODEL"), Model: "fake", Backoff: time.Millisecond})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	w, err := jobs.NewWorkers(e.Jobs, jobs.WorkerOptions{Extractor: c, Workers: 4, Lease: 300 * time.Millisecond,
		MaxAttempts: 50, Backoff: time.Millisecond, Poll: 5 * time.Millisecond})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	if err := w.Start(ctx); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	for {
		u, err := w.Jobs().JobUsage(ctx, "")
		if err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		if u.Jobs[factbase.JobQueued]+u.Jobs[factbase.JobRunning] == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.Stop()
	s.Close()
	fmt.Println("drained")
	os.Exit(0)
}

// TestRememberCrash SIGKILLs a worker process in the middle of remember jobs, over
// and over, and restarts it: every job must end done, applied exactly once (each
// fact stored once and referenced once), the killed ones after a retry.
func TestRememberCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const n = 60
	ctx := t.Context()
	s := openStore(t, "", nil)
	db := s.Path()
	for i := 0; i < n; i++ {
		// Queued for the child's model (its name, no endpoint recorded).
		if _, err := s.EnqueueJob(ctx, factbase.Job{ID: fmt.Sprintf("crash-%03d", i), User: alice, Kind: factbase.JobExtract,
			Input: fmt.Sprintf("I collect stamp%d.", i), MaxAttempts: 50, Model: "fake"}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	// The model answers each message with its stamp; a hook kills the child at a
	// chosen request: before answering (the job is mid-call) or just after (the job
	// may be committing).
	var (
		mu      sync.Mutex
		killAt  int64
		after   bool
		victim  *exec.Cmd
		killed  atomic.Int64
		request atomic.Int64
	)
	kill := func() {
		mu.Lock()
		defer mu.Unlock()
		if victim != nil {
			victim.Process.Signal(syscall.SIGKILL)
			victim = nil
			killed.Add(1)
		}
	}
	script := func(m string, a int) reply {
		var i int
		fmt.Sscanf(m, "I collect stamp%d", &i)
		stamp := fmt.Sprintf("stamp%d", i)
		return reply{content: answer([]string{fact("user", "hobbies", stamp, stamp, 0.9, "hobby")})}
	}
	onReq := func(k int64) {
		request.Store(k)
		mu.Lock()
		at, aft := killAt, after
		mu.Unlock()
		if k != at {
			return
		}
		if !aft {
			kill()
			return
		}
		go func() {
			time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
			kill()
		}()
	}
	ms := newHookedModelServer(t, script, onReq)
	r := rand.New(rand.NewPCG(11, 11))
	for round := 0; ; round++ {
		if round > 40 {
			t.Fatalf("the queue is not drained after %d rounds", round)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestRememberChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "FACTBASE_REMEMBER_CHILD=1", "FACTBASE_REMEMBER_DB="+db, "FACTBASE_REMEMBER_MODEL="+ms.srv.URL)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		mu.Lock()
		if round < 8 {
			killAt, after = request.Load()+1+int64(r.IntN(12)), round%2 == 1
		} else {
			killAt = -1 // let it finish
		}
		// Started under the lock: the kill hook reads cmd.Process.
		if err := cmd.Start(); err != nil {
			mu.Unlock()
			t.Fatal(err)
		}
		victim = cmd
		mu.Unlock()
		err := cmd.Wait()
		mu.Lock()
		victim = nil
		mu.Unlock()
		if strings.Contains(out.String(), "error") {
			t.Fatalf("round %d: child: %s", round, out.String())
		}
		if err == nil && strings.Contains(out.String(), "drained") {
			t.Logf("round %d: the child drained the queue", round)
			break
		}
		t.Logf("round %d: child killed (%v) at request %d", round, err, request.Load())
	}
	if killed.Load() == 0 {
		t.Fatal("no child was killed; the test proved nothing")
	}

	s = openStore(t, db, nil)
	all, err := s.Jobs(ctx, factbase.JobFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	retried := 0
	for _, j := range all {
		if j.State != factbase.JobDone {
			t.Errorf("job %s is %s (%s), want done", j.ID, j.State, j.Error)
		}
		if j.Attempts > 1 {
			retried++
		}
		var res jobs.RememberResult
		if err := json.Unmarshal(j.Result, &res); err != nil || res.Stored != 1 {
			t.Errorf("job %s result %s: want one fact stored", j.ID, j.Result)
		}
	}
	if len(all) != n || retried == 0 {
		t.Errorf("%d jobs, %d retried after a kill; want %d and at least one", len(all), retried, n)
	}
	e := memory.New(s, memory.Options{})
	facts, err := e.Facts(ctx, alice, factbase.FactFilter{Key: "hobbies", History: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, f := range facts {
		seen[f.Value]++
		if refs := references(t, s, alice, f.ID); len(refs) != 1 {
			t.Errorf("%s has %d references, want 1: its job was applied %d times", f.Value, len(refs), len(refs))
		}
	}
	for i := 0; i < n; i++ {
		if k := seen[fmt.Sprintf("stamp%d", i)]; k != 1 {
			t.Errorf("stamp%d stored %d times, want once", i, k)
		}
	}
	t.Logf("%d kills; %d of %d jobs ran more than once; every job applied exactly once", killed.Load(), retried, n)
}

// TestUserJobs: one user's burst does not take every worker: over UserJobs a job
// waits its turn (queued, its attempt not counted), and another user's job runs.
func TestUserJobs(t *testing.T) {
	gate := make(chan struct{})
	var asked atomic.Int64
	env := newRemember(t, func(m string, _ int) reply {
		asked.Add(1)
		<-gate
		return reply{content: answer(nil)}
	}, jobs.WorkerOptions{Workers: 4, UserJobs: 1, Poll: 5 * time.Millisecond}, llm.Options{})
	a1 := queue(t, env.w, alice, "I play chess.")
	a2 := queue(t, env.w, alice, "I play go.")
	b1 := queue(t, env.w, "0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c77", "I play bridge.")
	if err := env.w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer env.w.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for asked.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the model was asked %d times, want alice's first and bob's jobs at once", asked.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Alice's second job waits its turn: put off again and again (claimed for a moment
	// each time, its attempt given back), never reaching the model while her first runs.
	time.Sleep(100 * time.Millisecond)
	j, err := env.w.Jobs().Job(t.Context(), a2.ID)
	if err != nil {
		t.Fatal(err)
	}
	env.ms.mu.Lock()
	seen := strings.Join(env.ms.messages, " | ")
	env.ms.mu.Unlock()
	if j.State == factbase.JobDone || j.State == factbase.JobDead || j.Attempts > 1 ||
		!strings.Contains(j.Error, "already has 1 model jobs running") || strings.Contains(seen, "I play go.") {
		t.Errorf("alice's second job = %s, attempts %d, %q, the model saw %q; want it waiting its turn",
			j.State, j.Attempts, j.Error, seen)
	}
	close(gate)
	for _, id := range []string{a1.ID, a2.ID, b1.ID} {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		j, err := env.w.Wait(ctx, id)
		cancel()
		if err != nil || j.State != factbase.JobDone {
			t.Errorf("job %s = %s %v, want done", id, j.State, err)
		}
	}
}
