package erasure

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// tables holds rows per table in memory and records the calls.
type tables struct {
	owned []string
	rows  map[string]int64 // by "table" or "table by id"
	calls []string
	fail  string // a table whose call fails
}

func key(table string, byID bool) string {
	if byID {
		return table + " by id"
	}
	return table
}

func (ts *tables) Owned(context.Context) ([]string, error) { return ts.owned, nil }

func (ts *tables) Delete(_ context.Context, table string, byID bool) (int64, error) {
	ts.calls = append(ts.calls, "delete "+key(table, byID))
	if table == ts.fail {
		return 0, errors.New("boom")
	}
	n := ts.rows[key(table, byID)]
	delete(ts.rows, key(table, byID))
	return n, nil
}

func (ts *tables) Count(_ context.Context, table string, byID bool) (int64, error) {
	ts.calls = append(ts.calls, "count "+key(table, byID))
	return ts.rows[key(table, byID)], nil
}

func (ts *tables) DeleteSome(_ context.Context, table string, limit int) (int64, error) {
	ts.calls = append(ts.calls, "delete some "+table)
	n := min(ts.rows[table], int64(limit))
	ts.rows[table] -= n
	if ts.rows[table] == 0 {
		delete(ts.rows, table)
	}
	return n, nil
}

// TestEraseSome: batches take the small tables whole, then the bulky ones in order,
// at most limit rows each batch, until none is left.
func TestEraseSome(t *testing.T) {
	ts := &tables{rows: map[string]int64{"sheets": 2, "conflicts": 1, "fact_references": 5, "embeddings": 2, "facts": 4, "episodes": 3}}
	var batches []Tally
	for range 10 {
		removed, done, err := EraseSome(context.Background(), ts, 4)
		if err != nil {
			t.Fatal(err)
		}
		batches = append(batches, removed)
		if done {
			break
		}
	}
	want := []Tally{
		{"sheets": 2, "conflicts": 1, "fact_references": 4},
		{"fact_references": 1, "embeddings": 2, "facts": 1},
		{"facts": 3},
	}
	if !reflect.DeepEqual(batches, want) {
		t.Errorf("batches %v, want %v", batches, want)
	}
	if ts.rows["episodes"] != 3 || len(ts.rows) != 1 {
		t.Errorf("left %v, want the episodes for the last transaction", ts.rows)
	}
}

func TestErase(t *testing.T) {
	ts := &tables{
		owned: []string{"episodes", "facts", "sheets"},
		rows:  map[string]int64{"facts": 3, "episodes": 2, "jobs by id": 1},
	}
	left, err := Rows(context.Background(), ts)
	if want := (Tally{"facts": 3, "episodes": 2, "jobs": 1}); err != nil || !reflect.DeepEqual(left, want) {
		t.Errorf("Rows() = %v, %v; want %v", left, err, want)
	}
	ts.calls = nil
	removed, err := Erase(context.Background(), ts)
	if want := (Tally{"facts": 3, "episodes": 2, "jobs": 1}); err != nil || !reflect.DeepEqual(removed, want) {
		t.Errorf("Erase() = %v, %v; want %v", removed, err, want)
	}
	wantCalls := "delete sheets, delete fact_references, delete conflicts, delete embeddings, delete facts, " +
		"delete episodes, delete facts, delete sheets, delete jobs by id, delete api_keys by id"
	if got := strings.Join(ts.calls, ", "); got != wantCalls {
		t.Errorf("Erase() called %s; want %s", got, wantCalls)
	}
	if left, _ := Rows(context.Background(), ts); len(left) != 0 {
		t.Errorf("Rows() after Erase() = %v, want none", left)
	}
	ts.fail = "conflicts"
	if _, err := Erase(context.Background(), ts); err == nil {
		t.Error("Erase() with a failing table: no error")
	}
}
