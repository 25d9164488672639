package postgres

import (
	"context"
	"errors"
	neturl "net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/storeerr"
)

// Purging. A DELETE leaves the row in the table file, readable by anyone with the
// file (or pageinspect) until VACUUM removes it; even then, VACUUM only marks the
// space free: a row's bytes stay in the page until a later row overwrites them, an
// UPDATE's old version likewise, b-tree entries stay in their page's free space, and
// a GIN index never removes a key (a full-text lexeme) once added. Only a rewrite
// (VACUUM FULL) writes the tables and their indexes anew, without the erased rows,
// and truncates the old files at commit. So the store offers both:
//
//   - PurgeVacuum (the default) runs VACUUM (ANALYZE, INDEX_CLEANUP ON) in the
//     background after an erasure: the erased rows leave the tables and indexes
//     (no SQL, nor pageinspect's tuple views, reads them), the planner's sample
//     values are replaced, and the space becomes reusable. Purge reports false: the
//     bytes may still be in the files.
//   - PurgeFull runs VACUUM (FULL, ANALYZE) before Purge returns and reports true
//     when every table was rewritten after the erasure with no older snapshot able
//     to keep its rows. The rewrite holds an ACCESS EXCLUSIVE lock on each table in
//     turn: every user's reads and writes of that table wait for it.
//
// Either way only tables the role may vacuum (its own, or all of the database's if it
// owns the database) are vacuumed: VACUUM of another role's table merely warns.
// Runs are coalesced: one at a time per store, and the requests that arrive during
// a run share the one after it.

// PurgeMode says what Store.Purge does after an erasure.
type PurgeMode string

const (
	// PurgeVacuum vacuums the tables in the background and reports false.
	PurgeVacuum PurgeMode = "vacuum"
	// PurgeFull rewrites the tables (VACUUM FULL) and reports true when the erased
	// rows are out of the table files.
	PurgeFull PurgeMode = "full"
	// PurgeOff does nothing and reports false (an operator vacuums on a schedule).
	PurgeOff PurgeMode = "off"
)

// purgeParam is the URL parameter that sets Options.Purge.
const purgeParam = "factbase_purge"

const (
	// purgeLockWait bounds the wait of VACUUM FULL for a table's lock: while it
	// waits, every later reader and writer of the table queues behind it.
	purgeLockWait = 2 * time.Second
	// purgeSnapshotWait bounds the wait for the transactions that began before the
	// purge: their snapshots would keep the erased rows in the rewritten table.
	purgeSnapshotWait = 10 * time.Second
	// purgeTimeout bounds one run.
	purgeTimeout = time.Hour
	// purgeDuty spaces background vacuums: the next one starts no sooner than
	// purgeDuty times the last one's duration after it ended (at most a tenth of the
	// time spent vacuuming however many erasures come).
	purgeDuty = 9
)

// purgeMode returns the mode of o.Purge or, when that is empty, of the URL's
// factbase_purge parameter, and the URL without the parameter (which PostgreSQL
// would refuse as an unknown setting).
func purgeMode(mode PurgeMode, url string) (PurgeMode, string, error) {
	if strings.Contains(url, purgeParam+"=") {
		u, err := neturl.Parse(url)
		if err != nil {
			return "", "", factbase.Errorf(factbase.EINVALID, "postgres: the database URL cannot be parsed")
		}
		q := u.Query()
		if mode == "" {
			mode = PurgeMode(q.Get(purgeParam))
		}
		q.Del(purgeParam)
		u.RawQuery = q.Encode()
		url = u.String()
	}
	switch mode {
	case "":
		return PurgeVacuum, url, nil
	case PurgeVacuum, PurgeFull, PurgeOff:
		return mode, url, nil
	}
	return "", "", factbase.Errorf(factbase.EINVALID, "postgres: purge mode %q is not vacuum, full or off", mode)
}

// Purge makes erased rows unrecoverable from the table files as far as
// Options.Purge allows (see above) and reports whether they are. PurgeVacuum starts
// a vacuum and returns false at once (a failed vacuum is left for the next
// erasure's); PurgeFull waits for the rewrite that starts after the call, sharing it
// with the calls that come while another runs. A lock or an old snapshot that stops
// the rewrite is reported as false, not as an error.
func (s *Store) Purge(ctx context.Context) (bool, error) {
	if s.gate.Closed() {
		return false, storeerr.ErrClosed
	}
	switch s.purgeMode {
	case PurgeOff:
		return false, nil
	case PurgeVacuum:
		s.purge.request()
		return false, nil
	}
	r := s.purge.request()
	select {
	case <-r.done:
		return r.purged, r.err
	case <-ctx.Done():
		return false, mapErr("purge", ctx.Err())
	}
}

