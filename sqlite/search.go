package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
	"github.com/factbase/factbase/internal/storeerr"
)

// Full-text weights of the facts_fts columns (text, key, value) and the episodes_fts
// columns (content, tags) in bm25().
const (
	// The owner column u weighs nothing. Without column sizes (columnsize = 0) FTS5
	// takes every entry's length as minus the number of columns, so bm25's length
	// term is one constant for all entries, and 0/0 (NULL) when the average entry is
	// exactly three times the number of columns long: such a score counts as 0.
	factsBM25    = "coalesce(bm25(facts_fts, 1.0, 0.75, 1.0, 0.0), 0.0)"
	episodesBM25 = "coalesce(bm25(episodes_fts, 1.0, 0.5, 0.0), 0.0)"
)

// The static statements of the search indexes, prepared at open.
var (
	qFactSeq     = "SELECT seq FROM facts WHERE u = ? AND id = ?"
	qEpisodeSeq  = "SELECT seq FROM episodes WHERE u = ? AND id = ?"
	qVecDelete   = "DELETE FROM embeddings WHERE kind = ? AND item = ?"
	qVecInsert   = "INSERT INTO embeddings (u, kind, item, model, dim) VALUES (?, ?, ?, ?, ?)"
	qVecDeletes  = "SELECT coalesce((SELECT deleted FROM embedding_deletes WHERE u = ?), 0)"
	qVecCount    = "SELECT coalesce(sum(n), 0) FROM embedding_counts WHERE u = ? AND kind = ? AND dim = ?"
	qVecModels   = "SELECT model, dim, kind, n FROM embedding_counts WHERE u = ? AND n > 0 ORDER BY model, dim, kind"
	qVecSize     = "SELECT coalesce(sum(n), 0) FROM embedding_counts WHERE u = ? AND dim = ? AND model = ?"
	qVecDimCount = "SELECT coalesce(sum(n), 0) FROM embedding_counts WHERE u = ? AND dim = ?"
	// qVecKindMax is the most vectors of dim the user has of one kind.
	qVecKindMax = "SELECT coalesce(max(n), 0) FROM (SELECT sum(n) AS n FROM embedding_counts WHERE u = ? AND dim = ? GROUP BY kind)"
	qUsers      = "SELECT id FROM users ORDER BY seq"
	qUnembFacts = "SELECT " + factRecord("f.") + ` FROM facts f
		WHERE f.u = ?1 AND f.id > ?2 AND (f.current = 1 OR f.superseded_by <> '')
		AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'fact' AND m.item = f.seq AND m.model = ?3)
		ORDER BY f.id LIMIT ?4`
	qUnembEpisodes = "SELECT " + rowcodec.Prefixed("e.", rowcodec.EpisodeColumns) + ` FROM episodes e
		WHERE e.u = ?1 AND e.id > ?2
		AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'episode' AND m.item = e.seq AND m.model = ?3)
		ORDER BY e.id LIMIT ?4`
	qCountUnemb = `SELECT
		(SELECT count(*) FROM facts f WHERE f.u = ?1 AND (f.current = 1 OR f.superseded_by <> '')
			AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'fact' AND m.item = f.seq AND m.model = ?2)) +
		(SELECT count(*) FROM episodes e WHERE e.u = ?1
			AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.kind = 'episode' AND m.item = e.seq AND m.model = ?2))`

	qCountFacts    = "SELECT count(*) FROM facts WHERE u = ? AND current = 1"
	qCountEpisodes = "SELECT count(*) FROM episodes WHERE u = ?"
	// The term counts (termCounts) count the items from a seq on, and end with a
	// literal limit and a closing parenthesis.
	qTermFacts = `SELECT count(*) FROM (SELECT 1 FROM facts_fts CROSS JOIN facts f ON f.seq = facts_fts.rowid
		WHERE facts_fts MATCH ? AND facts_fts.rowid >= ? AND f.u = ? AND f.current = 1 LIMIT `
	qTermEpisodes = `SELECT count(*) FROM (SELECT 1 FROM episodes_fts CROSS JOIN episodes e ON e.seq = episodes_fts.rowid
		WHERE episodes_fts MATCH ? AND episodes_fts.rowid >= ? AND e.u = ? LIMIT `
	// The sample's first seq (termSampleFrom) ends with a literal offset. The user's
	// items are walked from the newest back by seq (+u: not by an index on the user,
	// which would visit all of them): at most about twice the sample, as the user owns
	// at least half of the kind's items.
	qSampleFacts    = "SELECT seq FROM facts WHERE +u = ? AND current = 1 ORDER BY seq DESC LIMIT 1 OFFSET "
	qSampleEpisodes = "SELECT seq FROM episodes WHERE +u = ? ORDER BY seq DESC LIMIT 1 OFFSET "

	searchQueries = []string{qCountFacts, qCountEpisodes, qFactSeq, qEpisodeSeq, qVecDelete, qVecInsert, qVecDeletes, qVecCount, qVecModels, qUsers,
		qVecSize, qVecDimCount, qVecKindMax,
		qUnembFacts, qUnembEpisodes, qCountUnemb, qSubjectsNamed}
)

