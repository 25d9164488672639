package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench/cputime"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
	"github.com/google/uuid"
)

// SearchOptions configure RunSearch. The zero value loads 1,000 memories without
// vectors and asks 200 questions.
type SearchOptions struct {
	// N is how many memories the one user holds; default 1,000.
	N int
	// Queries is how many questions are asked; default 200.
	Queries int
	// Seed picks the data set (GenMemory, GenQuestion); default 1.
	Seed uint64
	// Embedder gives memories and questions their vectors; nil: none (full text
	// alone).
	Embedder factbase.Embedder
	// Dir is where the database file goes; default a new temporary directory,
	// removed after.
	Dir string
	// Progress, if set, is told what the run is doing, now and then during the load.
	Progress func(msg string)
	// Profile, if set, receives a CPU profile of the searches (not of the load).
	Profile io.Writer
}

// Quality is how well one search found the memories the questions were made from.
type Quality struct {
	Questions  int     `json:"questions"`
	RecallAt10 float64 `json:"recall_at_10"` // the source among the first 10 memories found
	HitAt1     float64 `json:"hit_at_1"`     // the source first
}

// Latency is the percentiles of a search's wall time, in milliseconds.
type Latency struct {
	P50ms  float64 `json:"p50_ms"`
	P95ms  float64 `json:"p95_ms"`
	P99ms  float64 `json:"p99_ms"`
	MeanMs float64 `json:"mean_ms"`
	// CPUSeconds is the process's CPU time over all the searches.
	CPUSeconds float64 `json:"cpu_seconds"`
}

// SearchRun is one search method's figures: the product's, or exact search's.
type SearchRun struct {
	// FirstMs is the first search after the load, which reads the vectors into
	// memory unless they are already there; it is not among the percentiles.
	FirstMs float64 `json:"first_search_ms"`
	Latency Latency `json:"latency"`
	All     Quality `json:"all"`
	// Rare are the questions asked by a rare token (an identifier, an invented word,
	// an unusual name); Common the others, of which Synonym name the memory's object
	// by a word of like meaning.
	Rare    Quality `json:"rare"`
	Common  Quality `json:"common"`
	Synonym Quality `json:"synonym"`
}

// SearchReport is what RunSearch measured.
type SearchReport struct {
	N        int    `json:"n"`
	Queries  int    `json:"queries"`
	Seed     uint64 `json:"seed"`
	Embedder string `json:"embedder"` // the model, "none" without one
	// AddPerSecond is memories stored per second through the write path
	// (ingest.Service.AddEpisodes, MaxEpisodeBatch a transaction, two writers).
	AddPerSecond  float64 `json:"add_per_second"`
	AddSeconds    float64 `json:"add_seconds"`
	AddCPUSeconds float64 `json:"add_cpu_seconds"`
	// Search is the product's search (retrieve.Service.Search, top 10); Exact is the
	// same search over a second connection to the same file whose vectors are ranked
	// by a full scan of exact cosine similarities (sqlite.Options.ExactVectors).
	Search SearchRun `json:"search"`
	Exact  SearchRun `json:"exact"`
	// AgreementAt10 is the mean share of exact search's first 10 memories that the
	// product's first 10 hold too.
	AgreementAt10 float64 `json:"agreement_at_10"`
	// VectorRecallAt10 is the mean share of the exact 10 nearest vectors to a question
	// that the product's vector candidates hold (0 without an embedder).
	VectorRecallAt10 float64 `json:"vector_recall_at_10,omitempty"`
	// DiskBytes is the database file once loaded and checkpointed; BytesPerMemory
	// divides it by N.
	DiskBytes      int64   `json:"disk_bytes"`
	BytesPerMemory float64 `json:"bytes_per_memory"`
	// RSSBytes is the process's resident set after the searches (both stores open),
	// PeakRSSBytes its peak over the run (the generator keeps 20 bytes a memory
	// besides the store). SearchRSSBytes is the resident set with the product's
	// store alone, after its first search, once the garbage of the load is returned
	// to the system: what a server holding this user takes.
	RSSBytes       int64 `json:"rss_bytes"`
	PeakRSSBytes   int64 `json:"peak_rss_bytes"`
	SearchRSSBytes int64 `json:"search_rss_bytes"`
	// VectorBytes is what the product's store holds in memory of the user's
	// vectors after the searches (sqlite.Store.VectorMemory), VectorCopies how many
	// vectors that is.
	VectorBytes  int64     `json:"vector_bytes"`
	VectorCopies int       `json:"vector_copies"`
	Seconds      float64   `json:"seconds"`
	GoVersion    string    `json:"go_version"`
	CPUs         int       `json:"cpus"`
	Started      time.Time `json:"started"`
}

