// Package vecindex ranks stored vectors in memory, for the stores that keep them in
// SQL tables. For each user, model and dimension searched, an Index keeps a copy of
// the user's vectors, brings it up to date before every search with the rows it has
// not seen yet, and offers the vectors nearest to the query by dot product, best
// first, for the store to join back to its live rows.
//
// The copy is kept correct without any notification from writers, even writers in
// other processes, given the two properties of the store stated on Source:
//   - a user's vector seqs grow in commit order, so a copy that has read every vector
//     with seq <= S finds all newer ones with one range read (seq > S) in the reader's
//     own snapshot;
//   - a vector deleted since (its item erased or retracted, or re-embedded) stays in
//     the copy as a ghost, but the store joins every hit back to its row in the
//     reader's snapshot, so a ghost is never returned; the store counts deletions per
//     user, and a copy is rebuilt when too many of its entries are ghosts.
//
// A copy keeps the vectors as float32s and scores every one exactly, or, with
// Options.Quantize, keeps codes of about 1.8 bytes a dimension instead and ranks by
// them: a sign-bit prefilter, int8 scores, and a 4-bit residual that refines the best
// (quant.go, rank.go).
//
// Copies are bounded by Options.MaxBytes per Index, least recently used first out; a
// user whose vectors alone exceed it is ranked by streaming the vectors from the store
// at each search, keeping only the best few (stream.go), so that no search holds more
// than the bound whatever one user stores.
package vecindex

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultMaxBytes is the default of Options.MaxBytes.
const DefaultMaxBytes = 512 << 20

// A copy is rebuilt when the deletions since it was last built exceed both
// rebuildGhosts and a rebuildShare of its entries: ghosts cost memory and ranking
// time, and a few are not worth a full read.
const (
	rebuildGhosts = 64
	rebuildShare  = 4 // 1/rebuildShare of the entries
)

// Options configures an Index.
type Options struct {
	// MaxBytes bounds the memory the copies hold together, in bytes.
	// Default DefaultMaxBytes (512 MiB).
	MaxBytes int64
	// Quantize keeps codes of each vector rather than its float32s (quant.go): 179
	// bytes for 100 dimensions, with its seq and kind, against 409. Search then
	// scores by the codes, to about 1e-4 of the exact dot product, and of many
	// vectors of the kind asked scores only those whose sign bits agree best with
	// the query's (see Search). Default false: float32s, every vector scored exactly.
	Quantize bool
}

// Index holds the in-memory copies of one store's vectors. It is safe for
// concurrent use.
type Index struct {
	maxBytes int64
	quantize bool
	clock    atomic.Int64 // ticks at every use of a copy, for least-recently-used eviction

	mu   sync.Mutex
	sets map[key]*set
}

// New returns an empty Index.
func New(o Options) *Index {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	return &Index{maxBytes: o.MaxBytes, quantize: o.Quantize, sets: map[key]*set{}}
}

// A Source reads one user's stored vectors for Search, in the snapshot of the
// store's transaction. Search calls it only during the call, from the calling
// goroutine.
//
// The Index relies on two properties of the store behind it:
//   - a user's vectors have unique seqs that grow in commit order: every vector
//     committed after a snapshot in which the greatest seq was S has a seq above S;
//   - every deletion of one of the user's vectors adds one to a count, in the
//     transaction that deletes it.
type Source interface {
	// Deletes returns the user's deletion count (0 for a user who never had a
	// vector deleted).
	Deletes(ctx context.Context) (int64, error)
	// Load calls add for the user's vectors with seq > after, in any order, and
	// returns through: every vector of the user with seq in (after, through] has
	// been passed to add. It may pass or leave out vectors of other models or
	// dimensions; the Index keeps those of the model and dimension searched. On
	// error, what was added is discarded.
	Load(ctx context.Context, after int64, add AddFunc) (through int64, err error)
}

// A Sizer is a Source that can tell cheaply about how many vectors of model and
// dimension dim the user has, so that an empty copy is read into room made once
// rather than grown by copying as it fills.
type Sizer interface {
	Size(ctx context.Context, model string, dim int) (int, error)
}

// AddFunc takes one stored vector from Source.Load: its seq, the kind of item it
// belongs to (factbase.KindFact or factbase.KindEpisode), its model and its
// components. A vec of another length than the dimension searched (nil, for a row
// that has no vector) only moves the copy past seq. The Index copies vec, so the
// caller may reuse it.
type AddFunc func(seq int64, kind, model string, vec []float32)

