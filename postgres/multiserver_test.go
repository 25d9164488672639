package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/ranked"
	"github.com/factbase/factbase/server"
	"github.com/factbase/factbase/storetest"
)

// factbaseServer is one Factbase HTTP server on its own loopback port, over its own
// store (its own connection pool) on the shared database.
type factbaseServer struct {
	url   string
	store *postgres.Store
}

// startServers opens n stores on schema at once (their migrations race under the
// advisory lock) and serves each on its own loopback port until the test ends, each
// engine with the options mo.
func startServers(t testing.TB, schema string, n int, o postgres.Options, mo memory.Options) ([]factbaseServer, string) {
	t.Helper()
	o.Schema = schema
	stores := openAtOnce(t, o, n)
	ctx, cancel := context.WithCancel(context.Background())
	secret, key, err := factbase.NewKey("", "multi-server test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := stores[0].CreateKey(ctx, key); err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	out := make([]factbaseServer, n)
	done := make(chan error, n)
	for i, st := range stores {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		mo.NoSheetRegen = true
		srv := server.New(server.Options{Engine: memory.New(st, mo), Keys: st,
			RateLimit: -1}) // the test sends bursts with one key
		go func() { done <- srv.Serve(ctx, l) }()
		out[i] = factbaseServer{url: "http://" + l.Addr().String(), store: st}
	}
	t.Cleanup(func() {
		cancel()
		for range n {
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		}
	})
	return out, secret
}

// apiClient sends JSON requests with an API key.
type apiClient struct {
	http *http.Client
	key  string
}

func (c apiClient) do(ctx context.Context, method, url string, body any, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(b, out)
	}
	return resp.StatusCode, nil
}

