package postgres_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/server"
	"github.com/factbase/factbase/storetest"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestConcurrentOpen: several stores opening a fresh schema at once apply each
// migration exactly once (the advisory lock) and all work.
func TestConcurrentOpen(t *testing.T) {
	stores := openAtOnce(t, postgres.Options{Schema: postgres.NewSchema(t)}, 4)
	var applied int
	if err := postgres.PoolOf(stores[0]).QueryRow(context.Background(), "SELECT count(*) FROM schema_migrations").Scan(&applied); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	want := len(files)
	if path, _ := stores[0].VectorSearch(); path != postgres.VectorsPgvector {
		want-- // 0013_pgvector.sql waits for pgvector
	}
	if applied != want {
		t.Errorf("schema_migrations holds %d rows, want %d (one per migration)", applied, want)
	}
	u := storetest.NewUser()
	for i, s := range stores {
		e := memory.New(s, memory.Options{NoSheetRegen: true})
		if _, err := e.Apply(context.Background(), u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.x", Value: fmt.Sprint(i)}}}); err != nil {
			t.Errorf("store %d: Apply: %v", i, err)
		}
	}
}

func TestOpenRefusesBadInput(t *testing.T) {
	cases := []struct {
		name, url string
		o         postgres.Options
	}{
		{name: "unparsable URL", url: "postgres://user:secret@[::1/db"},
		{name: "schema with a quote", url: "postgres://127.0.0.1/x", o: postgres.Options{Schema: `a"b`}},
		{name: "upper-case schema", url: "postgres://127.0.0.1/x", o: postgres.Options{Schema: "Fb"}},
		{name: "unknown synchronous_commit", url: "postgres://127.0.0.1/x", o: postgres.Options{SynchronousCommit: "sometimes"}},
		{name: "unknown purge mode", url: "postgres://127.0.0.1/x", o: postgres.Options{Purge: "sometimes"}},
		{name: "unknown purge mode in the URL", url: "postgres://user:secret@127.0.0.1/x?factbase_purge=always"},
		{name: "unparsable URL with a purge mode", url: "postgres://user:secret@[::1/db?factbase_purge=full"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := postgres.Open(context.Background(), tc.url, tc.o)
			if factbase.ErrorCode(err) != factbase.EINVALID {
				t.Errorf("Open = %v, want %s", err, factbase.EINVALID)
			}
			if strings.Contains(factbase.ErrorMessage(err), "secret") {
				t.Errorf("the error %q repeats the password", factbase.ErrorMessage(err))
			}
		})
	}
}

// TestWriteLockTimeout: a writer waiting for the user's lock longer than the
// statement timeout gets ETIMEOUT; a writer of another user does not wait.
func TestWriteLockTimeout(t *testing.T) {
	holder := openTest(t, postgres.Options{})
	waiter := openTest(t, postgres.Options{StatementTimeout: 200 * time.Millisecond})
	ctx := context.Background()
	u := storetest.NewUser()
	locked, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- holder.Update(ctx, u, func(tx factbase.Tx) error {
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	err := waiter.Update(ctx, u, func(tx factbase.Tx) error { return nil })
	if factbase.ErrorCode(err) != factbase.ETIMEOUT {
		t.Errorf("Update while another server holds the user's lock = %v, want %s", err, factbase.ETIMEOUT)
	}
	if err := waiter.Update(ctx, storetest.NewUser(), func(tx factbase.Tx) error { return nil }); err != nil {
		t.Errorf("Update of another user while the lock is held = %v, want nil", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("holder: %v", err)
	}
	if err := waiter.Update(ctx, u, func(tx factbase.Tx) error { return nil }); err != nil {
		t.Errorf("Update after the lock was released = %v", err)
	}
}

// TestUpdateRetries: a serialization failure or deadlock reruns the transaction; one
// that keeps failing is EUNAVAILABLE; other errors are not retried.
func TestUpdateRetries(t *testing.T) {
	s := openTest(t, postgres.Options{Retries: 3})
	ctx := context.Background()
	cases := []struct {
		name      string
		failures  int // attempts that fail before one succeeds
		err       error
		wantCalls int
		wantCode  string
	}{
		{name: "one serialization failure", failures: 1, err: &pgconn.PgError{Code: "40001"}, wantCalls: 2},
		{name: "two deadlocks", failures: 2, err: &pgconn.PgError{Code: "40P01"}, wantCalls: 3},
		{name: "always failing", failures: 100, err: &pgconn.PgError{Code: "40001"}, wantCalls: 4, wantCode: factbase.EUNAVAILABLE},
		{name: "not retryable", failures: 100, err: factbase.Errorf(factbase.EINVARIANT, "ranks"), wantCalls: 1, wantCode: factbase.EINVARIANT},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := s.Update(ctx, storetest.NewUser(), func(tx factbase.Tx) error {
				calls++
				if calls <= tc.failures {
					return tc.err
				}
				return nil
			})
			if calls != tc.wantCalls || factbase.ErrorCode(err) != tc.wantCode {
				t.Errorf("Update: %d calls, error %v; want %d calls, code %q", calls, err, tc.wantCalls, tc.wantCode)
			}
		})
	}
}

// proxy forwards TCP connections to a target; Stop cuts every connection and stops
// listening, Start listens again on the same address. It stands for a database that
// goes away and comes back.
type proxy struct {
	target, addr string
	mu           sync.Mutex
	l            net.Listener
	conns        map[net.Conn]bool
	wg           sync.WaitGroup
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	p := &proxy{target: target, addr: "127.0.0.1:0", conns: map[net.Conn]bool{}}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(); p.wg.Wait() })
	return p
}