// searchUser is the one user whose memories are searched.
const searchUser = factbase.UserID("00000000-0000-4000-8000-5ea4c4000001")

// RunSearch loads o.N generated memories for one user through the product's write
// path, then asks o.Queries generated questions of the product's search and of exact
// search over the same file, and reports the load's rate, each search's latency and
// how often it found the question's source, the file's size and the resident set.
func RunSearch(ctx context.Context, o SearchOptions) (SearchReport, error) {
	if o.N <= 0 {
		o.N = 1000
	}
	if o.Queries <= 0 {
		o.Queries = 200
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	rep := SearchReport{N: o.N, Queries: o.Queries, Seed: o.Seed, Embedder: "none", GoVersion: runtime.Version(),
		CPUs: runtime.NumCPU(), Started: time.Now().UTC()}
	if o.Embedder != nil {
		rep.Embedder = o.Embedder.Model()
	}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			o.Progress(fmt.Sprintf(format, args...))
		}
	}
	start := time.Now()
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "factbase-bench-search-")
		if err != nil {
			return rep, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	path := filepath.Join(dir, "search.db")
	store, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return rep, err
	}
	defer store.Close()
	e := memory.New(store, memory.Options{Embedder: o.Embedder, NoSheetRegen: true})
	ids, err := loadMemories(ctx, e, o, &rep, progress)
	if err != nil {
		return rep, fmt.Errorf("bench: load: %w", err)
	}
	// Checkpoint so that the size on disk is the database's, not a WAL's backlog.
	if _, err := store.Purge(ctx); err != nil {
		return rep, err
	}
	rep.DiskBytes = dirSize(dir, "search.db")
	rep.BytesPerMemory = float64(rep.DiskBytes) / float64(o.N)

	// Exact search opens the file a second time, after the product's first search,
	// so that its own background read of the vectors does not slow that one.
	var exactStore *sqlite.Store
	defer func() {
		if exactStore != nil {
			exactStore.Close()
		}
	}()
	openExact := func() (*memory.Engine, factbase.Store, error) {
		var err error
		if exactStore, err = sqlite.Open(ctx, path, sqlite.Options{ExactVectors: true}); err != nil {
			return nil, nil, err
		}
		return memory.New(exactStore, memory.Options{Embedder: o.Embedder, NoSheetRegen: true}), exactStore, nil
	}

	progress("searching: %d questions, the product's search and exact search", o.Queries)
	if o.Profile != nil {
		if err := pprof.StartCPUProfile(o.Profile); err != nil {
			return rep, err
		}
		defer pprof.StopCPUProfile()
	}
	if err := askAll(ctx, e, openExact, store, ids, o, &rep); err != nil {
		return rep, fmt.Errorf("bench: search: %w", err)
	}
	rep.RSSBytes, rep.PeakRSSBytes = procStatus("VmRSS"), procStatus("VmHWM")
	rep.VectorBytes, rep.VectorCopies = store.VectorMemory()
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// memoryIDs maps the episode ids of the memories back to their indexes.
type memoryIDs struct {
	ids  [][16]byte // sorted
	idxs []int32    // the memory of each id
}

// index returns the memory of episode id, or -1.
func (m memoryIDs) index(id string) int {
	u, err := uuid.Parse(id)
	if err != nil {
		return -1
	}
	i, ok := slices.BinarySearchFunc(m.ids, [16]byte(u), func(a, b [16]byte) int { return bytes.Compare(a[:], b[:]) })
	if !ok {
		return -1
	}
	return int(m.idxs[i])
}

