package postgres

import (
	"context"
	"fmt"
	"math"
	neturl "net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/storetest"
)

// TestVectorPathsAgree: on the same data, the in-memory path returns exactly the
// exact cosine ranking, and so does pgvector's exact query; pgvector's search (by
// the HNSW index for the user with 5,000 vectors, exact for the one with 500) returns
// items scored by their exact cosine, in order, and finds at least 99% of the exact
// top-k. Another user's vectors are never returned.
func TestVectorPathsAgree(t *testing.T) {
	pgv := openVectors(t, Options{})
	RequirePgvector(t, pgv)
	mem := openVectors(t, Options{NoPgvector: true})
	if path, _ := mem.VectorSearch(); path != VectorsInMemory || !InMemoryVectors(mem) || InMemoryVectors(pgv) {
		t.Fatalf("NoPgvector store path %s, in-memory copies %v and %v; want in-memory, true, false", path, InMemoryVectors(mem), InMemoryVectors(pgv))
	}
	a, b := storetest.NewUser(), storetest.NewUser()
	textsA, vecsA := vecTexts(t, 5000, 1) // enough for hnswPlan to walk the index
	textsB, vecsB := vecTexts(t, 500, 2)
	var idsA, idsB []string
	for _, s := range []*Store{pgv, mem} {
		idsA = putFacts(t, s, a, textsA, vecsA, false)
		idsB = putFacts(t, s, b, textsB, vecsB, false)
	}
	buildIndex(t, pgv, len(vecsA[0]))
	_, queries := vecTexts(t, 40, 3)

	filters := []struct {
		name   string
		filter factbase.SearchFilter
		keep   func(i int) bool
	}{
		{"all", factbase.SearchFilter{}, nil},
		{"key prefix note.a", factbase.SearchFilter{KeyPrefix: "note.a"}, func(i int) bool { return i%2 == 0 }},
	}
	var hits, total int
	for qi, q := range queries {
		for _, f := range filters {
			for _, limit := range []int{10, 50} {
				for _, u := range []struct {
					id   factbase.UserID
					ids  []string
					vecs [][]float32
				}{{a, idsA, vecsA}, {b, idsB, vecsB}} {
					vq := factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: q, Filter: f.filter, Limit: limit}
					exact := exactTop(q, u.ids, u.vecs, f.keep)
					label := fmt.Sprintf("query %d, %s, limit %d, user %s", qi, f.name, limit, u.id[:8])
					checkAgainstExact(t, "in-memory: "+label, search(t, mem, u.id, vq), exact, limit, true)
					checkAgainstExact(t, "pgvector exact: "+label, exactSearch(t, pgv, u.id, vq), exact, limit, true)
					hits += checkAgainstExact(t, "pgvector: "+label, search(t, pgv, u.id, vq), exact, limit, false)
					total += min(limit, len(exact))
				}
			}
		}
	}
	recall := float64(hits) / float64(total)
	t.Logf("pgvector search: %d of the exact top-k's %d items (recall %.4f); in-memory and pgvector's exact query: the exact top-k", hits, total, recall)
	if recall < 0.99 {
		t.Errorf("pgvector recall %.4f, want at least 0.99", recall)
	}
	if n := indexScans(t, pgv, len(vecsA[0])); n == 0 {
		t.Errorf("the HNSW index was never used")
	}
	if InMemoryVectors(pgv) {
		t.Errorf("the pgvector store keeps in-memory copies")
	}
}

// envRecall names the environment variable that runs TestHNSWRecall (about a
// minute and a half on two shared cores, several without -race); .ci/run sets it
// for a run of that test alone, without -race.
const envRecall = "FACTBASE_TEST_HNSW_RECALL"

