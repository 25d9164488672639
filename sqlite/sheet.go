package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/factbase/factbase"
)

var _ factbase.SheetStore = (*Store)(nil)

// The static statements of references and sheets (see allStaticQueries).
var (
	qRefInsert = `INSERT INTO fact_references (u, fact, at, source_kind, source_id)
		SELECT f.u, f.seq, j.value ->> 0, j.value ->> 1, j.value ->> 2
		FROM json_each(?1) j CROSS JOIN facts f ON f.id = j.value ->> 3 AND f.u = ?2
		ORDER BY j.key`
	qRefs = `SELECT r.at, r.source_kind, r.source_id FROM facts f
		JOIN fact_references r ON r.u = f.u AND r.fact = f.seq
		WHERE f.u = ? AND f.id = ? ORDER BY r.at, r.seq`
	// qSheetFacts reads each current fact with the packed times of its references
	// from sheet_rows (migration 0009: one narrow row per current fact, clustered by
	// user), so that a million references cost one blob per fact, not a million rows,
	// and the walk is one range of one b-tree. Every column a row carries costs a trip
	// through the driver (and an allocation for text), so the statement sends only
	// what assembly reads: the key and value only when the text may be blank (it does
	// not start with a printable ASCII character), the recorded time only for a fact
	// without references, the category and sensitivity as small numbers when they are
	// the known ones.
	qSheetFacts = `SELECT id, text,
			CASE WHEN unicode(text) BETWEEN 33 AND 126 THEN NULL ELSE key END,
			CASE WHEN unicode(text) BETWEEN 33 AND 126 THEN NULL ELSE value END,
			CASE category WHEN 'core' THEN 0 WHEN 'technical' THEN 1 WHEN 'project' THEN 2
				WHEN 'transient' THEN 3 ELSE category END,
			CASE sensitivity WHEN '' THEN 0 WHEN 'low' THEN 1 WHEN 'medium' THEN 2
				WHEN 'high' THEN 3 ELSE sensitivity END,
			CASE WHEN times IS NULL THEN recorded_at END, times
		FROM sheet_rows WHERE u = ?`
	qSheetInsert    = `INSERT INTO sheets (id, u, created_at, count, entries, dedup) VALUES (?, ?, ?, ?, ?, ?)`
	qSheetFactLinks = `INSERT OR IGNORE INTO sheet_facts (fact, sheet)
		SELECT f.seq, ?1 FROM json_each(?2) j CROSS JOIN facts f ON f.id = j.value AND f.u = ?3`
	qSheetPrune  = `DELETE FROM sheets WHERE u = ? AND created_at < ? AND seq <> ?`
	qSheetLatest = `SELECT id, created_at, count, entries, dedup FROM sheets
		WHERE u = ? ORDER BY created_at DESC, seq DESC LIMIT 1`

	sheetQueries = []string{qRefInsert, qRefs, qSheetFacts, qSheetInsert, qSheetFactLinks, qSheetPrune, qSheetLatest}
)

// AddReferences records references to the user's facts; unknown ids are skipped. One
// statement per batch of refs (a JSON array bound as a parameter), not one per
// reference.
func (t *tx) AddReferences(ctx context.Context, refs []factbase.Reference) (int, error) {
	stored := 0
	for len(refs) > 0 {
		n := min(len(refs), refBatch)
		batch := make([]refRow, n)
		for i, r := range refs[:n] {
			at := r.At
			if at.IsZero() {
				at = t.now
			}
			batch[i] = refRow{at.UnixNano(), r.Source.Kind, r.Source.ID, r.FactID}
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

// SheetFacts walks the user's current facts, counting each one's references against
// cuts from their packed times, in one statement.
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
		f                  = factbase.SheetFact{Newer: make([]int, len(cut))}
		hist               = make([]int, len(cut)+1)
		key, value, cat, s any
		times              sql.RawBytes
	)
	for rows.Next() {
		if err := rows.Scan(&f.ID, &f.Text, &key, &value, &cat, &s, &recordedAt{&f.RecordedAt}, &times); err != nil {
			return mapErr("sheet facts", err)
		}
		if len(times)%8 != 0 {
			return factbase.Errorf(factbase.EINTERNAL, "sqlite: reference times of fact %s are %d bytes, not a multiple of 8", f.ID, len(times))
		}
		f.Key, _ = key.(string)
		f.Value, _ = value.(string)
		f.Category = sheetCategory(cat)
		f.Sensitivity = sheetSensitivity(s)
		f.References = len(times) / 8
		var last int64
		if decreasing {
			clear(hist)
			for i := 0; i < len(times); i += 8 {
				at := int64(binary.BigEndian.Uint64(times[i:]))
				if i == 0 || at > last {
					last = at
				}
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
			for i := 0; i < len(times); i += 8 {
				at := int64(binary.BigEndian.Uint64(times[i:]))
				if i == 0 || at > last {
					last = at
				}
				for j, c := range cut {
					if at > c {
						f.Newer[j]++
					}
				}
			}
		}
		f.Last = time.Time{}
		if f.References > 0 {
			f.Last = time.Unix(0, last).UTC()
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return mapErr("sheet facts", rows.Err())
}

// recordedAt scans a time stored as Unix nanoseconds; NULL is the zero time.
type recordedAt struct{ t *time.Time }

func (r recordedAt) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*r.t = time.Time{}
	case int64:
		*r.t = time.Unix(0, v).UTC()
	default:
		return fmt.Errorf("recorded time is %T, not an integer", v)
	}
	return nil
}

// sheetCategory returns the category qSheetFacts sent: a number for a known one, the
// stored text for any other.
func sheetCategory(v any) factbase.Category {
	switch v := v.(type) {
	case int64:
		if v >= 0 && int(v) < len(factbase.Categories) {
			return factbase.Categories[v]
		}
	case string:
		return factbase.Category(v)
	}
	return factbase.Category(fmt.Sprint(v))
}

// sheetSensitivities are the known sensitivities in qSheetFacts' numbering.
var sheetSensitivities = []factbase.Sensitivity{"", factbase.Low, factbase.MediumSens, factbase.High}

// sheetSensitivity returns the sensitivity qSheetFacts sent.
func sheetSensitivity(v any) factbase.Sensitivity {
	switch v := v.(type) {
	case int64:
		if v >= 0 && int(v) < len(sheetSensitivities) {
			return sheetSensitivities[v]
		}
	case string:
		return factbase.Sensitivity(v)
	}
	return factbase.Sensitivity(fmt.Sprint(v))
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
		if _, err := t.exec(ctx, qSheetFactLinks, seq, string(ij), t.u); err != nil {
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