// loadMemories writes the N memories through ingest.Service.AddEpisodes, in batches
// of ingest.MaxEpisodeBatch from two writers (so that one batch's embedding overlaps
// the other's transaction, as concurrent clients would), and returns their ids.
func loadMemories(ctx context.Context, e *memory.Engine, o SearchOptions, rep *SearchReport, progress func(string, ...any)) (memoryIDs, error) {
	const writers = 2
	batch := ingest.MaxEpisodeBatch
	type pair struct {
		id  [16]byte
		idx int32
	}
	pairs := make([][]pair, writers)
	t0, c0 := time.Now(), cputime.Used()
	lastReport := time.Now()
	progress("loading %d memories", o.N)
	_, total, err := concurrently(writers, func(w int) ([]time.Duration, error) {
		for off := w * batch; off < o.N; off += writers * batch {
			in := make([]ingest.EpisodeInput, 0, batch)
			for i := off; i < min(o.N, off+batch); i++ {
				in = append(in, ingest.EpisodeInput{Content: GenMemory(o.Seed, o.N, i).Text})
			}
			eps, _, err := e.Ingest.AddEpisodes(ctx, searchUser, in)
			if err != nil {
				return nil, err
			}
			for k, ep := range eps {
				u, err := uuid.Parse(ep.ID)
				if err != nil {
					return nil, err
				}
				pairs[w] = append(pairs[w], pair{[16]byte(u), int32(off + k)})
			}
			if w == 0 && time.Since(lastReport) > 5*time.Second {
				lastReport = time.Now()
				n := off + len(eps)
				progress("loaded about %d of %d memories, %.0f a second", n, o.N, float64(n)/time.Since(t0).Seconds())
			}
		}
		return nil, nil
	})
	if err != nil {
		return memoryIDs{}, err
	}
	rep.AddSeconds = total.Seconds()
	rep.AddPerSecond = float64(o.N) / total.Seconds()
	if c0 >= 0 {
		rep.AddCPUSeconds = (cputime.Used() - c0).Seconds()
	}
	all := slices.Concat(pairs...)
	slices.SortFunc(all, func(a, b pair) int { return bytes.Compare(a.id[:], b.id[:]) })
	m := memoryIDs{ids: make([][16]byte, len(all)), idxs: make([]int32, len(all))}
	for i, p := range all {
		m.ids[i], m.idxs[i] = p.id, p.idx
	}
	return m, nil
}