// vacuum vacuums the store's tables on a connection of its own (VACUUM cannot run in
// a transaction, and may outlast the pool's statement timeout) and reports whether
// the rows erased before the call have left the table files: only a full rewrite
// of every table, with no transaction older than the call left to keep them, does.
func (s *Store) vacuum(ctx context.Context, full bool) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, purgeTimeout)
	defer cancel()
	cfg := s.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["statement_timeout"] = "0"
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false, mapErr("purge", err)
	}
	defer c.Close(context.WithoutCancel(ctx))
	// The rows to remove are those committed before now: a snapshot's xmax is past
	// every one of them.
	var xmax string
	if err := c.QueryRow(ctx, "SELECT pg_snapshot_xmax(pg_current_snapshot())::text").Scan(&xmax); err != nil {
		return false, mapErr("purge", err)
	}
	// Servers sharing the schema vacuum one at a time rather than queue on the
	// tables' locks, where a rewrite would wait out purgeLockWait.
	if _, err := c.Exec(ctx, "SELECT pg_advisory_lock(hashtextextended($1, 0))", "factbase purge "+s.schema); err != nil {
		return false, mapErr("purge", err)
	}
	tables, all, err := vacuumTables(ctx, c)
	if err != nil || len(tables) == 0 {
		return false, err
	}
	full = full && all // a rewrite of some tables would leave the rows in the others
	if full {
		// A rewrite copies the rows an older snapshot can still see: not worth its
		// lock then.
		if ok, err := awaitSnapshots(ctx, c, xmax, purgeSnapshotWait); !ok || err != nil {
			return false, err
		}
		if _, err := c.Exec(ctx, "SET lock_timeout = "+strconv.FormatInt(purgeLockWait.Milliseconds(), 10)); err != nil {
			return false, mapErr("purge", err)
		}
	}
	stmt := "VACUUM (ANALYZE, INDEX_CLEANUP ON) "
	if full {
		stmt = "VACUUM (FULL, ANALYZE) "
	}
	if _, err := c.Exec(ctx, stmt+strings.Join(tables, ", ")); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "55P03" {
			return false, nil // a table stayed locked: the next erasure's purge tries again
		}
		return false, mapErr("purge", err)
	}
	if !full {
		return false, nil
	}
	// A standby's feedback can hold back the horizon after the check: look again.
	return awaitSnapshots(ctx, c, xmax, 0)
}

// vacuumTables returns the store's tables (but schema_migrations) that the role may
// vacuum, quoted, and whether it may vacuum all of them: it must own them, or own
// the database (PostgreSQL 15's rule; a superuser may vacuum anything).
func vacuumTables(ctx context.Context, c *pgx.Conn) (tables []string, all bool, err error) {
	rows, err := c.Query(ctx, `SELECT quote_ident(c.relname),
			pg_has_role(c.relowner, 'USAGE') OR pg_has_role(d.datdba, 'USAGE')
		FROM pg_class AS c, pg_database AS d
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
			AND c.relname <> 'schema_migrations' AND d.datname = current_database()
		ORDER BY c.relname`)
	if err != nil {
		return nil, false, mapErr("purge: tables", err)
	}
	all = true
	var name string
	var may bool
	_, err = pgx.ForEachRow(rows, []any{&name, &may}, func() error {
		if may {
			tables = append(tables, name)
		}
		all = all && may
		return nil
	})
	if err != nil {
		return nil, false, mapErr("purge: tables", err)
	}
	return tables, all, nil
}

