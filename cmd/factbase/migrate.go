package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/sqlite"
)

const migrateUsage = `Usage:
  factbase migrate --from sqlite://FILE --to postgres://URL (--user UUID | --all) [--json]

Copies users' data from a SQLite file into a PostgreSQL database: facts with their
full history, ranked-list events, references, saved fact sheets, episodes,
embeddings, transcript state (checkpoints, sessions, subject links), entities,
conflicts and preference sessions. With --all every user is copied, and the API
keys too. Background jobs are not copied.

Each user is copied in one transaction (its saved sheets in a second one), the
ranked lists are checked (ranks exactly 1..N) before commit, and afterwards the
rows of every table are counted on both sides: any difference is an error. A user
who already has data in the destination is refused; nothing is copied then.
Stop the servers writing to the source first: each user is read from one snapshot
of the source, and what is written after it is not copied.
`

// migrateTables are the per-user tables whose rows are counted on both sides after a
// copy, as ReadTx.UserRows names them: the SQLite and PostgreSQL stores give these
// tables the same names.
var migrateTables = []string{"facts", "list_events", "fact_references", "sheets", "episodes", "embeddings",
	"transcript_checkpoints", "transcript_sessions", "transcript_subjects", "entities", "conflicts", "preference_sessions"}

// migrateReport is what migrate did for one user.
type migrateReport struct {
	User   factbase.UserID `json:"user"`
	Counts map[string]int  `json:"counts"` // rows copied per table, as counted on both sides
}

// migrateResult is migrate's JSON output.
type migrateResult struct {
	Users []migrateReport `json:"users"`
	Keys  int             `json:"keys"` // API keys copied (--all)
}

func (m *Main) runMigrate(ctx context.Context, args []string) error {
	var (
		from, to, user string
		all, asJSON    bool
	)
	fs := flag.NewFlagSet("factbase migrate", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.Usage = func() { fmt.Fprint(m.Stderr, migrateUsage); fs.PrintDefaults() }
	fs.StringVar(&from, "from", "", "the source: sqlite://FILE (or a file path)")
	fs.StringVar(&to, "to", "", "the destination: a postgres:// URL")
	fs.StringVar(&user, "user", "", "copy this user (a UUID)")
	fs.BoolVar(&all, "all", false, "copy every user, and the API keys")
	fs.BoolVar(&asJSON, "json", false, "print JSON for programs")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0:
		return usagef("migrate takes no arguments\n%s", migrateUsage)
	case from == "" || to == "":
		return usagef("migrate needs --from sqlite://FILE and --to postgres://URL")
	case isPostgres(from):
		return usagef("--from must be a SQLite file; copying out of PostgreSQL is not supported")
	case !isPostgres(to):
		return usagef("--to must be a postgres:// URL")
	case (user == "") == !all:
		return usagef("give either --user UUID or --all")
	}
	var users []factbase.UserID
	if user != "" {
		u, err := factbase.ParseUserID(user)
		if err != nil {
			return err
		}
		users = []factbase.UserID{u}
	}
	src, err := sqlite.Open(ctx, strings.TrimPrefix(from, "sqlite://"), sqlite.Options{})
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := postgres.Open(ctx, to, postgres.Options{})
	if err != nil {
		return err
	}
	defer dst.Close()
	// The users the source holds: one it does not is ENOTFOUND (a user whose data was
	// erased is still held, and copied as no rows).
	known, err := src.Users(ctx)
	if err != nil {
		return err
	}
	if all {
		users = slices.Sorted(slices.Values(known))
	}
	mg := &migration{src: src, dst: dst, known: map[factbase.UserID]bool{}}
	for _, u := range known {
		mg.known[u] = true
	}
	if err := mg.refuseCopied(ctx, users); err != nil {
		return err
	}
	var res migrateResult
	for _, u := range users {
		rep, err := mg.user(ctx, u)
		if err != nil {
			return fmt.Errorf("migrate user %s: %w", u, err)
		}
		res.Users = append(res.Users, rep)
		if !asJSON {
			fmt.Fprintf(m.Stdout, "Copied user %s: %s.\n", u, countsLine(rep.Counts))
		}
	}
	if all {
		if res.Keys, err = mg.keys(ctx); err != nil {
			return fmt.Errorf("migrate keys: %w", err)
		}
		if !asJSON {
			fmt.Fprintf(m.Stdout, "Copied %d API keys.\n", res.Keys)
		}
	}
	if asJSON {
		if res.Users == nil {
			res.Users = []migrateReport{}
		}
		return m.printJSON(res)
	}
	fmt.Fprintf(m.Stdout, "Migrated %d users; the row counts match.\n", len(res.Users))
	return nil
}

// countsLine prints the non-zero counts in table order.
func countsLine(c map[string]int) string {
	var parts []string
	for _, t := range migrateTables {
		if c[t] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[t], strings.ReplaceAll(t, "_", " ")))
		}
	}
	if len(parts) == 0 {
		return "no rows"
	}
	return strings.Join(parts, ", ")
}

