package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// TestEraseUnderLoad erases a large user (FACTBASE_ERASE_LOAD facts, e.g. 400000)
// through a real server while 16 clients of other users append to their lists, and
// reports the latency of the writes made during the erasure. It checks that no
// write got an empty reply and that each list holds exactly the values whose write
// was acknowledged (no duplicate from a retry, none lost). Skipped unless the
// variable is set: building the user takes minutes.
//
//	FACTBASE_ERASE_LOAD=400000 go test -run TestEraseUnderLoad -v -timeout 60m ./server/
func TestEraseUnderLoad(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FACTBASE_ERASE_LOAD"))
	if n <= 0 {
		t.Skip("set FACTBASE_ERASE_LOAD to the number of facts of the user to erase (e.g. 400000)")
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "load.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	big := storetest.NewUser()
	seed := memory.New(st, memory.Options{NoSheetRegen: true})
	start := time.Now()
	for i := 0; i < n; i += 1000 {
		var ops []factbase.Op
		for j := i; j < min(n, i+1000); j++ {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: fmt.Sprintf("notes.k%d", j%50),
				Value: fmt.Sprintf("note %07d of the big user", j), Cardinality: factbase.Many, Text: fmt.Sprintf("A note, number %d", j)}})
		}
		if _, err := seed.Apply(ctx, big, ops); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seeded %d facts in %v", n, time.Since(start).Round(time.Second))

	e := memory.New(st, memory.Options{BackgroundDelay: 200 * time.Millisecond}) // as serve runs it
	defer e.Close()
	srv := New(Options{Engine: e, NoAuth: true})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go srv.Serve(sctx, l)
	base := "http://" + l.Addr().String() + "/v1/users/"
	client := &http.Client{Timeout: 2 * time.Minute}

	var (
		erasing  atomic.Bool
		mu       sync.Mutex
		during   []time.Duration
		empty    int
		failed   = map[int]int{}
		acked    = make([]map[string]bool, 16)
		wg       sync.WaitGroup
		users    = make([]factbase.UserID, 16)
		stopping atomic.Bool
	)
	for c := range users {
		users[c], acked[c] = storetest.NewUser(), map[string]bool{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stopping.Load(); i++ {
				v := fmt.Sprintf("c%02d-%06d", c, i)
				body, _ := json.Marshal(map[string]string{"value": v})
				t0 := time.Now()
				was := erasing.Load()
				res, err := client.Post(base+string(users[c])+"/lists/favorites.load", "application/json", bytes.NewReader(body))
				d := time.Since(t0)
				mu.Lock()
				switch {
				case err != nil:
					empty++
				case res.StatusCode != http.StatusOK:
					failed[res.StatusCode]++
				default:
					acked[c][v] = true
				}
				if was && erasing.Load() {
					during = append(during, d)
				}
				mu.Unlock()
				if res != nil {
					res.Body.Close()
				}
			}
		}()
	}
	time.Sleep(time.Second)
	erasing.Store(true)
	t0 := time.Now()
	req, _ := http.NewRequest(http.MethodDelete, base+string(big), nil)
	res, err := (&http.Client{Timeout: 40 * time.Minute}).Do(req) // up to --erase-timeout
	took := time.Since(t0)
	erasing.Store(false)
	time.Sleep(time.Second)
	stopping.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatalf("DELETE the big user: %v (after %v)", err, took)
	}
	var er factbase.UserErasure
	json.NewDecoder(res.Body).Decode(&er)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || er.Removed["facts"] != int64(n) {
		t.Errorf("DELETE = %d, removed %v", res.StatusCode, er.Removed)
	}
	slices.Sort(during)
	q := func(p float64) time.Duration {
		if len(during) == 0 {
			return 0
		}
		return during[min(len(during)-1, int(p*float64(len(during))))]
	}
	t.Logf("erased %d facts in %v; %d writes of other users during it: p50 %v, p99 %v, max %v; %d empty replies, refused %v",
		n, took.Round(time.Millisecond), len(during), q(0.5), q(0.99), q(1), empty, failed)
	if empty > 0 {
		t.Errorf("%d writes got no reply", empty)
	}
	for c, u := range users {
		got := storetest.ListState(t, e, u, "favorites.load")
		if len(got) != len(acked[c]) {
			t.Errorf("client %d: %d members, %d writes acknowledged", c, len(got), len(acked[c]))
		}
		for _, v := range got {
			if !acked[c][v] {
				t.Errorf("client %d: member %s was never acknowledged", c, v)
			}
		}
	}
}
