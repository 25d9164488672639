package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/userdata"
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
A sealed source (encrypted at rest: docs/security.md) needs its --data-key-file; the
destination is sealed with --to-data-key-file, by default the same key.
Stop the servers writing to the source first: each user is read from one snapshot
of the source, and what is written after it is not copied.
`

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
		fromKey, toKey string
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
	fs.StringVar(&fromKey, "data-key-file", m.Getenv("FACTBASE_DATA_KEY_FILE"), "the source's data key, when it is sealed (default $FACTBASE_DATA_KEY_FILE)")
	fs.StringVar(&toKey, "to-data-key-file", "", "the data key to seal the destination with (default: --data-key-file; \"none\": not sealed)")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch toKey {
	case "":
		toKey = fromKey
	case "none":
		toKey = ""
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
	src, err := openStore(ctx, "sqlite://"+strings.TrimPrefix(from, "sqlite://"), fromKey)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openStore(ctx, to, toKey)
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
	if err := userdata.Refuse(ctx, mg.dst, users); err != nil {
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
	for _, t := range userdata.Tables {
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

// user copies one user and verifies the copy.
func (mg *migration) user(ctx context.Context, u factbase.UserID) (migrateReport, error) {
	if !mg.known[u] {
		return migrateReport{}, factbase.Errorf(factbase.ENOTFOUND, "user %s has no data in the source", u)
	}
	src, err := userdata.Read(ctx, mg.src, u)
	if err != nil {
		return migrateReport{}, fmt.Errorf("source: %w", err)
	}
	if err := userdata.Write(ctx, mg.dst, u, src); err != nil {
		return migrateReport{}, err
	}
	counts, err := userdata.Verify(ctx, mg.dst, u, src)
	if err != nil {
		return migrateReport{}, err
	}
	return migrateReport{User: u, Counts: counts}, nil
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
