package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/migrate"
	"github.com/factbase/factbase/internal/rowcodec"
)

// Vector search in the database, with pgvector (docs/pgvector.md).
//
// When the extension "vector" (0.8 or later) is in the database, or the role may
// create it, and Options.NoPgvector is not set, migration 0013_pgvector.sql turns
// embeddings.vec into a vector and the store ranks vectors in PostgreSQL: no server
// keeps a copy of any user's vectors, so any number of servers see every write at
// once. Otherwise vectors stay real[] rows ranked in memory (vectors.go).
//
// Dimensions. Embedders differ (GloVe 100, the hashing embedder 256, OpenAI 1536 or
// 3072), and a database may hold several. The column is a vector without a type
// modifier, and each dimension N gets a partial expression index
//
//	CREATE INDEX embeddings_hnsw_N ON embeddings
//		USING hnsw ((vec::vector(N)) vector_cosine_ops) WHERE dim = N
//
// (halfvec for 2,001 to 4,000 dimensions, HNSW's limits; above that a dimension is
// ranked exactly). One table keeps every other statement as it was — deletion with
// the item by trigger, erasure, export, the counts per model — and the index of a
// new dimension is built in the background with CREATE INDEX CONCURRENTLY at the
// first search of that dimension that could walk it (pgvector_index.go), so that
// neither a write nor a start-up waits for it or blocks writers meanwhile. Until it
// is valid the planner has no HNSW index for that dimension and ranks exactly. A
// search of a user too small for any walk to beat the exact scan of the user's
// vectors, whatever the index's size (hnswUseful: about 3,000 vectors for a limit of
// 50), asks for no build: with many small users no search would ever walk the
// graph, which would only cost every vector's write its insertion (2,400 buffer
// reads at 100,000 vectors, factbase bench scale) and every fact about 740 bytes on
// disk (GloVe's 100 dimensions). A table per dimension
// would have made the first write of a dimension run DDL and every other statement
// name tables it must first discover.
//
// Filtering by user. One HNSW graph per dimension holds every user's vectors, and a
// search wants one user's (and one model's and kind's, through the search filter).
// Of pgvector's ways to filter, the store uses 0.8's iterative index scans
// (hnsw.iterative_scan = strict_order: the scan walks on until LIMIT rows pass the
// filter, in order) for users who hold enough of a dimension's vectors, and an exact
// scan of the user's rows (the b-tree on (u, seq)) for the others. Measured by
// BenchmarkHNSWFilters (100,000 GloVe vectors of 8 users, top 10, 2 cores shared with
// other work; docs/pgvector.md): for a user with 5,000 of them the exact scan took
// 2.8 ms at the median (recall 1), the index scan 3.6 ms at ef_search 100 (recall
// 0.90: the fewer of the visited vectors pass the filter, the worse the walk) and
// 7.2 ms at 400 (0.975); without iterative scans it found about half of the top 10.
// For a user with 20,000: exact 19 ms, the index 6.2 ms at ef_search 200 (0.977); with
// 50,000: exact 36 ms, the index 2.0 ms at 100 (0.959), 3.3 ms at 200 (0.976). Left
// to itself the planner walked the index for all three, the small user included
// (6.1 ms, 0.90). Hash partitions by user (8, an index each) served the small user in
// 0.6 ms (0.988), but each partition's graph still mixes users, partitioning would
// need the user in every unique key of embeddings, and CREATE INDEX CONCURRENTLY does
// not work on a partitioned table; partial indexes per user would be an index per
// user.
//
// So each search reads the user's count of vectors of the dimension (embedding_dims,
// kept by statement triggers) and the index's size and validity from the catalogue,
// in one statement, and hnswPlan weighs the walk — about hnswDistances distances per
// vector visited, ef_search of them plus LIMIT/share to find LIMIT of the user's —
// against the exact scan's one distance per vector of the user, with ef_search
// growing as the user's share shrinks (hnswEfSearch). The statements are planned with
// the user's id as a value (plan_cache_mode = force_custom_plan: a prepared
// statement's generic plan would weigh an average user). When an index scan still
// returns fewer rows than asked for (the filter passed too few within
// hnsw.max_scan_tuples), the store runs the exact query, so a search never returns
// fewer items than exist.
//
// Scores are cosine similarities, 1 - (vec <=> q), in single precision as pgvector
// computes them. A zero vector (a text without a known word) has no cosine: it is
// similar to nothing and never a candidate, as in the SQLite store.