// migration copies users from one store into another through the store contract
// only: each user is read from the source in one snapshot and written through the
// destination's own transactions, so that its write primitives, indexes and triggers
// do the writing.
type migration struct {
	src, dst factbase.Store
	known    map[factbase.UserID]bool // the users the source holds (Store.Users)
}

// sourceUser is everything of one user that migrate copies, read in one snapshot of
// the source, with the user's row counts per table from that same snapshot.
type sourceUser struct {
	facts    []factbase.Fact
	events   []factbase.ListEvent
	episodes []factbase.Episode
	sessions []factbase.TranscriptSession
	entities []factbase.Entity
	confl    []factbase.Conflict
	refs     []factbase.Reference
	vectors  []factbase.Vector
	cps      []factbase.TranscriptCheckpoint
	links    []factbase.TranscriptLink
	prefs    []factbase.PreferenceSession
	sheets   []factbase.FactSheet
	counts   map[string]int64 // rows per table of migrateTables
}

// refuseCopied returns ECONFLICT, before anything is copied, if one of users already
// has data in the destination.
func (mg *migration) refuseCopied(ctx context.Context, users []factbase.UserID) error {
	for _, u := range users {
		var rows map[string]int64
		err := mg.dst.View(ctx, u, func(tx factbase.ReadTx) error {
			var err error
			rows, err = tx.UserRows(ctx)
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if len(rows) > 0 {
			return factbase.Errorf(factbase.ECONFLICT, "user %s already has data in the destination; nothing was copied", u)
		}
	}
	return nil
}

// user copies one user and verifies the copy.
func (mg *migration) user(ctx context.Context, u factbase.UserID) (migrateReport, error) {
	if !mg.known[u] {
		return migrateReport{}, factbase.Errorf(factbase.ENOTFOUND, "user %s has no data in the source", u)
	}
	src, err := mg.read(ctx, u)
	if err != nil {
		return migrateReport{}, fmt.Errorf("source: %w", err)
	}
	if err := mg.copyUser(ctx, u, src); err != nil {
		return migrateReport{}, err
	}
	if err := mg.copySheets(ctx, src); err != nil {
		return migrateReport{}, err
	}
	counts, err := mg.verify(ctx, u, src)
	if err != nil {
		return migrateReport{}, err
	}
	return migrateReport{User: u, Counts: counts}, nil
}

// read reads the user's rows and row counts from the source in one View, so that
// nothing written to the source meanwhile makes them disagree.
func (mg *migration) read(ctx context.Context, u factbase.UserID) (*sourceUser, error) {
	src := &sourceUser{}
	err := mg.src.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		if src.facts, err = tx.Facts(ctx, factbase.FactFilter{History: true}); err != nil {
			return err
		}
		lists := map[[2]string]bool{}
		for _, f := range src.facts {
			if f.Cardinality == factbase.Ranked && !lists[[2]string{f.Subject, f.Key}] {
				lists[[2]string{f.Subject, f.Key}] = true
				evs, err := tx.ListEvents(ctx, f.Subject, f.Key, time.Unix(0, math.MaxInt64))
				if err != nil {
					return err
				}
				src.events = append(src.events, evs...)
			}
		}
		if src.episodes, err = tx.Episodes(ctx, factbase.EpisodeFilter{}); err != nil {
			return err
		}
		if src.sessions, err = tx.TranscriptSessions(ctx, "", 0, 0); err != nil {
			return err
		}
		if src.entities, err = tx.Entities(ctx, factbase.EntityFilter{}); err != nil {
			return err
		}
		if src.confl, err = tx.Conflicts(ctx, factbase.ConflictFilter{}); err != nil {
			return err
		}
		if src.refs, err = tx.ExportReferences(ctx); err != nil {
			return err
		}
		if src.vectors, err = tx.ExportVectors(ctx); err != nil {
			return err
		}
		if src.cps, err = tx.ExportTranscriptCheckpoints(ctx); err != nil {
			return err
		}
		if src.links, err = tx.ExportTranscriptLinks(ctx); err != nil {
			return err
		}
		if src.prefs, err = tx.ExportPreferenceSessions(ctx); err != nil {
			return err
		}
		if src.sheets, err = tx.ExportSheets(ctx); err != nil {
			return err
		}
		src.counts, err = tableRows(ctx, tx)
		return err
	})
	return src, err
}

// tableRows returns the user's rows of each of migrateTables, as tx counts them.
func tableRows(ctx context.Context, tx factbase.ReadTx) (map[string]int64, error) {
	rows, err := tx.UserRows(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(migrateTables))
	for _, t := range migrateTables {
		out[t] = rows[t]
	}
	return out, nil
}

