package postgres

import (
	"context"
	"strings"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/rowcodec"
)

// factFTS is the full-text entry of a fact, from three arguments ($29..$31 of
// qInsert): its text and value weighted A, its key B (factFTSArgs).
const factFTS = `setweight(to_tsvector('english', $29), 'A') || setweight(to_tsvector('english', $30), 'B') ||
		setweight(to_tsvector('english', $31), 'A')`

// factFTSArgs returns the arguments of factFTS for a fact of text, key and value, of
// index text index ("" for none): the index text in place of the text, with no key
// or value, when it has one (migration 0022).
func factFTSArgs(text, key, value, index string) [3]string {
	if index != "" {
		return [3]string{ftsWords(index), "", ""}
	}
	return [3]string{ftsWords(text), ftsWords(key), ftsWords(value)}
}

// episodeFTSArgs returns the arguments of an episode's full-text entry (its content
// weighted A, its tags B: qEpisodeInsert), of index text index as factFTSArgs.
func episodeFTSArgs(content string, tags []string, index string) [2]string {
	if index != "" {
		return [2]string{ftsWords(index), ""}
	}
	return [2]string{ftsWords(content), ftsWords(strings.Join(tags, " "))}
}

// indexTerms is the terms column of a row whose index text is index: NULL when it
// has none (migration 0022).
func indexTerms(index string) *string {
	if index == "" {
		return nil
	}
	return &index
}

// Ranking: ts_rank with the weights of SQLite's bm25 columns (A = 1.0 for a fact's
// text and value and an episode's content; B = 0.75 for a fact's key, 0.5 for an
// episode's tags), and normalisation 1 (divided by 1 + log(length)) so that long
// texts do not win by length alone.
const (
	factsRank    = "ts_rank('{0, 0, 0.75, 1}', f.fts, q.q, 1)"
	episodesRank = "ts_rank('{0, 0, 0.5, 1}', e.fts, q.q, 1)"
)

// The statements of the search indexes.
const (
	qCountFacts    = "SELECT count(*) FROM facts WHERE u = $1 AND current"
	qCountEpisodes = "SELECT count(*) FROM episodes WHERE u = $1"
	qTermFacts     = `SELECT count(*) FROM (SELECT 1 FROM facts
		WHERE u = $1 AND current AND fts @@ phraseto_tsquery('english', $2) LIMIT $3) x`
	qTermEpisodes = `SELECT count(*) FROM (SELECT 1 FROM episodes
		WHERE u = $1 AND fts @@ phraseto_tsquery('english', $2) LIMIT $3) x`
	qSubjectsNamed = `SELECT n FROM unnest($2::text[]) AS n
		WHERE EXISTS (SELECT 1 FROM facts WHERE u = $1 AND subject = n AND current)
		UNION
		SELECT subject FROM facts WHERE u = $1 AND key = 'name' AND norm = ANY($2::text[]) AND current`
	qUsers = "SELECT id FROM users"
)

// ftsWords returns s as the full-text index and queries see it: its runs of letters
// and digits (with their combining marks), separated by single spaces. Splitting
// here, not in PostgreSQL's parser, makes "contact.email_address" three words and
// "a@example.com" three, as SQLite's unicode61 tokenizer and search.Terms do.
func ftsWords(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r)
	}), " ")
}

// Users returns every user the store holds a row for, in no particular order.
func (s *Store) Users(ctx context.Context) ([]factbase.UserID, error) {
	return poolAll(ctx, s, "users", qUsers, rowcodec.UserID)
}

// factWhere adds the conditions of a search filter over facts aliased f.
func (t *tx) factWhere(w *where, f factbase.SearchFilter) {
	w.add("f.u = " + w.arg(string(t.user)))
	if f.IncludeSuperseded {
		w.add("(f.current OR f.superseded_by <> '')")
	} else {
		w.add("f.current")
	}
	w.facts("f.", factConds{f.Subject, f.KeyPrefix, f.Type, f.Category, f.MinConfidence})
	if !f.From.IsZero() {
		w.add("f.valid_from >= " + w.arg(f.From.UnixNano()))
	}
	if !f.To.IsZero() {
		w.add("f.valid_from < " + w.arg(f.To.UnixNano()))
	}
	if len(f.Tags) > 0 {
		w.add(`f.source_kind = 'episode' AND EXISTS (SELECT 1 FROM episodes e
			WHERE e.u = f.u AND e.id = f.source_id AND e.tags @> ` + w.arg(f.Tags) + `::text[])`)
	}
}

// checkKind returns EINVALID for a kind of item other than fact or episode.
func checkKind(kind string) error { return factbase.ValidateKind(kind) }

