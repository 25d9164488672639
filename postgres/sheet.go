package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/jackc/pgx/v5"
)

// The statements of references and sheets.
const (
	// One statement records a batch: the references go as parallel arrays, in order.
	qRefInsert = `INSERT INTO fact_references (u, fact, at, source_kind, source_id)
		SELECT f.u, f.seq, r.at, r.kind, r.sid
		FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) WITH ORDINALITY AS r (id, at, kind, sid, ord)
		JOIN facts f ON f.u = $1 AND f.id = r.id
		ORDER BY r.ord`
	qRefs = `SELECT r.at, r.source_kind, r.source_id FROM facts f
		JOIN fact_references r ON r.fact = f.seq
		WHERE f.u = $1 AND f.id = $2 ORDER BY r.at, r.seq`
	qSheetInsert = `INSERT INTO sheets (id, u, created_at, count, entries, dedup) VALUES ($1, $2, $3, $4, $5, $6)
		RETURNING seq`
	qSheetFacts = `INSERT INTO sheet_facts (fact, sheet)
		SELECT DISTINCT f.seq, $1::bigint FROM facts f WHERE f.u = $2 AND f.id = ANY($3::text[])
		ON CONFLICT DO NOTHING`
	qSheetPrune  = `DELETE FROM sheets WHERE u = $1 AND created_at < $2 AND seq <> $3`
	qSheetLatest = `SELECT id, created_at, count, entries, dedup FROM sheets
		WHERE u = $1 ORDER BY created_at DESC, seq DESC LIMIT 1`
)

// sheetFactsQuery returns the statement of SheetFacts for n cut-offs: the user's
// current facts, each with its references counted in the database (all of them, the
// newest, and for every cut-off $2.. those strictly after it).
func sheetFactsQuery(n int) string {
	var b strings.Builder
	b.WriteString(`SELECT f.id, f.category, f.text, f.key, f.value, f.sensitivity, f.recorded_at,
		count(r.at), max(r.at)`)
	for i := range n {
		fmt.Fprintf(&b, ", count(*) FILTER (WHERE r.at > $%d)", i+2)
	}
	b.WriteString(` FROM facts f LEFT JOIN fact_references r ON r.fact = f.seq
		WHERE f.u = $1 AND f.current GROUP BY f.seq`)
	return b.String()
}

// AddReferences records references to the user's facts; unknown ids are skipped.
func (t *tx) AddReferences(ctx context.Context, refs []factbase.Reference) (int, error) {
	if len(refs) == 0 {
		return 0, nil
	}
	ids := make([]string, len(refs))
	ats := make([]int64, len(refs))
	kinds := make([]string, len(refs))
	sids := make([]string, len(refs))
	for i, r := range refs {
		at := r.At
		if at.IsZero() {
			at = t.now
		}
		ids[i], ats[i], kinds[i], sids[i] = r.FactID, at.UnixNano(), r.Source.Kind, r.Source.ID
	}
	tag, err := t.q.Exec(ctx, qRefInsert, string(t.user), ids, ats, kinds, sids)
	if err != nil {
		return 0, mapErr("add reference", err)
	}
	t.writes += int(tag.RowsAffected())
	return int(tag.RowsAffected()), nil
}

