package vecindex

import (
	"errors"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

// fakeRows is a result of (seq, id, time, subject, importance) rows.
type fakeRows struct {
	rows [][]any
	i    int
	err  error
}

func (r *fakeRows) Next() bool { r.i++; return r.i <= len(r.rows) }

func (r *fakeRows) Scan(dest ...any) error {
	row := r.rows[r.i-1]
	*dest[0].(*int64), *dest[1].(*string), *dest[2].(*int64) = row[0].(int64), row[1].(string), row[2].(int64)
	*dest[3].(*string), *dest[4].(*float64) = row[3].(string), row[4].(float64)
	return nil
}

func (r *fakeRows) Err() error { return r.err }

func TestCandidates(t *testing.T) {
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	hits := []Hit{{Seq: 7, Score: 0.9}, {Seq: 3, Score: 0.8}, {Seq: 5, Score: 0.7}}
	rows := &fakeRows{rows: [][]any{ // in another order than hits; seq 3 is a ghost
		{int64(5), "f5", at.UnixNano(), "martin", 0.5},
		{int64(7), "f7", at.UnixNano(), "", 1.0},
	}}
	got, err := Candidates(factbase.KindFact, hits, rows)
	if err != nil {
		t.Fatal(err)
	}
	want := []factbase.Candidate{
		{Kind: factbase.KindFact, ID: "f7", Score: float64(float32(0.9)), Time: at, Importance: 1.0},
		{Kind: factbase.KindFact, ID: "f5", Score: float64(float32(0.7)), Time: at, Subject: "martin", Importance: 0.5},
	}
	if len(got) != len(want) {
		t.Fatalf("Candidates = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Candidates[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	failed := errors.New("connection lost")
	if _, err := Candidates(factbase.KindFact, hits, &fakeRows{err: failed}); !errors.Is(err, failed) {
		t.Errorf("Candidates with a failing result = %v, want its error", err)
	}
}