// TestMultiServer: two Factbase servers on different loopback ports share one
// PostgreSQL database; 32 clients append to the same two lists through both, each
// value twice (the second time through the other server). Every value must be stored
// exactly once and reported as a duplicate exactly once, the lists must hold every
// value with ranks exactly 1..N, and both servers must serve the same lists.
func TestMultiServer(t *testing.T) {
	servers, secret := startServers(t, postgres.NewSchema(t), 2, postgres.Options{}, memory.Options{})
	const clients, each = 32, 24
	lists := []string{"favorites.shared", "favorites.other"}
	u := storetest.NewUser()
	c := apiClient{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: time.Minute}, key: secret}
	ctx := context.Background()

	type report struct{ stored, duplicates int }
	var (
		mu      sync.Mutex
		reports = map[string]*report{} // by list and value
		errs    []error
		wg      sync.WaitGroup
	)
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each * 2 {
				v := fmt.Sprintf("c%02d-v%02d", w, i%each)
				list := lists[(i%each)%2]
				srv := servers[(w+i/each)%2] // the repeat goes through the other server
				var res factbase.Result
				_, err := c.do(ctx, http.MethodPost, srv.url+"/v1/users/"+string(u)+"/lists/"+list, map[string]string{"value": v}, &res)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					r := reports[list+" "+v]
					if r == nil {
						r = &report{}
						reports[list+" "+v] = r
					}
					r.stored += res.Stored
					for _, d := range res.Duplicates {
						if d.Value != v {
							errs = append(errs, fmt.Errorf("appending %s reported a duplicate of %s", v, d.Value))
						}
						r.duplicates++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if i == 5 {
			t.Errorf("... and %d more errors", len(errs)-5)
			break
		}
		t.Errorf("request failed: %v", err)
	}
	if len(reports) != clients*each {
		t.Errorf("%d distinct values answered, want %d", len(reports), clients*each)
	}
	for lv, r := range reports {
		if r.stored != 1 || r.duplicates != 1 {
			t.Errorf("%s: stored %d times, reported as a duplicate %d times; want 1 and 1", lv, r.stored, r.duplicates)
		}
	}

	// Both servers serve the same lists: every value once, ranks exactly 1..N.
	for _, list := range lists {
		var pages [2][]string
		for si, srv := range servers {
			var p core.ListPage
			if _, err := c.do(ctx, http.MethodGet, srv.url+"/v1/users/"+string(u)+"/lists/"+list+"?limit=1000", nil, &p); err != nil {
				t.Fatalf("reading %s from server %d: %v", list, si, err)
			}
			ranks := make([]int, len(p.Items))
			for i, f := range p.Items {
				ranks[i] = f.Rank
				pages[si] = append(pages[si], f.Value)
			}
			if err := ranked.Check(ranks); err != nil || p.Total != clients*each/2 || len(p.Items) != p.Total {
				t.Errorf("%s on server %d: %d of %d members, ranks check %v; want %d with ranks 1..N", list, si, len(p.Items), p.Total, err, clients*each/2)
			}
		}
		if fmt.Sprint(pages[0]) != fmt.Sprint(pages[1]) {
			t.Errorf("the servers disagree on %s", list)
		}
		got := append([]string(nil), pages[0]...)
		sort.Strings(got)
		var want []string
		for lv := range reports {
			if l, v, _ := strings.Cut(lv, " "); l == list {
				want = append(want, v)
			}
		}
		sort.Strings(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s holds %d values, want the %d appended (lost or extra writes)", list, len(got), len(want))
		}
		// The invariants, as the database counts them.
		err := servers[0].store.View(ctx, u, func(tx factbase.ReadTx) error {
			s, err := tx.KeyStats(ctx, factbase.SubjectUser, list, "")
			if err != nil {
				return err
			}
			if n := clients * each / 2; s.Members != n || s.MinRank != 1 || s.MaxRank != n {
				t.Errorf("%s: key stats %+v, want %d members ranked 1..%d", list, s, n, n)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMultiServerSearch: on either vector path, two servers share one database and
// each finds at once by vector what the other wrote, and not what the other retracted
// or replaced, though each searched before the other's writes (the in-memory path's
// copies must catch up; with pgvector no server holds a copy).
func TestMultiServerSearch(t *testing.T) {
	emb, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []postgres.Options{{}, {NoPgvector: true}} {
		name := postgres.VectorsPgvector
		if o.NoPgvector {
			name = postgres.VectorsInMemory
		}
		t.Run(name, func(t *testing.T) {
			servers, secret := startServers(t, postgres.NewSchema(t), 2, o, memory.Options{Embedder: emb})
			for _, srv := range servers {
				if o.NoPgvector {
					path, reason := srv.store.VectorSearch()
					t.Logf("vector search: %s (%s)", path, reason)
				} else {
					postgres.RequirePgvector(t, srv.store)
				}
				if got, want := postgres.InMemoryVectors(srv.store), o.NoPgvector; got != want {
					t.Errorf("the store keeps in-memory vector copies: %v, want %v", got, want)
				}
			}
			multiServerSearch(t, servers, secret)
		})
	}
}

func multiServerSearch(t *testing.T, servers []factbaseServer, secret string) {
	ctx := context.Background()
	c := apiClient{http: &http.Client{Timeout: time.Minute}, key: secret}
	u := storetest.NewUser()
	base := func(i int) string { return servers[i].url + "/v1/users/" + string(u) }
	set := func(i int, key, value string) factbase.Fact {
		t.Helper()
		var res factbase.Result
		if _, err := c.do(ctx, http.MethodPost, base(i)+"/facts", map[string]string{"key": key, "value": value}, &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Facts) != 1 {
			t.Fatalf("setting %s: %+v", key, res)
		}
		return res.Facts[0]
	}
	// vectorRank is the rank among the vector candidates of server i of the fact
	// with id, 0 when it is not a hit.
	vectorRank := func(i int, query, id string) int {
		t.Helper()
		var res retrieve.SearchResult
		body := map[string]any{"query": query, "kinds": []string{factbase.KindFact}, "limit": 20, "include_superseded": true}
		if _, err := c.do(ctx, http.MethodPost, base(i)+"/search", body, &res); err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.ID == id {
				return h.Explain.VectorRank
			}
		}
		return 0
	}
	values := []string{"sailing the norwegian fjords", "baking sourdough bread", "restoring vintage motorcycles",
		"playing the cello in an orchestra", "growing tomatoes on the balcony", "collecting antique maps"}
	facts := make([]factbase.Fact, len(values))
	// Each server searches first, so that an in-memory copy exists before the writes.
	for i := range servers {
		vectorRank(i, "anything at all", "")
	}
	for i, v := range values {
		facts[i] = set(i%2, fmt.Sprintf("hobby.h%d", i), v)
	}
	for i, f := range facts {
		for s := range servers {
			if got := vectorRank(s, values[i], f.ID); got != 1 {
				t.Errorf("server %d: %q written through server %d is vector rank %d, want 1", s, values[i], i%2, got)
			}
		}
	}
	// Server 1 retracts one fact and replaces another; server 0 no longer finds them.
	if _, err := c.do(ctx, http.MethodPost, base(1)+"/facts/"+facts[0].ID+"/retract", nil, nil); err != nil {
		t.Fatal(err)
	}
	replaced := set(1, "hobby.h1", "flying kites at the beach")
	for s := range servers {
		if got := vectorRank(s, values[0], facts[0].ID); got != 0 {
			t.Errorf("server %d: the retracted fact is vector rank %d, want none", s, got)
		}
		if got := vectorRank(s, "flying kites at the beach", replaced.ID); got != 1 {
			t.Errorf("server %d: the new value is vector rank %d, want 1", s, got)
		}
		// The old value is history: found with include_superseded, still by its vector.
		if got := vectorRank(s, values[1], facts[1].ID); got != 1 {
			t.Errorf("server %d: the superseded value is vector rank %d, want 1", s, got)
		}
	}
}

// BenchmarkServers measures the throughput of one and of two Factbase servers over
// the same database: 32 clients append over HTTP (each request one write
// transaction), spread evenly over the servers, either each to its own user's list
// (writers do not wait for each other) or all to one list (one user's writes are
// serialised by its lock, whichever server they reach). It reports requests per
// second.
func BenchmarkServers(b *testing.B) {
	for _, servers := range []int{1, 2} {
		for _, shared := range []bool{false, true} {
			name := fmt.Sprintf("servers_%d/own_lists", servers)
			if shared {
				name = fmt.Sprintf("servers_%d/one_list", servers)
			}
			b.Run(name, func(b *testing.B) { benchServers(b, servers, shared) })
		}
	}
}

func benchServers(b *testing.B, n int, shared bool) {
	schema := postgres.NewSchema(b)
	srvs, secret := startServers(b, schema, n, postgres.Options{}, memory.Options{})
	const clients = 32
	c := apiClient{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: time.Minute}, key: secret}
	users := make([]factbase.UserID, clients)
	one := storetest.NewUser()
	for i := range users {
		users[i] = storetest.NewUser()
		if shared {
			users[i] = one
		}
	}
	ctx := context.Background()
	var (
		next atomic.Int64
		wg   sync.WaitGroup
		fail atomic.Value
	)
	b.ResetTimer()
	start := time.Now()
	for w := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				srv := srvs[int(i)%n]
				url := srv.url + "/v1/users/" + string(users[w]) + "/lists/favorites.bench"
				if _, err := c.do(ctx, http.MethodPost, url, map[string]string{"value": fmt.Sprintf("w%02d-%d", w, i)}, nil); err != nil {
					fail.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err, _ := fail.Load().(error); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
}
