package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A transaction's statements cross the network in as few round trips as the Tx
// contract allows. The write path holds the user's lock from its first statement to
// COMMIT, so every round trip inside it is time other servers' writers of that user
// wait: statements whose only answer is success (BEGIN, inserting a fact or a list
// event, ending a fact) are queued and sent in one pipelined batch with the next
// statement that must be answered, or with COMMIT. An error of a queued statement is
// returned by the call that sends it; the transaction is then aborted (PostgreSQL
// skips the rest of the batch) and rolled back, so the write path fails as it would
// have at the queued call. A fact append thus takes six round trips under the lock
// instead of nine, and a point read two instead of three.

// queued is a statement waiting to be sent.
type queued struct {
	op    string // for error messages
	sql   string
	args  []any
	check func(pgconn.CommandTag) error // optional check of the statement's result
}

// conn runs a transaction's statements on one pooled connection; the transaction is
// begun and ended with statements of its own (BEGIN ... COMMIT), so that they can be
// sent with others.
type conn struct {
	c       *pgxpool.Conn
	pending []queued
}

// begin acquires a connection and queues BEGIN with the given options.
func (s *Store) begin(ctx context.Context, options string) (*conn, error) {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	cn := &conn{c: c}
	cn.queue(queued{op: "begin", sql: "BEGIN " + options})
	return cn, nil
}

// queue adds a statement to be sent with the next one that is answered.
func (cn *conn) queue(q queued) { cn.pending = append(cn.pending, q) }

// send sends the queued statements and then finals in one batch, reads the queued
// statements' results and returns the batch positioned at the first final. The
// caller reads the finals' results and closes the batch.
func (cn *conn) send(ctx context.Context, finals ...queued) (pgx.BatchResults, error) {
	b := &pgx.Batch{}
	for _, q := range cn.pending {
		b.Queue(q.sql, q.args...)
	}
	for _, q := range finals {
		b.Queue(q.sql, q.args...)
	}
	pending := cn.pending
	cn.pending = nil
	br := cn.c.SendBatch(ctx, b)
	for _, q := range pending {
		tag, err := br.Exec()
		if err == nil && q.check != nil {
			err = q.check(tag)
		}
		if err != nil {
			br.Close()
			return nil, mapErr(q.op, err)
		}
	}
	return br, nil
}

// Exec runs a statement, sending the queued ones first.
func (cn *conn) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if len(cn.pending) == 0 {
		return cn.c.Exec(ctx, sql, args...)
	}
	br, err := cn.send(ctx, queued{sql: sql, args: args})
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return tag, err
}

// ExecAll runs statements in one round trip (with the queued ones) and returns
// their results.
func (cn *conn) ExecAll(ctx context.Context, stmts ...queued) ([]pgconn.CommandTag, error) {
	br, err := cn.send(ctx, stmts...)
	if err != nil {
		return nil, err
	}
	tags := make([]pgconn.CommandTag, 0, len(stmts))
	for range stmts {
		tag, err := br.Exec()
		if err != nil {
			br.Close()
			return nil, err
		}
		tags = append(tags, tag)
	}
	return tags, br.Close()
}

// Query runs a query, sending the queued statements first.
func (cn *conn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if len(cn.pending) == 0 {
		return cn.c.Query(ctx, sql, args...)
	}
	br, err := cn.send(ctx, queued{sql: sql, args: args})
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		br.Close()
		return nil, err
	}
	return &batchRows{Rows: rows, br: br}, nil
}

// QueryRow runs a query expected to return at most one row.
func (cn *conn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	rows, err := cn.Query(ctx, sql, args...)
	return &oneRow{rows: rows, err: err}
}

// release ends the connection's use: a connection left inside a transaction (an
// error, a cancelled context) is closed rather than returned to the pool.
func (cn *conn) release() {
	if cn.c.Conn().PgConn().TxStatus() != 'I' {
		cn.c.Conn().Close(context.Background())
	}
	cn.c.Release()
}

// rollback ends a failed transaction, if it was begun.
func (cn *conn) rollback(ctx context.Context) {
	if len(cn.pending) > 0 && cn.pending[0].op == "begin" {
		return // nothing was sent
	}
	cn.pending = nil
	if st := cn.c.Conn().PgConn().TxStatus(); st == 'T' || st == 'E' {
		if _, err := cn.c.Exec(context.WithoutCancel(ctx), "ROLLBACK"); err != nil {
			cn.c.Conn().Close(context.Background())
		}
	}
}

// batchRows are the rows of a query sent in a batch; closing them closes the batch.
type batchRows struct {
	pgx.Rows
	br pgx.BatchResults
}

func (r *batchRows) Close() {
	r.Rows.Close()
	r.br.Close()
}

// oneRow is pgx.Row over Rows.
type oneRow struct {
	rows pgx.Rows
	err  error
}

func (r *oneRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}