// Users returns every user the store has seen.
func (s *Store) Users(ctx context.Context) ([]factbase.UserID, error) {
	if s.gate.Closed() {
		return nil, storeerr.ErrClosed
	}
	rows, err := s.reader.QueryContext(ctx, qUsers)
	if err != nil {
		return nil, mapErr("users", err)
	}
	users, err := rowcodec.All(rows, rowcodec.UserID)
	return users, mapErr("users", err)
}

// factWhere builds the conditions of a search filter over facts aliased f.
func (t *tx) factWhere(f factbase.SearchFilter) ([]string, []any) {
	where := []string{"f.u = ?"}
	args := []any{t.u}
	if f.IncludeSuperseded {
		where = append(where, "(f.current = 1 OR f.superseded_by <> '')")
	} else {
		where = append(where, "f.current = 1")
	}
	where, args = factConds{f.Subject, f.KeyPrefix, f.Type, f.Category, f.MinConfidence}.add(where, args, "f.")
	if !f.From.IsZero() {
		where, args = append(where, "f.valid_from >= ?"), append(args, f.From.UnixNano())
	}
	if !f.To.IsZero() {
		where, args = append(where, "f.valid_from < ?"), append(args, f.To.UnixNano())
	}
	for _, tag := range f.Tags {
		where = append(where, `f.source_kind = 'episode' AND EXISTS (SELECT 1 FROM episodes e
			JOIN episode_tags g ON g.episode = e.seq AND g.u = e.u AND g.tag = ?
			WHERE e.u = f.u AND e.id = f.source_id)`)
		args = append(args, tag)
	}
	return where, args
}

// episodeSearchWhere builds the conditions of a search filter over episodes aliased e.
func (t *tx) episodeSearchWhere(f factbase.SearchFilter) (string, []any) {
	return t.episodeWhere(factbase.EpisodeFilter{Tags: f.Tags, From: f.From, To: f.To})
}

func checkKind(kind string) error { return factbase.ValidateKind(kind) }

// FilterFacts returns a page of the facts matching the filter, newest valid-from time
// first.
func (t *tx) FilterFacts(ctx context.Context, key string, f factbase.SearchFilter, offset, limit int) ([]factbase.Fact, error) {
	if limit <= 0 || t.u == 0 {
		return nil, nil
	}
	where, args := t.factWhere(f)
	if key != "" {
		where, args = append(where, "f.key = ?"), append(args, key)
	}
	page, args := literalLimit(limit, offset, args)
	q := "SELECT " + factRecord("f.") + " FROM facts f WHERE " + strings.Join(where, " AND ") +
		" ORDER BY f.valid_from DESC, f.seq DESC" + page
	return t.queryFacts(ctx, q, args...)
}

// TextCandidates returns full-text candidates, best BM25 first.
func (t *tx) TextCandidates(ctx context.Context, q factbase.TextQuery) ([]factbase.Candidate, error) {
	if err := checkKind(q.Kind); err != nil {
		return nil, err
	}
	match := ftsQuery(q.Terms)
	if match == "" || q.Limit <= 0 || t.u == 0 {
		return nil, nil
	}
	if q.Kind == factbase.KindEpisode && q.Filter.FactOnly() {
		return nil, nil
	}
	if t.byOwner(ctx, q.Kind) {
		match = t.userMatch(q.Kind, match)
	}
	// The full-text index ranks the matches alone (only the user's when byOwner),
	// and only the best window of them are joined to their rows and filtered, so a
	// common word costs a ranking of its postings, not a row read each. When too few
	// of the window pass the filter, the window grows, until it covers every match.
	window := max(4*q.Limit, 100)
	for {
		out, err := t.textWindow(ctx, q, match, window)
		if err != nil || len(out) >= q.Limit {
			return out, err
		}
		var n int
		if err := t.queryRow(ctx, qMatchCount[q.Kind]+strconv.Itoa(window+1)+")", match).Scan(&n); err != nil {
			return nil, mapErr("text search", err)
		}
		if n <= window {
			return out, nil
		}
		window *= 8
	}
}