// copyUser copies everything but the saved sheets in one destination transaction.
func (mg *migration) copyUser(ctx context.Context, u factbase.UserID, src *sourceUser) error {
	return mg.dst.Update(ctx, u, func(tx factbase.Tx) error {
		for _, e := range src.episodes {
			if err := tx.InsertEpisode(ctx, e); err != nil {
				return fmt.Errorf("episode %s: %w", e.ID, err)
			}
		}
		for _, f := range insertRanks(src.facts) {
			if err := tx.Insert(ctx, f, normalize.Value(f.Value)); err != nil {
				return fmt.Errorf("fact %s: %w", f.ID, err)
			}
		}
		for _, e := range src.events {
			if err := tx.AddListEvent(ctx, e); err != nil {
				return fmt.Errorf("list event of %s: %w", e.Key, err)
			}
		}
		for i := 0; i < len(src.refs); i += 1000 {
			if _, err := tx.AddReferences(ctx, src.refs[i:min(len(src.refs), i+1000)]); err != nil {
				return fmt.Errorf("references: %w", err)
			}
		}
		for i := 0; i < len(src.vectors); i += 500 {
			if err := tx.PutVectors(ctx, src.vectors[i:min(len(src.vectors), i+500)]); err != nil {
				return fmt.Errorf("vectors: %w", err)
			}
		}
		for _, cp := range src.cps {
			if err := tx.PutTranscriptCheckpoint(ctx, cp); err != nil {
				return fmt.Errorf("transcript checkpoint %s: %w", cp.File, err)
			}
		}
		for _, s := range src.sessions {
			if err := tx.PutTranscriptSession(ctx, s); err != nil {
				return fmt.Errorf("transcript session %s: %w", s.ID, err)
			}
		}
		if err := tx.LinkTranscriptSubjects(ctx, src.links); err != nil {
			return fmt.Errorf("transcript links: %w", err)
		}
		for _, e := range src.entities {
			if err := tx.PutEntity(ctx, e); err != nil {
				return fmt.Errorf("entity %s: %w", e.ID, err)
			}
		}
		for _, c := range src.confl {
			if err := tx.PutConflict(ctx, c); err != nil {
				return fmt.Errorf("conflict %s: %w", c.ID, err)
			}
		}
		for _, p := range src.prefs {
			if err := tx.NotePreferenceSession(ctx, p.Key, p.Norm, p.Session); err != nil {
				return fmt.Errorf("preference session: %w", err)
			}
		}
		return checkLists(ctx, tx, src.facts)
	})
}

// insertRanks returns facts, in their order, with each current ranked member's rank
// replaced by its rank among the members of its list before it in facts: a store
// places an inserted member at its rank among the members already there
// (ranked/positions.go), so inserting facts in order with these ranks rebuilds
// every list as it was, and keeps the facts' order.
func insertRanks(facts []factbase.Fact) []factbase.Fact {
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

// copySheets copies the user's saved fact sheets, oldest first, after the facts they
// name.
func (mg *migration) copySheets(ctx context.Context, src *sourceUser) error {
	// Keep every sheet: a retention longer than any sheet's age deletes none.
	const keepAll = 200 * 365 * 24 * time.Hour
	for _, sh := range src.sheets {
		if _, err := mg.dst.SaveSheet(ctx, sh, keepAll); err != nil {
			return fmt.Errorf("sheet %s: %w", sh.ID, err)
		}
	}
	return nil
}

// verify counts the user's rows of every table in the destination and compares them
// with the source's counts.
func (mg *migration) verify(ctx context.Context, u factbase.UserID, src *sourceUser) (map[string]int, error) {
	var got map[string]int64
	err := mg.dst.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		got, err = tableRows(ctx, tx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("destination: %w", err)
	}
	counts := map[string]int{}
	var diffs []string
	for _, table := range migrateTables {
		if want := src.counts[table]; got[table] != want {
			diffs = append(diffs, fmt.Sprintf("%s: %d in the source, %d copied", table, want, got[table]))
		}
		counts[table] = int(got[table])
	}
	if len(diffs) > 0 {
		return nil, factbase.Errorf(factbase.EINTERNAL, "the copy's row counts differ: %s", strings.Join(diffs, "; "))
	}
	return counts, nil
}

// keys copies the API keys the destination does not have (by id), revoked ones as
// revoked.
func (mg *migration) keys(ctx context.Context) (int, error) {
	keys, err := mg.src.Keys(ctx)
	if err != nil {
		return 0, err
	}
	have, err := mg.dst.Keys(ctx)
	if err != nil {
		return 0, err
	}
	known := map[string]bool{}
	for _, k := range have {
		known[k.ID] = true
	}
	n := 0
	for _, k := range keys {
		if known[k.ID] {
			continue
		}
		revoked := k.RevokedAt
		k.RevokedAt = nil
		if err := mg.dst.CreateKey(ctx, k); err != nil {
			return n, fmt.Errorf("key %s: %w", k.ID, err)
		}
		if revoked != nil {
			if _, err := mg.dst.RevokeKey(ctx, k.ID, *revoked); err != nil {
				return n, fmt.Errorf("key %s: %w", k.ID, err)
			}
		}
		n++
	}
	return n, nil
}
