// Package userdata reads everything one user owns from a store, in one snapshot, and
// writes it into a store through the store contract (its own transactions, write
// primitives, indexes and triggers), checked by row counts on both sides; and it
// encodes and decodes that data as Factbase's export format (JSONL, format.go). The
// migrate, export and import commands use it.
package userdata

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
)

// Tables are the per-user tables whose rows are counted on both sides of a copy, as
// ReadTx.UserRows names them: the SQLite and PostgreSQL stores give them the same
// names.
var Tables = []string{"facts", "list_events", "fact_references", "sheets", "episodes", "embeddings",
	"transcript_checkpoints", "transcript_sessions", "transcript_subjects", "entities", "conflicts", "preference_sessions"}

// Data is everything of one user: what a copy, an export and an import carry, with
// the user's row counts per table from the snapshot it was read in.
type Data struct {
	Facts       []factbase.Fact
	Events      []factbase.ListEvent
	Episodes    []factbase.Episode
	Sessions    []factbase.TranscriptSession
	Entities    []factbase.Entity
	Conflicts   []factbase.Conflict
	Refs        []factbase.Reference
	Vectors     []factbase.Vector
	Checkpoints []factbase.TranscriptCheckpoint
	Links       []factbase.TranscriptLink
	Prefs       []factbase.PreferenceSession
	Sheets      []factbase.FactSheet
	Counts      map[string]int64 // rows per table of Tables
}

// Read reads the user's rows and row counts from the source in one View, so that
// nothing written to the source meanwhile makes them disagree.
func Read(ctx context.Context, s factbase.Store, u factbase.UserID) (*Data, error) {
	src := &Data{}
	err := s.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		if src.Facts, err = tx.Facts(ctx, factbase.FactFilter{History: true}); err != nil {
			return err
		}
		lists := map[[2]string]bool{}
		for _, f := range src.Facts {
			if f.Cardinality == factbase.Ranked && !lists[[2]string{f.Subject, f.Key}] {
				lists[[2]string{f.Subject, f.Key}] = true
				evs, err := tx.ListEvents(ctx, f.Subject, f.Key, time.Unix(0, math.MaxInt64))
				if err != nil {
					return err
				}
				src.Events = append(src.Events, evs...)
			}
		}
		if src.Episodes, err = tx.Episodes(ctx, factbase.EpisodeFilter{}); err != nil {
			return err
		}
		if src.Sessions, err = tx.TranscriptSessions(ctx, "", 0, 0); err != nil {
			return err
		}
		if src.Entities, err = tx.Entities(ctx, factbase.EntityFilter{}); err != nil {
			return err
		}
		if src.Conflicts, err = tx.Conflicts(ctx, factbase.ConflictFilter{}); err != nil {
			return err
		}
		if src.Refs, err = tx.ExportReferences(ctx); err != nil {
			return err
		}
		if src.Vectors, err = tx.ExportVectors(ctx); err != nil {
			return err
		}
		if src.Checkpoints, err = tx.ExportTranscriptCheckpoints(ctx); err != nil {
			return err
		}
		if src.Links, err = tx.ExportTranscriptLinks(ctx); err != nil {
			return err
		}
		if src.Prefs, err = tx.ExportPreferenceSessions(ctx); err != nil {
			return err
		}
		if src.Sheets, err = tx.ExportSheets(ctx); err != nil {
			return err
		}
		src.Counts, err = TableRows(ctx, tx)
		return err
	})
	return src, err
}

// TableRows returns the user's rows of each of Tables, as tx counts them.
func TableRows(ctx context.Context, tx factbase.ReadTx) (map[string]int64, error) {
	rows, err := tx.UserRows(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(Tables))
	for _, t := range Tables {
		out[t] = rows[t]
	}
	return out, nil
}

