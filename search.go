package factbase

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Episode is a narrative record an assistant or agent writes ("Session 14 complete:
// NEXUS v2.3.1 deployed, accuracy 94.2%"). Facts found in its content by patterns, and
// facts added to it by hand, link back to it through their Source (kind "episode", id
// the episode's id).
type Episode struct {
	ID         string            `json:"id"`   // time-sortable (UUIDv7)
	User       UserID            `json:"user"` // owner
	Content    string            `json:"content"`
	Tags       []string          `json:"tags"`       // lower case, sorted, unique
	Importance float64           `json:"importance"` // 0..1
	CreatedAt  time.Time         `json:"created_at"` // when it happened; may be in the past
	Metadata   map[string]string `json:"metadata,omitempty"`
	// ExtractedAt is when pattern extraction last ran over the content; nil if never
	// (an episode created without extraction waits for a backfill).
	ExtractedAt *time.Time `json:"extracted_at,omitempty"`
	// Index, when not empty, is what the store's full-text index holds for the
	// episode in place of its Content and Tags (Fact.Index). Set on writes only.
	Index string `json:"-"`
}

// Limits of an episode.
const (
	MaxEpisodeLen  = 64 << 10 // bytes of content
	MaxTags        = 32       // tags per episode
	MaxTagLen      = 64       // bytes per tag
	MaxMetadata    = 64       // metadata entries per episode
	MaxMetadataLen = 1024     // bytes per metadata key or value
)

// NormalizeTags lower-cases, trims, sorts and deduplicates episode tags, refusing
// one that is too long or holds a control character or invalid UTF-8, and more than
// MaxTags of them.
func NormalizeTags(tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" {
			continue
		}
		if len(t) > MaxTagLen {
			return nil, Errorf(EINVALID, "tag %q is longer than %d bytes", t[:32]+"…", MaxTagLen)
		}
		if !utf8.ValidString(t) || strings.ContainsFunc(t, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return nil, Errorf(EINVALID, "tag %q has a control character or invalid UTF-8", t)
		}
		out = append(out, t)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > MaxTags {
		return nil, Errorf(EINVALID, "%d tags; the limit is %d", len(out), MaxTags)
	}
	return out, nil
}

// TermStatsSample is the fewest of a user's newest items of a kind that
// SearchReadTx.TermStats counts over when it does not count over all of them.
const TermStatsSample = 2048

// The kinds of searchable items.
const (
	KindFact    = "fact"
	KindEpisode = "episode"
)

// ValidateKind returns nil if kind is KindFact or KindEpisode, else EINVALID.
func ValidateKind(kind string) error {
	if kind != KindFact && kind != KindEpisode {
		return Errorf(EINVALID, "kind %q is not fact or episode", kind)
	}
	return nil
}

// SearchFilter narrows the candidates of a search. Zero fields do not filter. Fields
// that name a fact's attribute (KeyPrefix, Type, Category, Subject, MinConfidence)
// match facts only: with any of them set, no episode is a candidate.
type SearchFilter struct {
	KeyPrefix     string
	Type          string
	Category      Category
	Subject       string
	MinConfidence float64
	// Tags keeps episodes carrying every tag, and facts whose source episode carries
	// every tag.
	Tags []string
	// From and To bound the time of an item, From inclusive and To exclusive: a fact's
	// valid-from time, an episode's created time.
	From, To time.Time
	// IncludeSuperseded also returns facts that a newer value replaced. Retracted,
	// removed and erased facts are never candidates: they leave the indexes.
	IncludeSuperseded bool
}

// FactOnly reports whether f sets a filter that only facts can satisfy.
func (f SearchFilter) FactOnly() bool {
	return f.KeyPrefix != "" || f.Type != "" || f.Category != "" || f.Subject != "" || f.MinConfidence > 0
}

// TextQuery asks a store for full-text candidates of one kind.
type TextQuery struct {
	Kind   string   // KindFact or KindEpisode
	Terms  []string // search terms, any of which may match (search.Terms makes them)
	Filter SearchFilter
	Limit  int // the most candidates; the store may cap it
}

// VectorQuery asks a store for the items of one kind whose stored vectors (of Model)
// are nearest to Vector by cosine similarity.
type VectorQuery struct {
	Kind   string
	Model  string
	Vector []float32 // L2-normalised
	Filter SearchFilter
	Limit  int
}

// Candidate is one item a store found for a TextQuery or a VectorQuery.
type Candidate struct {
	Kind, ID string
	Rank     int // 1-based rank in its list
	// Score is the store's relevance: BM25 (higher is better) for text, cosine
	// similarity for vectors.
	Score      float64
	Time       time.Time // a fact's valid-from time, an episode's created time
	Subject    string    // a fact's subject; "" for episodes
	Importance float64   // a fact's confidence, an episode's importance
}

// Vector is the embedding of one item, as stored for vector search.
type Vector struct {
	Kind, ID string
	Model    string    // the embedder's model id
	Vec      []float32 // L2-normalised; its length is the dimension
}

// Validate reports whether v can be stored (SearchTx.PutVectors): a kind of item, a
// model and at least one dimension. Returns EINVALID otherwise.
func (v Vector) Validate() error {
	if err := ValidateKind(v.Kind); err != nil {
		return err
	}
	if len(v.Vec) == 0 {
		return Errorf(EINVALID, "vector of %s %s is empty", v.Kind, v.ID)
	}
	if v.Model == "" {
		return Errorf(EINVALID, "vector of %s %s names no model", v.Kind, v.ID)
	}
	return nil
}

