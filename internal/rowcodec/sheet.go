package rowcodec

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/factbase/factbase"
)

// Reference reads the references of fact factID from rows of (at, source kind,
// source id).
func Reference(factID string) func(Scanner) (factbase.Reference, error) {
	return func(r Scanner) (factbase.Reference, error) {
		ref := factbase.Reference{FactID: factID}
		var at int64
		if err := r.Scan(&at, &ref.Source.Kind, &ref.Source.ID); err != nil {
			return ref, err
		}
		ref.At = Time(at)
		return ref, nil
	}
}

// ReferenceAt returns the at column of a reference: its time, or now for a zero At.
func ReferenceAt(r factbase.Reference, now time.Time) int64 {
	if r.At.IsZero() {
		return now.UnixNano()
	}
	return r.At.UnixNano()
}

// SheetRow is a fact sheet as its row stores it.
type SheetRow struct {
	Count          int    // entries
	Entries, Dedup string // JSON arrays, never null
	// FactIDs are the facts the sheet names (its entries', then each dedup record's
	// dropped and kept fact), for the links that erasing a fact follows.
	FactIDs []string
}

// EncodeSheet returns the row of sheet s. It validates s with retention
// (factbase.FactSheet.Validate).
func EncodeSheet(s factbase.FactSheet, retention time.Duration) (SheetRow, error) {
	if err := s.Validate(retention); err != nil {
		return SheetRow{}, err
	}
	entries, dedup := NonNil(s.Entries), NonNil(s.Dedup)
	ej, err := json.Marshal(entries)
	if err != nil {
		return SheetRow{}, fmt.Errorf("encode sheet: %w", err)
	}
	dj, err := json.Marshal(dedup)
	if err != nil {
		return SheetRow{}, fmt.Errorf("encode sheet: %w", err)
	}
	ids := make([]string, 0, len(entries)+2*len(dedup))
	for _, e := range entries {
		ids = append(ids, e.FactID)
	}
	for _, d := range dedup {
		ids = append(ids, d.Dropped, d.Kept)
	}
	return SheetRow{Count: len(entries), Entries: string(ej), Dedup: string(dj), FactIDs: ids}, nil
}

// SheetColumns are the columns of a saved sheet, in the order Owner.Sheet reads them.
const SheetColumns = `id, created_at, count, entries, dedup`

// Sheet reads a saved sheet selected with SheetColumns.
func (o Owner) Sheet(r Scanner) (factbase.FactSheet, error) {
	s := factbase.FactSheet{User: factbase.UserID(o)}
	var (
		created      int64
		entries, ded []byte
	)
	if err := r.Scan(&s.ID, &created, &s.Count, &entries, &ded); err != nil {
		return factbase.FactSheet{}, err
	}
	s.CreatedAt = Time(created)
	if err := json.Unmarshal(entries, &s.Entries); err != nil {
		return factbase.FactSheet{}, fmt.Errorf("sheet %s: entries: %w", s.ID, err)
	}
	if err := json.Unmarshal(ded, &s.Dedup); err != nil {
		return factbase.FactSheet{}, fmt.Errorf("sheet %s: dedup: %w", s.ID, err)
	}
	return s, nil
}

// SheetTexts returns the texts of the entries of a saved sheet, its entries column
// (a JSON array of factbase.SheetEntry), in order: what a reseal rewrites.
func SheetTexts(entries []byte) ([]string, error) {
	var es []map[string]json.RawMessage
	if err := json.Unmarshal(entries, &es); err != nil {
		return nil, fmt.Errorf("sheet entries: %w", err)
	}
	texts := make([]string, len(es))
	for i, e := range es {
		if raw, ok := e["text"]; ok {
			if err := json.Unmarshal(raw, &texts[i]); err != nil {
				return nil, fmt.Errorf("sheet entry %d: text: %w", i, err)
			}
		}
	}
	return texts, nil
}

// WithSheetTexts returns the entries column entries with the entries' texts replaced
// by texts, in order (SheetTexts), every other field kept.
func WithSheetTexts(entries []byte, texts []string) (string, error) {
	var es []map[string]json.RawMessage
	if err := json.Unmarshal(entries, &es); err != nil {
		return "", fmt.Errorf("sheet entries: %w", err)
	}
	if len(es) != len(texts) {
		return "", fmt.Errorf("sheet entries: %d entries, %d texts", len(es), len(texts))
	}
	for i, e := range es {
		if e == nil {
			return "", fmt.Errorf("sheet entry %d is not an object", i)
		}
		raw, err := json.Marshal(texts[i])
		if err != nil {
			return "", fmt.Errorf("sheet entry %d: text: %w", i, err)
		}
		e["text"] = raw
	}
	out, err := json.Marshal(es)
	if err != nil {
		return "", fmt.Errorf("sheet entries: %w", err)
	}
	return string(out), nil
}