// memories returns the memories of hits in order, each once: an episode is its own
// memory, a fact extracted from one is that episode's.
func (m memoryIDs) memories(hits []retrieve.Hit) []int {
	var out []int
	for _, h := range hits {
		id := h.ID
		if h.Fact != nil {
			id = h.Fact.Source.ID
		}
		if i := m.index(id); i >= 0 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// tally accumulates one search method's latencies and, per class of question, how
// often it found the source.
type tally struct {
	lat                        []time.Duration
	cpu                        time.Duration
	all, rare, common, synonym counts
}

// counts are questions, those whose source was among the first 10, and first.
type counts struct{ n, in10, first int }

func (c *counts) add(in10, first bool) {
	c.n++
	if in10 {
		c.in10++
	}
	if first {
		c.first++
	}
}

func (c counts) quality() Quality {
	q := Quality{Questions: c.n}
	if c.n > 0 {
		q.RecallAt10, q.HitAt1 = float64(c.in10)/float64(c.n), float64(c.first)/float64(c.n)
	}
	return q
}

func (t *tally) add(q Question, found []int, d time.Duration) {
	t.lat = append(t.lat, d)
	in10 := slices.Contains(found[:min(10, len(found))], q.Source)
	first := len(found) > 0 && found[0] == q.Source
	t.all.add(in10, first)
	switch {
	case q.Rare != RareNone:
		t.rare.add(in10, first)
	default:
		t.common.add(in10, first)
		if q.Synonym {
			t.synonym.add(in10, first)
		}
	}
}

func (t *tally) run(first time.Duration) SearchRun {
	r := SearchRun{FirstMs: ms(first), All: t.all.quality(), Rare: t.rare.quality(), Common: t.common.quality(),
		Synonym: t.synonym.quality()}
	s := slices.Clone(t.lat)
	slices.Sort(s)
	if len(s) > 0 {
		pct := func(p float64) float64 { return ms(s[min(len(s)-1, int(p*float64(len(s))))]) }
		var sum time.Duration
		for _, d := range s {
			sum += d
		}
		r.Latency = Latency{P50ms: pct(0.50), P95ms: pct(0.95), P99ms: pct(0.99), MeanMs: ms(sum) / float64(len(s)),
			CPUSeconds: t.cpu.Seconds()}
	}
	return r
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// askAll asks every question of the product's search (e) and of exact search (made
// by openExact after e's first search), the two over the same file, and of each
// store's vector candidates.
func askAll(ctx context.Context, e *memory.Engine, openExact func() (*memory.Engine, factbase.Store, error), store factbase.Store, ids memoryIDs, o SearchOptions, rep *SearchReport) error {
	so := retrieve.SearchOptions{Limit: 10}
	search := func(en *memory.Engine, text string) ([]int, time.Duration, error) {
		t0 := time.Now()
		res, err := en.Retrieve.Search(ctx, searchUser, text, so)
		d := time.Since(t0)
		if err != nil {
			return nil, d, fmt.Errorf("search %q: %w", text, err)
		}
		return ids.memories(res.Hits), d, nil
	}
	// The first search of each, with a question of its own, reads the vectors.
	warm := GenQuestion(o.Seed, o.N, o.Queries).Text
	_, first, err := search(e, warm)
	if err != nil {
		return err
	}
	debug.FreeOSMemory()
	rep.SearchRSSBytes = procStatus("VmRSS")
	ex, exactStore, err := openExact()
	if err != nil {
		return err
	}
	_, exactFirst, err := search(ex, warm)
	if err != nil {
		return err
	}
	var prod, exact tally
	var agree, vecRecall float64
	for j := range o.Queries {
		q := GenQuestion(o.Seed, o.N, j)
		c0 := cputime.Used()
		got, d, err := search(e, q.Text)
		if err != nil {
			return err
		}
		prod.cpu += cputime.Used() - c0
		prod.add(q, got, d)
		c0 = cputime.Used()
		want, d, err := search(ex, q.Text)
		if err != nil {
			return err
		}
		exact.cpu += cputime.Used() - c0
		exact.add(q, want, d)
		agree += overlap(got, want, 10)
		if o.Embedder != nil {
			r, err := vectorRecall(ctx, o.Embedder, store, exactStore, q.Text)
			if err != nil {
				return err
			}
			vecRecall += r
		}
	}
	rep.Search, rep.Exact = prod.run(first), exact.run(exactFirst)
	rep.AgreementAt10 = agree / float64(o.Queries)
	if o.Embedder != nil {
		rep.VectorRecallAt10 = vecRecall / float64(o.Queries)
	}
	return nil
}

// overlap is the share of the first k of want that the first k of got hold; 1 when
// want is empty.
func overlap(got, want []int, k int) float64 {
	want = want[:min(k, len(want))]
	if len(want) == 0 {
		return 1
	}
	n := 0
	for _, w := range want {
		if slices.Contains(got[:min(k, len(got))], w) {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// vectorRecall is the share of the exact 10 nearest episodes to text's vector that
// the product's vector candidates hold.
func vectorRecall(ctx context.Context, emb factbase.Embedder, store, exactStore factbase.Store, text string) (float64, error) {
	vs, err := emb.Embed(ctx, []string{text})
	if err != nil {
		return 0, err
	}
	q := factbase.VectorQuery{Kind: factbase.KindEpisode, Model: emb.Model(), Vector: vs[0], Limit: 10}
	ids := func(s factbase.Store) ([]string, error) {
		var out []string
		err := s.View(ctx, searchUser, func(tx factbase.ReadTx) error {
			cs, err := tx.VectorCandidates(ctx, q)
			for _, c := range cs {
				out = append(out, c.ID)
			}
			return err
		})
		return out, err
	}
	got, err := ids(store)
	if err != nil {
		return 0, err
	}
	want, err := ids(exactStore)
	if err != nil || len(want) == 0 {
		return 1, err
	}
	n := 0
	for _, w := range want {
		if slices.Contains(got, w) {
			n++
		}
	}
	return float64(n) / float64(len(want)), nil
}