// Write writes d as user u's data into dst: everything but the saved sheets in one
// transaction (the ranked lists checked before commit), then the sheets, oldest
// first, after the facts they name. The caller refuses a user who has data (Refuse)
// and checks the counts afterwards (Verify).
func Write(ctx context.Context, dst factbase.Store, u factbase.UserID, d *Data) error {
	if err := writeRows(ctx, dst, u, d); err != nil {
		return err
	}
	return writeSheets(ctx, dst, d)
}

// writeRows writes everything but the saved sheets in one transaction of dst.
func writeRows(ctx context.Context, dst factbase.Store, u factbase.UserID, src *Data) error {
	return dst.Update(ctx, u, func(tx factbase.Tx) error {
		for _, e := range src.Episodes {
			if err := tx.InsertEpisode(ctx, e); err != nil {
				return fmt.Errorf("episode %s: %w", e.ID, err)
			}
		}
		if err := insertFacts(ctx, tx, InsertRanks(src.Facts)); err != nil {
			return err
		}
		for _, e := range src.Events {
			if err := tx.AddListEvent(ctx, e); err != nil {
				return fmt.Errorf("list event of %s: %w", e.Key, err)
			}
		}
		for i := 0; i < len(src.Refs); i += 1000 {
			if _, err := tx.AddReferences(ctx, src.Refs[i:min(len(src.Refs), i+1000)]); err != nil {
				return fmt.Errorf("references: %w", err)
			}
		}
		for i := 0; i < len(src.Vectors); i += 500 {
			if err := tx.PutVectors(ctx, src.Vectors[i:min(len(src.Vectors), i+500)]); err != nil {
				return fmt.Errorf("vectors: %w", err)
			}
		}
		for _, cp := range src.Checkpoints {
			if err := tx.PutTranscriptCheckpoint(ctx, cp); err != nil {
				return fmt.Errorf("transcript checkpoint %s: %w", cp.File, err)
			}
		}
		for _, s := range src.Sessions {
			if err := tx.PutTranscriptSession(ctx, s); err != nil {
				return fmt.Errorf("transcript session %s: %w", s.ID, err)
			}
		}
		if err := tx.LinkTranscriptSubjects(ctx, src.Links); err != nil {
			return fmt.Errorf("transcript links: %w", err)
		}
		for _, e := range src.Entities {
			if err := tx.PutEntity(ctx, e); err != nil {
				return fmt.Errorf("entity %s: %w", e.ID, err)
			}
		}
		for _, c := range src.Conflicts {
			if err := tx.PutConflict(ctx, c); err != nil {
				return fmt.Errorf("conflict %s: %w", c.ID, err)
			}
		}
		for _, p := range src.Prefs {
			if err := tx.NotePreferenceSession(ctx, p.Key, p.Norm, p.Session); err != nil {
				return fmt.Errorf("preference session: %w", err)
			}
		}
		return checkLists(ctx, tx, src.Facts)
	})
}

// factRun is the most facts insertFacts writes with one InsertFacts.
const factRun = 2000

