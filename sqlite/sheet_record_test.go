package sqlite

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/storetest"
)

// record builds a sheet record as migration 0013's view does.
func record(recorded int64, fields [6]string, times ...int64) string {
	b := []byte{1}
	b = binary.BigEndian.AppendUint64(b, uint64(recorded))
	for _, f := range fields {
		b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
	}
	for _, f := range fields {
		b = append(b, f...)
	}
	for _, t := range times {
		b = binary.BigEndian.AppendUint64(b, uint64(t))
	}
	return string(b)
}

// TestSheetRecordMatchesView: the view writes the layout parseSheetRecord reads, for
// a fact with odd Unicode, an empty field and a negative recorded time.
func TestSheetRecordMatchesView(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "note.x",
		Value: "ｆｕｌｌ\u200dwidth 🎉", Text: "Ünïcode\x00text", Category: factbase.Technical, Cardinality: factbase.One}}}); err != nil {
		t.Fatal(err)
	}
	var rec, id, text, value, sens string
	var recorded int64
	if err := s.writer.QueryRowContext(ctx, `SELECT r.rec, f.id, f.text, f.value, f.sensitivity, f.recorded_at
		FROM sheet_rows r JOIN facts f ON f.seq = r.fact`).Scan(&rec, &id, &text, &value, &sens, &recorded); err != nil {
		t.Fatal(err)
	}
	got, err := parseSheetRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	// The write path's reference to the new fact is its creation, which the record's
	// recorded time holds: no reference time follows it.
	want := sheetRecord{recorded: recorded, id: id, text: text, key: "note.x", value: value,
		category: "technical", sensitivity: sens}
	if got != want {
		t.Errorf("record = %+v, want %+v without reference times", got, want)
	}
}

func TestParseSheetRecord(t *testing.T) {
	ok := record(-5, [6]string{"id1", "text", "k", "v", "core", ""}, 10, 20)
	r, err := parseSheetRecord(ok)
	if err != nil || r.recorded != -5 || r.id != "id1" || r.text != "text" || r.category != "core" || len(r.times) != 16 ||
		be64(r.times, 8) != 20 {
		t.Fatalf("parse = %+v, %v", r, err)
	}
	for name, bad := range map[string]string{
		"short":        ok[:sheetRecordHeader-1],
		"format 2":     "\x02" + ok[1:],
		"field past":   ok[:9] + "\xff\xff\xff\xff" + ok[13:],
		"ragged times": ok[:len(ok)-3],
	} {
		if _, err := parseSheetRecord(bad); err == nil {
			t.Errorf("%s: parsed, want an error", name)
		}
	}
}

func FuzzParseSheetRecord(f *testing.F) {
	f.Add(record(1, [6]string{"a", "b", "c", "d", "core", "low"}, 7))
	f.Add("")
	f.Fuzz(func(t *testing.T, rec string) {
		r, err := parseSheetRecord(rec)
		if err != nil {
			return
		}
		n := sheetRecordHeader + len(r.times)
		for _, s := range []string{r.id, r.text, r.key, r.value, r.category, r.sensitivity} {
			n += len(s)
		}
		if n != len(rec) || len(r.times)%8 != 0 || !strings.HasSuffix(rec, r.times) {
			t.Fatalf("parsed %q into fields of %d bytes in all", rec, n)
		}
	})
}

// TestMigrationCreationReferences: migration 0025 on a store from before it, whose
// write path stored a reference row repeating each new fact's creation, deletes those
// rows (one of two identical ones stays) and the times they added to the sheet
// records; every fact's references count as they did.
func TestMigrationCreationReferences(t *testing.T) {
	s := openTemp(t)
	c := storetest.WriteCreationRefs(t, s, memory.New(s, memory.Options{NoSheetRegen: true}))
	// Back to the shape before 0025: a row per creation, two for the second fact
	// (the triggers append their times to the records).
	ExecAll(t, s.writer,
		`INSERT INTO fact_references (u, fact, at, source_kind, source_id)
			SELECT u, seq, recorded_at, source_kind, source_id FROM facts ORDER BY seq`,
		`INSERT INTO fact_references (u, fact, at, source_kind, source_id)
			SELECT u, seq, recorded_at, source_kind, source_id FROM facts WHERE id = '`+c.Facts[1]+`'`,
		"DELETE FROM schema_migrations WHERE name = 'migrations/0025_creation_references.sql'",
	)
	s = Reopen(t, s)
	var rows, stale int
	if err := s.writer.QueryRow("SELECT count(*) FROM fact_references").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	c.Check(t, s, rows)
	if err := s.writer.QueryRow(`SELECT count(*) FROM (SELECT u, fact, rec FROM sheet_rows
		EXCEPT SELECT u, fact, rec FROM sheet_rows_def)`).Scan(&stale); err != nil || stale != 0 {
		t.Errorf("%d sheet records differ from their definition after the migration (%v)", stale, err)
	}
}
