package retrieve

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/search"
	"github.com/factbase/factbase/when"
)

// Search limits.
const (
	DefaultSearchLimit = 10
	MaxSearchLimit     = 100
	// MaxQueryLen is the most bytes a search query may hold.
	MaxQueryLen = 4096
	// DefaultMinSimilarity is the least cosine similarity of an item found by vector
	// alone: below it, a nearest neighbour is not related to the query at all.
	DefaultMinSimilarity = 0.1
)

// SearchOptions narrow and tune a search. The zero value searches facts and episodes
// for the 10 best hits.
type SearchOptions struct {
	// Kinds is which items to search: factbase.KindFact, factbase.KindEpisode; empty
	// means both.
	Kinds []string
	// KeyPrefix, Type, Category, Subject and MinConfidence filter facts; with any of
	// them set, episodes are not searched.
	KeyPrefix     string
	Type          string
	Category      factbase.Category
	Subject       string
	MinConfidence float64
	// Tags keeps episodes with every tag and facts whose source episode has them.
	Tags []string
	// From (inclusive) and To (exclusive) bound a fact's valid-from time and an
	// episode's created time; zero is open.
	From, To time.Time
	// IncludeSuperseded also finds facts a newer value replaced (default off).
	IncludeSuperseded bool
	// Limit is the most hits: 0 means DefaultSearchLimit, at most MaxSearchLimit.
	Limit int
	// Threshold is the least score a hit may have (scores are fused reciprocal ranks:
	// 1/(5+rank) per list, about 0.02 to 0.4 before decay and boosts); 0 keeps every
	// hit.
	Threshold float64
	// MinSimilarity drops items found only by vector whose cosine similarity to the
	// query is below it: 0 means DefaultMinSimilarity, a negative value keeps them
	// all.
	MinSimilarity float64
	// Now is the query time recency decay counts from; zero means the wall clock.
	Now time.Time
}

// Hit is one search result.
type Hit struct {
	Kind    string            `json:"kind"` // factbase.KindFact or factbase.KindEpisode
	ID      string            `json:"id"`
	Text    string            `json:"text"` // a fact's text (or "key: value"), an episode's content
	Score   float64           `json:"score"`
	Explain Explain           `json:"explain"`
	Fact    *factbase.Fact    `json:"fact,omitempty"`
	Episode *factbase.Episode `json:"episode,omitempty"`
}

// Explain says how a hit's score was made:
// score = ((rrf_text + rrf_vector) * decay * subject_boost * importance_boost * period_boost * rare_boost + context) * speaker_boost,
// and how much of it each signal gave (text_share, vector_share, context_share).
type Explain struct {
	BM25Rank        int     `json:"bm25_rank"`   // rank among full-text candidates, 0 = not found by text
	BM25            float64 `json:"bm25"`        // the BM25 score (higher is better)
	VectorRank      int     `json:"vector_rank"` // rank among vector candidates, 0 = not found by vector
	Similarity      float64 `json:"similarity"`  // cosine similarity to the query
	RRFText         float64 `json:"rrf_text"`    // w_text / (k + bm25_rank)
	RRFVector       float64 `json:"rrf_vector"`  // w_vector / (k + vector_rank); w_vector is the result's vector_weight
	Decay           float64 `json:"decay"`       // recency factor, applied at query time
	AgeDays         float64 `json:"age_days"`
	SubjectBoost    float64 `json:"subject_boost"` // > 1 for facts about a subject the query names
	Importance      float64 `json:"importance"`    // a fact's confidence, an episode's importance
	ImportanceBoost float64 `json:"importance_boost"`
	PeriodBoost     float64 `json:"period_boost"` // > 1 for an item from the period the query names
	Rare            float64 `json:"rare"`         // the share of the query's rare terms the item holds
	RareBoost       float64 `json:"rare_boost"`   // 1 + (2 - 1) * rare
	// Context is the score an episode inherits from the turns next to it in its
	// conversation; SpeakerBoost is > 1 for an episode said by someone the query names.
	Context      float64 `json:"context"`
	SpeakerBoost float64 `json:"speaker_boost"`
	Score        float64 `json:"score"`
	// TextShare, VectorShare and ContextShare are the shares of the score that full
	// text, the vector list and the neighbouring turns gave, each with the
	// multipliers applied to it; they add up to 1.
	TextShare    float64 `json:"text_share"`
	VectorShare  float64 `json:"vector_share"`
	ContextShare float64 `json:"context_share"`
}

