package userdata

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
)

const fuzzUser = factbase.UserID("0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d")

func sampleData() *Data {
	return &Data{
		Facts: []factbase.Fact{{ID: "f1", Subject: "entity:e1", Key: "home.city", Value: "Porto", SaidBy: "user"},
			{ID: "f2", Subject: "user", Key: "nexus.version", Value: "2.3.1", Source: factbase.Source{Kind: factbase.SourceEpisode, ID: "ep1"}}},
		Entities:  []factbase.Entity{{ID: "e1", User: fuzzUser, Name: "Maria", Relation: "sister"}},
		Episodes:  []factbase.Episode{{ID: "ep1", User: fuzzUser, Content: "NEXUS v2.3.1 released."}},
		Refs:      []factbase.Reference{{FactID: "f1"}},
		Conflicts: []factbase.Conflict{{ID: "c1", User: fuzzUser, Subject: "entity:e1", Key: "home.city", CurrentID: "f1"}},
	}
}

// TestEncodeDecode: Decode reads back what Encode wrote; Renew gives new ids and
// keeps what names them consistent.
func TestEncodeDecode(t *testing.T) {
	var buf bytes.Buffer
	counts, err := Encode(&buf, fuzzUser, sampleData(), time.Unix(1, 0), false)
	if err != nil || counts["fact"] != 2 || counts["entity"] != 1 {
		t.Fatalf("Encode = %v, %v", counts, err)
	}
	h, d, err := Decode(&buf)
	if err != nil || h.User != fuzzUser || h.Version != Version || len(d.Facts) != 2 || d.Entities[0].Name != "Maria" {
		t.Fatalf("Decode = %+v, %+v, %v", h, d, err)
	}
	n := 0
	d.Renew(func() string { n++; return "new" + strings.Repeat("x", n) })
	e := d.Entities[0].ID
	switch {
	case e == "e1" || d.Facts[0].Subject != "entity:"+e || d.Conflicts[0].Subject != "entity:"+e:
		t.Errorf("entity id %q not renewed everywhere: fact subject %q, conflict subject %q", e, d.Facts[0].Subject, d.Conflicts[0].Subject)
	case d.Facts[1].Source.ID != d.Episodes[0].ID || d.Episodes[0].ID == "ep1":
		t.Errorf("episode source %q, episode %q: want the new id in both", d.Facts[1].Source.ID, d.Episodes[0].ID)
	case d.Refs[0].FactID != d.Facts[0].ID || d.Conflicts[0].CurrentID != d.Facts[0].ID || d.Facts[0].ID == "f1":
		t.Errorf("fact id not renewed in the references or the conflict")
	}
}

// FuzzDecode: any file is either read or refused with EINVALID naming what was
// wrong; never a panic.
func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	Encode(&buf, fuzzUser, sampleData(), time.Unix(1, 0), true)
	f.Add(buf.String())
	f.Add(`{"format":"factbase-export","version":1,"user":"0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d"}` + "\n" + `{"kind":"end"}`)
	f.Add(`{"format":"factbase-export","version":9}`)
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		h, d, err := Decode(strings.NewReader(s))
		if err != nil {
			if factbase.ErrorCode(err) != factbase.EINVALID {
				t.Fatalf("Decode error %v, want EINVALID", err)
			}
			return
		}
		if h.Format != Format || d == nil {
			t.Fatalf("Decode read %+v without an error", h)
		}
	})
}