// The ways the store ranks vectors, as Store.VectorSearch reports them.
const (
	// VectorsPgvector: in PostgreSQL, by pgvector's HNSW indexes and exact scans.
	VectorsPgvector = "pgvector"
	// VectorsInMemory: real[] rows ranked in Go over per-server copies (vectors.go).
	VectorsInMemory = "in-memory"
)

// pgvectorMigration is the conditional migration that converts the vectors;
// pgvectorMigrations are all those applied only when the store uses pgvector.
const pgvectorMigration = "0013_pgvector.sql"

var pgvectorMigrations = map[string]bool{pgvectorMigration: true, "0024_pgvector_keys.sql": true}

// HNSW's limits: pgvector indexes a vector of at most 2,000 dimensions, a halfvec of
// at most 4,000.
const (
	hnswMaxVector  = 2000
	hnswMaxHalfvec = 4000
)

// hnswDistances is about how many distances a walk of the HNSW graph computes per
// vector it visits (pgvector's default m is 16: up to 32 neighbours at the bottom
// layer, some seen before).
const hnswDistances = 20

// hnswEfSearch returns hnsw.ef_search for a search of limit items of a user whose
// vectors are share of the dimension's: 90/sqrt(share), at least 100 and 2*limit, at
// most pgvector's 1,000. The constant fits the measurements above: 100 at a half,
// 200 at a fifth, 400 at a twentieth kept recall@10 at 0.96 to 0.98.
func hnswEfSearch(limit int, share float64) int {
	ef := 100
	if share > 0 {
		ef = int(math.Ceil(90 / math.Sqrt(min(share, 1))))
	}
	return min(max(ef, 100, 2*limit), 1000)
}

// hnswPlan reports whether walking the HNSW index of a dimension that holds total
// vectors (an estimate; not positive when unknown) should cost less than the exact
// scan of the user's n, for a search of limit items, and with what ef_search.
func hnswPlan(n int64, total float64, limit int) (walk bool, ef int) {
	if n <= 0 {
		return false, 0
	}
	share := 1.0
	if total > float64(n) {
		share = float64(n) / total
	}
	ef = hnswEfSearch(limit, share)
	return hnswDistances*(float64(ef)+float64(limit)/share) < float64(n), ef
}

// hnswUseful reports whether a search of limit items of a user with n vectors of a
// dimension could walk the dimension's index: whether hnswPlan would walk it were the
// user's the only vectors in it (a share of 1, the cheapest walk). A user for whom
// that walk loses to the exact scan is scanned exactly whatever the index holds.
func hnswUseful(n int64, limit int) bool {
	walk, _ := hnswPlan(n, 0, limit)
	return walk
}

// pgvector is how the store names the extension's objects, and its index builds.
type pgvector struct {
	ext     string // the extension's schema, a quoted identifier: its objects are qualified with it
	version string
	indexes *hnswIndexes
}

// VectorSearch reports how the store ranks vectors: VectorsPgvector, or
// VectorsInMemory with the reason pgvector is not used.
func (s *Store) VectorSearch() (path, reason string) {
	if s.pgv != nil {
		return VectorsPgvector, ""
	}
	return VectorsInMemory, s.vecReason
}