// TestHNSWRecall: over one user's 100,000 GloVe vectors, the HNSW search finds at
// least 95% of the exact top 10; so it does for a user with 2,000 vectors beside them.
func TestHNSWRecall(t *testing.T) {
	if os.Getenv(envRecall) == "" {
		t.Skipf("%s is not set: this test loads 100,000 vectors (about two minutes); .ci/run sets it", envRecall)
	}
	// The graph of 100,000 vectors fits in 256 MB: built in memory, several times
	// faster than the server's default of 64 MB allows.
	s := openVectors(t, Options{}, "maintenance_work_mem", "256MB")
	RequirePgvector(t, s)
	big, small := storetest.NewUser(), storetest.NewUser()
	start := time.Now()
	textsBig, vecsBig := vecTexts(t, 100_000, 11)
	textsSmall, vecsSmall := vecTexts(t, 2000, 12)
	idsBig := putFacts(t, s, big, textsBig, vecsBig, true)
	idsSmall := putFacts(t, s, small, textsSmall, vecsSmall, true)
	t.Logf("wrote 102,000 facts and vectors in %v", time.Since(start).Round(time.Millisecond))
	buildIndex(t, s, len(vecsBig[0]))
	_, queries := vecTexts(t, 200, 13)
	for _, u := range []struct {
		name string
		id   factbase.UserID
		ids  []string
		vecs [][]float32
	}{{"100,000 vectors", big, idsBig, vecsBig}, {"2,000 vectors", small, idsSmall, vecsSmall}} {
		var hits, total int
		var took []time.Duration
		for qi, q := range queries {
			vq := factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: q, Limit: 10}
			t0 := time.Now()
			got := search(t, s, u.id, vq)
			took = append(took, time.Since(t0))
			hits += checkAgainstExact(t, fmt.Sprintf("%s, query %d", u.name, qi), got, exactTop(q, u.ids, u.vecs, nil), 10, false)
			total += 10
		}
		slices.Sort(took)
		recall := float64(hits) / float64(total)
		t.Logf("pgvector, %s: recall@10 %.4f over %d queries; search p50 %v, p95 %v", u.name, recall,
			len(queries), took[len(took)/2].Round(time.Microsecond), took[len(took)*95/100].Round(time.Microsecond))
		if recall < 0.95 {
			t.Errorf("%s: recall@10 %.4f, want at least 0.95", u.name, recall)
		}
	}
	if n := indexScans(t, s, len(vecsBig[0])); n == 0 {
		t.Errorf("the HNSW index was never used")
	}
}

// TestVectorSearchFallsBackToExact: when the index scan gives up before enough rows
// pass the filter (here after 100 tuples), the exact query finds the rest. Sorts are
// discouraged, so that the planner scans the index even for a filter it knows few
// rows pass.
func TestVectorSearchFallsBackToExact(t *testing.T) {
	s := openVectors(t, Options{}, "hnsw.max_scan_tuples", "100", "enable_sort", "off")
	RequirePgvector(t, s)
	u := storetest.NewUser()
	texts, vecs := vecTexts(t, 3000, 31)
	ids := putFacts(t, s, u, texts, vecs, true)
	buildIndex(t, s, len(vecs[0]))
	_, queries := vecTexts(t, 10, 32)
	// Keys note.a000000 to note.a000008: five facts among 3,000.
	keep := func(i int) bool { return i%2 == 0 && i < 10 }
	for qi, q := range queries {
		vq := factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: q,
			Filter: factbase.SearchFilter{KeyPrefix: "note.a00000"}, Limit: 10}
		checkAgainstExact(t, fmt.Sprintf("query %d", qi), search(t, s, u, vq), exactTop(q, ids, vecs, keep), 10, true)
	}
}

