package postgres_test

import (
	"bytes"
	"context"
	"crypto/rand"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/postgres"
	"github.com/factbase/factbase/storetest"
)

// marker returns a word of 12 random lower-case letters, found nowhere else.
func marker() string {
	b := make([]byte, 12)
	rand.Read(b)
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return "zq" + string(b[2:])
}

// dataDir returns the database server's data directory, or skips the test when this
// process cannot read it: the scan of the table files runs on the database's machine
// as root or postgres.
func dataDir(t *testing.T, s *postgres.Store) string {
	t.Helper()
	var dir string
	if err := postgres.PoolOf(s).QueryRow(context.Background(), "SELECT current_setting('data_directory')").Scan(&dir); err != nil {
		t.Skipf("the server's data directory cannot be asked for (%v): the file scan needs a superuser or pg_read_all_settings", err)
	}
	if _, err := os.ReadDir(filepath.Join(dir, "base")); err != nil {
		t.Skipf("the data directory %s is not readable here (%v): run the test as root or postgres on the database's machine to scan its files", dir, err)
	}
	return dir
}

// relationFiles returns the path of every relation of the store's schema (tables,
// their indexes, TOAST tables and their indexes) under the data directory, by name.
func relationFiles(t *testing.T, s *postgres.Store) map[string]string {
	t.Helper()
	rows, err := postgres.PoolOf(s).Query(context.Background(), `
		SELECT c.relname, pg_relation_filepath(c.oid) FROM pg_class AS c
			WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'i')
		UNION ALL
		SELECT c.relname || ' (toast)', pg_relation_filepath(c.reltoastrelid) FROM pg_class AS c
			WHERE c.relnamespace = current_schema()::regnamespace AND c.reltoastrelid <> 0
		UNION ALL
		SELECT c.relname || ' (toast index)', pg_relation_filepath(i.indexrelid) FROM pg_class AS c
			JOIN pg_index AS i ON i.indrelid = c.reltoastrelid
			WHERE c.relnamespace = current_schema()::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var name, path string
	if _, err := pgx.ForEachRow(rows, []any{&name, &path}, func() error { out[name] = path; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// holding writes the server's dirty pages to the files (CHECKPOINT) and returns the
// relations of the store's schema whose files (every segment and fork) hold word.
func holding(t *testing.T, s *postgres.Store, dir, word string) []string {
	t.Helper()
	if _, err := postgres.PoolOf(s).Exec(context.Background(), "CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	var out []string
	for name, rel := range relationFiles(t, s) {
		base := filepath.Join(dir, rel)
		more, err := filepath.Glob(base + "[._]*")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append([]string{base}, more...) {
			if fileHolds(t, p, word) {
				out = append(out, name)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// walHolding returns how many of the server's write-ahead log segments hold word.
func walHolding(t *testing.T, dir, word string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "pg_wal", "0*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range files {
		if fileHolds(t, p, word) {
			n++
		}
	}
	return n
}

// fileHolds reports whether the file at p holds word (lower-case ASCII) in any case; a file gone
// meanwhile (a rewritten relation's) holds nothing.
func fileHolds(t *testing.T, p, word string) bool {
	t.Helper()
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range b { // ASCII only: the files are binary
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return bytes.Contains(b, []byte(word))
}

// inStatistics reports whether the planner's statistics of the store's tables (its
// sample values, visible to any reader of pg_stats) hold word.
func inStatistics(t *testing.T, s *postgres.Store, word string) bool {
	t.Helper()
	var n int
	if err := postgres.PoolOf(s).QueryRow(context.Background(), `SELECT count(*) FROM pg_stats
		WHERE schemaname = current_schema()
		AND (most_common_vals::text ILIKE '%' || $1 || '%' OR histogram_bounds::text ILIKE '%' || $1 || '%')`,
		word).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// erasure is a store with two users and a fact to erase, for the purge tests.
type erasure struct {
	s         *postgres.Store
	e         *memory.Engine
	dir       string
	a, b      factbase.UserID
	ma, mb    string // the users' markers, all over their data
	mc        string // the value of b's fact to erase, also in a job
	emailOfMC string // that fact's id
}

// newErasure fills a store of a new schema, with purge mode mode, with users a and
// b (storetest.PopulateUser) and b's email mc@example.com, also mentioned by a job;
// it analyzes the tables and checks that the markers are in the files.
func newErasure(t *testing.T, mode postgres.PurgeMode) *erasure {
	t.Helper()
	ctx := context.Background()
	s := openTest(t, postgres.Options{Schema: postgres.NewSchema(t), Purge: mode})
	x := &erasure{s: s, dir: dataDir(t, s), e: memory.New(s, memory.Options{}),
		a: storetest.NewUser(), b: storetest.NewUser(), ma: marker(), mb: marker(), mc: marker()}
	storetest.PopulateUser(t, s, x.e, x.a, x.ma)
	storetest.PopulateUser(t, s, x.e, x.b, x.mb)
	if _, err := x.e.Chat.Say(ctx, x.b, "My email is "+x.mc+"@example.com."); err != nil {
		t.Fatalf("Say: %v", err)
	}
	if _, err := s.EnqueueJob(ctx, factbase.Job{ID: "job-" + string(storetest.NewUser()), User: x.b, Kind: factbase.JobExtract, MaxAttempts: 1,
		Input: "Remember that my email is " + x.mc + "@example.com", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	email, err := x.e.Get(ctx, x.b, "", "contact.email", nil)
	if err != nil || len(email) != 1 || email[0].Value != x.mc+"@example.com" {
		t.Fatalf("email: %v %v", email, err)
	}
	x.emailOfMC = email[0].ID
	if _, err := postgres.PoolOf(s).Exec(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{x.ma, x.mb, x.mc} {
		if len(holding(t, s, x.dir, m)) == 0 {
			t.Fatalf("before erasure %s is in no table file: the scan cannot tell", m)
		}
	}
	if !inStatistics(t, s, x.mc) {
		t.Fatalf("before erasure %s is not in the statistics: their check cannot tell", x.mc)
	}
	return x
}

// eraseFact deletes b's email fact through the engine, which purges after it.
func (x *erasure) eraseFact(t *testing.T) {
	t.Helper()
	del, err := x.e.Apply(context.Background(), x.b, []factbase.Op{{Kind: factbase.OpDelete, ID: x.emailOfMC}})
	if err != nil || del.Deleted != 1 {
		t.Fatalf("delete: %+v %v", del, err)
	}
}

// TestPurgeFullLeavesNoBytes: with PurgeFull, after a fact is erased its value is in
// none of the schema's table, index or TOAST files, nor in the planner's statistics,
// and Purge says so; after a user is erased, the user's marker is gone likewise and
// the erasure reports purged; the other user's data stays.
func TestPurgeFullLeavesNoBytes(t *testing.T) {
	x := newErasure(t, postgres.PurgeFull)
	ctx := context.Background()
	x.eraseFact(t)
	if purged, err := x.s.Purge(ctx); err != nil || !purged {
		t.Errorf("Purge = %v, %v; want true", purged, err)
	}
	if rels := holding(t, x.s, x.dir, x.mc); len(rels) > 0 {
		t.Errorf("after erasing the fact its value is still in the files of %v", rels)
	}
	if inStatistics(t, x.s, x.mc) {
		t.Error("after erasing the fact its value is still in the planner's statistics")
	}
	t.Logf("the erased value is in %d write-ahead log segment(s) (PostgreSQL's; recycled after checkpoints)", walHolding(t, x.dir, x.mc))

	res, err := x.e.EraseUser(ctx, x.a)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Purged {
		t.Errorf("erasure not purged: %+v", res)
	}
	if rels := holding(t, x.s, x.dir, x.ma); len(rels) > 0 {
		t.Errorf("after erasure the erased user's marker is still in the files of %v", rels)
	}
	if len(holding(t, x.s, x.dir, x.mb)) == 0 {
		t.Error("after erasure the other user's marker is gone from the files")
	}
}

// TestPurgeVacuum: with the default PurgeVacuum, an erasure reports purged false at
// once and the tables are vacuumed in the background: the erased rows leave the
// planner's statistics. The test logs where plain VACUUM leaves the erased bytes.
func TestPurgeVacuum(t *testing.T) {
	x := newErasure(t, "")
	ctx := context.Background()
	x.eraseFact(t)
	if purged, err := x.s.Purge(ctx); err != nil || purged {
		t.Errorf("Purge = %v, %v; want false (VACUUM leaves the bytes in the files)", purged, err)
	}
	postgres.WaitPurge(x.s)
	var vacuumed bool
	if err := postgres.PoolOf(x.s).QueryRow(ctx,
		"SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relid = 'facts'::regclass").Scan(&vacuumed); err != nil {
		t.Fatal(err)
	}
	if !vacuumed {
		t.Error("after an erasure the facts table was not vacuumed")
	}
	if inStatistics(t, x.s, x.mc) {
		t.Error("after the vacuum the erased value is still in the planner's statistics")
	}
	t.Logf("after VACUUM (ANALYZE, INDEX_CLEANUP ON) the erased value is still in the files of %v and in %d write-ahead log segment(s)",
		holding(t, x.s, x.dir, x.mc), walHolding(t, x.dir, x.mc))

	res, err := x.e.EraseUser(ctx, x.a)
	if err != nil || res.Purged {
		t.Fatalf("EraseUser = %+v, %v; want not purged", res, err)
	}
	postgres.WaitPurge(x.s)
	t.Logf("after VACUUM the erased user's marker is still in the files of %v", holding(t, x.s, x.dir, x.ma))
}

// TestPurgeNotOwner: a role that owns none of the tables vacuums none (VACUUM would
// only warn) and a full purge reports false without an error.
func TestPurgeNotOwner(t *testing.T) {
	owner := openTest(t, postgres.Options{Schema: postgres.NewSchema(t)})
	ctx := context.Background()
	role := "fbtest_role_" + marker()
	pool := postgres.PoolOf(owner)
	for _, stmt := range []string{
		"CREATE ROLE " + role + " LOGIN",
		"GRANT CREATE ON DATABASE " + pgx.Identifier{databaseName(t, owner)}.Sanitize() + " TO " + role,
		"GRANT USAGE, CREATE ON SCHEMA " + owner.Schema() + " TO " + role,
		"GRANT ALL ON ALL TABLES IN SCHEMA " + owner.Schema() + " TO " + role,
	} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	t.Cleanup(func() {
		for _, stmt := range []string{"DROP OWNED BY " + role, "DROP ROLE " + role} {
			if _, err := pool.Exec(ctx, stmt); err != nil {
				t.Errorf("%s: %v", stmt, err)
			}
		}
	})
	u, err := neturl.Parse(postgres.DatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = neturl.User(role)
	s, err := postgres.Open(ctx, u.String(), postgres.Options{Schema: owner.Schema()})
	if err != nil {
		t.Fatalf("opening the store as %s: %v", role, err)
	}
	t.Cleanup(func() { s.Close() })
	for _, full := range []bool{false, true} {
		if purged, err := postgres.Vacuum(ctx, s, full); err != nil || purged {
			t.Errorf("Vacuum(full=%v) by a role that owns no table = %v, %v; want false, nil", full, purged, err)
		}
	}
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_user_tables
		WHERE schemaname = current_schema() AND (last_vacuum IS NOT NULL OR vacuum_count > 0)`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n > 0 {
		t.Errorf("%d tables vacuumed by a role that owns none", n)
	}
}

// databaseName returns the name of s's database.
func databaseName(t *testing.T, s *postgres.Store) string {
	t.Helper()
	var name string
	if err := postgres.PoolOf(s).QueryRow(context.Background(), "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}
