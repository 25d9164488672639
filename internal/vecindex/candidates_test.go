package vecindex

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

func TestCollect(t *testing.T) {
	src := &memSource{}
	for i := range 200 {
		src.put(factbase.KindFact, "m", []float32{float32(i) / 200, 1})
	}
	x := New(Options{})
	q := Query{User: "u", Model: "m", Kind: factbase.KindFact, Vector: []float32{1, 0}, Limit: 40}
	var batches int
	// The resolver keeps one seq in four, as a filter would.
	got, err := x.Collect(context.Background(), src, q, func(hits []Hit) ([]factbase.Candidate, error) {
		batches++
		var out []factbase.Candidate
		for _, h := range hits {
			if h.Seq%4 == 1 {
				out = append(out, factbase.Candidate{ID: fmt.Sprint(h.Seq), Score: float64(h.Score)})
			}
		}
		return out, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 40 || batches != 2 {
		t.Fatalf("Collect = %d candidates after %d batches, want 40 after 2 (80 hits, then the other 120)", len(got), batches)
	}
	for i, c := range got {
		if want := fmt.Sprint(197 - 4*i); c.ID != want || c.Rank != i+1 {
			t.Errorf("#%d: %s rank %d, want %s rank %d", i, c.ID, c.Rank, want, i+1)
		}
	}
	failed := errors.New("resolve failed")
	if _, err := x.Collect(context.Background(), src, q, func([]Hit) ([]factbase.Candidate, error) { return nil, failed }); !errors.Is(err, failed) {
		t.Errorf("Collect = %v, want the resolver's error", err)
	}
}

func TestTop(t *testing.T) {
	cs := []factbase.Candidate{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	for _, tc := range []struct {
		name  string
		limit int
		want  int
	}{
		{"fewer", 2, 2},
		{"all", 3, 3},
		{"more", 5, 3},
		{"none", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Top(slices.Clone(cs), tc.limit)
			if len(got) != tc.want {
				t.Fatalf("Top(%d) holds %d, want %d", tc.limit, len(got), tc.want)
			}
			for i, c := range got {
				if c.Rank != i+1 || c.ID != cs[i].ID {
					t.Errorf("Top(%d)[%d] = %s rank %d, want %s rank %d", tc.limit, i, c.ID, c.Rank, cs[i].ID, i+1)
				}
			}
		})
	}
}
