package bench

import (
	"context"
	"database/sql"
	"slices"
	"sync"
	"time"
)

// summarize makes a Result of latencies measured over total wall time.
func summarize(name string, lat []time.Duration, total time.Duration) Result {
	s := slices.Clone(lat)
	slices.Sort(s)
	pct := func(p float64) float64 {
		if len(s) == 0 {
			return 0
		}
		return float64(s[min(len(s)-1, int(p*float64(len(s))))].Nanoseconds()) / 1000
	}
	r := Result{Name: name, Ops: len(lat), P50us: pct(0.50), P95us: pct(0.95), P99us: pct(0.99), Seconds: total.Seconds()}
	if total > 0 {
		r.PerSecond = float64(len(lat)) / total.Seconds()
	}
	return r
}

// timeOps times n operations op(0) ... op(n-1), one after the other, and summarizes
// their latencies as name; the first error stops it.
func timeOps(name string, n int, op func(i int) error) (Result, error) {
	lat := make([]time.Duration, 0, n)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		s := time.Now()
		if err := op(i); err != nil {
			return Result{}, err
		}
		lat = append(lat, time.Since(s))
	}
	return summarize(name, lat, time.Since(t0)), nil
}

// concurrently runs fn(0) ... fn(n-1) on n goroutines at once, each returning the
// latencies of its operations, and returns them all, the wall time until the last
// returned, and the first error in the order of the goroutines.
func concurrently(n int, fn func(w int) ([]time.Duration, error)) ([]time.Duration, time.Duration, error) {
	lats := make([][]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lats[w], errs[w] = fn(w)
		}()
	}
	wg.Wait()
	total := time.Since(t0)
	for _, err := range errs {
		if err != nil {
			return nil, total, err
		}
	}
	return slices.Concat(lats...), total, nil
}

// inTx runs fn in a transaction of db and commits it; an error of fn rolls it back.
func inTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// scanAll runs the query q with args and scans each row into dest, as a client reads
// a result; it returns the number of rows.
func scanAll(ctx context.Context, q *sql.Stmt, args []any, dest ...any) (int, error) {
	rows, err := q.QueryContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return n, err
		}
		n++
	}
	return n, rows.Close()
}
