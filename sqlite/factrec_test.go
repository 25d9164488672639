package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/storetest"
)

// columnsFact reads fact seq column by column, as the store did before fact records:
// the oracle the records are checked against.
func columnsFact(t *testing.T, s *Store, seq int64) factbase.Fact {
	t.Helper()
	var (
		f                          factbase.Fact
		card, vt, cat, dur, sens   string
		rank, anchor, validTo      sql.NullInt64
		recordedAt, validFrom, cur int64
	)
	err := s.writer.QueryRow(`SELECT id, subject, key, cardinality, value, value_type, rank, text, type,
		category, confidence, scope, durability, sensitivity, said_by, temporal, anchor, source_kind, source_id,
		extractor, recorded_at, valid_from, valid_to, supersedes, superseded_by, current FROM facts WHERE seq = ?`, seq).Scan(
		&f.ID, &f.Subject, &f.Key, &card, &f.Value, &vt, &rank, &f.Text, &f.Type, &cat,
		&f.Confidence, &f.Scope, &dur, &sens, &f.SaidBy, &f.Temporal, &anchor, &f.Source.Kind, &f.Source.ID,
		&f.Extractor, &recordedAt, &validFrom, &validTo, &f.Supersedes, &f.SupersededBy, &cur)
	if err != nil {
		t.Fatal(err)
	}
	f.Cardinality, f.ValueType, f.Category = factbase.Cardinality(card), factbase.ValueType(vt), factbase.Category(cat)
	f.Durability, f.Sensitivity = factbase.Durability(dur), factbase.Sensitivity(sens)
	if rank.Valid {
		f.Rank = int(rank.Int64)
	}
	if anchor.Valid {
		a := time.Unix(0, anchor.Int64).UTC()
		f.Anchor = &a
	}
	f.RecordedAt, f.ValidFrom = time.Unix(0, recordedAt).UTC(), time.Unix(0, validFrom).UTC()
	if validTo.Valid {
		v := time.Unix(0, validTo.Int64).UTC()
		f.ValidTo = &v
	}
	f.Current = cur == 1
	return f
}