// TestPgvectorMigration: a schema written without pgvector (real[] vectors of two
// dimensions, facts and episodes), opened with pgvector, is converted by
// 0013_pgvector.sql: the same vectors, each user's counts, and searches return what
// they returned before, before and after the indexes are built. The converted schema
// cannot be opened without pgvector.
func TestPgvectorMigration(t *testing.T) {
	ctx := context.Background()
	schema := NewSchema(t)
	old, err := Open(ctx, DatabaseURL(t), Options{Schema: schema, NoPgvector: true})
	if err != nil {
		t.Fatal(err)
	}
	u := storetest.NewUser()
	texts, vecs := vecTexts(t, 600, 21)
	ids := putFacts(t, old, u, texts, vecs, false)
	// Episodes with 64-dimensional vectors of the hashing embedder.
	hash := embed.NewHash(64)
	epTexts := texts[:100]
	epVecs, _ := hash.Embed(ctx, epTexts)
	epIDs := make([]string, len(epTexts))
	err = old.Update(ctx, u, func(tx factbase.Tx) error {
		var vs []factbase.Vector
		for i, text := range epTexts {
			epIDs[i] = fmt.Sprintf("ep-%s-%03d", string(u)[:8], i)
			if err := tx.InsertEpisode(ctx, factbase.Episode{ID: epIDs[i], Content: text, Importance: 0.5, CreatedAt: time.Now()}); err != nil {
				return err
			}
			vs = append(vs, factbase.Vector{Kind: factbase.KindEpisode, ID: epIDs[i], Model: hash.Model(), Vec: epVecs[i]})
		}
		return tx.PutVectors(ctx, vs)
	})
	if err != nil {
		t.Fatal(err)
	}
	queryTexts, factQueries := vecTexts(t, 20, 22)
	epQueries, _ := hash.Embed(ctx, queryTexts)
	type query struct {
		vq    factbase.VectorQuery
		exact []scored
	}
	var queries []query
	for _, q := range factQueries {
		queries = append(queries, query{factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: q, Limit: 10}, exactTop(q, ids, vecs, nil)})
	}
	for _, q := range epQueries {
		queries = append(queries, query{factbase.VectorQuery{Kind: factbase.KindEpisode, Model: hash.Model(), Vector: q, Limit: 10}, exactTop(q, epIDs, epVecs, nil)})
	}
	before := make([][]factbase.Candidate, len(queries))
	for i, q := range queries {
		before[i] = search(t, old, u, q.vq)
		checkAgainstExact(t, fmt.Sprintf("before, query %d", i), before[i], q.exact, 10, true)
	}
	exported := exportVectors(t, old, u)
	if key := embeddingsKey(t, old); key != "u, seq" {
		t.Errorf("embeddings' key on the real[] path is (%s), want (u, seq): the in-memory copies read by seq", key)
	}
	old.Close()

	s := openSchema(t, schema)
	RequirePgvector(t, s)
	if key := embeddingsKey(t, s); key != "u, kind, item" {
		t.Errorf("embeddings' key with pgvector is (%s), want (u, kind, item) (0024_pgvector_keys.sql)", key)
	}
	var typ string
	if err := s.pool.QueryRow(ctx, `SELECT t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
		WHERE a.attrelid = 'embeddings'::regclass AND a.attname = 'vec'`).Scan(&typ); err != nil {
		t.Fatal(err)
	}
	if typ != "vector" {
		t.Errorf("embeddings.vec is %s after the migration, want vector", typ)
	}
	var counts []string
	rows, err := s.pool.Query(ctx, "SELECT dim || ':' || n FROM embedding_dims WHERE u = $1 ORDER BY dim", string(u))
	if err == nil {
		counts, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err != nil || !slices.Equal(counts, []string{"64:100", "100:600"}) {
		t.Errorf("embedding_dims = %v (%v), want 64:100 and 100:600", counts, err)
	}
	if got := exportVectors(t, s, u); !slices.EqualFunc(got, exported, func(a, b factbase.Vector) bool {
		return a.Kind == b.Kind && a.ID == b.ID && a.Model == b.Model && slices.Equal(a.Vec, b.Vec)
	}) {
		t.Errorf("the vectors changed: %d exported after, %d before (or their values differ)", len(got), len(exported))
	}
	for i, q := range queries {
		label := fmt.Sprintf("after, query %d", i)
		after := exactSearch(t, s, u, q.vq)
		checkAgainstExact(t, label+" (exact)", after, q.exact, 10, true)
		for j := range min(len(after), len(before[i])) {
			if math.Abs(after[j].Score-before[i][j].Score) > scoreTol {
				t.Errorf("%s: #%d scored %.7f, %.7f before", label, j+1, after[j].Score, before[i][j].Score)
			}
		}
	}
	buildIndex(t, s, 100)
	buildIndex(t, s, 64)
	for i, q := range queries {
		checkAgainstExact(t, fmt.Sprintf("after, query %d, indexed", i), search(t, s, u, q.vq), q.exact, 10, true)
	}
	s.Close()
	if _, err := Open(ctx, DatabaseURL(t), Options{Schema: schema, NoPgvector: true}); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("opening the converted schema with NoPgvector: %v, want %s", err, factbase.EINVALID)
	}
}

