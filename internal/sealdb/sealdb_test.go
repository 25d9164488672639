package sealdb

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/factbase/factbase"
)

func TestPosition(t *testing.T) {
	for _, vs := range [][]string{{"42"}, {"7", "ent-1"}, {"7", `id "quoted", with ] and \`, "/logs/a.jsonl"}, {""}} {
		got, err := ParsePosition(Position(vs...), len(vs))
		if err != nil || !slices.Equal(got, vs) {
			t.Errorf("ParsePosition(Position(%q)) = %q, %v", vs, got, err)
		}
	}
	if got, err := ParsePosition("", 2); got != nil || err != nil {
		t.Errorf(`ParsePosition("") = %q, %v; want the start`, got, err)
	}
	for _, bad := range []struct {
		after string
		n     int
	}{{"42", 1}, {`["1","2"]`, 1}, {`["1"]`, 2}, {`[1]`, 1}, {`{"a":"b"}`, 1}} {
		if _, err := ParsePosition(bad.after, bad.n); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("ParsePosition(%s, %d) = %v, want EINVALID", bad.after, bad.n, err)
		}
	}
}

func TestChanged(t *testing.T) {
	rows := func() []factbase.SealedRow {
		return []factbase.SealedRow{{User: "u", Row: "a", Texts: []string{"x", "y"}}, {User: "u", Row: "b", Texts: []string{"x", ""}},
			{User: "v", Row: "c", Texts: []string{"z"}}}
	}
	got, err := Changed("facts", rows(), func(rs []factbase.SealedRow) error {
		rs[1].Texts[1] = "new"                  // in place
		rs[2].Texts = []string{"w"}             // a new slice
		rs[0].Texts = slices.Clone(rs[0].Texts) // the same texts
		return nil
	})
	if err != nil || !slices.Equal(got, []int{1, 2}) {
		t.Errorf("Changed = %v, %v; want [1 2]", got, err)
	}
	boom := errors.New("boom")
	if _, err := Changed("facts", rows(), func([]factbase.SealedRow) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Changed with fn failing = %v, want %v", err, boom)
	}
	for name, fn := range map[string]func([]factbase.SealedRow){
		"a text dropped": func(rs []factbase.SealedRow) { rs[0].Texts = rs[0].Texts[:1] },
		"a text added":   func(rs []factbase.SealedRow) { rs[2].Texts = append(rs[2].Texts, "more") },
		"the row":        func(rs []factbase.SealedRow) { rs[0].Row = "other" },
		"the user":       func(rs []factbase.SealedRow) { rs[0].User = "other" },
	} {
		_, err := Changed("facts", rows(), func(rs []factbase.SealedRow) error { fn(rs); return nil })
		if factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("Changed with %s = %v, want EINVALID", name, err)
		}
	}
	if err := CheckReseal("facts", 1); err != nil {
		t.Errorf("CheckReseal(facts, 1) = %v", err)
	}
	for _, c := range []struct {
		table string
		limit int
	}{{"users", 1}, {"facts", 0}, {"facts", -1}} {
		if err := CheckReseal(c.table, c.limit); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("CheckReseal(%s, %d) = %v, want EINVALID", c.table, c.limit, err)
		}
	}
}

func TestCheckSetting(t *testing.T) {
	for name, want := range map[string]string{"seal.keys": "", "": factbase.EINVALID, "\xff": factbase.EINVALID,
		string(make([]byte, MaxSettingName+1)): factbase.EINVALID} {
		if got := factbase.ErrorCode(CheckSetting(name)); got != want {
			t.Errorf("CheckSetting(%.10q) = %q, want %q", name, got, want)
		}
	}
	if factbase.ErrorCode(SettingConflict("a", "")) != factbase.ECONFLICT || factbase.ErrorCode(SettingConflict("a", "v")) != factbase.ECONFLICT {
		t.Error("SettingConflict is not ECONFLICT")
	}
}

// TestBatch: a batch keeps its limit of the rows read, names the last as the next
// position only when rows were left out, and gives back a sheet's entries with the
// new texts in place.
func TestBatch(t *testing.T) {
	read := func(table string, n int) *Batch {
		b := NewBatch(table)
		for i := range n {
			cols := []string{fmt.Sprintf("text %d", i)}
			if table == "sheets" {
				cols = []string{fmt.Sprintf(`[{"fact_id":"f%d","text":"text %d","score":1}]`, i, i)}
			}
			if err := b.Add([]string{fmt.Sprint(i + 1)}, "u", fmt.Sprintf("r%d", i), cols); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	for _, c := range []struct {
		read, limit int
		next        string
		passed      int
	}{{3, 2, `["2"]`, 2}, {2, 2, "", 2}, {1, 2, "", 1}, {0, 2, "", 0}} {
		passed := 0
		next, changed, err := read("list_events", c.read).Run(c.limit, func(rows []factbase.SealedRow) error {
			passed = len(rows)
			rows[0].Texts[0] = "new"
			return nil
		})
		if err != nil || next != c.next || passed != c.passed || (c.passed > 0) != slices.Equal(changed, []int{0}) {
			t.Errorf("%d rows read, limit %d: next %q, %d passed, changed %v, %v; want %q, %d, [0]", c.read, c.limit, next, passed, changed, err, c.next, c.passed)
		}
	}
	b := read("sheets", 2)
	_, changed, err := b.Run(5, func(rows []factbase.SealedRow) error {
		if rows[1].Texts[0] != "text 1" || rows[1].Row != "r1" {
			t.Errorf("a sheet's row = %+v, want its entry's text", rows[1])
		}
		rows[1].Texts[0] = "fb1.new"
		return nil
	})
	if err != nil || !slices.Equal(changed, []int{1}) {
		t.Fatalf("Run = %v, %v", changed, err)
	}
	cols, err := b.Columns(1)
	if err != nil || !slices.Equal(cols, []string{`[{"fact_id":"f1","score":1,"text":"fb1.new"}]`}) || !slices.Equal(b.Key(1), []string{"2"}) {
		t.Errorf("Columns(1) = %q, %v; key %q", cols, err, b.Key(1))
	}
	if err := NewBatch("sheets").Add([]string{"1"}, "u", "s", []string{"not json"}); factbase.ErrorCode(err) != factbase.EINTERNAL {
		t.Errorf("Add(a sheet that is not JSON) = %v, want EINTERNAL", err)
	}
}