// Query is one search of an Index.
type Query struct {
	User   string    // the store's id of the user
	Model  string    // the model whose vectors are ranked
	Kind   string    // the kind of item whose vectors are ranked
	Vector []float32 // the query; its length is the dimension ranked
	Limit  int       // how many hits the caller means to keep; sizes the batches
}

// Hit is a vector offered by Search: its seq and its dot product with the query.
type Hit struct {
	Seq   int64
	Score float32
}

// Search brings the copy of q's user, model and dimension up to date through src,
// then passes the copy's vectors of q.Kind to accept in batches, best first by
// exact dot product with q.Vector (ties: the earlier loaded first), each vector
// once, until accept returns true or none are left. The first batch holds
// max(2*q.Limit, 64) hits and each next one four times as many as the one before.
//
// With Options.Quantize, a hit's score is its dot product as the codes tell it (to
// about 1e-4), and with many vectors of the kind the batches first come from the
// vectors whose sign bits agree best with the query's (prefilterSize: about
// sqrt(n × q.Limit), 7,071 of 1,000,000 for a q.Limit of 50); only if accept asks
// for more are the others scored, and offered after them.
//
// A hit may be a ghost (deleted since) or newer than src's snapshot: accept is
// expected to drop those it cannot join to a live row. Search returns the first
// error of src or accept. accept is called with the copy locked: it must not search
// the same Index.
func (x *Index) Search(ctx context.Context, src Source, q Query, accept func([]Hit) (done bool, err error)) error {
	if len(q.Vector) == 0 {
		return nil
	}
	k := key{user: q.User, model: q.Model, dim: len(q.Vector)}
	s := x.set(k)
	s.mu.Lock()
	if over, err := s.oversized(ctx, src, q.Model, x.maxBytes); over || err != nil {
		// The user's vectors alone exceed the bound: rank them as they stream by.
		defer s.mu.Unlock()
		if err != nil {
			return err
		}
		return streamRank(ctx, src, q, accept)
	}
	if s.empty() {
		// The user has no vectors at all: keep no copy, so that such users cost the
		// cache nothing.
		s.mu.Unlock()
		x.drop(k, s)
		return nil
	}
	x.evict(s)
	s.mu.Unlock()
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rank(q, accept)
}

// Budget returns the most bytes the copies may hold together (Options.MaxBytes) and
// what one vector of dimension dim takes in a copy.
func (x *Index) Budget(dim int) (maxBytes, each int64) {
	return x.maxBytes, entryBytes(dim, x.quantize)
}

// Bytes returns the bytes the copies hold together, and how many vectors they hold.
func (x *Index) Bytes() (bytes int64, vectors int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, s := range x.sets {
		bytes += s.size.Load()
		vectors += int(s.entries.Load())
	}
	return bytes, vectors
}

// entryBytes is what one vector of dimension dim takes in a copy: its seq and kind,
// and its float32s or, if quantized, its codes.
func entryBytes(dim int, quantized bool) int64 {
	if quantized {
		return 9 + codeBytes(dim)
	}
	return 9 + 4*int64(dim)
}

// Holds reports whether x holds a copy of user's vectors of model and dimension
// dim, made or being made; it does not wait for one being read.
func (x *Index) Holds(user, model string, dim int) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.sets[key{user: user, model: model, dim: dim}] != nil
}