// TestPgvectorExtensionChoice: in a database without the extension, a role that may
// not create it gets the in-memory path and says why; once a superuser has created
// it, that role finds it and converts its vectors, with the same results. In another
// database, a role that may (a superuser) has the migrations create it.
func TestPgvectorExtensionChoice(t *testing.T) {
	ctx := context.Background()
	base := DatabaseURL(t)
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(ctx) })
	var super, available bool
	if err := admin.QueryRow(ctx, `SELECT rolsuper, EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')
		FROM pg_roles WHERE rolname = current_user`).Scan(&super, &available); err != nil {
		t.Fatal(err)
	}
	if !super {
		t.Skip("the test role is not a superuser: it cannot make databases and a role to test with")
	}
	if !available && os.Getenv(EnvRequirePgvector) == "" {
		t.Skip("the server has no pgvector")
	}
	role, owned, superOwned := RandomSchema(), RandomSchema(), RandomSchema()
	for _, q := range []string{"CREATE ROLE " + role + " LOGIN", "CREATE DATABASE " + owned + " OWNER " + role, "CREATE DATABASE " + superOwned} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() { // before admin closes
		for _, q := range []string{"DROP DATABASE IF EXISTS " + owned + " WITH (FORCE)",
			"DROP DATABASE IF EXISTS " + superOwned + " WITH (FORCE)", "DROP ROLE IF EXISTS " + role} {
			if _, err := admin.Exec(ctx, q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	})
	// url is the test URL with another database, and another role unless "".
	url := func(db, role string) string {
		u, err := neturl.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		if role != "" {
			u.User = neturl.User(role)
		}
		u.Path = "/" + db
		return u.String()
	}
	open := func(db, role, want string) *Store {
		t.Helper()
		s, err := Open(ctx, url(db, role), Options{})
		if err != nil {
			t.Fatalf("open %s as %q: %v", db, role, err)
		}
		path, reason := s.VectorSearch()
		t.Logf("%s as %q: vector search %s (%s)", db, role, path, reason)
		if path != want {
			s.Close()
			t.Fatalf("%s as %q: vector search %s (%s), want %s", db, role, path, reason, want)
		}
		return s
	}
	extensionSchema := func(db string) string {
		t.Helper()
		conn, err := pgx.Connect(ctx, url(db, ""))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var schema string
		if err := conn.QueryRow(ctx, "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'vector'").Scan(&schema); err != nil {
			t.Fatalf("%s has no extension vector: %v", db, err)
		}
		return schema
	}

	owner := open(owned, role, VectorsInMemory)
	if _, reason := owner.VectorSearch(); !strings.Contains(reason, "may not create") {
		t.Errorf("the reason %q does not say the role may not create the extension", reason)
	}
	u := storetest.NewUser()
	texts, vecs := vecTexts(t, 200, 41)
	ids := putFacts(t, owner, u, texts, vecs, false)
	_, queries := vecTexts(t, 5, 42)
	check := func(s *Store, label string) {
		for qi, q := range queries {
			vq := factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: q, Limit: 10}
			checkAgainstExact(t, fmt.Sprintf("%s, query %d", label, qi), search(t, s, u, vq), exactTop(q, ids, vecs, nil), 10, true)
		}
	}
	check(owner, "in-memory")
	owner.Close()
	conn, err := pgx.Connect(ctx, url(owned, ""))
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, "CREATE EXTENSION vector")
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	owner = open(owned, role, VectorsPgvector)
	defer owner.Close()
	check(owner, "pgvector")

	open(superOwned, "", VectorsPgvector).Close()
	t.Logf("the migrations created the extension in schema %s", extensionSchema(superOwned))
}

