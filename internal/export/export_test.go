package export

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
)

// textRows is a result of text columns; err fails the query itself.
type textRows struct {
	rows [][]string
	i    int
	err  error
}

func (q *textRows) ExportRows(context.Context, string) (rowcodec.Rows, error) { return q, q.err }

func (q *textRows) Next() bool { q.i++; return q.i <= len(q.rows) }
func (q *textRows) Err() error { return nil }

func (q *textRows) Scan(dest ...any) error {
	row := q.rows[q.i-1]
	if len(dest) != len(row) {
		return errors.New("wrong column count")
	}
	for i, d := range dest {
		*d.(*string) = row[i]
	}
	return nil
}

// mapped records the ops of the errors it maps and marks them.
type mapped struct{ ops []string }

func (m *mapped) mapErr(op string, err error) error {
	if err == nil {
		return nil
	}
	m.ops = append(m.ops, op)
	return factbase.Errorf(factbase.EUNAVAILABLE, "%s: %v", op, err)
}

func TestReads(t *testing.T) {
	ctx := context.Background()
	m := &mapped{}
	st := &Statements{MapErr: m.mapErr}
	q := &textRows{rows: [][]string{{"s1", "task_1"}, {"s2", "task_2"}}}
	links, err := NewReads(q, st, "u").ExportTranscriptLinks(ctx)
	want := []factbase.TranscriptLink{{Session: "s1", Subject: "task_1"}, {Session: "s2", Subject: "task_2"}}
	if err != nil || !reflect.DeepEqual(links, want) {
		t.Errorf("ExportTranscriptLinks = %+v, %v; want %+v", links, err, want)
	}
	q = &textRows{rows: [][]string{{"pets", "dog", "s1"}}}
	prefs, err := NewReads(q, st, "u").ExportPreferenceSessions(ctx)
	if err != nil || len(prefs) != 1 || prefs[0] != (factbase.PreferenceSession{Key: "pets", Norm: "dog", Session: "s1"}) {
		t.Errorf("ExportPreferenceSessions = %+v, %v", prefs, err)
	}
	q = &textRows{}
	if refs, err := NewReads(q, st, "u").ExportReferences(ctx); err != nil || refs != nil {
		t.Errorf("ExportReferences of no rows = %+v, %v; want nil, nil", refs, err)
	}

	// A failed query and a row that does not scan are the store's errors, naming
	// the read.
	q = &textRows{err: errors.New("connection lost")}
	if _, err := NewReads(q, st, "u").ExportSheets(ctx); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("ExportSheets of a failed query = %v, want the mapped error", err)
	}
	q = &textRows{rows: [][]string{{"only one column"}}}
	if _, err := NewReads(q, st, "u").ExportTranscriptCheckpoints(ctx); factbase.ErrorCode(err) != factbase.EUNAVAILABLE {
		t.Errorf("ExportTranscriptCheckpoints of a bad row = %v, want the mapped error", err)
	}
	if want := []string{"export sheets", "export transcript checkpoints"}; !reflect.DeepEqual(m.ops, want) {
		t.Errorf("mapped ops = %q, want %q", m.ops, want)
	}
}
