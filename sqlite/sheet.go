package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
)

var _ factbase.SheetStore = (*Store)(nil)

// defaultCuts is the number of cut-offs of the default decay table (eight buckets);
// its SheetFacts statement is prepared at open, other sizes on the transaction.
const defaultCuts = 7

// The static statements of references and sheets (see allStaticQueries).
var (
	qRefInsert = `INSERT INTO fact_references (u, fact, at, source_kind, source_id)
		SELECT u, seq, ?, ?, ? FROM facts WHERE u = ? AND id = ?`
	qRefs = `SELECT r.at, r.source_kind, r.source_id FROM facts f
		JOIN fact_references r ON r.u = f.u AND r.fact = f.seq
		WHERE f.u = ? AND f.id = ? ORDER BY r.at, r.seq`
	qSheetInsert = `INSERT INTO sheets (id, u, created_at, count, entries, dedup) VALUES (?, ?, ?, ?, ?, ?)`
	qSheetFacts  = `INSERT OR IGNORE INTO sheet_facts (fact, sheet)
		SELECT f.seq, ?1 FROM json_each(?2) j JOIN facts f ON f.id = j.value AND f.u = ?3`
	qSheetPrune  = `DELETE FROM sheets WHERE u = ? AND created_at < ? AND seq <> ?`
	qSheetLatest = `SELECT id, created_at, count, entries, dedup FROM sheets
		WHERE u = ? ORDER BY created_at DESC, seq DESC LIMIT 1`

	sheetQueries = []string{qRefInsert, qRefs, qSheetInsert, qSheetFacts, qSheetPrune, qSheetLatest,
		sheetFactsQuery(defaultCuts)}
)

// sheetFactsQuery returns the statement of SheetFacts for n cut-offs: the user's
// current facts, each with its references counted in the database (all of them, the
// newest, and for every cut-off ?2.. those strictly after it), so that a million
// references cost a million index entries read in SQLite, not a million rows in Go.
func sheetFactsQuery(n int) string {
	var b strings.Builder
	b.WriteString(`SELECT f.id, f.category, f.text, f.key, f.value, f.sensitivity, f.recorded_at,
		count(r.at), max(r.at)`)
	for i := range n {
		fmt.Fprintf(&b, ", sum(r.at > ?%d)", i+2)
	}
	b.WriteString(` FROM facts f LEFT JOIN fact_references r ON r.u = f.u AND r.fact = f.seq
		WHERE f.u = ?1 AND f.current = 1 GROUP BY f.seq`)
	return b.String()
}

// AddReferences records references to the user's facts; unknown ids are skipped.
func (t *tx) AddReferences(ctx context.Context, refs []factbase.Reference) (int, error) {
	stored := 0
	for _, r := range refs {
		at := r.At
		if at.IsZero() {
			at = t.now
		}
		res, err := t.exec(ctx, qRefInsert, at.UnixNano(), r.Source.Kind, r.Source.ID, t.u, r.FactID)
		if err != nil {
			return stored, mapErr("add reference", err)
		}
		n, _ := res.RowsAffected()
		stored += int(n)
	}
	return stored, nil
}

// References returns a fact's references, oldest first.
func (t *tx) References(ctx context.Context, factID string) ([]factbase.Reference, error) {
	rows, err := t.query(ctx, qRefs, t.u, factID)
	if err != nil {
		return nil, mapErr("references", err)
	}
	defer rows.Close()
	out := []factbase.Reference{}
	for rows.Next() {
		r := factbase.Reference{FactID: factID}
		var at int64
		if err := rows.Scan(&at, &r.Source.Kind, &r.Source.ID); err != nil {
			return nil, mapErr("references", err)
		}
		r.At = time.Unix(0, at).UTC()
		out = append(out, r)
	}
	return out, mapErr("references", rows.Err())
}

