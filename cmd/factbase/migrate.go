package main

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"sort"
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
Stop the servers writing to the source first: the source is locked for writing
while a user is copied.
`

// migrateTables are the per-user tables whose rows are counted on both sides after a
// copy. The SQLite side keys rows by users.seq, the PostgreSQL side by the UUID.
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
	if all {
		if users, err = src.Users(ctx); err != nil {
			return err
		}
		sort.Slice(users, func(i, j int) bool { return users[i] < users[j] })
	}
	// Refuse before copying anything if a user already has data in the destination.
	for _, u := range users {
		var exists bool
		if err := dst.Pool().QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)", string(u)).Scan(&exists); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if exists {
			return factbase.Errorf(factbase.ECONFLICT, "user %s already has data in the destination; nothing was copied", u)
		}
	}
	mg := &migration{src: src, dst: dst}
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

// migration copies users from a SQLite store into a PostgreSQL store. Most rows are
// read and written through the stores' own transactions (so that the destination's
// write primitives, indexes and triggers do the writing); the rows the interfaces do
// not list (references, embeddings, checkpoints, subject links, preference sessions,
// saved sheets) are read from the SQLite tables directly.
type migration struct {
	src *sqlite.Store
	dst *postgres.Store
}

// user copies one user and verifies the copy.
func (mg *migration) user(ctx context.Context, u factbase.UserID) (migrateReport, error) {
	// Hold SQLite's write lock while the user is copied, so that nothing changes
	// between the reads (the write connection's transactions are immediate).
	stx, err := mg.src.Writer().BeginTx(ctx, nil)
	if err != nil {
		return migrateReport{}, factbase.Errorf(factbase.EUNAVAILABLE, "cannot lock the source for reading: %v", err)
	}
	defer stx.Rollback()
	var seq int64
	if err := stx.QueryRowContext(ctx, "SELECT seq FROM users WHERE id = ?", string(u)).Scan(&seq); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return migrateReport{}, factbase.Errorf(factbase.ENOTFOUND, "user %s has no data in the source", u)
		}
		return migrateReport{}, fmt.Errorf("source: %w", err)
	}
	src := &sourceUser{tx: stx, seq: seq}
	if err := mg.copyUser(ctx, u, src); err != nil {
		return migrateReport{}, err
	}
	if err := mg.copySheets(ctx, u, src); err != nil {
		return migrateReport{}, err
	}
	counts, err := mg.verify(ctx, u, src)
	if err != nil {
		return migrateReport{}, err
	}
	return migrateReport{User: u, Counts: counts}, nil
}

// sourceUser reads one user's rows from the SQLite tables.
type sourceUser struct {
	tx  *sql.Tx
	seq int64
}

// hasTable reports whether the source has table name (older files lack newer tables).
func (s *sourceUser) hasTable(ctx context.Context, name string) (bool, error) {
	var n int
	err := s.tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", name).Scan(&n)
	return n > 0, err
}

// rows runs query (its first argument the user's seq) and calls scan for each row, if
// table exists.
func (s *sourceUser) rows(ctx context.Context, table, query string, scan func(*sql.Rows) error) error {
	ok, err := s.hasTable(ctx, table)
	if err != nil || !ok {
		return err
	}
	rows, err := s.tx.QueryContext(ctx, query, s.seq)
	if err != nil {
		return fmt.Errorf("source %s: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("source %s: %w", table, err)
		}
	}
	return rows.Err()
}

// decodeVec unpacks little-endian float32s, as the SQLite store writes vectors.
func decodeVec(b []byte) []float32 {
	out := make([]float32, 0, len(b)/4)
	for i := 0; i+4 <= len(b); i += 4 {
		out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
	}
	return out
}

// copyUser copies everything but the saved sheets in one destination transaction.
func (mg *migration) copyUser(ctx context.Context, u factbase.UserID, src *sourceUser) error {
	// The rows read through the SQLite store's own snapshot.
	var (
		facts    []factbase.Fact
		events   []factbase.ListEvent
		episodes []factbase.Episode
		sessions []factbase.TranscriptSession
		entities []factbase.Entity
		confl    []factbase.Conflict
	)
	err := mg.src.View(ctx, u, func(tx factbase.ReadTx) error {
		var err error
		if facts, err = tx.Facts(ctx, factbase.FactFilter{History: true}); err != nil {
			return err
		}
		lists := map[[2]string]bool{}
		for _, f := range facts {
			if f.Cardinality == factbase.Ranked && !lists[[2]string{f.Subject, f.Key}] {
				lists[[2]string{f.Subject, f.Key}] = true
				evs, err := tx.ListEvents(ctx, f.Subject, f.Key, time.Unix(0, math.MaxInt64))
				if err != nil {
					return err
				}
				events = append(events, evs...)
			}
		}
		if episodes, err = tx.Episodes(ctx, factbase.EpisodeFilter{}); err != nil {
			return err
		}
		if sessions, err = tx.TranscriptSessions(ctx, ""); err != nil {
			return err
		}
		if entities, err = tx.Entities(ctx); err != nil {
			return err
		}
		if confl, err = tx.Conflicts(ctx, factbase.ConflictFilter{}); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("source: %w", err)
	}
	// The rows read from the tables.
	var (
		refs    []factbase.Reference
		vectors []factbase.Vector
		cps     []factbase.TranscriptCheckpoint
		links   []factbase.TranscriptLink
		prefs   [][3]string
	)
	err = src.rows(ctx, "fact_references", `SELECT f.id, r.at, r.source_kind, r.source_id FROM fact_references r
		JOIN facts f ON f.seq = r.fact WHERE r.u = ? ORDER BY r.at, r.seq`, func(r *sql.Rows) error {
		var ref factbase.Reference
		var at int64
		if err := r.Scan(&ref.FactID, &at, &ref.Source.Kind, &ref.Source.ID); err != nil {
			return err
		}
		ref.At = time.Unix(0, at).UTC()
		refs = append(refs, ref)
		return nil
	})
	// The vectors themselves are in vec_<dim>, sqlite-vec tables of one dimension each
	// (sqlite/vectors.go); a zero vector has an embeddings row but none there.
	var dims []int
	if err == nil {
		err = src.rows(ctx, "embeddings", "SELECT DISTINCT dim FROM embeddings WHERE u = ? ORDER BY dim", func(r *sql.Rows) error {
			var d int
			err := r.Scan(&d)
			dims = append(dims, d)
			return err
		})
	}
	for _, dim := range dims {
		if err != nil {
			break
		}
		err = src.rows(ctx, "embeddings", fmt.Sprintf(`SELECT m.kind, coalesce(f.id, e.id), m.model, v.embedding FROM embeddings m
			LEFT JOIN vec_%d v ON v.rowid = m.seq
			LEFT JOIN facts f ON m.kind = 'fact' AND f.seq = m.item
			LEFT JOIN episodes e ON m.kind = 'episode' AND e.seq = m.item
			WHERE m.u = ? AND m.dim = %d ORDER BY m.seq`, dim, dim), func(r *sql.Rows) error {
			var v factbase.Vector
			var id sql.NullString
			var blob []byte
			if err := r.Scan(&v.Kind, &id, &v.Model, &blob); err != nil {
				return err
			}
			if id.Valid {
				v.ID, v.Vec = id.String, decodeVec(blob)
				if blob == nil {
					v.Vec = make([]float32, dim)
				}
				vectors = append(vectors, v)
			}
			return nil
		})
	}
	if err == nil {
		err = src.rows(ctx, "transcript_checkpoints", `SELECT file, byte_off, line, sum FROM transcript_checkpoints
			WHERE u = ? ORDER BY file`, func(r *sql.Rows) error {
			var cp factbase.TranscriptCheckpoint
			if err := r.Scan(&cp.File, &cp.Offset, &cp.Line, &cp.Sum); err != nil {
				return err
			}
			cps = append(cps, cp)
			return nil
		})
	}
	if err == nil {
		err = src.rows(ctx, "transcript_subjects", `SELECT session, subject FROM transcript_subjects WHERE u = ?`,
			func(r *sql.Rows) error {
				var l factbase.TranscriptLink
				if err := r.Scan(&l.Session, &l.Subject); err != nil {
					return err
				}
				links = append(links, l)
				return nil
			})
	}
	if err == nil {
		err = src.rows(ctx, "preference_sessions", `SELECT key, norm, session FROM preference_sessions WHERE u = ?`,
			func(r *sql.Rows) error {
				var p [3]string
				if err := r.Scan(&p[0], &p[1], &p[2]); err != nil {
					return err
				}
				prefs = append(prefs, p)
				return nil
			})
	}
	if err != nil {
		return err
	}

	return mg.dst.Update(ctx, u, func(tx factbase.Tx) error {
		for _, e := range episodes {
			if err := tx.InsertEpisode(ctx, e); err != nil {
				return fmt.Errorf("episode %s: %w", e.ID, err)
			}
		}
		for _, f := range insertRanks(facts) {
			if err := tx.Insert(ctx, f, normalize.Value(f.Value)); err != nil {
				return fmt.Errorf("fact %s: %w", f.ID, err)
			}
		}
		for _, e := range events {
			if err := tx.AddListEvent(ctx, e); err != nil {
				return fmt.Errorf("list event of %s: %w", e.Key, err)
			}
		}
		for i := 0; i < len(refs); i += 1000 {
			if _, err := tx.AddReferences(ctx, refs[i:min(len(refs), i+1000)]); err != nil {
				return fmt.Errorf("references: %w", err)
			}
		}
		for i := 0; i < len(vectors); i += 500 {
			if err := tx.PutVectors(ctx, vectors[i:min(len(vectors), i+500)]); err != nil {
				return fmt.Errorf("vectors: %w", err)
			}
		}
		for _, cp := range cps {
			if err := tx.PutTranscriptCheckpoint(ctx, cp); err != nil {
				return fmt.Errorf("transcript checkpoint %s: %w", cp.File, err)
			}
		}
		for _, s := range sessions {
			if err := tx.PutTranscriptSession(ctx, s); err != nil {
				return fmt.Errorf("transcript session %s: %w", s.ID, err)
			}
		}
		if err := tx.LinkTranscriptSubjects(ctx, links); err != nil {
			return fmt.Errorf("transcript links: %w", err)
		}
		for _, e := range entities {
			if err := tx.PutEntity(ctx, e); err != nil {
				return fmt.Errorf("entity %s: %w", e.ID, err)
			}
		}
		for _, c := range confl {
			if err := tx.PutConflict(ctx, c); err != nil {
				return fmt.Errorf("conflict %s: %w", c.ID, err)
			}
		}
		for _, p := range prefs {
			if err := tx.NotePreferenceSession(ctx, p[0], p[1], p[2]); err != nil {
				return fmt.Errorf("preference session: %w", err)
			}
		}
		return checkLists(ctx, tx, facts)
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
func (mg *migration) copySheets(ctx context.Context, u factbase.UserID, src *sourceUser) error {
	var sheets []factbase.FactSheet
	err := src.rows(ctx, "sheets", `SELECT id, created_at, count, entries, dedup FROM sheets WHERE u = ?
		ORDER BY created_at, seq`, func(r *sql.Rows) error {
		sh := factbase.FactSheet{User: u}
		var created int64
		var entries, dedup string
		if err := r.Scan(&sh.ID, &created, &sh.Count, &entries, &dedup); err != nil {
			return err
		}
		sh.CreatedAt = time.Unix(0, created).UTC()
		if err := json.Unmarshal([]byte(entries), &sh.Entries); err != nil {
			return fmt.Errorf("sheet %s: %w", sh.ID, err)
		}
		if err := json.Unmarshal([]byte(dedup), &sh.Dedup); err != nil {
			return fmt.Errorf("sheet %s: %w", sh.ID, err)
		}
		sheets = append(sheets, sh)
		return nil
	})
	if err != nil {
		return err
	}
	// Keep every sheet: a retention longer than any sheet's age deletes none.
	const keepAll = 200 * 365 * 24 * time.Hour
	for _, sh := range sheets {
		if _, err := mg.dst.SaveSheet(ctx, sh, keepAll); err != nil {
			return fmt.Errorf("sheet %s: %w", sh.ID, err)
		}
	}
	return nil
}

// verify counts the user's rows of every table on both sides.
func (mg *migration) verify(ctx context.Context, u factbase.UserID, src *sourceUser) (map[string]int, error) {
	counts := map[string]int{}
	var diffs []string
	for _, table := range migrateTables {
		ok, err := src.hasTable(ctx, table)
		if err != nil {
			return nil, err
		}
		var want int
		if ok {
			if err := src.tx.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE u = ?", src.seq).Scan(&want); err != nil {
				return nil, fmt.Errorf("source %s: %w", table, err)
			}
		}
		var got int
		if err := mg.dst.Pool().QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE u = $1", string(u)).Scan(&got); err != nil {
			return nil, fmt.Errorf("destination %s: %w", table, err)
		}
		if got != want {
			diffs = append(diffs, fmt.Sprintf("%s: %d in the source, %d copied", table, want, got))
		}
		counts[table] = got
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