// TestVectorIndexBuilds: the first search of a dimension builds its index in the
// background; a search that finds the index invalid (a failed build) has it dropped
// and built again.
func TestVectorIndexBuilds(t *testing.T) {
	ctx := context.Background()
	s := openVectors(t, Options{})
	RequirePgvector(t, s)
	texts, vecs := vecTexts(t, 3100, 51)
	// A user of 300 vectors is scanned exactly whatever the index: its searches ask
	// for no build.
	small := storetest.NewUser()
	putFacts(t, s, small, texts[:300], vecs[:300], false)
	for range 3 {
		search(t, s, small, factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: vecs[0], Limit: 50})
	}
	s.pgv.indexes.wg.Wait()
	if _, exists, err := indexValid(ctx, s.pool, 100); err != nil || exists {
		t.Fatalf("after a small user's searches: index exists %v (%v), want none", exists, err)
	}
	if wanted, err := s.VectorIndexWanted(ctx, 100, 50); err != nil || wanted {
		t.Errorf("VectorIndexWanted with a user of 300 vectors = %v (%v), want false", wanted, err)
	}
	u := storetest.NewUser()
	putFacts(t, s, u, texts, vecs, false)
	if wanted, err := s.VectorIndexWanted(ctx, 100, 50); err != nil || !wanted {
		t.Errorf("VectorIndexWanted with a user of 3,100 vectors = %v (%v), want true", wanted, err)
	}
	vq := factbase.VectorQuery{Kind: factbase.KindFact, Model: embed.GloVeModel, Vector: vecs[0], Limit: 50}
	// waitValid searches until the index is valid, each search free to start a build.
	waitValid := func(s *Store, label string) {
		t.Helper()
		for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
			search(t, s, u, vq)
			valid, _, err := indexValid(ctx, s.pool, 100)
			if err != nil {
				t.Fatal(err)
			}
			if valid {
				return
			}
			s.pgv.indexes.mu.Lock()
			clear(s.pgv.indexes.tried) // try again at once
			err = s.pgv.indexes.err
			s.pgv.indexes.mu.Unlock()
			if time.Since(start) > time.Minute {
				t.Fatalf("%s: the index is not valid after a minute (last build: %v)", label, err)
			}
		}
	}
	if _, exists, err := indexValid(ctx, s.pool, 100); err != nil || exists {
		t.Fatalf("before any search: index exists %v (%v), want none", exists, err)
	}
	waitValid(s, "first build")

	// A build that failed leaves the index invalid.
	if _, err := s.pool.Exec(ctx, "UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass($1)", indexName(100)); err != nil {
		t.Skipf("cannot mark the index invalid (a superuser can): %v", err)
	}
	waitValid(openSchema(t, s.Schema()), "rebuild")
}