func explainOf(x search.Explain) Explain {
	return Explain{BM25Rank: x.BM25Rank, BM25: x.BM25, VectorRank: x.VecRank, Similarity: x.Similarity,
		RRFText: x.RRFText, RRFVector: x.RRFVec, Decay: x.Decay, AgeDays: x.AgeDays, SubjectBoost: x.SubjectBoost,
		Importance: x.Importance, ImportanceBoost: x.ImportanceBoost, PeriodBoost: x.PeriodBoost, Rare: x.Rare, RareBoost: x.RareBoost,
		Context: x.Context, SpeakerBoost: x.SpeakerBoost, Score: x.Score,
		TextShare: x.TextShare, VectorShare: x.VecShare, ContextShare: x.ContextShare}
}

// SearchResult is what Search found.
type SearchResult struct {
	Hits []Hit `json:"hits"`
	// Subjects are the subjects the query was found to name, whose facts were boosted.
	Subjects []string `json:"subjects,omitempty"`
	// Period is the dated period the query names ("on 13 October 2023", "in July
	// 2022"), whose items were boosted; nil when it names none.
	Period *when.Window `json:"period,omitempty"`
	// Model is the embedder model the query was embedded with; "" when vectors were
	// not used.
	Model string `json:"model,omitempty"`
	// VectorWeight is the weight of the vector list in the fusion: the share of the
	// query's information in the words the embedder knows (1 for an embedder that
	// knows every word); 0 when vectors were not used.
	VectorWeight float64 `json:"vector_weight,omitempty"`
	// RareTerms are the query's words that few of the user's items hold: the items
	// holding them are boosted (Explain.RareBoost).
	RareTerms []string `json:"rare_terms,omitempty"`
	// Warnings say why the search ranked by full text alone although an embedder is
	// configured: the embedder could not be reached, or the user's stored vectors
	// were made by another embedder (fixed by `factbase reembed`). None otherwise.
	Warnings []string `json:"warnings,omitempty" doc:"Why the search ranked by full text alone although an embedder is configured: the embedder could not be reached, or the user's stored vectors were made by another embedder (the command factbase reembed fixes it). Absent when the search used vectors as usual."`
}

// Ranking parameters, tuned on the LoCoMo development split (see TestLoCoMoRecall in
// memory/search_bench_test.go).
// K is small: the full-text and vector lists agree little on conversational text, so
// the best of either list should lead, not an item both rank middling (recall@10 with
// K = 60: 0.54; 20: 0.62; 10: 0.64; 5: 0.65; 2: 0.66).
var fusion = search.Options{
	K:                5,
	WText:            1,
	WVec:             1,
	ImportanceWeight: 0.2,
}

// candidatesPerList is how many candidates each list (text, vector) contributes per
// kind, for a search returning limit hits.
func candidatesPerList(limit int) int { return max(50, 4*limit) }