// References returns a fact's references, oldest first.
func (t *tx) References(ctx context.Context, factID string) ([]factbase.Reference, error) {
	rows, err := t.q.Query(ctx, qRefs, string(t.user), factID)
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
	args = append(args, string(t.user))
	for _, c := range cuts {
		args = append(args, c.UnixNano())
	}
	rows, err := t.q.Query(ctx, sheetFactsQuery(len(cuts)), args...)
	if err != nil {
		return mapErr("sheet facts", err)
	}
	defer rows.Close()
	var (
		cat, sens      string
		recorded, refs int64
		last           *int64
		newer          = make([]int64, len(cuts))
		dest           = make([]any, 0, 9+len(cuts))
		f              factbase.SheetFact
	)
	dest = append(dest, &f.ID, &cat, &f.Text, &f.Key, &f.Value, &sens, &recorded, &refs, &last)
	for i := range newer {
		dest = append(dest, &newer[i])
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return mapErr("sheet facts", err)
		}
		f.Category, f.Sensitivity = factbase.Category(cat), factbase.Sensitivity(sens)
		f.RecordedAt = time.Unix(0, recorded).UTC()
		f.References = int(refs)
		f.Last = time.Time{}
		if last != nil {
			f.Last = time.Unix(0, *last).UTC()
		}
		f.Newer = make([]int, len(cuts))
		for i, n := range newer {
			f.Newer[i] = int(n)
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return mapErr("sheet facts", rows.Err())
}

// SaveSheet stores a sheet and deletes the user's sheets older than retention before
// it, in one write transaction (under the user's lock).
func (s *Store) SaveSheet(ctx context.Context, sh factbase.FactSheet, retention time.Duration) (int, error) {
	if sh.ID == "" || sh.CreatedAt.IsZero() {
		return 0, factbase.Errorf(factbase.EINVALID, "postgres: a sheet needs an id and a created time")
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
		return 0, fmt.Errorf("postgres: save sheet: %w", err)
	}
	dj, err := json.Marshal(dedup)
	if err != nil {
		return 0, fmt.Errorf("postgres: save sheet: %w", err)
	}
	ids := make([]string, 0, len(entries)+2*len(dedup))
	for _, e := range entries {
		ids = append(ids, e.FactID)
	}
	for _, d := range dedup {
		ids = append(ids, d.Dropped, d.Kept)
	}
	var deleted int
	err = s.Update(ctx, sh.User, func(ftx factbase.Tx) error {
		t := ftx.(*tx)
		var seq int64
		err := t.q.QueryRow(ctx, qSheetInsert, sh.ID, string(t.user), sh.CreatedAt.UnixNano(), len(entries), string(ej), string(dj)).Scan(&seq)
		if err != nil {
			err = mapErr("save sheet", err)
			if factbase.ErrorCode(err) == factbase.EINVARIANT {
				return &factbase.Error{Code: factbase.ECONFLICT, Message: fmt.Sprintf("a sheet with id %q already exists", sh.ID), Err: err}
			}
			return err
		}
		if _, err := t.q.Exec(ctx, qSheetFacts, seq, string(t.user), ids); err != nil {
			return mapErr("save sheet", err)
		}
		tag, err := t.q.Exec(ctx, qSheetPrune, string(t.user), sh.CreatedAt.Add(-retention).UnixNano(), seq)
		if err != nil {
			return mapErr("prune sheets", err)
		}
		deleted = int(tag.RowsAffected())
		return nil
	})
	return deleted, err
}

// LatestSheet returns the user's newest sheet; ENOTFOUND if none.
func (s *Store) LatestSheet(ctx context.Context, user factbase.UserID) (factbase.FactSheet, error) {
	sh := factbase.FactSheet{User: user}
	err := s.View(ctx, user, func(ftx factbase.ReadTx) error {
		t := ftx.(*tx)
		var (
			created      int64
			count        int32
			entries, ded []byte
		)
		err := t.q.QueryRow(ctx, qSheetLatest, string(t.user)).Scan(&sh.ID, &created, &count, &entries, &ded)
		if errors.Is(err, pgx.ErrNoRows) {
			return factbase.Errorf(factbase.ENOTFOUND, "no fact sheet for user %s yet", user)
		}
		if err != nil {
			return mapErr("latest sheet", err)
		}
		sh.CreatedAt = time.Unix(0, created).UTC()
		sh.Count = int(count)
		if err := json.Unmarshal(entries, &sh.Entries); err != nil {
			return fmt.Errorf("postgres: latest sheet: entries: %w", err)
		}
		if err := json.Unmarshal(ded, &sh.Dedup); err != nil {
			return fmt.Errorf("postgres: latest sheet: dedup: %w", err)
		}
		return nil
	})
	if err != nil {
		return factbase.FactSheet{}, err
	}
	return sh, nil
}
