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
	r, err := timeOps("raw bulk insert (baseline)", (n+batch-1)/batch, func(b int) error {
		return inTx(ctx, db, func(tx *sql.Tx) error {
			ins := tx.StmtContext(ctx, stmt)
			for i := b * batch; i < min(n, (b+1)*batch); i++ {
				f := fleetFact(i/batch, i%batch)
				if _, err := ins.ExecContext(ctx, i/batch, f.Key, f.Value, f.Text, vec); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return Result{}, err
	}
	r.Throughput, r.Unit = float64(n)/r.Seconds, "facts/s"
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
	err := inTx(ctx, db, func(tx *sql.Tx) error {
		for _, t := range texts {
			if _, err := tx.ExecContext(ctx, "INSERT INTO raw_fts (text) VALUES (?)", t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	q, err := db.PrepareContext(ctx, "SELECT rowid, text FROM raw_fts WHERE raw_fts MATCH ? ORDER BY rank LIMIT 10")
	if err != nil {
		return Result{}, err
	}
	defer q.Close()
	// The queries are made before the clock starts: the timing is SQLite's alone.
	matches := make([]string, len(qs))
	for i, question := range qs {
		matches[i] = ftsOr(question)
	}
	r, err := timeOps("raw FTS5 top 10 (baseline)", n, func(i int) error {
		match := matches[i%len(qs)]
		if match == "" {
			return nil
		}
		var (
			id   int64
			text string
		)
		_, err := scanAll(ctx, q, []any{match}, &id, &text)
		return err
	})
	if err != nil {
		return Result{}, err
	}
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
	err := inTx(ctx, db, func(tx *sql.Tx) error {
		for i := 1; i <= facts; i++ {
			if _, err := tx.ExecContext(ctx, "INSERT INTO raw_sheet_facts (id, cat, text) VALUES (?, ?, ?)", i, i%4, fleetFact(0, i).Text); err != nil {
				return err
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
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	q, err := db.PrepareContext(ctx, `SELECT f.id, f.cat, f.text, c.n, c.last FROM
		(SELECT fact, count(*) AS n, max(at) AS last FROM raw_refs GROUP BY fact ORDER BY n DESC LIMIT 100) c
		JOIN raw_sheet_facts f ON f.id = c.fact`)
	if err != nil {
		return Result{}, err
	}
	defer q.Close()
	var (
		id, cat, cnt, last int64
		text               string
	)
	r, err := timeOps("raw sheet query (baseline)", n, func(int) error {
		got, err := scanAll(ctx, q, nil, &id, &cat, &text, &cnt, &last)
		if err == nil && got == 0 {
			err = fmt.Errorf("raw sheet query found nothing")
		}
		return err
	})
	if err != nil {
		return Result{}, err
	}
	r.Note = fmt.Sprintf("one SELECT: the 100 most referenced of %d facts by %d references in bare tables", facts, max(refs, facts))
	return r, nil
}