func (o *SearchOptions) normalise() error {
	if o.Limit == 0 {
		o.Limit = DefaultSearchLimit
	}
	if o.Limit < 0 || o.Limit > MaxSearchLimit {
		return factbase.Errorf(factbase.EINVALID, "limit %d is outside 1..%d", o.Limit, MaxSearchLimit)
	}
	if len(o.Kinds) == 0 {
		o.Kinds = []string{factbase.KindFact, factbase.KindEpisode}
	}
	for _, k := range o.Kinds {
		if k != factbase.KindFact && k != factbase.KindEpisode {
			return factbase.Errorf(factbase.EINVALID, "kind %q is not %s or %s", k, factbase.KindFact, factbase.KindEpisode)
		}
	}
	if !(o.MinConfidence >= 0 && o.MinConfidence <= 1) {
		return factbase.Errorf(factbase.EINVALID, "minimum confidence %v is outside 0..1", o.MinConfidence)
	}
	if o.MinSimilarity == 0 {
		o.MinSimilarity = DefaultMinSimilarity
	}
	if !(o.Threshold >= 0) || !(o.MinSimilarity <= 1) {
		return factbase.Errorf(factbase.EINVALID, "threshold %v or minimum similarity %v is out of range", o.Threshold, o.MinSimilarity)
	}
	if o.Category != "" && !validCategory(o.Category) {
		return factbase.Errorf(factbase.EINVALID, "category %q is not one of core, technical, project, transient", o.Category)
	}
	if !o.From.IsZero() && !o.To.IsZero() && !o.From.Before(o.To) {
		return factbase.Errorf(factbase.EINVALID, "time range is empty: from %s is not before to %s", o.From.Format(time.RFC3339), o.To.Format(time.RFC3339))
	}
	tags, err := factbase.NormalizeTags(o.Tags)
	if err != nil {
		return err
	}
	o.Tags = tags
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return nil
}

func validCategory(c factbase.Category) bool {
	for _, k := range factbase.Categories {
		if c == k {
			return true
		}
	}
	return false
}

func (o SearchOptions) filter() factbase.SearchFilter {
	return factbase.SearchFilter{KeyPrefix: o.KeyPrefix, Type: o.Type, Category: o.Category, Subject: o.Subject,
		MinConfidence: o.MinConfidence, Tags: o.Tags, From: o.From, To: o.To, IncludeSuperseded: o.IncludeSuperseded}
}