// chooseVectors decides, on the migration connection under the migration lock,
// whether the store uses pgvector, creating the extension when it is available and
// the role may: s.pgv is set when it does, else s.vecReason says why not. A schema
// whose vectors were converted always uses pgvector (off is then refused).
func (s *Store) chooseVectors(ctx context.Context, conn *pgx.Conn, off bool) error {
	converted, err := migrate.Recorded(conn.QueryRow(ctx, "SELECT count(*) FROM schema_migrations WHERE name = $1", pgvectorMigration))
	if err != nil {
		return mapErr("migrate", err)
	}
	ext, version, err := vectorExtension(ctx, conn)
	if err != nil {
		return err
	}
	switch {
	case converted && off:
		return factbase.Errorf(factbase.EINVALID, "postgres: the schema's vectors are pgvector columns (migration %s): it cannot be opened with NoPgvector", pgvectorMigration)
	case converted && ext == "":
		return factbase.Errorf(factbase.EINTERNAL, "postgres: the schema's vectors are pgvector columns but the database has no vector extension")
	case converted:
		s.setPgvector(ext, version)
		return nil
	case off:
		s.vecReason = "turned off (NoPgvector)"
		return nil
	}
	if ext == "" {
		var available bool
		if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')").Scan(&available); err != nil {
			return mapErr("migrate", err)
		}
		if !available {
			s.vecReason = "the server has no pgvector extension"
			return nil
		}
		// Created in the first schema of the search path (the store's). Another
		// server may create it at the same moment: whatever the error, look again.
		_, cerr := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector")
		if ext, version, err = vectorExtension(ctx, conn); err != nil {
			return err
		}
		if ext == "" {
			// The in-memory path serves meanwhile; the reason is for the operator.
			var pe *pgconn.PgError
			switch {
			case errors.As(cerr, &pe) && pe.Code == "42501":
				s.vecReason = "pgvector is available but not created in the database, and this role may not create it (CREATE EXTENSION vector)"
			case errors.As(cerr, &pe):
				s.vecReason = "CREATE EXTENSION vector failed (SQLSTATE " + pe.Code + ")"
			case cerr != nil:
				return mapErr("migrate", cerr) // the connection, not the extension
			default:
				s.vecReason = "the vector extension could not be found after CREATE EXTENSION"
			}
			return nil
		}
	}
	if !versionAtLeast(version, 0, 8) {
		s.vecReason = "pgvector " + version + " is older than 0.8, which filtered index scans need (ALTER EXTENSION vector UPDATE)"
		return nil
	}
	s.setPgvector(ext, version)
	return nil
}

// setPgvector makes the store use pgvector, whose objects live in schema ext.
func (s *Store) setPgvector(ext, version string) {
	s.pgv = &pgvector{ext: pgx.Identifier{ext}.Sanitize(), version: version}
	s.pgv.indexes = newHNSWIndexes(s)
}

// vectorExtension returns the schema and version of the extension vector in the
// database, or "" when it is not there.
func vectorExtension(ctx context.Context, conn *pgx.Conn) (schema, version string, err error) {
	err = conn.QueryRow(ctx, `SELECT n.nspname, e.extversion FROM pg_extension e
		JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`).Scan(&schema, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", nil
	}
	return schema, version, mapErr("migrate", err)
}