// Start listens on the proxy's address.
func (p *proxy) Start() error {
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.l, p.addr = l, l.Addr().String()
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.forward(c)
			}()
		}
	}()
	return nil
}

func (p *proxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.l == nil { // stopped meanwhile
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns[c], p.conns[up] = true, true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// Stop closes the listener and every forwarded connection.
func (p *proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.l != nil {
		p.l.Close()
		p.l = nil
	}
	for c := range p.conns {
		c.Close()
	}
}

// TestOutageAndRecovery: when the database goes away, writes, reads, Ping and the
// server's readyz and API say unavailable (503); when it comes back, the same store
// and server work again by themselves.
func TestOutageAndRecovery(t *testing.T) {
	raw := postgres.DatabaseURL(t)
	u, err := neturl.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	target := u.Host
	if !strings.Contains(target, ":") {
		target += ":5432"
	}
	p := startProxy(t, target)
	u.Host = p.addr
	ctx := context.Background()
	s, err := postgres.Open(ctx, u.String(), postgres.Options{Schema: testSchema, ConnectTimeout: time.Second, Retries: 1})
	if err != nil {
		t.Fatalf("Open through the proxy: %v", err)
	}
	defer s.Close()
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	srv := httptest.NewServer(server.New(server.Options{Engine: e, NoAuth: true}).Handler())
	defer srv.Close()
	user := storetest.NewUser()
	write := func(v string) error {
		_, err := e.Apply(ctx, user, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.x", Value: v}}})
		return err
	}
	status := func(path string) int {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	listPath := "/v1/users/" + string(user) + "/lists/favorites.x"

	if err := write("before"); err != nil {
		t.Fatalf("write before the outage: %v", err)
	}
	if got := status("/readyz"); got != http.StatusOK {
		t.Fatalf("readyz before the outage = %d, want 200", got)
	}

	p.Stop()
	if err := write("during"); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("write during the outage = %v, want %s", err, factbase.EUNAVAILABLE)
	}
	if _, err := e.List(ctx, user, "", "favorites.x", 0, 10, nil); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("read during the outage = %v, want %s", err, factbase.EUNAVAILABLE)
	}
	if err := s.Ping(ctx); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("Ping during the outage = %v, want %s", err, factbase.EUNAVAILABLE)
	}
	if got := status("/readyz"); got != http.StatusServiceUnavailable {
		t.Errorf("readyz during the outage = %d, want 503", got)
	}
	if got := status(listPath); got != http.StatusServiceUnavailable {
		t.Errorf("GET list during the outage = %d, want 503", got)
	}

	if err := p.Start(); err != nil {
		t.Fatalf("restarting the proxy on %s: %v", p.addr, err)
	}
	// The pool drops the broken connections and dials new ones: the first write may
	// still meet a connection broken by the outage, but not many in a row.
	var werr error
	for range 10 {
		if werr = write("after"); werr == nil {
			break
		}
	}
	if werr != nil {
		t.Fatalf("writes after the database came back still fail: %v", werr)
	}
	for i := range 5 {
		if err := write(fmt.Sprintf("after-%d", i)); err != nil {
			t.Errorf("write %d after recovery: %v", i, err)
		}
	}
	if got := status("/readyz"); got != http.StatusOK {
		t.Errorf("readyz after recovery = %d, want 200", got)
	}
	if got := status(listPath); got != http.StatusOK {
		t.Errorf("GET list after recovery = %d, want 200", got)
	}
	page, err := e.List(ctx, user, "", "favorites.x", 0, 10, nil)
	if err != nil || page.Total != 7 {
		t.Errorf("list after recovery: %d members, %v; want 7 (before, after, after-0..4)", page.Total, err)
	}
}

// TestAnalyzeWithoutAutovacuum: on a server whose autovacuum is off, the store keeps
// the statistics of its tables itself once enough rows are written.
func TestAnalyzeWithoutAutovacuum(t *testing.T) {
	s := openTest(t, postgres.Options{Schema: postgres.NewSchema(t)})
	ctx := context.Background()
	var autovacuum bool
	if err := postgres.PoolOf(s).QueryRow(ctx, "SELECT current_setting('autovacuum')::boolean").Scan(&autovacuum); err != nil {
		t.Fatal(err)
	}
	if autovacuum {
		t.Skip("the server's autovacuum is on: it keeps the statistics")
	}
	analyzed := func() bool {
		var ok bool
		if err := postgres.PoolOf(s).QueryRow(ctx, "SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relid = 'facts'::regclass").Scan(&ok); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if analyzed() {
		t.Fatal("a new schema's facts table was analyzed before any write")
	}
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	var ops []factbase.Op
	for i := range 60 {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.x", Value: fmt.Sprint(i)}})
	}
	if _, err := e.Apply(ctx, storetest.NewUser(), ops); err != nil {
		t.Fatal(err)
	}
	// The ANALYZE runs in the background: wait for it (bounded, not timed).
	for i := 0; i < 300 && !analyzed(); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if !analyzed() {
		t.Error("60 facts written and the facts table is still not analyzed")
	}
}