// Search finds the user's facts and episodes relevant to query: full-text (BM25)
// and vector candidates fused by reciprocal rank, then damped by recency at query
// time and boosted for facts about a subject the query names, and for importance.
// Every hit explains its score. When the embedder cannot be reached, or some of the
// user's stored vectors of the kinds searched are of another embedder, it ranks by
// full text alone and says why in the result's Warnings (vectors.go).
func (s *Service) Search(ctx context.Context, user factbase.UserID, query string, o SearchOptions) (SearchResult, error) {
	out := SearchResult{Hits: []Hit{}}
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return out, err
	}
	if len(query) > MaxQueryLen {
		return out, factbase.Errorf(factbase.EINVALID, "query is %d bytes; the limit is %d", len(query), MaxQueryLen)
	}
	if strings.TrimSpace(query) == "" {
		return out, factbase.Errorf(factbase.EINVALID, "query is empty")
	}
	if err := o.normalise(); err != nil {
		return out, err
	}
	terms := search.Terms(query)
	known := knownTerms(s.core.Embedder(), terms)
	stats, err := s.queryTerms(ctx, user, terms, o.Kinds, known)
	if err != nil {
		return out, err
	}
	// Episode terms that most of the user's episodes contain (the names of the two
	// people of a conversation, the project every note is about) say nothing about
	// which episode is meant, and in short episodes they would outrank the words
	// that do; they are left out of the episode query, text and vector alike.
	epTerms, epQuery := terms, query
	if st, ok := stats[factbase.KindEpisode]; ok {
		if common := commonTerms(terms, st); len(common) > 0 {
			epTerms = slices.DeleteFunc(slices.Clone(terms), func(t string) bool { return common[t] })
			epQuery = stripWords(query, common)
		}
	}
	// Words few items hold decide between the items that hold them (evidence.go).
	rare := map[string][]string{}
	for kind, st := range stats {
		if r := rareTerms(terms, st); len(r) > 0 {
			rare[kind] = r
			for _, t := range r {
				if !slices.Contains(out.RareTerms, t) {
					out.RareTerms = append(out.RareTerms, t)
				}
			}
		}
	}
	// The query is embedded outside any transaction; an unreachable embedder leaves
	// the search to full text (vectors.go).
	qv, warning, err := s.embedQuery(ctx, []string{query, epQuery})
	if err != nil {
		return out, err
	}
	if warning != "" {
		out.Warnings = append(out.Warnings, warning)
	}
	vecFor := map[string][]float32{}
	if qv != nil {
		out.Model = qv.Model
		vecFor[factbase.KindFact], vecFor[factbase.KindEpisode] = qv.Vecs[query], qv.Vecs[epQuery]
		out.VectorWeight = vectorWeight(known, stats)
	}
	filter := o.filter()
	n := candidatesPerList(o.Limit)
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		if out.Model != "" {
			// Vectors are used only if every stored vector of the kinds searched is
			// comparable with the query's (vectors.go).
			ms, err := tx.VectorModels(ctx)
			if err != nil {
				return err
			}
			dim := max(len(vecFor[factbase.KindFact]), len(vecFor[factbase.KindEpisode]))
			if other := incomparable(ms, out.Model, dim, o.Kinds); len(other) > 0 {
				out.Warnings = append(out.Warnings, mixedWarning(out.Model, dim, other))
				out.Model, vecFor, out.VectorWeight = "", nil, 0
			}
		}
		var text, vecs []search.Candidate
		shares := map[string]map[string]float64{} // kind → id → share of the rare terms held
		for kind, r := range rare {
			if shares[kind], err = rareShares(ctx, tx, kind, r, filter); err != nil {
				return err
			}
		}
		for _, kind := range o.Kinds {
			kt := terms
			if kind == factbase.KindEpisode {
				kt = epTerms
			}
			tc, err := tx.TextCandidates(ctx, factbase.TextQuery{Kind: kind, Terms: kt, Filter: filter, Limit: n})
			if err != nil {
				return err
			}
			text = appendCandidates(text, tc, true)
			if vec := vecFor[kind]; len(vec) > 0 && !zero(vec) {
				vc, err := tx.VectorCandidates(ctx, factbase.VectorQuery{Kind: kind, Model: out.Model, Vector: vec, Filter: filter, Limit: n})
				if err != nil {
					return err
				}
				vecs = appendCandidates(vecs, vc, false)
			}
		}
		if out.Subjects, err = tx.SubjectsNamed(ctx, subjectNames(query, terms)); err != nil {
			return err
		}
		for _, cs := range [][]search.Candidate{text, vecs} {
			for i := range cs {
				cs[i].Rare = shares[cs[i].Kind][cs[i].ID]
			}
		}
		fo := fusion
		fo.RareBoost = rareBoost
		if out.Model != "" {
			fo.WVec *= out.VectorWeight
		}
		fo.BoostSubjects = out.Subjects
		fo.MinSimilarity = o.MinSimilarity // threshold and limit apply after context
		if p, ok := queryPeriod(query, o.Now); ok {
			out.Period = &p
			fo.PeriodFrom, fo.PeriodTo = p.From, p.To
		}
		hits := search.Fuse(text, vecs, o.Now, fo)
		hits, eps, err := s.conversationContext(ctx, tx, hits, query, terms, o)
		if err != nil {
			return err
		}
		for _, h := range hits {
			if len(out.Hits) == o.Limit {
				break
			}
			if h.Score < o.Threshold {
				continue
			}
			hit := Hit{Kind: h.Kind, ID: h.ID, Score: h.Score, Explain: explainOf(h.Explain)}
			if h.Kind == factbase.KindFact {
				f, err := tx.Fact(ctx, h.ID)
				if err != nil {
					return err
				}
				hit.Fact, hit.Text = &f, HitText(f)
			} else {
				ep, ok := eps[h.ID]
				if !ok {
					if ep, err = tx.Episode(ctx, h.ID); err != nil {
						return err
					}
				}
				hit.Episode, hit.Text = &ep, ep.Content
			}
			out.Hits = append(out.Hits, hit)
		}
		return nil
	})
	if err == nil && len(out.Warnings) > 0 {
		s.log.LogAttrs(ctx, slog.LevelWarn, "search ranked by full text only", slog.String("user", string(user)),
			slog.String("embedder", s.core.Embedder().Model()), slog.String("warning", strings.Join(out.Warnings, "; ")))
	}
	return out, err
}