// Through reports whether x holds a copy of user's vectors of model and dimension
// dim and, if so, the seq through which it has read them. It waits while the copy
// is being read.
func (x *Index) Through(user, model string, dim int) (int64, bool) {
	x.mu.Lock()
	s := x.sets[key{user: user, model: model, dim: dim}]
	x.mu.Unlock()
	if s == nil {
		return 0, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.maxSeq, true
}

// Refresh brings the copy of user's vectors of model and dimension dim up to date
// through src, making it if there is none, as Search does before it ranks: a store
// calls it in the background after writes, so that the search after a large load
// does not read the vectors itself. A user whose vectors exceed the bound, or who has
// none, gets no copy. It returns the first error of src.
func (x *Index) Refresh(ctx context.Context, src Source, user, model string, dim int) error {
	if dim <= 0 {
		return nil
	}
	k := key{user: user, model: model, dim: dim}
	s := x.set(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if over, err := s.oversized(ctx, src, model, x.maxBytes); over || err != nil {
		return err
	}
	if s.empty() {
		x.drop(k, s)
		return nil
	}
	x.evict(s)
	return nil
}

// Clear forgets every copy: the next search of each user reads its vectors afresh.
func (x *Index) Clear() {
	x.mu.Lock()
	defer x.mu.Unlock()
	clear(x.sets)
}

// key names one user's vectors of one model and dimension.
type key struct {
	user, model string
	dim         int
}

// set is the in-memory copy of one user's vectors of one model and dimension.
type set struct {
	mu         sync.RWMutex
	dim        int
	quantized  bool     // codes are kept, not vectors
	maxSeq     int64    // every vector of the user with seq <= maxSeq has been read
	deleted    int64    // the user's deletion count when the copy was last rebuilt
	seqs       []int64  // the seq of each entry
	kinds      []byte   // each entry's kind, an index into kindNames
	kindNames  []string // the kinds met so far
	kindCounts []int    // how many entries of each kind

	// Unless quantized: the vectors, len(seqs) * dim.
	vecs []float32

	// If quantized (quant.go): the center the codes are relative to (nil until
	// the first vectors are read); vectors read but not coded yet (pending, at
	// most centerSample, before the center is known); and per entry, its sign
	// bits (signWords(dim) words) and its record (recordWidth(dim) bytes).
	center  []float32
	pending []float32
	signs   []uint64
	records []byte
	resid   []float32 // encode's scratch

	// over is set when the user's vectors were found to exceed the bound, at
	// deletion count overAt: the copy is then empty, and searches stream.
	over    bool
	overAt  int64
	lastUse atomic.Int64
	size    atomic.Int64 // bytes held, updated under mu, read without it
	entries atomic.Int64 // len(seqs), likewise
}

// set returns the copy for k, creating an empty one, and marks it used.
func (x *Index) set(k key) *set {
	x.mu.Lock()
	defer x.mu.Unlock()
	s := x.sets[k]
	if s == nil {
		s = &set{dim: k.dim, quantized: x.quantize}
		x.sets[k] = s
	}
	s.lastUse.Store(x.clock.Add(1))
	return s
}

// drop forgets the copy s of k, unless another has replaced it meanwhile.
func (x *Index) drop(k key, s *set) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.sets[k] == s {
		delete(x.sets, k)
	}
}

// evict drops least recently used copies other than keep until the cache fits its
// budget (keep fits by itself: oversized saw to that). It takes no copy's lock (sizes
// are atomic), so it may be called while holding one.
func (x *Index) evict(keep *set) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var total int64
	for _, s := range x.sets {
		total += s.size.Load()
	}
	for total > x.maxBytes {
		var oldK key
		var old *set
		for k, s := range x.sets {
			if s != keep && (old == nil || s.lastUse.Load() < old.lastUse.Load()) {
				oldK, old = k, s
			}
		}
		if old == nil {
			return
		}
		total -= old.size.Load()
		delete(x.sets, oldK)
	}
}

// empty reports whether the copy has read nothing: the user had no vectors at all.
// The caller holds s.mu.
func (s *set) empty() bool { return len(s.seqs) == 0 && s.maxSeq == 0 }

// clear empties the copy. The caller holds s.mu.
func (s *set) clear() {
	s.maxSeq, s.seqs, s.kinds, s.vecs = 0, nil, nil, nil
	clear(s.kindCounts)
	s.center, s.pending, s.signs, s.records = nil, nil, nil, nil
}

// reserve makes room for n more entries. The caller holds s.mu.
func (s *set) reserve(n int) {
	s.seqs = slices.Grow(s.seqs, n)
	s.kinds = slices.Grow(s.kinds, n)
	if !s.quantized {
		s.vecs = slices.Grow(s.vecs, n*s.dim)
		return
	}
	s.signs = slices.Grow(s.signs, n*signWords(s.dim))
	s.records = slices.Grow(s.records, n*recordWidth(s.dim))
}

// add appends one vector of kind code. The caller holds s.mu.
func (s *set) add(seq int64, code byte, vec []float32) {
	s.seqs = append(s.seqs, seq)
	s.kinds = append(s.kinds, code)
	s.kindCounts[code]++
	switch {
	case !s.quantized:
		s.vecs = append(s.vecs, vec...)
	case s.center == nil:
		s.pending = append(s.pending, vec...)
		if len(s.pending) >= centerSample*s.dim {
			s.settle()
		}
	default:
		s.encode(vec)
	}
}