// FilterFacts returns a page of the facts matching the filter, newest valid-from
// time first.
func (t *tx) FilterFacts(ctx context.Context, key string, f factbase.SearchFilter, offset, limit int) ([]factbase.Fact, error) {
	if limit <= 0 {
		return nil, nil
	}
	var w where
	t.factWhere(&w, f)
	if key != "" {
		w.add("f.key = " + w.arg(key))
	}
	q := "SELECT " + factColumnsF + " FROM facts f WHERE " + w.String() +
		" ORDER BY f.valid_from DESC, f.seq DESC" + w.page(limit, offset)
	return t.queryFacts(ctx, q, w.args...)
}

// tsquery returns the words of each term, for phraseto_tsquery, leaving out terms
// without any: a term is matched as a phrase of its words, never parsed as query
// syntax.
func tsqueryTerms(terms []string) []string {
	var out []string
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		t = ftsWords(strings.ToValidUTF8(t, " "))
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// anyTerm returns a FROM item "q" whose column q is the tsquery matching any of
// terms, its terms bound as arguments of w.
func anyTerm(w *where, terms []string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = "phraseto_tsquery('english', " + w.arg(t) + ")"
	}
	return "(SELECT " + strings.Join(parts, " || ") + " AS q) q"
}

// TextCandidates returns full-text candidates, best first.
func (t *tx) TextCandidates(ctx context.Context, q factbase.TextQuery) ([]factbase.Candidate, error) {
	if err := checkKind(q.Kind); err != nil {
		return nil, err
	}
	terms := tsqueryTerms(q.Terms)
	if len(terms) == 0 || q.Limit <= 0 {
		return nil, nil
	}
	if q.Kind == factbase.KindEpisode && q.Filter.FactOnly() {
		return nil, nil
	}
	var (
		w   where
		sql string
	)
	from := anyTerm(&w, terms)
	if q.Kind == factbase.KindFact {
		t.factWhere(&w, q.Filter)
		sql = "SELECT f.id, " + factsRank + ", f.valid_from, f.subject, f.confidence FROM " + from + ", facts f " +
			"WHERE f.fts @@ q.q AND (f.current OR f.superseded_by <> '') AND " + w.String() +
			" ORDER BY 2 DESC, f.seq LIMIT " + w.arg(q.Limit)
	} else {
		t.episodeWhere(&w, factbase.EpisodeFilter{Tags: q.Filter.Tags, From: q.Filter.From, To: q.Filter.To})
		sql = "SELECT e.id, " + episodesRank + ", e.created_at, '', e.importance FROM " + from + ", episodes e " +
			"WHERE e.fts @@ q.q AND " + w.String() +
			" ORDER BY 2 DESC, e.seq LIMIT " + w.arg(q.Limit)
	}
	var out []factbase.Candidate
	rows, err := t.q.Query(ctx, sql, w.args...)
	if err == nil {
		out, err = rowcodec.Candidates(q.Kind, rows)
	}
	return out, mapErr("text search", err)
}

// TermStats counts the user's items of kind and the items each term matches.
func (t *tx) TermStats(ctx context.Context, kind string, terms []string, maxFraction float64) (int, []int, error) {
	if err := checkKind(kind); err != nil {
		return 0, nil, err
	}
	count, match := qCountFacts, qTermFacts
	if kind == factbase.KindEpisode {
		count, match = qCountEpisodes, qTermEpisodes
	}
	var docs int
	if err := t.q.QueryRow(ctx, count, string(t.user)).Scan(&docs); err != nil {
		return 0, nil, mapErr("term stats", err)
	}
	limit := docs
	if maxFraction > 0 {
		limit = min(docs, int(maxFraction*float64(docs))+1)
	}
	df, err := t.termCounts(ctx, match, terms, limit)
	return docs, df, err
}

// TermCounts counts the user's items of kind each term matches, up to limit.
func (t *tx) TermCounts(ctx context.Context, kind string, terms []string, limit int) ([]int, error) {
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return make([]int, len(terms)), nil
	}
	match := qTermFacts
	if kind == factbase.KindEpisode {
		match = qTermEpisodes
	}
	return t.termCounts(ctx, match, terms, limit)
}

// termCounts runs the count query match for each term, up to limit.
func (t *tx) termCounts(ctx context.Context, match string, terms []string, limit int) ([]int, error) {
	df := make([]int, len(terms))
	for i, term := range terms {
		words := ftsWords(strings.ToValidUTF8(term, " "))
		if words == "" {
			continue
		}
		if err := t.q.QueryRow(ctx, match, string(t.user), words, limit).Scan(&df[i]); err != nil {
			return nil, mapErr("term stats", err)
		}
	}
	return df, nil
}

// SubjectsNamed returns the subjects the names name, in one statement: each name as
// a subject with a current fact, and the subjects whose current "name" is a name.
func (t *tx) SubjectsNamed(ctx context.Context, names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	subjects, err := queryAll(ctx, t, rowcodec.String, qSubjectsNamed, string(t.user), names)
	return subjects, mapErr("subjects", err)
}
