// Package canon turns the topic phrase of a favorites statement ("my fave films",
// "Cryptos") into one canonical topic ("movie", "cryptocurrency"), so that the same
// list is not split over several spellings. It is pure apart from the model hooks it is
// given: no I/O of its own, no global mutable state.
//
// A decision is made in this order, and each reports its method and confidence:
//
//  1. Normalize the phrase (see Normalize). Empty: EINVALID.
//  2. The alias table, built-in defaults (DefaultAliases) merged with Options.Aliases:
//     an alias, or a canonical topic of the table, gives method "alias", confidence 1.0.
//  3. Exact match with a known topic (compared in Normalize form; the known spelling is
//     returned): method "exact", confidence 1.0.
//  4. "kind of X", "type of X", "sort of X", "variety of X": steps 2 and 3 for X.
//  5. If Options.Embed is set: cosine similarity of the normal form against each known
//     topic; the best at or above Options.Threshold (0.92) gives method "embedding" with
//     the similarity as confidence.
//  6. If Options.Teach is set and the confidence so far is below Options.TeachBelow
//     (0.8; a fallback counts 0.5): the teacher's answer, in Normalize form, through the
//     alias table and matched to a known topic, gives method "teacher" with its
//     confidence, if that is higher than the fallback's.
//  7. Fallback: the normal form (with a leading "kind of" removed), method "fallback",
//     confidence 0.5.
//
// Decisions are cached (see CacheSize).
package canon

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/factbase/factbase"
)

// The decision methods.
const (
	MethodAlias     = "alias"
	MethodExact     = "exact"
	MethodEmbedding = "embedding"
	MethodTeacher   = "teacher"
	MethodFallback  = "fallback"
)

// Defaults of Options.
const (
	DefaultThreshold  = 0.92
	DefaultTeachBelow = 0.8
	// FallbackConfidence is the confidence of a fallback decision.
	FallbackConfidence = 0.5
	// CacheSize is how many decisions, and separately how many known-topic vectors, a
	// Canonicalizer keeps; the least recently used go first.
	CacheSize = 4096
	// MaxTopic is the longest normal form, in bytes, Canonicalize accepts.
	MaxTopic = 128
)

// Decision is the canonical topic chosen for a phrase, how, and how sure.
type Decision struct {
	Topic      string  `json:"topic"`
	Method     string  `json:"method"` // alias, exact, embedding, teacher, fallback
	Confidence float64 `json:"confidence"`
}

// EmbedFunc returns the embedding vector of text.
type EmbedFunc func(ctx context.Context, text string) ([]float32, error)

// TeachFunc asks a teacher (typically an LLM) for the canonical topic of raw, given the
// topics already known. It returns the topic and its confidence in [0, 1].
type TeachFunc func(ctx context.Context, raw string, known []string) (topic string, confidence float64, err error)

// Options configures a Canonicalizer. The zero value is usable: built-in aliases only,
// no embedding, no teacher.
type Options struct {
	// Aliases maps alias to canonical topic, merged over DefaultAliases (an entry here
	// wins). Both sides are put in Normalize form; chains are followed.
	Aliases map[string]string
	// Embed, when set, enables the similarity step. nil: the step is skipped.
	Embed EmbedFunc
	// Threshold is the least cosine similarity accepted by the similarity step; 0
	// means DefaultThreshold (0.92).
	Threshold float64
	// Teach, when set, enables the teacher step. nil (the default): skipped.
	Teach TeachFunc
	// TeachBelow: the teacher is consulted when the best confidence so far is below
	// it; 0 means DefaultTeachBelow (0.8).
	TeachBelow float64
}

// Canonicalizer maps topic phrases to canonical topics. It is safe for concurrent use.
type Canonicalizer struct {
	aliases    map[string]string // normal alias -> normal canonical
	targets    map[string]bool   // canonical topics of the alias table
	embed      EmbedFunc
	threshold  float64
	teach      TeachFunc
	teachBelow float64

	decisions *lru[string, Decision]
	vectors   *lru[string, []float32]
}