// truncate drops the entries from n on, and what is pending. The caller holds s.mu.
func (s *set) truncate(n int) {
	s.seqs, s.kinds = s.seqs[:n], s.kinds[:n]
	clear(s.kindCounts)
	for _, k := range s.kinds {
		s.kindCounts[k]++
	}
	if !s.quantized {
		s.vecs = s.vecs[:n*s.dim]
		return
	}
	s.pending = nil
	s.signs = s.signs[:n*signWords(s.dim)]
	s.records = s.records[:n*recordWidth(s.dim)]
}

// resize records the copy's size. The caller holds s.mu.
func (s *set) resize() {
	s.size.Store(int64(len(s.seqs))*9 + int64(len(s.vecs)+len(s.center)+len(s.pending))*4 +
		int64(len(s.signs))*8 + int64(len(s.records)))
	s.entries.Store(int64(len(s.seqs)))
}

// kindCode returns the code of kind in s.kinds, adding it if add is set; ok is
// false if kind is not there (and not added).
func (s *set) kindCode(kind string, add bool) (code byte, ok bool) {
	for i, k := range s.kindNames {
		if k == kind {
			return byte(i), true
		}
	}
	if !add || len(s.kindNames) > 255 {
		return 0, false
	}
	s.kindNames = append(s.kindNames, kind)
	s.kindCounts = append(s.kindCounts, 0)
	return byte(len(s.kindNames) - 1), true
}

// oversized brings s up to date with src's snapshot (refresh) unless its vectors of
// model alone exceed maxBytes; then it empties s and reports true. A user found too
// big is not read into a copy again until a deletion may have made them fit. The
// caller holds s.mu.
func (s *set) oversized(ctx context.Context, src Source, model string, maxBytes int64) (bool, error) {
	if s.over {
		deleted, err := src.Deletes(ctx)
		if err != nil || deleted == s.overAt {
			return true, err
		}
		s.over = false
	}
	err := s.refresh(ctx, src, model, maxBytes)
	if err == errOversized {
		s.clear()
		s.resize()
		s.over, s.overAt = true, s.deleted
		return true, nil
	}
	return false, err
}

// errOversized stops refresh when the copy would exceed its bound.
var errOversized = errors.New("vecindex: the user's vectors exceed the bound")

// refresh brings s up to date with src's snapshot, rebuilding it first if too many
// of its entries are ghosts. It returns errOversized as soon as the copy would hold
// more than maxBytes. On error s is left as it was before the load. The caller holds
// s.mu.
func (s *set) refresh(ctx context.Context, src Source, model string, maxBytes int64) error {
	deleted, err := src.Deletes(ctx)
	if err != nil {
		return err
	}
	if ghosts := deleted - s.deleted; ghosts > rebuildGhosts && ghosts > int64(len(s.seqs)/rebuildShare) {
		s.clear()
		s.deleted = deleted
	} else if s.empty() {
		s.deleted = deleted
	}
	n, maxSeq := len(s.seqs), s.maxSeq
	each := entryBytes(s.dim, s.quantized)
	if sz, ok := src.(Sizer); ok && s.empty() {
		if want, err := sz.Size(ctx, model, s.dim); err == nil && want > 0 && int64(want)*each <= maxBytes {
			s.reserve(want)
		}
	}
	over := false
	through, err := src.Load(ctx, s.maxSeq, func(seq int64, kind, mdl string, vec []float32) {
		s.maxSeq = max(s.maxSeq, seq)
		if over || mdl != model || len(vec) != s.dim {
			return
		}
		if int64(len(s.seqs)+1)*each > maxBytes {
			over = true // read on, keep nothing more: Load has no way to stop
			return
		}
		code, ok := s.kindCode(kind, true)
		if !ok {
			return
		}
		s.add(seq, code, vec)
	})
	if err == nil && over {
		err = errOversized
	}
	if err != nil {
		// A partial load would be read again: roll it back.
		s.maxSeq = maxSeq
		s.truncate(n)
		s.resize()
		return err
	}
	s.settle()
	s.maxSeq = max(s.maxSeq, through)
	s.resize()
	return nil
}
