package bench

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"
)

// rawBulk is the store build's baseline: n rows shaped like a fact with its vector (a
// user, a key, a value, a text, a 400-byte vector) inserted by a bare prepared INSERT
// into a table with one index on (user, key), batch rows a transaction. Latencies are
// per transaction; the throughput is rows per second.
func rawBulk(ctx context.Context, db *sql.DB, n, batch int) (Result, error) {
	if _, err := db.ExecContext(ctx, `CREATE TABLE raw_facts (id INTEGER PRIMARY KEY, user INTEGER NOT NULL,
		k TEXT NOT NULL, v TEXT NOT NULL, text TEXT NOT NULL, vec BLOB NOT NULL);
		CREATE INDEX raw_facts_user_k ON raw_facts (user, k)`); err != nil {
		return Result{}, err
	}
	stmt, err := db.PrepareContext(ctx, "INSERT INTO raw_facts (user, k, v, text, vec) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return Result{}, err
	}
	defer stmt.Close()
	vec := make([]byte, 400)
	var lat []time.Duration
	t0 := time.Now()
	for off := 0; off < n; off += batch {
		s := time.Now()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return Result{}, err
		}
		ins := tx.StmtContext(ctx, stmt)
		for i := off; i < min(n, off+batch); i++ {
			f := fleetFact(i/batch, i%batch)
			if _, err := ins.ExecContext(ctx, i/batch, f.Key, f.Value, f.Text, vec); err != nil {
				tx.Rollback()
				return Result{}, err
			}
		}
		if err := tx.Commit(); err != nil {
			return Result{}, err
		}
		lat = append(lat, time.Since(s))
	}
	total := time.Since(t0)
	r := summarize("raw bulk insert (baseline)", lat, total)
	r.Throughput, r.Unit = float64(n)/total.Seconds(), "facts/s"
	r.Note = fmt.Sprintf("%d rows of a fact's size with a 400-byte blob, %d a transaction; latencies per transaction", n, batch)
	return r, nil
}

// rawFTS is search's baseline: the same texts in a bare FTS5 table (porter
// tokenizer), queried n times with the questions' words OR-ed (stop words dropped),
// best 10 by BM25.
func rawFTS(ctx context.Context, db *sql.DB, texts, qs []string, n int) (Result, error) {
	if _, err := db.ExecContext(ctx, "CREATE VIRTUAL TABLE raw_fts USING fts5(text, tokenize = 'porter')"); err != nil {
		return Result{}, fmt.Errorf("raw fts: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	for _, t := range texts {
		if _, err := tx.ExecContext(ctx, "INSERT INTO raw_fts (text) VALUES (?)", t); err != nil {
			tx.Rollback()
			return Result{}, err
		}
	}
	if err := tx.Commit(); err != nil {
		return Result{}, err
	}
	q, err := db.PrepareContext(ctx, "SELECT rowid, text FROM raw_fts WHERE raw_fts MATCH ? ORDER BY rank LIMIT 10")
	if err != nil {
		return Result{}, err
	}
	defer q.Close()
	lat := make([]time.Duration, 0, n)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		match := ftsOr(qs[i%len(qs)])
		s := time.Now()
		if match != "" {
			rows, err := q.QueryContext(ctx, match)
			if err != nil {
				return Result{}, err
			}
			for rows.Next() {
				var (
					id   int64
					text string
				)
				if err := rows.Scan(&id, &text); err != nil {
					rows.Close()
					return Result{}, err
				}
			}
			if err := rows.Close(); err != nil {
				return Result{}, err
			}
		}
		lat = append(lat, time.Since(s))
	}
	r := summarize("raw FTS5 top 10 (baseline)", lat, time.Since(t0))
	r.Note = fmt.Sprintf("the search user's %d texts in a bare FTS5 table (porter), the question's words but stop words OR-ed, best 10 by BM25", len(texts))
	return r, nil
}

// stopWords are dropped from the baseline's queries, as a plain BM25 search drops
// them: the question words of the synthetic questions and the commonest function
// words.
var stopWords = map[string]bool{"what": true, "which": true, "who": true, "does": true, "do": true, "did": true,
	"they": true, "the": true, "a": true, "an": true, "in": true, "of": true, "to": true, "is": true, "are": true}

// ftsOr makes an FTS5 query of q's words but stop words, each quoted, OR-ed.
func ftsOr(q string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !stopWords[w] {
			words = append(words, `"`+w+`"`)
		}
	}
	return strings.Join(words, " OR ")
}

// rawSheet is the fact sheet's baseline: facts rows (with a category) and refs
// references spread at random over them and over 60 days, in bare tables with an
// index on the references' fact; timed is the one SELECT that counts each fact's
// references and keeps the 100 most referenced, n times.
func rawSheet(ctx context.Context, db *sql.DB, facts, refs, n int) (Result, error) {
	facts = max(facts, 1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE raw_sheet_facts (id INTEGER PRIMARY KEY, cat INTEGER NOT NULL, text TEXT NOT NULL);
		CREATE TABLE raw_refs (fact INTEGER NOT NULL, at INTEGER NOT NULL);
		CREATE INDEX raw_refs_fact ON raw_refs (fact, at)`); err != nil {
		return Result{}, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	for i := 1; i <= facts; i++ {
		if _, err := tx.ExecContext(ctx, "INSERT INTO raw_sheet_facts (id, cat, text) VALUES (?, ?, ?)", i, i%4, fleetFact(0, i).Text); err != nil {
			tx.Rollback()
			return Result{}, err
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Now().Unix()
	for i := 0; i < max(refs, facts); i++ {
		fact := 1 + i
		if i >= facts {
			fact = 1 + rng.IntN(facts)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO raw_refs (fact, at) VALUES (?, ?)", fact, now-rng.Int64N(60*24*3600)); err != nil {
			tx.Rollback()
			return Result{}, err
		}
	}
	if err := tx.Commit(); err != nil {
		return Result{}, err
	}
	q, err := db.PrepareContext(ctx, `SELECT f.id, f.cat, f.text, c.n, c.last FROM
		(SELECT fact, count(*) AS n, max(at) AS last FROM raw_refs GROUP BY fact ORDER BY n DESC LIMIT 100) c
		JOIN raw_sheet_facts f ON f.id = c.fact`)
	if err != nil {
		return Result{}, err
	}
	defer q.Close()
	lat := make([]time.Duration, 0, n)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		s := time.Now()
		rows, err := q.QueryContext(ctx)
		if err != nil {
			return Result{}, err
		}
		got := 0
		for rows.Next() {
			var (
				id, cat, cnt, last int64
				text               string
			)
			if err := rows.Scan(&id, &cat, &text, &cnt, &last); err != nil {
				rows.Close()
				return Result{}, err
			}
			got++
		}
		if err := rows.Close(); err != nil {
			return Result{}, err
		}
		if got == 0 {
			return Result{}, fmt.Errorf("raw sheet query found nothing")
		}
		lat = append(lat, time.Since(s))
	}
	r := summarize("raw sheet query (baseline)", lat, time.Since(t0))
	r.Note = fmt.Sprintf("one SELECT: the 100 most referenced of %d facts by %d references in bare tables", facts, max(refs, facts))
	return r, nil
}