// shareKey names a user's full-text entries of one kind; ownerShare is how many
// items of that kind the user had and their share of all entries of the kind, as
// measured at a time.
type shareKey struct {
	u    int64
	kind string
}

type ownerShare struct {
	n     int64
	share float64
	at    time.Time
}

// shareTTL is how long a measured share is trusted.
const shareTTL = time.Minute

// byOwner reports whether a full-text search of kind should match the user's owner
// token (userMatch). Matching it makes FTS5 rank only the user's entries, which is
// what a user with a small part of a large store needs; but it walks the owner
// token's whole posting list, which costs a user who owns most of the store (one
// user with 100,000 facts: about 40% more) and saves nothing there. So it is used
// when the user owns less than half of the entries, measured at most once a minute.
func (t *tx) byOwner(ctx context.Context, kind string) bool {
	sh, ok := t.ownerShare(ctx, kind)
	return !ok || sh.share < 0.5
}

// ownerShare returns the user's items of kind and their share of the kind's
// entries, measured at most once a minute; false if they could not be measured.
func (t *tx) ownerShare(ctx context.Context, kind string) (ownerShare, bool) {
	k := shareKey{t.u, kind}
	if v, ok := t.cache.shares.Load(k); ok && time.Since(v.(ownerShare).at) < shareTTL {
		return v.(ownerShare), true
	}
	own, all := qCountFacts, "SELECT coalesce(max(seq), 0) FROM facts"
	if kind == factbase.KindEpisode {
		own, all = qCountEpisodes, "SELECT coalesce(max(seq), 0) FROM episodes"
	}
	var n, total int64
	if err := t.queryRow(ctx, own, t.u).Scan(&n); err != nil {
		return ownerShare{}, false
	}
	if err := t.queryRow(ctx, all).Scan(&total); err != nil {
		return ownerShare{}, false
	}
	sh := ownerShare{n: n, at: time.Now()} // no entries at all: a share of 0
	if total > 0 {
		sh.share = float64(n) / float64(total)
	}
	t.cache.shares.Store(k, sh)
	return sh, true
}

// userMatch restricts an FTS query to the user's entries (migration 0012): the owner
// token in column u, and the terms in the text columns only, so that a term never
// matches an owner token.
func (t *tx) userMatch(kind, match string) string {
	cols := "{text key value}"
	if kind == factbase.KindEpisode {
		cols = "{content tags}"
	}
	return "u:fbu" + strconv.FormatInt(t.u, 10) + " AND " + cols + ": (" + match + ")"
}

// qMatchCount counts an FTS query's matches, up to a limit written after it (with a
// closing parenthesis) as a literal: a bound LIMIT re-prepares the statement on every
// run (see stmtCache).
var qMatchCount = map[string]string{
	factbase.KindFact:    "SELECT count(*) FROM (SELECT 1 FROM facts_fts WHERE facts_fts MATCH ? LIMIT ",
	factbase.KindEpisode: "SELECT count(*) FROM (SELECT 1 FROM episodes_fts WHERE episodes_fts MATCH ? LIMIT ",
}

// textWindow ranks the best window matches of the FTS query and returns those of
// them that pass q's filter, best first, at most q.Limit.
func (t *tx) textWindow(ctx context.Context, q factbase.TextQuery, match string, window int) ([]factbase.Candidate, error) {
	// The window and the limit are literals (see stmtCache); both take few values.
	var (
		sqlText string
		args    = []any{match}
		lim     = " LIMIT " + strconv.Itoa(q.Limit)
		win     = " LIMIT " + strconv.Itoa(window)
	)
	if q.Kind == factbase.KindFact {
		where, wargs := t.factWhere(q.Filter)
		sqlText = "SELECT f.id, x.score, f.valid_from, f.subject, f.confidence FROM " +
			"(SELECT rowid AS seq, -" + factsBM25 + " AS score FROM facts_fts WHERE facts_fts MATCH ? ORDER BY score DESC" + win + ") x " +
			"CROSS JOIN facts f ON f.seq = x.seq WHERE " + strings.Join(where, " AND ") +
			" ORDER BY x.score DESC" + lim
		args = append(args, wargs...)
	} else {
		where, wargs := t.episodeSearchWhere(q.Filter)
		sqlText = "SELECT e.id, x.score, e.created_at, '', e.importance FROM " +
			"(SELECT rowid AS seq, -" + episodesBM25 + " AS score FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY score DESC" + win + ") x " +
			"CROSS JOIN episodes e ON e.seq = x.seq WHERE " + where +
			" ORDER BY x.score DESC" + lim
		args = append(args, wargs...)
	}
	rows, err := t.query(ctx, sqlText, args...)
	if err != nil {
		return nil, mapErr("text search", err)
	}
	out, err := rowcodec.Candidates(q.Kind, rows)
	return out, mapErr("text search", err)
}