// queryPeriod returns the first dated period the query names: a day, week or month
// said with its year ("on October 13, 2023", "in July 2022"). Relative times ("last
// Friday") and years alone are not used: they are too often the time of the question
// rather than of the answer, or too long to single anything out.
func queryPeriod(query string, now time.Time) (when.Window, bool) {
	for _, m := range when.Find(query, now) {
		if !m.HasYear || m.Recur != when.Once || m.Grain == when.Year {
			continue
		}
		from := time.Date(m.Anchor.Year(), m.Anchor.Month(), m.Anchor.Day(), 0, 0, 0, 0, m.Anchor.Location())
		return when.Window{From: from, To: m.PeriodEnd(), Text: m.Text}, true
	}
	return when.Window{}, false
}

// Common-term pruning: a term found in more than commonFraction of a user's
// episodes is left out of the episode query, once the user has minCommonDocs.
const (
	commonFraction = 0.2
	minCommonDocs  = 30
)

// commonTerms returns the terms too common among the user's episodes (st) to rank
// by. It never returns every term: a query of common words only keeps them all.
func commonTerms(terms []string, st kindTerms) map[string]bool {
	if len(terms) < 2 || st.docs < minCommonDocs {
		return nil
	}
	var common map[string]bool
	for i, t := range terms {
		if float64(st.df[i]) > commonFraction*float64(st.docs) {
			if common == nil {
				common = map[string]bool{}
			}
			common[t] = true
		}
	}
	if len(common) == len(terms) {
		return nil
	}
	return common
}

// stripWords removes from query the words (and their possessives) in drop, given
// in lower case.
func stripWords(query string, drop map[string]bool) string {
	words := strings.FieldsFunc(query, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	kept := words[:0]
	for _, w := range words {
		l := strings.ToLower(w)
		l = strings.TrimSuffix(strings.TrimSuffix(l, "'s"), "’s")
		if !drop[l] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// HitText is how a fact reads in a hit: its text, else "key: value".
func HitText(f factbase.Fact) string {
	if strings.TrimSpace(f.Text) != "" {
		return f.Text
	}
	return f.Key + ": " + f.Value
}

func zero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// appendCandidates converts a store's candidates for fusion.
func appendCandidates(dst []search.Candidate, cs []factbase.Candidate, text bool) []search.Candidate {
	for _, c := range cs {
		sc := search.Candidate{ID: c.ID, Kind: c.Kind, Time: c.Time, Subject: c.Subject, Importance: c.Importance}
		if text {
			sc.BM25Rank, sc.BM25 = c.Rank, c.Score
		} else {
			sc.VecRank, sc.Similarity = c.Rank, c.Score
		}
		dst = append(dst, sc)
	}
	return dst
}

// firstPerson are the words by which a query names the user.
var firstPerson = map[string]bool{"i": true, "me": true, "my": true, "mine": true, "myself": true, "user": true}

// subjectNames returns the words and two-word names of query that may name a
// subject: its search terms, adjacent pairs of them ("martin smith"), and "user"
// when the query speaks in the first person or of "the user".
func subjectNames(query string, terms []string) []string {
	names := make([]string, 0, 2*len(terms)+1)
	names = append(names, terms...)
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for i, w := range words {
		if firstPerson[w] {
			names = append(names, factbase.SubjectUser)
		}
		if i > 0 && !search.IsStopWord(w) && !search.IsStopWord(words[i-1]) {
			names = append(names, words[i-1]+" "+w)
		}
	}
	return dedupe(names)
}

func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
