package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The statements of references and sheets.
const (
	// One statement records a batch: the references go as parallel arrays, in order.
	// A fact's creation (its time and source) is its row's, not a reference row.
	qRefInsert = `INSERT INTO fact_references (u, fact, at, source_kind, source_id)
		SELECT f.u, f.seq, r.at, r.kind, r.sid
		FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) WITH ORDINALITY AS r (id, at, kind, sid, ord)
		JOIN facts f ON f.u = $1 AND f.id = r.id
		WHERE NOT (r.at = f.recorded_at AND r.kind = f.source_kind AND r.sid = f.source_id)
		ORDER BY r.ord`
	// A fact's references: its creation, then its reference rows.
	qRefs = `SELECT at, source_kind, source_id FROM (
			SELECT f.recorded_at AS at, f.source_kind, f.source_id, 0 AS seq FROM facts f
			WHERE f.u = $1 AND f.id = $2
			UNION ALL
			SELECT r.at, r.source_kind, r.source_id, r.seq FROM facts f
			JOIN fact_references r ON r.u = f.u AND r.fact = f.seq
			WHERE f.u = $1 AND f.id = $2) refs
		ORDER BY at, seq`
	qSheetInsert = `INSERT INTO sheets (id, u, created_at, count, entries, dedup) VALUES ($1, $2, $3, $4, $5, $6)
		RETURNING seq`
	qSheetFacts = `INSERT INTO sheet_facts (u, fact, sheet)
		SELECT DISTINCT f.u, f.seq, $1::bigint FROM facts f WHERE f.u = $2 AND f.id = ANY($3::text[])
		ON CONFLICT DO NOTHING`
	qSheetPrune  = `DELETE FROM sheets WHERE u = $1 AND created_at < $2 AND seq <> $3`
	qSheetLatest = `SELECT ` + rowcodec.SheetColumns + ` FROM sheets
		WHERE u = $1 ORDER BY created_at DESC, seq DESC LIMIT 1`
)

// sheetFactsQuery returns the statement of SheetFacts for n cut-offs: the user's
// current facts, each with its references counted in the database (all of them, the
// newest, and for every cut-off $2.. those strictly after it), its creation included.
func sheetFactsQuery(n int) string {
	var b strings.Builder
	b.WriteString(`SELECT f.id, f.category, f.text, f.key, f.value, f.sensitivity, f.recorded_at,
		count(r.at) + 1, greatest(max(r.at), f.recorded_at)`)
	for i := range n {
		fmt.Fprintf(&b, ", count(*) FILTER (WHERE r.at > $%d) + (f.recorded_at > $%d)::int", i+2, i+2)
	}
	b.WriteString(` FROM facts f LEFT JOIN fact_references r ON r.u = f.u AND r.fact = f.seq
		WHERE f.u = $1 AND f.current GROUP BY f.u, f.seq`)
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
		ids[i], ats[i], kinds[i], sids[i] = r.FactID, rowcodec.ReferenceAt(r, t.now), r.Source.Kind, r.Source.ID
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
	refs, err := queryAll(ctx, t, rowcodec.Reference(factID), qRefs, string(t.user), factID)
	if err == nil {
		return rowcodec.NonNil(refs), nil
	}
	return nil, mapErr("references", err)
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
		f.RecordedAt, f.Last = rowcodec.Time(recorded), rowcodec.TimeOrZero(last)
		f.References = int(refs)
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

// LatestSheet returns the user's newest sheet; ENOTFOUND if none.
func (s *Store) LatestSheet(ctx context.Context, user factbase.UserID) (factbase.FactSheet, error) {
	var latest factbase.FactSheet
	err := s.View(ctx, user, func(ftx factbase.ReadTx) error {
		t := ftx.(*tx)
		sh, err := rowcodec.Owner(user).Sheet(t.q.QueryRow(ctx, qSheetLatest, string(t.user)))
		if errors.Is(err, pgx.ErrNoRows) {
			return factbase.Errorf(factbase.ENOTFOUND, "no fact sheet for user %s yet", user)
		}
		latest = sh
		return mapErr("latest sheet", err)
	})
	if err != nil {
		return factbase.FactSheet{}, err
	}
	return latest, nil
}

// SaveSheet stores a sheet and deletes the user's sheets older than retention before
// it, in one write transaction (under the user's lock).
func (s *Store) SaveSheet(ctx context.Context, sh factbase.FactSheet, retention time.Duration) (int, error) {
	row, err := rowcodec.EncodeSheet(sh, retention)
	if err != nil {
		return 0, err
	}
	var deleted int
	err = s.Update(ctx, sh.User, func(ftx factbase.Tx) error {
		t := ftx.(*tx)
		var seq int64
		err := t.q.QueryRow(ctx, qSheetInsert, sh.ID, string(t.user), sh.CreatedAt.UnixNano(), row.Count, row.Entries, row.Dedup).Scan(&seq)
		if err != nil {
			return storeerr.Taken(mapErr("save sheet", err), fmt.Sprintf("a sheet with id %q already exists", sh.ID))
		}
		if _, err := t.q.Exec(ctx, qSheetFacts, seq, string(t.user), row.FactIDs); err != nil {
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