// PutVectors stores each item's vector, replacing the item's earlier one: its model
// and dimension in embeddings, the vector itself in vec_<dim> (created on the first
// vector of that dimension), in the caller's transaction.
func (t *tx) PutVectors(ctx context.Context, vs []factbase.Vector) error {
	if len(vs) > 1 {
		return t.putVectorsBulk(ctx, vs) // vectors_bulk.go
	}
	tables := map[int]bool{}
	for _, v := range vs {
		if err := v.Validate(); err != nil {
			return err
		}
		if len(v.Vec) > vecMaxDim {
			return factbase.Errorf(factbase.EINVALID, "vector of %s %s has %d dimensions, more than sqlite-vec's %d", v.Kind, v.ID, len(v.Vec), vecMaxDim)
		}
		q := qFactSeq
		if v.Kind == factbase.KindEpisode {
			q = qEpisodeSeq
		}
		var item int64
		err := t.queryRow(ctx, q, t.u, v.ID).Scan(&item)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return mapErr("put vector", err)
		}
		if _, err := t.exec(ctx, qVecDelete, v.Kind, item); err != nil {
			return mapErr("put vector", err)
		}
		res, err := t.exec(ctx, qVecInsert, t.u, v.Kind, item, v.Model, len(v.Vec))
		if err != nil {
			return mapErr("put vector", err)
		}
		// The table exists for every dimension embeddings records, even one with
		// only zero vectors, so that readers can always name it.
		if dim := len(v.Vec); !tables[dim] {
			if _, known := t.cache.vecTables.Load(dim); !known {
				existed, err := ensureVecTableExisted(ctx, t.q, dim)
				if err != nil {
					return err
				}
				if existed { // made by a committed transaction: safe to remember
					t.cache.vecTables.Store(dim, true)
				}
			}
			tables[dim] = true
		}
		if isZero(v.Vec) {
			continue // similar to nothing: no vec0 row (see vectors.go)
		}
		if t.vecPuts == nil {
			t.vecPuts = map[vecPut]int{}
		}
		t.vecPuts[vecPut{v.Model, len(v.Vec)}]++
		seq, err := res.LastInsertId()
		if err != nil {
			return mapErr("put vector", err)
		}
		ins := fmt.Sprintf("INSERT INTO %s (rowid, user_id, kind, embedding) VALUES (?, ?, ?, ?)", vecTable(len(v.Vec)))
		if _, err := t.exec(ctx, ins, seq, t.u, v.Kind, encodeVec(v.Vec)); err != nil {
			return mapErr("put vector", err)
		}
	}
	return nil
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// encodeVec packs v as little-endian float32s.
func encodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// decodeVec appends the float32s packed in b to dst.
func decodeVec(dst []float32, b []byte) []float32 {
	for i := 0; i+4 <= len(b); i += 4 {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
	}
	return dst
}

// UnembeddedFacts returns indexed facts without a vector of model, by id after after.
func (t *tx) UnembeddedFacts(ctx context.Context, model, after string, limit int) ([]factbase.Fact, error) {
	if limit <= 0 {
		return nil, nil
	}
	return t.queryFacts(ctx, qUnembFacts, t.u, after, model, limit)
}

// UnembeddedEpisodes returns episodes without a vector of model, by id after after.
func (t *tx) UnembeddedEpisodes(ctx context.Context, model, after string, limit int) ([]factbase.Episode, error) {
	if limit <= 0 {
		return nil, nil
	}
	eps, err := queryAll(ctx, t, t.scanEpisode, qUnembEpisodes, t.u, after, model, limit)
	return eps, mapErr("unembedded episodes", err)
}

// CountUnembedded counts the indexed items without a vector of model.
func (t *tx) CountUnembedded(ctx context.Context, model string) (int, error) {
	var n int
	err := t.queryRow(ctx, qCountUnemb, t.u, model).Scan(&n)
	return n, mapErr("count unembedded", err)
}

// termSample is factbase.TermStatsSample (a variable for tests and benchmarks).
var termSample = factbase.TermStatsSample

