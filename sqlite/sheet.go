package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// The static statements of references and sheets (see allStaticQueries).
var (
	// A fact's creation (its time and source) is its row's, not a reference row.
	qRefInsert = `INSERT INTO fact_references (u, fact, at, source_kind, source_id)
		SELECT f.u, f.seq, j.value ->> 0, j.value ->> 1, j.value ->> 2
		FROM json_each(?1) j CROSS JOIN facts f ON f.id = j.value ->> 3 AND f.u = ?2
		WHERE NOT (j.value ->> 0 = f.recorded_at AND j.value ->> 1 = f.source_kind AND j.value ->> 2 = f.source_id)
		ORDER BY j.key`
	// qRefInsertOne is qRefInsert for one reference, the write path's usual case,
	// without the JSON round trip.
	qRefInsertOne = `INSERT INTO fact_references (u, fact, at, source_kind, source_id)
		SELECT u, seq, ?1, ?2, ?3 FROM facts WHERE id = ?4 AND u = ?5
		AND NOT (recorded_at = ?1 AND source_kind = ?2 AND source_id = ?3)`
	// A fact's references: its creation, then its reference rows.
	qRefs = `SELECT at, source_kind, source_id FROM (
			SELECT f.recorded_at AS at, f.source_kind, f.source_id, 0 AS seq FROM facts f
			WHERE f.u = ?1 AND f.id = ?2
			UNION ALL
			SELECT r.at, r.source_kind, r.source_id, r.seq FROM facts f
			JOIN fact_references r ON r.u = f.u AND r.fact = f.seq
			WHERE f.u = ?1 AND f.id = ?2)
		ORDER BY at, seq`
	// qSheetFacts reads each current fact's record from sheet_rows (migration 0013:
	// one packed string per current fact, clustered by user, with the packed times of
	// its references), so that a million references cost one value per fact, not a
	// million rows, the walk is one range of one b-tree, and the driver sends one
	// string per fact, not a column at a time.
	qSheetFacts     = `SELECT rec FROM sheet_rows WHERE u = ?`
	qSheetInsert    = `INSERT INTO sheets (id, u, created_at, count, entries, dedup) VALUES (?, ?, ?, ?, ?, ?)`
	qSheetFactLinks = `INSERT OR IGNORE INTO sheet_facts (fact, sheet)
		SELECT f.seq, ?1 FROM json_each(?2) j CROSS JOIN facts f ON f.id = j.value AND f.u = ?3`
	qSheetPrune  = `DELETE FROM sheets WHERE u = ? AND created_at < ? AND seq <> ?`
	qSheetLatest = `SELECT ` + rowcodec.SheetColumns + ` FROM sheets
		WHERE u = ? ORDER BY created_at DESC, seq DESC LIMIT 1`

	sheetQueries = []string{qRefInsert, qRefInsertOne, qRefs, qSheetFacts, qSheetInsert, qSheetFactLinks, qSheetPrune, qSheetLatest}
)

// AddReferences records references to the user's facts; unknown ids are skipped. One
// statement per batch of refs (a JSON array bound as a parameter), not one per
// reference; a single reference binds its fields directly.
func (t *tx) AddReferences(ctx context.Context, refs []factbase.Reference) (int, error) {
	if len(refs) == 1 {
		r := refs[0]
		return t.execCount(ctx, "add references", qRefInsertOne, rowcodec.ReferenceAt(r, t.now), r.Source.Kind, r.Source.ID, r.FactID, t.u)
	}
	stored := 0
	for len(refs) > 0 {
		n := min(len(refs), refBatch)
		batch := make([]refRow, n)
		for i, r := range refs[:n] {
			batch[i] = refRow{rowcodec.ReferenceAt(r, t.now), r.Source.Kind, r.Source.ID, r.FactID}
		}
		js, err := json.Marshal(batch)
		if err != nil {
			return stored, fmt.Errorf("sqlite: add references: %w", err)
		}
		res, err := t.exec(ctx, qRefInsert, string(js), t.u)
		if err != nil {
			return stored, mapErr("add references", err)
		}
		k, _ := res.RowsAffected()
		stored += int(k)
		refs = refs[n:]
	}
	return stored, nil
}