// qOlderSnapshots counts what could keep rows deleted before xid $1 from VACUUM: the
// transactions and snapshots older than it in this database's sessions (and
// standbys' feedback through walsenders), replication slots and prepared
// transactions. A session whose snapshot the role cannot see (another role's,
// without pg_read_all_stats) counts too, and so does vacuum_defer_cleanup_age
// (PostgreSQL 15 and before) when set.
const qOlderSnapshots = `SELECT
	(SELECT count(*) FROM pg_stat_activity AS a
		WHERE a.pid <> pg_backend_pid()
		AND (a.datname = current_database() OR a.backend_type = 'walsender')
		AND (NOT coalesce(pg_has_role(a.usesysid, 'USAGE') OR pg_has_role('pg_read_all_stats', 'USAGE'), false)
			OR age(a.backend_xmin) > age($1::text::xid) OR age(a.backend_xid) > age($1::text::xid)))
	+ (SELECT count(*) FROM pg_replication_slots WHERE age(xmin) > age($1::text::xid))
	+ (SELECT count(*) FROM pg_prepared_xacts
		WHERE database = current_database() AND age(transaction) > age($1::text::xid))
	+ (SELECT count(*) WHERE coalesce(current_setting('vacuum_defer_cleanup_age', true), '0') <> '0')`

// awaitSnapshots waits up to wait for the transactions older than xmax (an xid8) to
// end, and reports whether they did.
func awaitSnapshots(ctx context.Context, c *pgx.Conn, xmax string, wait time.Duration) (bool, error) {
	x, err := strconv.ParseUint(xmax, 10, 64)
	if err != nil {
		return false, factbase.Errorf(factbase.EINTERNAL, "postgres: purge: snapshot xmax %q", xmax)
	}
	xid := strconv.FormatUint(x&0xffffffff, 10) // the 32-bit xid of the sessions' view
	deadline := time.Now().Add(wait)
	for {
		var n int64
		if err := c.QueryRow(ctx, qOlderSnapshots, xid).Scan(&n); err != nil {
			return false, mapErr("purge: snapshots", err)
		}
		if n == 0 {
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, mapErr("purge", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// purger runs a purge at a time and coalesces requests: a request made while a run
// is under way is served by the run after it, which every such request shares.
type purger struct {
	run     func(ctx context.Context) (bool, error)
	spacing func(took time.Duration) time.Duration // pause after a run of that length
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup

	mu        sync.Mutex
	current   *purgeRun // running or about to; nil when idle
	next      *purgeRun // to start after current
	notBefore time.Time // when the next run may start
}

// purgeRun is one run of a purger; done is closed when purged and err are set.
type purgeRun struct {
	done   chan struct{}
	purged bool
	err    error
}

// newPurger returns a purger of run, which is passed a context that close cancels.
func newPurger(run func(ctx context.Context) (bool, error), spacing func(time.Duration) time.Duration) *purger {
	ctx, stop := context.WithCancel(context.Background())
	return &purger{run: run, spacing: spacing, ctx: ctx, stop: stop}
}

// request returns a run that starts after the call: the pending one, or a new one
// (started now if none is under way).
func (p *purger) request() *purgeRun {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next != nil {
		return p.next
	}
	r := &purgeRun{done: make(chan struct{})}
	if p.ctx.Err() != nil {
		r.err = storeerr.ErrClosed
		close(r.done)
		return r
	}
	if p.current != nil {
		p.next = r
		return r
	}
	p.current = r
	p.wg.Add(1)
	go p.loop(r)
	return r
}

// loop runs r and the runs requested meanwhile, each after the pause its
// predecessor asks for, then returns.
func (p *purger) loop(r *purgeRun) {
	defer p.wg.Done()
	for r != nil {
		p.mu.Lock()
		wait := time.Until(p.notBefore)
		p.mu.Unlock()
		if wait > 0 {
			select {
			case <-p.ctx.Done():
			case <-time.After(wait):
			}
		}
		start := time.Now()
		if err := p.ctx.Err(); err != nil {
			r.err = storeerr.ErrClosed
		} else {
			r.purged, r.err = p.run(p.ctx)
		}
		took := time.Since(start)
		close(r.done)
		p.mu.Lock()
		p.notBefore = time.Now().Add(p.spacing(took))
		r, p.current, p.next = p.next, p.next, nil
		p.mu.Unlock()
	}
}

// wait waits for the runs under way or requested to end.
func (p *purger) wait() { p.wg.Wait() }

// close cancels a run under way and waits for the purger to stop; later runs
// fail at once with ErrClosed.
func (p *purger) close() {
	p.mu.Lock()
	p.stop() // under the lock: no run starts after this
	p.mu.Unlock()
	p.wg.Wait()
}