// versionAtLeast reports whether version ("0.8.1") is at least major.minor.
func versionAtLeast(version string, major, minor int) bool {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

// migrationSetup returns the statement a migration's transaction runs before its
// script, if any: a conditional pgvector migration finds the extension's objects on
// the search path.
func (s *Store) migrationSetup(name string) (sql string, skip bool) {
	if !pgvectorMigrations[name] {
		return "", false
	}
	if s.pgv == nil {
		return "", true // applied at the first start that uses pgvector
	}
	lit := "'" + strings.ReplaceAll(s.pgv.ext, "'", "''") + "'"
	return "SELECT set_config('search_path', current_setting('search_path') || ', ' || " + lit + ", true)", false
}

// hnswType returns the type whose HNSW index ranks vectors of dim, and its cosine
// operator class, both qualified; "" when no HNSW index can hold them.
func (p *pgvector) hnswType(dim int) (typ, ops string) {
	switch {
	case dim <= 0:
		return "", ""
	case dim <= hnswMaxVector:
		return p.ext + ".vector", p.ext + ".vector_cosine_ops"
	case dim <= hnswMaxHalfvec:
		return p.ext + ".halfvec", p.ext + ".halfvec_cosine_ops"
	}
	return "", ""
}

// distance returns the expressions of the cosine distance between embeddings m's
// vectors of dim and the query $arg: the one the dimension's index orders by (the
// same expression as its definition, so that the planner may use it) and the one
// scored, in full single precision.
func (p *pgvector) distance(dim int, arg string) (order, score string) {
	op := " OPERATOR(" + p.ext + ".<=>) "
	score = "m.vec" + op + arg + "::real[]::" + p.ext + ".vector"
	typ, _ := p.hnswType(dim)
	if typ == "" {
		return score, score
	}
	cast := fmt.Sprintf("::%s(%d)", typ, dim)
	return "m.vec" + cast + op + arg + "::real[]" + cast, score
}

// qVecPlan reads what a search of a dimension weighs: the user's count of vectors
// of it, and its index's estimated size and validity (-1 and false without one).
const qVecPlan = `SELECT coalesce((SELECT n FROM embedding_dims WHERE u = $1 AND dim = $2), 0),
	coalesce(c.reltuples, -1)::float8, coalesce(i.indisvalid, false)
	FROM (SELECT to_regclass($3) AS oid) x LEFT JOIN pg_class c ON c.oid = x.oid
	LEFT JOIN pg_index i ON i.indexrelid = x.oid`

// pgvectorCandidates is VectorCandidates when the vectors are in pgvector: the
// nearest items of q.Kind by the dimension's HNSW index when hnswPlan says so (an
// iterative scan, strict order), else, or when that returns too few, exactly.
func (t *tx) pgvectorCandidates(ctx context.Context, q factbase.VectorQuery) ([]factbase.Candidate, error) {
	dim := len(q.Vector)
	// Set for the rest of this read transaction and sent with the next statement,
	// without a round trip of its own.
	t.q.queue(queued{op: "vector search", sql: "SET LOCAL plan_cache_mode = force_custom_plan"})
	var (
		n     int64
		total float64
		valid bool
	)
	if err := t.q.QueryRow(ctx, qVecPlan, string(t.user), dim, indexName(dim)).Scan(&n, &total, &valid); err != nil {
		return nil, mapErr("vector search", err)
	}
	if !valid && hnswUseful(n, q.Limit) {
		t.s.pgv.indexes.request(dim)
	}
	if n == 0 {
		return nil, nil // no vector of this dimension
	}
	if walk, ef := hnswPlan(n, total, q.Limit); walk && valid {
		t.q.queue(queued{op: "vector search", sql: "SET LOCAL hnsw.iterative_scan = strict_order"})
		t.q.queue(queued{op: "vector search", sql: "SET LOCAL hnsw.ef_search = " + strconv.Itoa(ef)})
		out, read, err := t.pgvectorQuery(ctx, q, false)
		if err != nil || read >= q.Limit {
			return out, err
		}
	}
	out, _, err := t.pgvectorQuery(ctx, q, true)
	return out, err
}

// pgvectorQuery runs one search of q: by the order the HNSW index can serve, or
// exact, by an expression no index serves. It returns the candidates and the rows
// read (zero vectors, which have no cosine, are read but left out).
func (t *tx) pgvectorQuery(ctx context.Context, q factbase.VectorQuery, exact bool) ([]factbase.Candidate, int, error) {
	var (
		w   where
		sql string
	)
	vec := w.arg(q.Vector)
	order, score := t.s.pgv.distance(len(q.Vector), vec)
	if exact {
		order = "(" + order + ") + 0, m.seq"
	}
	match := fmt.Sprintf("m.u = %s AND m.dim = %d AND m.model = %s AND m.kind = %s",
		w.arg(string(t.user)), len(q.Vector), w.arg(q.Model), w.arg(q.Kind))
	if q.Kind == factbase.KindFact {
		t.factWhere(&w, q.Filter)
		sql = "SELECT f.id, " + score + ", f.valid_from, f.subject, f.confidence FROM embeddings m " +
			"JOIN facts f ON f.u = m.u AND f.seq = m.item WHERE " + match + " AND " + w.String()
	} else {
		t.episodeWhere(&w, factbase.EpisodeFilter{Tags: q.Filter.Tags, From: q.Filter.From, To: q.Filter.To})
		sql = "SELECT e.id, " + score + ", e.created_at, '', e.importance FROM embeddings m " +
			"JOIN episodes e ON e.u = m.u AND e.seq = m.item WHERE " + match + " AND " + w.String()
	}
	sql += " ORDER BY " + order + " LIMIT " + w.arg(q.Limit)
	rows, err := t.q.Query(ctx, sql, w.args...)
	if err != nil {
		return nil, 0, mapErr("vector search", err)
	}
	read := 0
	out, err := rowcodec.All(rows, func(r rowcodec.Scanner) (factbase.Candidate, error) {
		var at int64
		c := factbase.Candidate{Kind: q.Kind}
		err := r.Scan(&c.ID, &c.Score, &at, &c.Subject, &c.Importance)
		read++
		c.Time, c.Score = rowcodec.Time(at), 1-c.Score
		return c, err
	})
	if err != nil {
		return nil, 0, mapErr("vector search", err)
	}
	kept := slices.DeleteFunc(out, func(c factbase.Candidate) bool { return math.IsNaN(c.Score) })
	// A halfvec index orders by half-precision distances: the scores, in single
	// precision, may disagree by a hair.
	slices.SortStableFunc(kept, func(a, b factbase.Candidate) int { return cmp.Compare(b.Score, a.Score) })
	for i := range kept {
		kept[i].Rank = i + 1
	}
	return kept, read, nil
}