// TermStats counts the user's items of kind, or a sample of the newest, and the
// items each term matches among them. Counting every match of a common word cost a
// row read each: over 100,000 episodes of one user, most of a search's time. A user
// with more than termSample items who owns at least half of the kind's entries is
// counted over their termSample newest items (termSampleFrom), which costs the same
// whatever the user holds. A user with a smaller share is counted in full through
// the owner token, as it was: their matches are a part of the entries either way.
func (t *tx) TermStats(ctx context.Context, kind string, terms []string, maxFraction float64) (int, []int, error) {
	if err := checkKind(kind); err != nil {
		return 0, nil, err
	}
	if t.u == 0 {
		return 0, make([]int, len(terms)), nil
	}
	from, docs, err := t.termSampleFrom(ctx, kind)
	if err != nil {
		return 0, nil, err
	}
	limit := docs
	if maxFraction > 0 {
		limit = min(docs, int(maxFraction*float64(docs))+1)
	}
	df, err := t.termCounts(ctx, kind, terms, from, limit)
	return docs, df, err
}

// TermCounts counts the user's items of kind each term matches, up to limit.
func (t *tx) TermCounts(ctx context.Context, kind string, terms []string, limit int) ([]int, error) {
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	if t.u == 0 || limit <= 0 {
		return make([]int, len(terms)), nil
	}
	return t.termCounts(ctx, kind, terms, 0, limit)
}

// termSampleFrom returns the first seq of the items TermStats counts over (0: all
// of them) and how many of the user's items of kind that is.
func (t *tx) termSampleFrom(ctx context.Context, kind string) (from int64, docs int, err error) {
	count, sample := qCountFacts, qSampleFacts
	if kind == factbase.KindEpisode {
		count, sample = qCountEpisodes, qSampleEpisodes
	}
	sh, ok := t.ownerShare(ctx, kind)
	if !ok || sh.n <= int64(termSample) || sh.share < 0.5 {
		if err := t.queryRow(ctx, count, t.u).Scan(&docs); err != nil {
			return 0, 0, mapErr("term stats", err)
		}
		// The measured share may be a minute old: the fresh count decides.
		if docs <= termSample || ok && sh.share < 0.5 {
			return 0, docs, nil
		}
	}
	err = t.queryRow(ctx, sample+strconv.Itoa(termSample-1), t.u).Scan(&from)
	switch {
	case errors.Is(err, sql.ErrNoRows): // fewer now: count them all
		if err := t.queryRow(ctx, count, t.u).Scan(&docs); err != nil {
			return 0, 0, mapErr("term stats", err)
		}
		return 0, docs, nil
	case err != nil:
		return 0, 0, mapErr("term stats", err)
	}
	return from, termSample, nil
}

// termCounts counts, for each term, the user's items of kind from seq from on that
// it matches, up to limit.
func (t *tx) termCounts(ctx context.Context, kind string, terms []string, from int64, limit int) ([]int, error) {
	df := make([]int, len(terms))
	match := qTermFacts
	if kind == factbase.KindEpisode {
		match = qTermEpisodes
	}
	owner := t.byOwner(ctx, kind)
	// The limit only bounds the counting: raised to a power of two it stays a literal
	// with few values (a bound LIMIT re-prepares the statement on every run, see
	// stmtCache); counts are then capped at the limit itself.
	match += strconv.Itoa(1<<bits.Len(uint(max(limit, 1)))) + ")"
	for i, term := range terms {
		m := ftsQuery([]string{term})
		if m == "" {
			continue
		}
		if owner {
			m = t.userMatch(kind, m)
		}
		if err := t.queryRow(ctx, match, m, from, t.u).Scan(&df[i]); err != nil {
			return nil, mapErr("term stats", err)
		}
		df[i] = min(df[i], limit)
	}
	return df, nil
}

// SubjectsNamed returns the subjects the names name.
// qSubjectsNamed finds, in one statement whatever the number of names (passed as a
// JSON array), the subjects equal to a name and those whose "name" fact has one:
// an index seek per name and kind of match, so that a subject with many facts costs
// no more than one with few.
const qSubjectsNamed = `SELECT n.value FROM json_each(?2) AS n
	WHERE EXISTS (SELECT 1 FROM facts WHERE u = ?1 AND subject = n.value AND current = 1)
	UNION
	SELECT f.subject FROM json_each(?2) AS n
	JOIN facts AS f ON f.u = ?1 AND f.key = 'name' AND f.norm = n.value AND f.current = 1`

func (t *tx) SubjectsNamed(ctx context.Context, names []string) ([]string, error) {
	if len(names) == 0 || t.u == 0 {
		return nil, nil
	}
	list, err := json.Marshal(names)
	if err != nil {
		return nil, mapErr("subjects", err)
	}
	subjects, err := queryAll(ctx, t, rowcodec.String, qSubjectsNamed, t.u, string(list))
	return subjects, mapErr("subjects", err)
}