// New returns a Canonicalizer configured by o.
func New(o Options) *Canonicalizer {
	raw := map[string]string{}
	for k, v := range defaultAliases {
		raw[k] = v
	}
	for k, v := range o.Aliases {
		if nk, nv := Normalize(k), Normalize(v); nk != "" && nv != "" {
			raw[nk] = nv
		}
	}
	c := &Canonicalizer{
		aliases:    make(map[string]string, len(raw)),
		targets:    map[string]bool{},
		embed:      o.Embed,
		threshold:  o.Threshold,
		teach:      o.Teach,
		teachBelow: o.TeachBelow,
		decisions:  newLRU[string, Decision](CacheSize),
		vectors:    newLRU[string, []float32](CacheSize),
	}
	if c.threshold == 0 {
		c.threshold = DefaultThreshold
	}
	if c.teachBelow == 0 {
		c.teachBelow = DefaultTeachBelow
	}
	for k := range raw {
		v := resolve(raw, k)
		if v == k {
			// An alias mapped to itself switches a default off.
			continue
		}
		c.aliases[k] = v
		c.targets[v] = true
	}
	return c
}

// Canonicalize returns the canonical topic of raw, given the topics already known (the
// canonical topics of the user's lists). It is safe for concurrent use.
//
// Errors: EINVALID when raw is empty after Normalize or its normal form is longer than
// MaxTopic bytes. When the embedder or the teacher fails (or ctx ends while they run),
// Canonicalize returns the decision it reaches without that step — usable, and never
// cached — together with a non-nil error wrapping the cause, so that callers can both
// proceed and report the failure; the error keeps the cause's factbase code.
func (c *Canonicalizer) Canonicalize(ctx context.Context, raw string, known []string) (Decision, error) {
	n := Normalize(raw)
	if n == "" {
		return Decision{}, factbase.Errorf(factbase.EINVALID, "topic %q is empty", clip(raw))
	}
	if len(n) > MaxTopic {
		return Decision{}, factbase.Errorf(factbase.EINVALID, "topic %q is longer than %d bytes", clip(n), MaxTopic)
	}
	key := n + "\x00" + fingerprint(known)
	if d, ok := c.decisions.get(key); ok {
		return d, nil
	}
	d, err := c.decide(ctx, raw, n, known)
	if err == nil {
		c.decisions.put(key, d)
	}
	return d, err
}

// CacheStats reports how many Canonicalize calls were answered from the decision cache
// and how many were not.
func (c *Canonicalizer) CacheStats() (hits, misses uint64) {
	return c.decisions.stats()
}

// decide runs steps 2 to 7 for the normal form n.
func (c *Canonicalizer) decide(ctx context.Context, raw, n string, known []string) (Decision, error) {
	normKnown := make(map[string]string, len(known))
	for _, k := range known {
		if nk := Normalize(k); nk != "" {
			if _, dup := normKnown[nk]; !dup {
				normKnown[nk] = k
			}
		}
	}
	lookup := func(s string) (Decision, bool) {
		if a, ok := c.aliases[s]; ok {
			return Decision{Topic: a, Method: MethodAlias, Confidence: 1}, true
		}
		if c.targets[s] {
			return Decision{Topic: s, Method: MethodAlias, Confidence: 1}, true
		}
		if k, ok := normKnown[s]; ok {
			return Decision{Topic: k, Method: MethodExact, Confidence: 1}, true
		}
		return Decision{}, false
	}
	if d, ok := lookup(n); ok {
		return d, nil
	}
	head := stripKind(n)
	if head != n {
		if d, ok := lookup(head); ok {
			return d, nil
		}
	}

	best := Decision{Topic: head, Method: MethodFallback, Confidence: FallbackConfidence}
	if c.embed != nil && len(normKnown) > 0 {
		d, ok, err := c.similar(ctx, n, normKnown)
		if err != nil {
			return best, fmt.Errorf("canon: embedding: %w", err)
		}
		if ok {
			best = d
		}
	}
	if c.teach != nil && best.Confidence < c.teachBelow {
		if err := ctx.Err(); err != nil {
			return best, fmt.Errorf("canon: teacher: %w", ctxError(err))
		}
		t, conf, err := c.teach(ctx, raw, known)
		if err != nil {
			return best, fmt.Errorf("canon: teacher: %w", err)
		}
		nt := Normalize(t)
		if nt == "" || len(nt) > MaxTopic {
			return best, factbase.Errorf(factbase.EINTERNAL, "canon: teacher returned an unusable topic %q", clip(t))
		}
		if math.IsNaN(conf) {
			conf = 0
		}
		conf = math.Max(0, math.Min(1, conf))
		if a, ok := c.aliases[nt]; ok {
			nt = a
		}
		if k, ok := normKnown[nt]; ok {
			nt = k
		}
		if conf > best.Confidence {
			best = Decision{Topic: nt, Method: MethodTeacher, Confidence: conf}
		}
	}
	return best, nil
}