// refBatch is the most references one statement inserts.
const refBatch = 10000

// refRow is one reference as the insert statement reads it: [at, kind, id, fact].
type refRow [4]any

// References returns a fact's references, oldest first.
func (t *tx) References(ctx context.Context, factID string) ([]factbase.Reference, error) {
	refs, err := queryAll(ctx, t, rowcodec.Reference(factID), qRefs, t.u, factID)
	if err != nil {
		return nil, mapErr("references", err)
	}
	return rowcodec.NonNil(refs), nil
}

// SheetFacts walks the user's current facts, counting each one's references against
// cuts from their packed times, in one statement. The strings of each SheetFact are
// slices of the record the driver returned (one allocation per fact).
func (t *tx) SheetFacts(ctx context.Context, cuts []time.Time, fn func(factbase.SheetFact) error) error {
	// cut is in decreasing order (a valid decay table's cut-offs are); hist[j] counts
	// the references after cut[j] but not after cut[j-1], and Newer is its running
	// sum. Other orders take the general loop.
	cut := make([]int64, len(cuts))
	decreasing := true
	for i, c := range cuts {
		cut[i] = c.UnixNano()
		if i > 0 && cut[i] >= cut[i-1] {
			decreasing = false
		}
	}
	rows, err := t.query(ctx, qSheetFacts, t.u)
	if err != nil {
		return mapErr("sheet facts", err)
	}
	defer rows.Close()
	var (
		f    = factbase.SheetFact{Newer: make([]int, len(cut))}
		hist = make([]int, len(cut)+1)
		rec  string
		row  int
	)
	for rows.Next() {
		if err := rows.Scan(&rec); err != nil {
			return mapErr("sheet facts", err)
		}
		row++
		r, err := parseSheetRecord(rec)
		if err != nil {
			return factbase.Errorf(factbase.EINTERNAL, "sqlite: sheet record %d of the user: %v", row, err)
		}
		f.ID, f.Text, f.Key, f.Value = r.id, r.text, r.key, r.value
		f.Category, f.Sensitivity = factbase.Category(r.category), factbase.Sensitivity(r.sensitivity)
		f.RecordedAt = time.Unix(0, r.recorded).UTC()
		// The fact's creation is its first reference (factbase.Reference), then
		// the record's reference times.
		f.References = 1 + len(r.times)/8
		last := r.recorded
		if decreasing {
			clear(hist)
			for k := range f.References {
				at := r.ref(k)
				last = max(last, at)
				// Most references are old: look from the oldest cut-off up.
				j := len(cut)
				for j > 0 && at > cut[j-1] {
					j--
				}
				hist[j]++
			}
			n := 0
			for j := range cut {
				n += hist[j]
				f.Newer[j] = n
			}
		} else {
			clear(f.Newer)
			for k := range f.References {
				at := r.ref(k)
				last = max(last, at)
				for j, c := range cut {
					if at > c {
						f.Newer[j]++
					}
				}
			}
		}
		f.Last = time.Unix(0, last).UTC()
		if err := fn(f); err != nil {
			return err
		}
	}
	return mapErr("sheet facts", rows.Err())
}

// sheetRecord is a sheet_rows record taken apart (see migration 0013 for the layout):
// every string is a slice of the record.
type sheetRecord struct {
	recorded                                           int64
	id, text, key, value, category, sensitivity, times string
}

// ref returns the time of the record's k-th reference, oldest recorded first: 0 is
// the fact's creation (its recorded time), k > 0 the k-th of the reference times.
func (r sheetRecord) ref(k int) int64 {
	if k == 0 {
		return r.recorded
	}
	return int64(be64(r.times, 8*(k-1)))
}

