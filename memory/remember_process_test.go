package memory_test

import (
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
	e := memory.New(s, memory.Options{})
	w, err := jobs.NewWorkers(e.Jobs, jobs.WorkerOptions{MaxAttempts: 50})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := w.Remember(ctx, alice, fmt.Sprintf("I collect stamp%d.", i)); err != nil {
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
	e = memory.New(s, memory.Options{})
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