// insertFacts writes facts in their order: the current members of ranked lists one
// at a time (each takes its place in its list), the others in runs of up to factRun
// through the bulk insert.
func insertFacts(ctx context.Context, tx factbase.Tx, facts []factbase.Fact) error {
	var (
		run   []factbase.Fact
		norms []string
	)
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		if err := tx.InsertFacts(ctx, run, norms); err != nil {
			return fmt.Errorf("facts %s to %s: %w", run[0].ID, run[len(run)-1].ID, err)
		}
		run, norms = run[:0], norms[:0]
		return nil
	}
	for _, f := range facts {
		if f.Current && f.Cardinality == factbase.Ranked {
			if err := flush(); err != nil {
				return err
			}
			if err := tx.Insert(ctx, f, normalize.Value(f.Value)); err != nil {
				return fmt.Errorf("fact %s: %w", f.ID, err)
			}
			continue
		}
		run, norms = append(run, f), append(norms, normalize.Value(f.Value))
		if len(run) == factRun {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// InsertRanks returns facts, in their order, with each current ranked member's rank
// replaced by its rank among the members of its list before it in facts: a store
// places an inserted member at its rank among the members already there
// (ranked/positions.go), so inserting facts in order with these ranks rebuilds
// every list as it was, and keeps the facts' order.
func InsertRanks(facts []factbase.Fact) []factbase.Fact {
	out := slices.Clone(facts)
	seen := map[[2]string][]int{} // each list's final ranks inserted so far, sorted
	for i, f := range out {
		if !f.Current || f.Cardinality != factbase.Ranked {
			continue
		}
		k := [2]string{f.Subject, f.Key}
		at, _ := slices.BinarySearch(seen[k], f.Rank)
		seen[k] = slices.Insert(seen[k], at, f.Rank)
		out[i].Rank = at + 1
	}
	return out
}

// checkLists verifies, before the copy commits, what the write path verifies before
// every commit: each ranked list's ranks are exactly 1..N.
func checkLists(ctx context.Context, tx factbase.Tx, facts []factbase.Fact) error {
	seen := map[[2]string]bool{}
	for _, f := range facts {
		k := [2]string{f.Subject, f.Key}
		if f.Cardinality != factbase.Ranked || !f.Current || seen[k] {
			continue
		}
		seen[k] = true
		s, err := tx.KeyStats(ctx, f.Subject, f.Key, "")
		if err != nil {
			return err
		}
		if s.Members > 0 && s.MinRank != 1 || s.MaxRank != s.Members {
			return factbase.Errorf(factbase.EINVARIANT, "list %s of %s: ranks are not exactly 1..%d (lowest %d, highest %d) in the source",
				f.Key, f.Subject, s.Members, s.MinRank, s.MaxRank)
		}
	}
	return nil
}

// writeSheets writes the user's saved fact sheets, oldest first, after the facts they
// name.
func writeSheets(ctx context.Context, dst factbase.Store, src *Data) error {
	// Keep every sheet: a retention longer than any sheet's age deletes none.
	const keepAll = 200 * 365 * 24 * time.Hour
	for _, sh := range src.Sheets {
		if _, err := dst.SaveSheet(ctx, sh, keepAll); err != nil {
			return fmt.Errorf("sheet %s: %w", sh.ID, err)
		}
	}
	return nil
}

// Verify counts the user's rows of every table in the destination and compares them
// with the source's counts.
func Verify(ctx context.Context, dst factbase.Store, u factbase.UserID, src *Data) (map[string]int, error) {
	var got map[string]int64
	err := dst.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		got, err = TableRows(ctx, tx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("destination: %w", err)
	}
	counts := map[string]int{}
	var diffs []string
	for _, table := range Tables {
		if want := src.Counts[table]; got[table] != want {
			diffs = append(diffs, fmt.Sprintf("%s: %d in the source, %d copied", table, want, got[table]))
		}
		counts[table] = int(got[table])
	}
	if len(diffs) > 0 {
		return nil, factbase.Errorf(factbase.EINTERNAL, "the copy's row counts differ: %s", strings.Join(diffs, "; "))
	}
	return counts, nil
}

// Refuse returns ECONFLICT, before anything is copied, if one of users already
// has data in the destination.
func Refuse(ctx context.Context, dst factbase.Store, users []factbase.UserID) error {
	for _, u := range users {
		var rows map[string]int64
		err := dst.View(ctx, u, func(tx factbase.ReadTx) error {
			var err error
			rows, err = TableRows(ctx, tx) // the user's data; API keys and jobs do not count
			return err
		})
		if err != nil {
			return fmt.Errorf("userdata: %w", err)
		}
		for _, n := range rows {
			if n > 0 {
				return factbase.Errorf(factbase.ECONFLICT, "user %s already has data in the destination; nothing was copied", u)
			}
		}
	}
	return nil
}