// similar returns the known topic most similar to n, if its similarity reaches the
// threshold. Known topics are visited in sorted order so that ties break the same way
// every time.
func (c *Canonicalizer) similar(ctx context.Context, n string, normKnown map[string]string) (Decision, bool, error) {
	q, err := c.vector(ctx, n)
	if err != nil {
		return Decision{}, false, err
	}
	var best Decision
	found := false
	for _, nk := range sortedKeys(normKnown) {
		v, err := c.vector(ctx, nk)
		if err != nil {
			return Decision{}, false, err
		}
		if len(v) != len(q) {
			return Decision{}, false, factbase.Errorf(factbase.EINTERNAL, "embedding of %q has %d dimensions, want %d", clip(nk), len(v), len(q))
		}
		sim := cosine(q, v)
		if sim >= c.threshold && (!found || sim > best.Confidence) {
			best, found = Decision{Topic: normKnown[nk], Method: MethodEmbedding, Confidence: sim}, true
		}
	}
	return best, found, nil
}

// vector returns the embedding of s, from the vector cache when it is there.
func (c *Canonicalizer) vector(ctx context.Context, s string) ([]float32, error) {
	if v, ok := c.vectors.get(s); ok {
		return v, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(err)
	}
	v, err := c.embed(ctx, s)
	if err != nil {
		return nil, err
	}
	if len(v) == 0 {
		return nil, factbase.Errorf(factbase.EINTERNAL, "embedding of %q is empty", clip(s))
	}
	c.vectors.put(s, v)
	return v, nil
}

// cosine returns the cosine similarity of a and b (of equal length), 0 if either is
// the zero vector.
func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	s := dot / (math.Sqrt(na) * math.Sqrt(nb))
	if math.IsNaN(s) {
		return 0
	}
	return math.Max(-1, math.Min(1, s))
}

// stripKind removes a leading "kind of", "type of", "sort of" or "variety of".
func stripKind(n string) string {
	for _, p := range []string{"kind of ", "type of ", "sort of ", "variety of "} {
		if rest, ok := strings.CutPrefix(n, p); ok && rest != "" {
			return rest
		}
	}
	return n
}

// fingerprint identifies a set of known topics independently of their order.
func fingerprint(known []string) string {
	var sum, xor uint64
	for _, k := range known {
		h := fnv.New64a()
		h.Write([]byte(k))
		x := mix(h.Sum64())
		sum += x
		xor ^= mix(x)
	}
	return fmt.Sprintf("%x.%x.%d", sum, xor, len(known))
}

// mix is the splitmix64 finaliser.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	return s[:64] + "…"
}

// lru is a bounded, concurrency-safe least-recently-used map.
type lru[K comparable, V any] struct {
	mu           sync.Mutex
	max          int
	order        *list.List // front: most recent; elements hold *entry[K, V]
	items        map[K]*list.Element
	hits, misses uint64
}

type entry[K comparable, V any] struct {
	k K
	v V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), items: map[K]*list.Element{}}
}

func (l *lru[K, V]) get(k K) (V, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.items[k]; ok {
		l.order.MoveToFront(e)
		l.hits++
		return e.Value.(*entry[K, V]).v, true
	}
	l.misses++
	var zero V
	return zero, false
}

func (l *lru[K, V]) put(k K, v V) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.items[k]; ok {
		e.Value.(*entry[K, V]).v = v
		l.order.MoveToFront(e)
		return
	}
	l.items[k] = l.order.PushFront(&entry[K, V]{k, v})
	for l.order.Len() > l.max {
		old := l.order.Back()
		l.order.Remove(old)
		delete(l.items, old.Value.(*entry[K, V]).k)
	}
}

func (l *lru[K, V]) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.order.Len()
}

func (l *lru[K, V]) stats() (hits, misses uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hits, l.misses
}

// ctxError classifies a context error: a passed deadline is ETIMEOUT, a cancellation
// EUNAVAILABLE; both wrap err.
func ctxError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &factbase.Error{Code: factbase.ETIMEOUT, Message: "deadline exceeded", Err: err}
	}
	return &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "canceled", Err: err}
}