// VectorModel counts the user's stored vectors that one embedder wrote: its model id
// and the dimension of its vectors. Vectors of another model or dimension cannot be
// compared with a query vector of this one (Embedder.Model).
type VectorModel struct {
	Model    string `json:"model"`
	Dim      int    `json:"dim"`
	Facts    int    `json:"facts"`    // facts (current or superseded) with a vector of Model and Dim
	Episodes int    `json:"episodes"` // episodes with one
}

// Count returns how many items have a vector of m's model and dimension.
func (m VectorModel) Count() int { return m.Facts + m.Episodes }

// EpisodeFilter selects episodes in SearchReadTx.Episodes. Zero fields do not filter.
type EpisodeFilter struct {
	Tags     []string  // episodes carrying every tag
	From, To time.Time // created time, From inclusive, To exclusive
	// Unextracted keeps only episodes pattern extraction has not run over.
	Unextracted bool
	NewestFirst bool // the default is oldest first (by created time, then id)
	Limit       int  // 0: no limit
	Offset      int
}

// SearchReadTx reads episodes and the search indexes inside a transaction, for the
// transaction's user only. Methods return ENOTFOUND where they say so and
// EUNAVAILABLE when the store cannot be reached.
type SearchReadTx interface {
	// Episode returns one episode by id. ENOTFOUND if the user has none.
	Episode(ctx context.Context, id string) (Episode, error)
	// Episodes returns the episodes matching f.
	Episodes(ctx context.Context, f EpisodeFilter) ([]Episode, error)
	// CountEpisodes returns how many episodes match f (Limit and Offset ignored).
	CountEpisodes(ctx context.Context, f EpisodeFilter) (int, error)
	// EpisodeFacts returns the facts whose source is episode id, oldest first:
	// current ones only, or every version with history; offset of them skipped and
	// at most limit returned (0: no limit).
	EpisodeFacts(ctx context.Context, id string, history bool, offset, limit int) ([]Fact, error)
	// FilterFacts returns up to limit facts matching f (and key, when not ""), newest
	// valid-from time first, the first offset of them skipped: the direct look-up.
	FilterFacts(ctx context.Context, key string, f SearchFilter, offset, limit int) ([]Fact, error)
	// TextCandidates returns the items of q.Kind matching any of q.Terms by full text,
	// best first by BM25, filtered by q.Filter. No terms: no candidates.
	TextCandidates(ctx context.Context, q TextQuery) ([]Candidate, error)
	// VectorCandidates returns the items of q.Kind whose vector of model q.Model is
	// most similar to q.Vector, best first, filtered by q.Filter. Items without a
	// vector of that model are not candidates.
	VectorCandidates(ctx context.Context, q VectorQuery) ([]Candidate, error)
	// UnembeddedFacts returns up to limit indexed facts (current or superseded) with
	// no vector of model (none, or one of another model), in id order after the id
	// after ("" to start).
	UnembeddedFacts(ctx context.Context, model, after string, limit int) ([]Fact, error)
	// UnembeddedEpisodes is UnembeddedFacts for episodes.
	UnembeddedEpisodes(ctx context.Context, model, after string, limit int) ([]Episode, error)
	// CountUnembedded returns how many facts and episodes the two methods above would
	// return from the start without a limit.
	CountUnembedded(ctx context.Context, model string) (int, error)
	// VectorModels returns, for each embedder model and dimension of which the user
	// has stored vectors, how many facts and episodes have one, ordered by model and
	// dimension; none when the user has no vectors. Its cost does not grow with the
	// number of vectors: a search reads it every time.
	VectorModels(ctx context.Context) ([]VectorModel, error)
	// TermStats returns how many of the user's items of kind (current facts, or
	// episodes) it counted over and, for each term, in how many of them the
	// full-text index finds it, counting no further than maxFraction of them (plus
	// one) when maxFraction > 0. It counts over all the user's items, or, for a user
	// with more than TermStatsSample of them, over at least the TermStatsSample
	// newest: a term's share of those estimates its share of all, at a cost that
	// need not grow with the user's items.
	TermStats(ctx context.Context, kind string, terms []string, maxFraction float64) (docs int, df []int, err error)
	// TermCounts returns, for each term, in how many of the user's items of kind the
	// full-text index finds it, counting no further than limit (> 0): a count of limit
	// means limit or more. Its cost grows with limit, not with the user's items.
	TermCounts(ctx context.Context, kind string, terms []string, limit int) ([]int, error)
	// SubjectsNamed returns the subjects of the user's current facts that names (lower
	// case words) name: a subject equal to a name, or a subject with a current fact
	// keyed "name" whose value is a name.
	SubjectsNamed(ctx context.Context, names []string) ([]string, error)
}

// SearchTx writes episodes and index entries inside a write transaction. Facts' full
// text entries are kept by the store as facts are written; vectors are written by the
// engine, which computes them before the transaction.
type SearchTx interface {
	// InsertEpisode writes a new episode with its full-text entry. e.ID and the times
	// are set. EINVARIANT if the id is taken.
	InsertEpisode(ctx context.Context, e Episode) error
	// DeleteEpisode erases episode id with its tags, full-text entry and vector
	// (not its facts). It returns the number of episodes deleted, 0 or 1.
	DeleteEpisode(ctx context.Context, id string) (int, error)
	// MarkExtracted records that pattern extraction ran over episode id at time at.
	// ENOTFOUND if the user has no such episode.
	MarkExtracted(ctx context.Context, id string, at time.Time) error
	// PutVectors stores each item's vector, replacing any earlier one of the item. A
	// vector of an item that does not exist (erased meanwhile) is skipped.
	PutVectors(ctx context.Context, vs []Vector) error
}