// TestFactRecordMatchesColumns: a fact read through its record equals the fact read
// column by column, for rows with odd Unicode, NULs, empty and long strings, NULL
// and negative times (an anchor before 1970), ranks and positions, every flag, and
// confidences that a decimal rendering would round.
func TestFactRecordMatchesColumns(t *testing.T) {
	s := openTemp(t)
	u := storetest.NewUser()
	ctx := context.Background()
	before1970 := time.Date(1912, 6, 23, 0, 0, 0, 1, time.UTC)
	validTo := time.Date(2031, 1, 2, 3, 4, 5, 6, time.UTC)
	facts := []factbase.Fact{
		{ID: "f1", Subject: factbase.SubjectUser, Key: "note.x", Cardinality: factbase.One, Value: "ｆｕｌｌ\u200dwidth 🎉",
			ValueType: factbase.String, Text: "Ünïcode\x00text", Category: factbase.Technical, Confidence: 0.1 + 0.2,
			Anchor: &before1970, Source: factbase.Source{Kind: "message", ID: "m:1"}, Extractor: "rule", Current: true},
		{ID: "f2", Subject: "entity:ada", Key: "favorites.tea", Cardinality: factbase.Ranked, Value: strings.Repeat("é", 300),
			Rank: 1 << 40, Confidence: math.Nextafter(1, 0), Scope: "ws1", Durability: "durable", Sensitivity: "high",
			SaidBy: "Ada", Temporal: "last week", Supersedes: "f0", Current: true},
		{ID: "f3", Subject: factbase.SubjectUser, Key: "contact.email", Cardinality: factbase.One, Value: "\x00",
			ValidTo: &validTo, SupersededBy: "f4", Confidence: 5e-324},
		{ID: "f5", Subject: factbase.SubjectUser, Key: "favorites.old", Cardinality: factbase.Ranked, Value: "x", Rank: 3,
			Confidence: 1},
	}
	err := s.Update(ctx, u, func(tx factbase.Tx) error {
		for i := range facts {
			f := &facts[i]
			f.RecordedAt = time.Unix(0, 1_700_000_000_123_456_789+int64(i)).UTC()
			f.ValidFrom = f.RecordedAt.Add(-time.Hour)
			if err := tx.Insert(ctx, *f, "norm"+f.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	type read struct {
		seq  int64
		fact factbase.Fact
	}
	var reads []read
	rows, err := s.writer.Query("SELECT seq, " + factColumns + " FROM facts ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r read
		var rec string
		if err := rows.Scan(&r.seq, &rec, &r.fact.Confidence); err != nil {
			t.Fatal(err)
		}
		if err := parseFactRecord(rec, &r.fact); err != nil {
			t.Fatalf("fact %d: %v", r.seq, err)
		}
		reads = append(reads, r)
	}
	if err := rows.Close(); err != nil { // the writer has one connection, which columnsFact needs
		t.Fatal(err)
	}
	if len(reads) != len(facts) {
		t.Fatalf("read %d facts, wrote %d", len(reads), len(facts))
	}
	for _, r := range reads {
		if want := columnsFact(t, s, r.seq); !reflect.DeepEqual(r.fact, want) {
			t.Errorf("fact %d from its record:\n %+v\nfrom its columns:\n %+v", r.seq, r.fact, want)
		}
	}
	// And through the store's own reads.
	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		f, err := tx.Fact(ctx, "f1")
		if err != nil {
			return err
		}
		if f.Anchor == nil || !f.Anchor.Equal(before1970) || f.Text != "Ünïcode\x00text" || f.Confidence != 0.1+0.2 || f.User != u {
			t.Errorf("Fact(f1) = %+v", f)
		}
		f, err = tx.Fact(ctx, "f3")
		if err == nil && (f.ValidTo == nil || !f.ValidTo.Equal(validTo) || f.Current || f.Anchor != nil || f.Value != "\x00") {
			t.Errorf("Fact(f3) = %+v", f)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// factRec builds a record by hand (the layout in factrec.go).
func factRec(flags byte, ints [5]int64, texts [19]string) string {
	b := []byte{factRecordFormat, flags}
	for _, v := range ints {
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	for _, s := range texts {
		b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	}
	for _, s := range texts {
		b = append(b, s...)
	}
	return string(b)
}

func TestParseFactRecord(t *testing.T) {
	texts := [19]string{"id1", "user", "k", "ranked", "v"}
	ok := factRec(4|8, [5]int64{7, -1, 10, 20, 0}, texts)
	var f factbase.Fact
	if err := parseFactRecord(ok, &f); err != nil || f.ID != "id1" || f.Rank != 7 || f.Anchor == nil ||
		f.Anchor.UnixNano() != -1 || f.ValidTo != nil || !f.Current || f.Cardinality != factbase.Ranked {
		t.Fatalf("parse = %+v, %v", f, err)
	}
	for name, bad := range map[string]string{
		"empty":          "",
		"short":          ok[:factRecordHeader-1],
		"format 1":       "\x01" + ok[1:],
		"field past end": ok[:2+40] + "\xff\xff\xff\xff" + ok[2+44:],
		"trailing bytes": ok + "x",
		"truncated text": ok[:len(ok)-1],
	} {
		if err := parseFactRecord(bad, &f); err == nil {
			t.Errorf("%s: parsed, want an error", name)
		}
	}
}

func FuzzParseFactRecord(f *testing.F) {
	f.Add(factRec(1, [5]int64{0, 0, 1, 2, 3}, [19]string{"a", "b", "c"}))
	f.Add("")
	f.Fuzz(func(t *testing.T, rec string) {
		var fact factbase.Fact
		if err := parseFactRecord(rec, &fact); err != nil {
			return
		}
		n := factRecordHeader
		for _, s := range []string{fact.ID, fact.Subject, fact.Key, string(fact.Cardinality), fact.Value,
			string(fact.ValueType), fact.Text, fact.Type, string(fact.Category), fact.Scope, string(fact.Durability),
			string(fact.Sensitivity), fact.SaidBy, fact.Temporal, fact.Source.Kind, fact.Source.ID, fact.Extractor,
			fact.Supersedes, fact.SupersededBy} {
			n += len(s)
		}
		if n != len(rec) {
			t.Fatalf("parsed fields cover %d bytes of a %d-byte record", n, len(rec))
		}
	})
}
