package sqlite_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/ranked"
	"github.com/factbase/factbase/sqlite"
)

// The child processes of these tests are this test binary run again with
// FACTBASE_CHILD set; TestChild does the child's work and is skipped otherwise.

const childUser = "7f1c8d2e-3a4b-4c5d-8e6f-708192a3b4c5"

func TestChild(t *testing.T) {
	mode := os.Getenv("FACTBASE_CHILD")
	if mode == "" {
		t.Skip("runs only as a child process of TestCrashSafety and TestMultiProcessAppends")
	}
	db, prefix := os.Getenv("FACTBASE_CHILD_DB"), os.Getenv("FACTBASE_CHILD_PREFIX")
	n, _ := strconv.Atoi(os.Getenv("FACTBASE_CHILD_N"))
	s, err := sqlite.Open(context.Background(), db, sqlite.Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	out := bufio.NewWriter(os.Stdout)
	stored, dups := 0, 0
	for i := 0; i < n; i++ {
		var ops []factbase.Op
		switch mode {
		case "crash": // a stream of acknowledged writes: a list append and a one-key set
			v := fmt.Sprintf("%s-%d", prefix, i)
			ops = []factbase.Op{
				{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crash", Value: v}},
				{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "state.last", Value: v}},
			}
			if i%7 == 3 { // sometimes a move to the top, shifting every member
				ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.crash", Value: v, Rank: 1}})
			}
		default: // "append": each value twice
			ops = []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.multi", Value: fmt.Sprintf("%s-%d", prefix, i%(n/2))}}}
		}
		res, err := e.Apply(context.Background(), childUser, ops)
		if err != nil {
			fmt.Fprintln(out, "error", err)
			out.Flush()
			os.Exit(3)
		}
		stored += res.Stored
		dups += len(res.Duplicates)
		if mode == "crash" {
			fmt.Fprintf(out, "ack %d\n", i)
			out.Flush()
		}
	}
	fmt.Fprintf(out, "done %d %d\n", stored, dups)
	out.Flush()
	s.Close()
	os.Exit(0)
}

func child(t *testing.T, mode, db, prefix string, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FACTBASE_CHILD="+mode, "FACTBASE_CHILD_DB="+db,
		"FACTBASE_CHILD_PREFIX="+prefix, "FACTBASE_CHILD_N="+strconv.Itoa(n))
	return cmd
}

// TestCrashSafety SIGKILLs a writer in the middle of a stream of acknowledged writes,
// reopens the file and checks that every acknowledged write is there and every
// invariant holds; ten rounds on one growing file.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	db := filepath.Join(t.TempDir(), "crash.db")
	var acked []string
	r := rand.New(rand.NewPCG(7, 7))
	for round := 0; round < 10; round++ {
		prefix := fmt.Sprintf("r%d", round)
		cmd := child(t, "crash", db, prefix, 100000)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		killAfter := 20 + r.IntN(150)
		sc := bufio.NewScanner(stdout)
		n := 0
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "error") {
				t.Fatalf("round %d: child: %s", round, line)
			}
			if i, ok := strings.CutPrefix(line, "ack "); ok {
				acked = append(acked, prefix+"-"+i)
				n++
				if n == killAfter {
					cmd.Process.Signal(syscall.SIGKILL)
					break
				}
			}
		}
		go func() {
			for sc.Scan() {
			}
		}() // drain whatever was written before the kill
		cmd.Wait()

		s, err := sqlite.Open(context.Background(), db, sqlite.Options{})
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		e := memory.New(s, memory.Options{NoSheetRegen: true})
		ctx := context.Background()
		present := map[string]bool{}
		var ranks []int
		for off := 0; ; off += core.MaxPageSize {
			p, err := e.List(ctx, childUser, "", "favorites.crash", off, core.MaxPageSize, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range p.Items {
				present[f.Value] = true
				ranks = append(ranks, f.Rank)
			}
			if off+core.MaxPageSize >= p.Total {
				break
			}
		}
		for _, v := range acked {
			if !present[v] {
				t.Fatalf("round %d: acknowledged write %s is missing after the kill", round, v)
			}
		}
		if err := ranked.Check(ranks); err != nil {
			t.Fatalf("round %d: ranks after the kill: %v", round, err)
		}
		cur, err := e.Facts(ctx, childUser, factbase.FactFilter{Key: "state.last"})
		if err != nil || len(cur) != 1 {
			t.Fatalf("round %d: state.last has %d current facts (%v), want exactly 1", round, len(cur), err)
		}
		s.Close()
		t.Logf("round %d: killed after %d acks; %d members present, all %d acknowledged found", round, n, len(present), len(acked))
	}
}

// TestMultiProcessAppends: several OS processes append to one list in one file.
func TestMultiProcessAppends(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	db := filepath.Join(t.TempDir(), "multi.db")
	sqlite.OpenFile(t, db, sqlite.Options{}).Close() // migrate once up front
	const procs, each = 4, 100
	var cmds []*exec.Cmd
	outs := make([]*strings.Builder, procs)
	for p := 0; p < procs; p++ {
		cmd := child(t, "append", db, fmt.Sprintf("p%d", p), each*2)
		outs[p] = &strings.Builder{}
		cmd.Stdout = outs[p]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	stored, dups := 0, 0
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v: %s", p, err, outs[p])
		}
		var s1, d1 int
		if _, err := fmt.Sscanf(strings.TrimSpace(outs[p].String()), "done %d %d", &s1, &d1); err != nil {
			t.Fatalf("process %d printed %q", p, outs[p])
		}
		stored, dups = stored+s1, dups+d1
	}
	if stored != procs*each || dups != procs*each {
		t.Errorf("processes stored %d and reported %d duplicates; want %d each", stored, dups, procs*each)
	}
	s := sqlite.OpenFile(t, db, sqlite.Options{})
	p, err := memory.New(s, memory.Options{NoSheetRegen: true}).List(context.Background(), childUser, "", "favorites.multi", 0, core.MaxPageSize, nil)
	if err != nil {
		t.Fatal(err)
	}
	ranks := make([]int, len(p.Items))
	for i, f := range p.Items {
		ranks[i] = f.Rank
	}
	if p.Total != procs*each || ranked.Check(ranks) != nil {
		t.Errorf("list has %d members (check %v), want %d ranked 1..N", p.Total, ranked.Check(ranks), procs*each)
	}
}