// sheetRecordHeader is the size of a record's fixed part: the format byte, the
// recorded time and six field lengths.
const sheetRecordHeader = 1 + 8 + 6*4

// parseSheetRecord takes a record apart, checking its format and that its fields and
// reference times fit it exactly.
func parseSheetRecord(rec string) (sheetRecord, error) {
	var r sheetRecord
	if len(rec) < sheetRecordHeader {
		return r, fmt.Errorf("%d bytes, shorter than the %d-byte header", len(rec), sheetRecordHeader)
	}
	if rec[0] != 1 {
		return r, fmt.Errorf("format %d, not 1", rec[0])
	}
	r.recorded = int64(be64(rec, 1))
	fields := [6]*string{&r.id, &r.text, &r.key, &r.value, &r.category, &r.sensitivity}
	off := sheetRecordHeader
	for i, p := range fields {
		n := int(be32(rec, 9+4*i))
		if n > len(rec)-off {
			return r, fmt.Errorf("field %d is %d bytes, past the end of the %d-byte record", i, n, len(rec))
		}
		*p = rec[off : off+n]
		off += n
	}
	r.times = rec[off:]
	if len(r.times)%8 != 0 {
		return r, fmt.Errorf("the reference times of fact %s are %d bytes, not a multiple of 8", r.id, len(r.times))
	}
	return r, nil
}

// be64 reads the big-endian uint64 at s[i:].
func be64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i])<<56 | uint64(s[i+1])<<48 | uint64(s[i+2])<<40 | uint64(s[i+3])<<32 |
		uint64(s[i+4])<<24 | uint64(s[i+5])<<16 | uint64(s[i+6])<<8 | uint64(s[i+7])
}

// be32 reads the big-endian uint32 at s[i:].
func be32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i])<<24 | uint32(s[i+1])<<16 | uint32(s[i+2])<<8 | uint32(s[i+3])
}

// SaveSheet stores a sheet and deletes the user's sheets older than retention before
// it, in one transaction.
func (s *Store) SaveSheet(ctx context.Context, sh factbase.FactSheet, retention time.Duration) (int, error) {
	row, err := rowcodec.EncodeSheet(sh, retention)
	if err != nil {
		return 0, err
	}
	ij, err := json.Marshal(row.FactIDs)
	if err != nil {
		return 0, fmt.Errorf("sqlite: save sheet: %w", err)
	}
	var deleted int
	err = s.Update(ctx, sh.User, func(ftx factbase.Tx) error {
		t := ftx.(*tx)
		res, err := t.exec(ctx, qSheetInsert, sh.ID, t.u, sh.CreatedAt.UnixNano(), row.Count, row.Entries, row.Dedup)
		if err != nil {
			return storeerr.Taken(mapErr("save sheet", err), fmt.Sprintf("a sheet with id %q already exists", sh.ID))
		}
		seq, err := res.LastInsertId()
		if err != nil {
			return mapErr("save sheet", err)
		}
		if _, err := t.exec(ctx, qSheetFactLinks, seq, string(ij), t.u); err != nil {
			return mapErr("save sheet", err)
		}
		deleted, err = t.execCount(ctx, "prune sheets", qSheetPrune, t.u, sh.CreatedAt.Add(-retention).UnixNano(), seq)
		return err
	})
	return deleted, err
}

// LatestSheet returns the user's newest sheet.
func (s *Store) LatestSheet(ctx context.Context, user factbase.UserID) (factbase.FactSheet, error) {
	var sh factbase.FactSheet
	err := s.View(ctx, user, func(ftx factbase.ReadTx) error {
		t := ftx.(*tx)
		var err error
		sh, err = rowcodec.Owner(user).Sheet(t.queryRow(ctx, qSheetLatest, t.u))
		if errors.Is(err, sql.ErrNoRows) {
			return factbase.Errorf(factbase.ENOTFOUND, "no fact sheet for user %s yet", user)
		}
		return mapErr("latest sheet", err)
	})
	if err != nil {
		return factbase.FactSheet{}, err
	}
	return sh, nil
}