// SheetFacts walks the user's current facts with their references counted against
// cuts, in one statement.
func (t *tx) SheetFacts(ctx context.Context, cuts []time.Time, fn func(factbase.SheetFact) error) error {
	args := make([]any, 0, len(cuts)+1)
	args = append(args, t.u)
	for _, c := range cuts {
		args = append(args, c.UnixNano())
	}
	rows, err := t.query(ctx, sheetFactsQuery(len(cuts)), args...)
	if err != nil {
		return mapErr("sheet facts", err)
	}
	defer rows.Close()
	var (
		cat, sens    string
		recorded     int64
		last         sql.NullInt64
		newer        = make([]sql.NullInt64, len(cuts))
		dest         = make([]any, 0, 9+len(cuts))
		f            factbase.SheetFact
		text, key, v string
	)
	dest = append(dest, &f.ID, &cat, &text, &key, &v, &sens, &recorded, &f.References, &last)
	for i := range newer {
		dest = append(dest, &newer[i])
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return mapErr("sheet facts", err)
		}
		f.Category, f.Sensitivity = factbase.Category(cat), factbase.Sensitivity(sens)
		f.Text, f.Key, f.Value = text, key, v
		f.RecordedAt = time.Unix(0, recorded).UTC()
		f.Last = time.Time{}
		if last.Valid {
			f.Last = time.Unix(0, last.Int64).UTC()
		}
		f.Newer = make([]int, len(cuts))
		for i, n := range newer {
			f.Newer[i] = int(n.Int64) // NULL (no reference) reads as 0
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return mapErr("sheet facts", rows.Err())
}

// SaveSheet stores a sheet and deletes the user's sheets older than retention before
// it, in one transaction.
func (s *Store) SaveSheet(ctx context.Context, sh factbase.FactSheet, retention time.Duration) (int, error) {
	if sh.ID == "" || sh.CreatedAt.IsZero() {
		return 0, factbase.Errorf(factbase.EINVALID, "sqlite: a sheet needs an id and a created time")
	}
	if retention <= 0 {
		return 0, factbase.Errorf(factbase.EINVALID, "sheet retention %v is not positive", retention)
	}
	entries, dedup := sh.Entries, sh.Dedup
	if entries == nil {
		entries = []factbase.SheetEntry{}
	}
	if dedup == nil {
		dedup = []factbase.SheetDedup{}
	}
	ej, err := json.Marshal(entries)
	if err != nil {
		return 0, fmt.Errorf("sqlite: save sheet: %w", err)
	}
	dj, err := json.Marshal(dedup)
	if err != nil {
		return 0, fmt.Errorf("sqlite: save sheet: %w", err)
	}
	ids := make([]string, 0, len(entries)+2*len(dedup))
	for _, e := range entries {
		ids = append(ids, e.FactID)
	}
	for _, d := range dedup {
		ids = append(ids, d.Dropped, d.Kept)
	}
	ij, err := json.Marshal(ids)
	if err != nil {
		return 0, fmt.Errorf("sqlite: save sheet: %w", err)
	}
	var deleted int
	err = s.Update(ctx, sh.User, func(ftx factbase.Tx) error {
		t := ftx.(*tx)
		res, err := t.exec(ctx, qSheetInsert, sh.ID, t.u, sh.CreatedAt.UnixNano(), len(entries), string(ej), string(dj))
		if err != nil {
			err = mapErr("save sheet", err)
			if factbase.ErrorCode(err) == factbase.EINVARIANT {
				return &factbase.Error{Code: factbase.ECONFLICT, Message: fmt.Sprintf("a sheet with id %q already exists", sh.ID), Err: err}
			}
			return err
		}
		seq, err := res.LastInsertId()
		if err != nil {
			return mapErr("save sheet", err)
		}
		if _, err := t.exec(ctx, qSheetFacts, seq, string(ij), t.u); err != nil {
			return mapErr("save sheet", err)
		}
		res, err = t.exec(ctx, qSheetPrune, t.u, sh.CreatedAt.Add(-retention).UnixNano(), seq)
		if err != nil {
			return mapErr("prune sheets", err)
		}
		n, _ := res.RowsAffected()
		deleted = int(n)
		return nil
	})
	return deleted, err
}

// LatestSheet returns the user's newest sheet.
func (s *Store) LatestSheet(ctx context.Context, user factbase.UserID) (factbase.FactSheet, error) {
	sh := factbase.FactSheet{User: user}
	err := s.View(ctx, user, func(ftx factbase.ReadTx) error {
		t := ftx.(*tx)
		var (
			created      int64
			entries, ded string
		)
		err := t.queryRow(ctx, qSheetLatest, t.u).Scan(&sh.ID, &created, &sh.Count, &entries, &ded)
		if errors.Is(err, sql.ErrNoRows) {
			return factbase.Errorf(factbase.ENOTFOUND, "no fact sheet for user %s yet", user)
		}
		if err != nil {
			return mapErr("latest sheet", err)
		}
		sh.CreatedAt = time.Unix(0, created).UTC()
		if err := json.Unmarshal([]byte(entries), &sh.Entries); err != nil {
			return fmt.Errorf("sqlite: latest sheet: entries: %w", err)
		}
		if err := json.Unmarshal([]byte(ded), &sh.Dedup); err != nil {
			return fmt.Errorf("sqlite: latest sheet: dedup: %w", err)
		}
		return nil
	})
	if err != nil {
		return factbase.FactSheet{}, err
	}
	return sh, nil
}
