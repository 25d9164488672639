package storetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
)

// userExport is everything the export reads return for one user.
type userExport struct {
	References  []factbase.Reference
	Vectors     []factbase.Vector
	Checkpoints []factbase.TranscriptCheckpoint
	Links       []factbase.TranscriptLink
	Preferences []factbase.PreferenceSession
	Sheets      []factbase.FactSheet
}

// exportUser reads user u's export in one View.
func exportUser(t *testing.T, s factbase.Store, u factbase.UserID) userExport {
	t.Helper()
	ctx := context.Background()
	var x userExport
	err := s.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		if x.References, err = tx.ExportReferences(ctx); err != nil {
			return err
		}
		if x.Vectors, err = tx.ExportVectors(ctx); err != nil {
			return err
		}
		if x.Checkpoints, err = tx.ExportTranscriptCheckpoints(ctx); err != nil {
			return err
		}
		if x.Links, err = tx.ExportTranscriptLinks(ctx); err != nil {
			return err
		}
		if x.Preferences, err = tx.ExportPreferenceSessions(ctx); err != nil {
			return err
		}
		x.Sheets, err = tx.ExportSheets(ctx)
		return err
	})
	if err != nil {
		t.Fatalf("export of %s: %v", u, err)
	}
	return x
}

// testExport: the export reads return every row of the user's of their kind, in their
// documented order, and nothing of another user's; a user without data reads empty.
func testExport(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	e := memory.New(s, memory.Options{NoSheetRegen: true}) // only the sheets saved below
	u, other, nobody := NewUser(), NewUser(), NewUser()

	res := apply(t, e, u, sheetOp("a", "1", factbase.Core, factbase.Source{}), sheetOp("b", "1", factbase.Core, factbase.Source{}))
	a, b := res.Facts[0].ID, res.Facts[1].ID
	ep := episode(t, e, u, ingest.EpisodeInput{Content: "Shipped the export"}).Episode.ID
	otherFact := apply(t, e, other, sheetOp("a", "1", factbase.Core, factbase.Source{})).Facts[0].ID

	// References: the write path's own (now), an answer's, and two of the same old
	// time recorded b first, which must come first in the export.
	old := time.Date(2001, 2, 3, 4, 5, 6, 7, time.UTC)
	if n := addRefs(t, e, u, factbase.Reference{FactID: b, At: old, Source: factbase.Source{Kind: "message", ID: "m2"}},
		factbase.Reference{FactID: a, At: old, Source: factbase.Source{Kind: "message", ID: "m1"}}); n != 2 {
		t.Fatalf("AddReferences stored %d, want 2", n)
	}
	if _, err := e.RecordReferences(ctx, u, []string{a}, factbase.Source{Kind: factbase.SourceAnswer}); err != nil {
		t.Fatal(err)
	}
	addRefs(t, e, other, factbase.Reference{FactID: otherFact, At: old})

	// Vectors of two dimensions, a zero one among them, and a re-embedding, which
	// replaces a's vector and so moves it last.
	vec := func(kind, id, model string, v ...float32) factbase.Vector {
		return factbase.Vector{Kind: kind, ID: id, Model: model, Vec: v}
	}
	putVectors := func(u factbase.UserID, vs ...factbase.Vector) {
		t.Helper()
		if err := s.Update(ctx, u, func(tx factbase.Tx) error { return tx.PutVectors(ctx, vs) }); err != nil {
			t.Fatalf("PutVectors: %v", err)
		}
	}
	putVectors(u, vec(factbase.KindFact, a, "m1", 0.6, 0.8, 0), vec(factbase.KindEpisode, ep, "m1", 0, 0, 0, 0),
		vec(factbase.KindFact, b, "m2", 1, 0, 0))
	putVectors(u, vec(factbase.KindFact, a, "m2", 0.5, 0.5, 0.5, 0.5))
	putVectors(other, vec(factbase.KindFact, otherFact, "m1", 0, 1, 0))

	// Transcript rows and preference sessions, written out of order and twice: each
	// call writes a checkpoint, links and (key, norm, session) preference sessions in
	// one transaction and returns its time.
	transcriptRows := func(user factbase.UserID, cp factbase.TranscriptCheckpoint, links []factbase.TranscriptLink, prefs ...[3]string) time.Time {
		t.Helper()
		var now time.Time
		err := s.Update(ctx, user, func(tx factbase.Tx) error {
			now = tx.Now()
			if err := tx.PutTranscriptCheckpoint(ctx, cp); err != nil {
				return err
			}
			if err := tx.LinkTranscriptSubjects(ctx, links); err != nil {
				return err
			}
			for _, p := range prefs {
				if err := tx.NotePreferenceSession(ctx, p[0], p[1], p[2]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return now
	}
	cpTimes := []time.Time{
		transcriptRows(u, factbase.TranscriptCheckpoint{File: "/logs/b.jsonl", Offset: 10, Line: 1, Sum: []byte{2}},
			[]factbase.TranscriptLink{{Subject: "task_2", Session: "s2"}, {Subject: "task_1", Session: "s2"},
				{Subject: "task_1", Session: "s1"}, {Subject: "Task_3", Session: "s1"}},
			[3]string{"pets", "dog", "s2"}, [3]string{"pets", "cat", "s9"}, [3]string{"drink", "tea", "s1"}, [3]string{"pets", "dog", "s1"}),
		transcriptRows(u, factbase.TranscriptCheckpoint{File: "/logs/a.jsonl", Offset: 1234, Line: 9, Sum: []byte{1, 2, 3}},
			[]factbase.TranscriptLink{{Subject: "task_1", Session: "s1"}}, [3]string{"pets", "dog", "s2"}),
	}
	transcriptRows(other, factbase.TranscriptCheckpoint{File: "/logs/other.jsonl", Offset: 1, Line: 1, Sum: []byte{9}},
		[]factbase.TranscriptLink{{Subject: "task_9", Session: "s9"}}, [3]string{"pets", "fish", "s9"})

	// Saved sheets, not in creation order, two of the same time.
	t0 := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	keepAll := 100 * 365 * 24 * time.Hour
	late, first, second := savedSheet(u, "sheet-late", t0.Add(time.Hour), a), savedSheet(u, "sheet-first", t0, b, a), savedSheet(u, "sheet-second", t0)
	first.Dedup = []factbase.SheetDedup{{Dropped: a, Kept: b, Reason: "lower score"}}
	for _, sh := range []factbase.FactSheet{late, first, second, savedSheet(other, "sheet-other", t0, otherFact)} {
		if _, err := s.SaveSheet(ctx, sh, keepAll); err != nil {
			t.Fatalf("SaveSheet(%s): %v", sh.ID, err)
		}
	}

	got := exportUser(t, s, u)
	// References: the two old ones first, in the order recorded, then the rest by
	// time; per fact, what References returns.
	if len(got.References) != 5 || got.References[0].FactID != b || got.References[1].FactID != a ||
		!got.References[0].At.Equal(old) || got.References[0].Source.ID != "m2" {
		t.Errorf("ExportReferences = %+v; want 5, the two of %v first (b's, then a's)", got.References, old)
	}
	perFact := map[string][]factbase.Reference{}
	for i, r := range got.References {
		if i > 0 && r.At.Before(got.References[i-1].At) {
			t.Errorf("ExportReferences: reference %d (%v) is older than the one before it", i, r.At)
		}
		perFact[r.FactID] = append(perFact[r.FactID], r)
	}
	for _, id := range []string{a, b} {
		if want := refs(t, s, u, id); !reflect.DeepEqual(perFact[id], want) {
			t.Errorf("ExportReferences of %s = %+v, want References' %+v", id, perFact[id], want)
		}
	}
	wantVecs := []factbase.Vector{vec(factbase.KindEpisode, ep, "m1", 0, 0, 0, 0), vec(factbase.KindFact, b, "m2", 1, 0, 0),
		vec(factbase.KindFact, a, "m2", 0.5, 0.5, 0.5, 0.5)}
	if !reflect.DeepEqual(got.Vectors, wantVecs) {
		t.Errorf("ExportVectors = %+v, want %+v", got.Vectors, wantVecs)
	}
	wantCPs := []factbase.TranscriptCheckpoint{{File: "/logs/a.jsonl", Offset: 1234, Line: 9, Sum: []byte{1, 2, 3}, UpdatedAt: cpTimes[1]},
		{File: "/logs/b.jsonl", Offset: 10, Line: 1, Sum: []byte{2}, UpdatedAt: cpTimes[0]}}
	if len(got.Checkpoints) != len(wantCPs) {
		t.Errorf("ExportTranscriptCheckpoints = %+v, want %+v", got.Checkpoints, wantCPs)
	} else {
		for i, cp := range got.Checkpoints {
			w := wantCPs[i]
			if cp.File != w.File || cp.Offset != w.Offset || cp.Line != w.Line || string(cp.Sum) != string(w.Sum) || !cp.UpdatedAt.Equal(w.UpdatedAt) {
				t.Errorf("checkpoint %d = %+v, want %+v", i, cp, w)
			}
		}
	}
	wantLinks := []factbase.TranscriptLink{{Subject: "Task_3", Session: "s1"}, {Subject: "task_1", Session: "s1"},
		{Subject: "task_1", Session: "s2"}, {Subject: "task_2", Session: "s2"}}
	if !reflect.DeepEqual(got.Links, wantLinks) {
		t.Errorf("ExportTranscriptLinks = %+v, want %+v", got.Links, wantLinks)
	}
	wantPrefs := []factbase.PreferenceSession{{Key: "drink", Norm: "tea", Session: "s1"}, {Key: "pets", Norm: "cat", Session: "s9"},
		{Key: "pets", Norm: "dog", Session: "s1"}, {Key: "pets", Norm: "dog", Session: "s2"}}
	if !reflect.DeepEqual(got.Preferences, wantPrefs) {
		t.Errorf("ExportPreferenceSessions = %+v, want %+v", got.Preferences, wantPrefs)
	}
	if wantSheets := []factbase.FactSheet{first, second, late}; !reflect.DeepEqual(got.Sheets, wantSheets) {
		t.Errorf("ExportSheets = %+v, want %+v", got.Sheets, wantSheets)
	}

	// Erasing b takes its references and vector out of the export, and it out of
	// the saved sheet that named it.
	apply(t, e, u, factbase.Op{Kind: factbase.OpDelete, ID: b})
	got = exportUser(t, s, u)
	for _, r := range got.References {
		if r.FactID == b {
			t.Errorf("ExportReferences after erasing b still has %+v", r)
		}
	}
	if want := []factbase.Vector{wantVecs[0], wantVecs[2]}; !reflect.DeepEqual(got.Vectors, want) {
		t.Errorf("ExportVectors after erasing b = %+v, want %+v", got.Vectors, want)
	}
	if len(got.Sheets) != 3 || got.Sheets[0].Count != 1 || got.Sheets[0].Entries[0].FactID != a {
		t.Errorf("ExportSheets after erasing b = %+v; want the first sheet naming only a", got.Sheets)
	}

	// The other user sees only its own rows; a user without data reads empty.
	if x := exportUser(t, s, other); len(x.References) != 2 || len(x.Vectors) != 1 || len(x.Checkpoints) != 1 ||
		len(x.Links) != 1 || len(x.Preferences) != 1 || len(x.Sheets) != 1 || x.Sheets[0].ID != "sheet-other" || x.Sheets[0].User != other {
		t.Errorf("the other user's export = %+v; want its own rows only (two references, one of the rest)", x)
	}
	if x := exportUser(t, s, nobody); !reflect.DeepEqual(x, userExport{}) {
		t.Errorf("a user without data exports %+v, want nothing", x)
	}
}
