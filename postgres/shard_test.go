package postgres

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/internal/userdata"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/storetest"
)

// Shardable by user (docs/scaling.md): the schema can be distributed by user (Citus,
// or hash partitions) because every key of a per-user table includes the user, and
// no statement joins rows of different users. The tests below check both against
// the schema the migrations build and the statements this package sends.

// notPerUser are the tables of the store's schema that hold no per-user rows, or
// that cannot be split by user, and why; each stays whole (a Citus reference table,
// copied to every node, or a local table on the coordinator). Every other table has
// a user column and is distributed by it.
var notPerUser = map[string]string{
	"schema_migrations": "the migrations applied, one row each for the whole installation (reference table)",
	"api_keys":          "API keys are looked up by hash before the user is known, and application keys serve every user (reference table)",
	"jobs": "the job queue: a worker claims the oldest due job of any user in one statement " +
		"(FOR UPDATE SKIP LOCKED), which a table split by user cannot answer (local table on the coordinator)",
	"audit_log": "the audit trail outlives a user's erasure and is listed across users by operators (local table on the coordinator)",
	"settings":  "the database's own named values, such as the sealed store's key record, one set for the installation (reference table)",
}

// userColumn returns the column of table that holds the user's id: the key of users,
// the owner column u of every per-user table; "" if there is none.
func userColumn(table string, columns map[string]bool) string {
	switch {
	case table == "users":
		return "id"
	case columns["u"]:
		return "u"
	}
	return ""
}

// shardProblems reads the catalogue of the connection's current schema and returns
// what stops its tables from being distributed by user: a table with no user column
// that notPerUser does not list; a primary key or unique index without the user
// column among its key columns; a foreign key between per-user tables that does not
// pair their user columns; and a notPerUser entry with no table.
func shardProblems(ctx context.Context, q catalog) ([]string, error) {
	type table struct {
		columns map[string]bool
		user    string
	}
	tables := map[string]*table{}
	rows, err := q.Query(ctx, `SELECT c.relname, a.attname FROM pg_class c
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')`)
	if err != nil {
		return nil, err
	}
	var name, col string
	if _, err := pgx.ForEachRow(rows, []any{&name, &col}, func() error {
		if tables[name] == nil {
			tables[name] = &table{columns: map[string]bool{}}
		}
		tables[name].columns[col] = true
		return nil
	}); err != nil {
		return nil, err
	}
	var problems []string
	perUser := func(name string) bool { return tables[name] != nil && tables[name].user != "" }
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		t := tables[name]
		t.user = userColumn(name, t.columns)
		_, listed := notPerUser[name]
		switch {
		case t.user == "" && !listed:
			problems = append(problems, fmt.Sprintf("table %s has no user column (u) and is not listed in notPerUser", name))
		case t.user != "" && listed:
			t.user = "" // listed: kept whole although it has a u column
		}
	}
	for _, name := range slices.Sorted(maps.Keys(notPerUser)) {
		if tables[name] == nil {
			problems = append(problems, fmt.Sprintf("notPerUser lists %s, which is not a table of the schema", name))
		}
	}

	// Unique indexes (primary keys and unique constraints are backed by one each):
	// the key columns, an expression as "".
	rows, err = q.Query(ctx, `SELECT i.indexrelid::regclass::text, c.relname,
		array(SELECT coalesce(a.attname, '') FROM unnest(i.indkey[0:i.indnkeyatts - 1]) k (n)
			LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n)
		FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
		WHERE c.relnamespace = current_schema()::regnamespace AND i.indisunique`)
	if err != nil {
		return nil, err
	}
	var (
		index string
		keys  []string
	)
	if _, err := pgx.ForEachRow(rows, []any{&index, &name, &keys}, func() error {
		if perUser(name) && !slices.Contains(keys, tables[name].user) {
			problems = append(problems, fmt.Sprintf("unique index %s of table %s is on (%s), without the user column %s",
				index, name, strings.Join(keys, ", "), tables[name].user))
		}
		return nil
	}); err != nil {
		return nil, err
	}

	// Foreign keys between per-user tables pair the user columns.
	rows, err = q.Query(ctx, `SELECT k.conname, c.relname, f.relname,
		array(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY x (n, o) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = x.n ORDER BY x.o),
		array(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY x (n, o) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = x.n ORDER BY x.o)
		FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid
		WHERE k.contype = 'f' AND c.relnamespace = current_schema()::regnamespace`)
	if err != nil {
		return nil, err
	}
	var (
		fk, ref   string
		from, to  []string
		paired    bool
		fromTable string
	)
	if _, err := pgx.ForEachRow(rows, []any{&fk, &fromTable, &ref, &from, &to}, func() error {
		if !perUser(fromTable) || !perUser(ref) {
			return nil
		}
		paired = false
		for i := range from {
			paired = paired || from[i] == tables[fromTable].user && to[i] == tables[ref].user
		}
		if !paired {
			problems = append(problems, fmt.Sprintf("foreign key %s from %s (%s) to %s (%s) does not pair the user columns",
				fk, fromTable, strings.Join(from, ", "), ref, strings.Join(to, ", ")))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return problems, nil
}

// catalog is what shardProblems reads the catalogue with.
type catalog interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// TestShardKeys: in the schema the migrations build, on both vector paths, every
// table is per user or listed, and every unique index and foreign key of a per-user
// table includes the user column. A schema with a table, an index and a foreign key
// that break the rules gets each of them named.
func TestShardKeys(t *testing.T) {
	ctx := context.Background()
	for _, o := range []Options{{}, {NoPgvector: true}} {
		t.Run(fmt.Sprintf("NoPgvector=%v", o.NoPgvector), func(t *testing.T) {
			o.Schema = NewSchema(t)
			s, err := Open(ctx, DatabaseURL(t), o)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			path, _ := s.VectorSearch()
			t.Logf("vector search: %s", path)
			problems, err := shardProblems(ctx, s.pool)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
		})
	}

	t.Run("a schema that breaks the rules", func(t *testing.T) {
		s := openRanks(t)
		for _, q := range []string{
			"CREATE TABLE loose (seq bigint PRIMARY KEY, name text)",
			"CREATE TABLE owned (seq bigint PRIMARY KEY, u uuid NOT NULL, name text UNIQUE)",
			"CREATE UNIQUE INDEX owned_u_name ON owned (u, name)",
			"CREATE TABLE child (u uuid NOT NULL, parent bigint REFERENCES owned (seq))",
		} {
			if _, err := s.pool.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		problems, err := shardProblems(ctx, s.pool)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"table loose has no user column",
			"unique index owned_pkey of table owned is on (seq)",
			"unique index owned_name_key of table owned is on (name)",
			"foreign key child_parent_fkey from child (parent) to owned (seq)",
		}
		if len(problems) != len(want) {
			t.Errorf("%d problems, want %d: %q", len(problems), len(want), problems)
		}
		for _, w := range want {
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, w) }) {
				t.Errorf("no problem starts with %q: %q", w, problems)
			}
		}
	})
}