func TestHNSWPlan(t *testing.T) {
	p := &pgvector{ext: `"public"`}
	for _, tc := range []struct {
		dim      int
		typ, ops string
	}{
		{0, "", ""},
		{1, `"public".vector`, `"public".vector_cosine_ops`},
		{2000, `"public".vector`, `"public".vector_cosine_ops`},
		{2001, `"public".halfvec`, `"public".halfvec_cosine_ops`},
		{4000, `"public".halfvec`, `"public".halfvec_cosine_ops`},
		{4001, "", ""},
	} {
		if typ, ops := p.hnswType(tc.dim); typ != tc.typ || ops != tc.ops {
			t.Errorf("hnswType(%d) = %q, %q; want %q, %q", tc.dim, typ, ops, tc.typ, tc.ops)
		}
	}
	for _, tc := range []struct {
		name  string
		n     int64
		total float64
		limit int
		walk  bool
		ef    int
	}{
		{"no vectors", 0, 1000, 10, false, 0},
		{"one user, 100,000", 100_000, 100_000, 10, true, 100},
		{"one user, 100,000, limit 50", 100_000, 100_000, 50, true, 100},
		{"one user, 2,000: the walk costs as much", 2000, 2000, 10, false, 100},
		{"half of 100,000", 50_000, 100_000, 10, true, 128},
		{"a fifth of 100,000", 20_000, 100_000, 10, true, 202},
		{"a twentieth of 100,000", 5000, 100_000, 10, false, 403},
		{"2,000 beside 100,000", 2000, 102_000, 50, false, 643},
		{"a thousandth of 100,000,000", 100_000, 1e8, 10, false, 1000},
		{"size unknown", 10_000, -1, 10, true, 100},
		{"size stale", 10_000, 5000, 10, true, 100},
		{"limit 600", 1e6, 1e6, 600, true, 1000},
	} {
		walk, ef := hnswPlan(tc.n, tc.total, tc.limit)
		if walk && !hnswUseful(tc.n, tc.limit) {
			t.Errorf("%s: hnswPlan walks, yet hnswUseful(%d, %d) says no walk could", tc.name, tc.n, tc.limit)
		}
		if walk != tc.walk || ef != tc.ef {
			t.Errorf("%s: hnswPlan(%d, %g, %d) = %v, %d; want %v, %d", tc.name, tc.n, tc.total, tc.limit, walk, ef, tc.walk, tc.ef)
		}
	}
	for _, tc := range []struct {
		n     int64
		limit int
		want  bool
	}{{0, 50, false}, {100, 50, false}, {3000, 50, false}, {3001, 50, true}, {2200, 10, false}, {2201, 10, true}, {1e6, 50, true}} {
		if got := hnswUseful(tc.n, tc.limit); got != tc.want {
			t.Errorf("hnswUseful(%d, %d) = %v, want %v", tc.n, tc.limit, got, tc.want)
		}
		// No index, however large, makes a walk of a user for whom it is not useful.
		for _, total := range []float64{float64(tc.n), 1e4, 1e6, 1e9} {
			if walk, _ := hnswPlan(tc.n, total, tc.limit); walk && !tc.want {
				t.Errorf("hnswPlan(%d, %g, %d) walks, yet hnswUseful says no walk could", tc.n, total, tc.limit)
			}
		}
	}
	for _, tc := range []struct {
		version string
		want    bool
	}{{"0.8.0", true}, {"0.8.6", true}, {"0.10.1", true}, {"1.0", true}, {"0.7.4", false}, {"0", false}, {"x.y", false}} {
		if got := versionAtLeast(tc.version, 0, 8); got != tc.want {
			t.Errorf("versionAtLeast(%q, 0, 8) = %v, want %v", tc.version, got, tc.want)
		}
	}
}

// embeddingsKey returns the columns of the embeddings table's primary key, in order.
func embeddingsKey(t *testing.T, s *Store) string {
	t.Helper()
	var key string
	err := s.pool.QueryRow(context.Background(), `SELECT string_agg(a.attname, ', ' ORDER BY k.i)
		FROM pg_index x CROSS JOIN unnest(x.indkey) WITH ORDINALITY AS k (attnum, i)
		JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
		WHERE x.indrelid = 'embeddings'::regclass AND x.indisprimary`).Scan(&key)
	if err != nil {
		t.Fatal(err)
	}
	return key
}