// TestMigrationShardKeys: a schema with data of two users, written without
// 0021_shard_keys.sql (every kind of row: list members, superseded and set facts,
// episodes, vectors, references, saved sheets and the facts they name), is migrated:
// every user's data reads back the same, the keys pass shardProblems, each sheet's
// facts carry the sheet's user, and erasing a fact still takes its vector, its
// references and its place in the saved sheets with it.
func TestMigrationShardKeys(t *testing.T) {
	ctx := context.Background()
	schema := NewSchema(t)
	hash := embed.NewHash(64)
	// Without pgvector, whose later migration (0024) would precede 0021 here: a
	// schema from before 0021 had none of the migrations after it.
	old, err := Open(ctx, DatabaseURL(t), Options{Schema: schema, migrateSkip: "0021_shard_keys.sql", NoPgvector: true})
	if err != nil {
		t.Fatal(err)
	}
	if problems, err := shardProblems(ctx, old.pool); err != nil || len(problems) == 0 {
		t.Fatalf("before the migration: %d problems (%v); the test needs the old keys", len(problems), err)
	}
	// This package's statements name the user of sheet_facts, which the old schema
	// lacks: the column is there while the data is written, and dropped again before
	// the migration, leaving the rows as the old store wrote them.
	if _, err := old.pool.Exec(ctx, "ALTER TABLE sheet_facts ADD COLUMN u uuid"); err != nil {
		t.Fatal(err)
	}
	e := memory.New(old, memory.Options{Embedder: hash})
	users := []factbase.UserID{storetest.NewUser(), storetest.NewUser()}
	set := func(key, value string) factbase.Op {
		return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: value, Text: "the user's " + key + " is " + value}}
	}
	var erase []string // per user, a fact to erase after the migration
	for i, u := range users {
		ops := []factbase.Op{set("contact.email", fmt.Sprintf("a%d@example.com", i)), set("contact.email", fmt.Sprintf("b%d@example.com", i))}
		for _, v := range []string{"oolong", "sencha", "chai", "matcha"} {
			ops = append(ops, set("favorites.tea", v))
		}
		if _, err := e.Apply(ctx, u, ops); err != nil {
			t.Fatal(err)
		}
		var members []factbase.Op // the bulk set insert takes 32 or more
		for j := range 40 {
			op := set("tools.used", fmt.Sprintf("tool %d of user %d", j, i))
			op.Fact.Cardinality = factbase.Many
			members = append(members, op)
		}
		res, err := e.Apply(ctx, u, members)
		if err != nil {
			t.Fatal(err)
		}
		erase = append(erase, res.Facts[0].ID)
		// A fact's creation is no reference row (0023): answers make some.
		if _, err := e.RecordReferences(ctx, u, []string{res.Facts[0].ID, res.Facts[1].ID}, factbase.Source{Kind: factbase.SourceAnswer}); err != nil {
			t.Fatal(err)
		}
		for j := range 3 {
			if _, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: fmt.Sprintf("Episode %d: deployed v1.%d, p95 latency %d ms", j, j, 40+j)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := make([]*userdata.Data, len(users))
	for i, u := range users {
		if before[i], err = userdata.Read(ctx, old, u); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"facts", "fact_references", "sheets", "episodes", "embeddings"} {
			if before[i].Counts[table] == 0 {
				t.Fatalf("user %d has no rows of %s before the migration", i, table)
			}
		}
	}
	var sheetFacts int
	if err := old.pool.QueryRow(ctx, "SELECT count(*) FROM sheet_facts").Scan(&sheetFacts); err != nil || sheetFacts == 0 {
		t.Fatalf("%d rows of sheet_facts (%v); the test needs some", sheetFacts, err)
	}
	if _, err := old.pool.Exec(ctx, "ALTER TABLE sheet_facts DROP COLUMN u"); err != nil {
		t.Fatal(err)
	}
	old.Close()

	s := openSchema(t, schema)
	if problems, err := shardProblems(ctx, s.pool); err != nil || len(problems) != 0 {
		t.Errorf("after the migration: %v (%v)", problems, err)
	}
	for i, u := range users {
		after, err := userdata.Read(ctx, s, u)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(after, before[i]) {
			t.Errorf("user %d reads differently after the migration:\nbefore %+v\nafter  %+v", i, before[i].Counts, after.Counts)
		}
	}
	var n, loose int
	if err := s.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE sf.u IS DISTINCT FROM
		(SELECT sh.u FROM sheets sh WHERE sh.seq = sf.sheet)) FROM sheet_facts sf`).Scan(&n, &loose); err != nil {
		t.Fatal(err)
	}
	if n != sheetFacts || loose != 0 {
		t.Errorf("sheet_facts: %d rows, %d of them not their sheet's user; want %d and 0", n, loose, sheetFacts)
	}

	e = memory.New(s, memory.Options{Embedder: hash})
	u := users[0]
	if _, err := e.Apply(ctx, u, []factbase.Op{{Kind: factbase.OpDelete, ID: erase[0]}}); err != nil {
		t.Fatal(err)
	}
	var vectors, refs, named int
	if err := s.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM embeddings m WHERE m.u = $1 AND m.kind = 'fact' AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.u = m.u AND f.seq = m.item)),
		(SELECT count(*) FROM fact_references r WHERE r.u = $1 AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.u = r.u AND f.seq = r.fact)),
		(SELECT count(*) FROM sheets WHERE u = $1 AND entries::text LIKE '%' || $2 || '%')`, string(u), erase[0]).Scan(&vectors, &refs, &named); err != nil {
		t.Fatal(err)
	}
	if vectors != 0 || refs != 0 || named != 0 {
		t.Errorf("after erasing a fact: %d vectors and %d references of no fact, %d sheets naming it; want none", vectors, refs, named)
	}
	sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
	if err != nil {
		t.Fatalf("a sheet after the migration: %v", err)
	}
	if sh.Count == 0 || slices.ContainsFunc(sh.Entries, func(en factbase.SheetEntry) bool { return en.FactID == erase[0] }) {
		t.Errorf("the sheet after the migration holds %d entries, the erased fact among them or none", sh.Count)
	}
	if got, want := len(mustRead(t, s, u).Facts), len(before[0].Facts)-1; got != want {
		t.Errorf("user 0 has %d facts after the erasure, want %d", got, want)
	}
	if after := mustRead(t, s, users[1]); !reflect.DeepEqual(after, before[1]) {
		t.Errorf("erasing user 0's fact changed user 1's data")
	}
}

func mustRead(t *testing.T, s *Store, u factbase.UserID) *userdata.Data {
	t.Helper()
	d, err := userdata.Read(context.Background(), s, u)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
