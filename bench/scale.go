package bench

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench/cputime"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
)

// The scale benchmark (factbase bench scale): many users' facts loaded through the
// write path's bulk set insert, then searches, reads and writes of random users,
// and the store's size on disk, for each store given, over the same generated data.
// It is what docs/scaling.md's capacity model is built from.

// The scale targets (issue #27).
const (
	ScaleSearchP95Ms     = 20.0   // hybrid search p95 of a random user
	ScaleLoadPerSecond   = 5000.0 // facts loaded per second
	ScaleBytesPerFactMax = 1536.0 // on disk, with indexes, vectors and TOAST
)

// ScaleOptions configure RunScale. The zero value loads 10,000 users of 100 facts.
type ScaleOptions struct {
	Users int // default 10,000
	Facts int // per user; default 100
	// Batch is the most facts of one transaction; default Facts, at most
	// core.MaxOps. The bulk set insert takes 32 or more.
	Batch int
	// Writers load users at once; default 4. Each embeds its next batch while the
	// others' transactions run, as the clients of a server would.
	Writers int
	// Searches, Reads and Writes are the timed operations of each kind; default
	// 1,000 each.
	Searches, Reads, Writes int
	// Seed picks the generated data and the users and questions of the timed
	// operations; default 1. The same seed gives every store the same data.
	Seed uint64
	// Embedder gives facts and questions their vectors; nil: none.
	Embedder factbase.Embedder
	// Stores are measured one after the other, each on the same data.
	Stores []ScaleStore
	// Progress, if set, is told what the run is doing.
	Progress func(msg string)
}

// ScaleStore is one store under test: how to open it empty and what it can say
// about itself.
type ScaleStore struct {
	Name string
	// Open returns the store, empty, and a line that describes it (its vector path).
	Open func(ctx context.Context) (factbase.Store, string, error)
	// Prepare, if set, runs after the load and is timed: what the store does once
	// after a bulk load (PostgreSQL builds the HNSW index of the embedder's
	// dimension, dim, 0 without an embedder, if a search would). It says what it did.
	Prepare func(ctx context.Context, s factbase.Store, dim int) (string, error)
	// Size returns the store's bytes on disk, indexes, vectors and logs included,
	// and its tables, when it can tell them.
	Size func(ctx context.Context, s factbase.Store) (int64, []TableSize, error)
	// Blocks, if set, returns the store's cumulative counts of blocks found in its
	// cache (hit) and read from the operating system (read): the differences over
	// each phase are its I/O per operation.
	Blocks func(ctx context.Context, s factbase.Store) (hit, read int64, err error)
	// Close closes the store and removes it, unless the caller keeps it.
	Close func(ctx context.Context, s factbase.Store) error
}

// TableSize is one table of a store: its rows and bytes on disk, indexes included
// (IndexBytes of them, when the store tells them apart).
type TableSize struct {
	Name       string `json:"name"`
	Rows       int64  `json:"rows"`
	Bytes      int64  `json:"bytes"`
	IndexBytes int64  `json:"index_bytes,omitempty"`
}

// Blocks is what one operation cost in blocks of the store's cache: found there
// (hit) or read from the operating system (read).
type Blocks struct {
	Hit  float64 `json:"hit"`
	Read float64 `json:"read"`
}

// ScaleReport is a whole run.
type ScaleReport struct {
	Users        int           `json:"users"`
	FactsPerUser int           `json:"facts_per_user"`
	Batch        int           `json:"batch"`
	Writers      int           `json:"writers"`
	Seed         uint64        `json:"seed"`
	Embedder     string        `json:"embedder"` // the model, "none" without one
	Dim          int           `json:"dim"`
	Stores       []StoreReport `json:"stores"`
	Targets      ScaleTargets  `json:"targets"`
	Seconds      float64       `json:"seconds"`
	GoVersion    string        `json:"go_version"`
	CPUs         int           `json:"cpus"`
	Started      time.Time     `json:"started"`
}

// ScaleTargets are the targets the stores are held to.
type ScaleTargets struct {
	SearchP95Ms     float64 `json:"search_p95_ms"`
	LoadPerSecond   float64 `json:"load_facts_per_second"`
	BytesPerFactMax float64 `json:"bytes_per_fact"`
}

// StoreReport is one store's figures.
type StoreReport struct {
	Name    string `json:"name"`
	Vectors string `json:"vectors"` // how the store says it searches vectors
	// Load is the bulk load: Throughput in facts/s, latencies per transaction.
	Load Result `json:"load"`
	// Facts is how many facts the write path stored (its counters), Duplicates how
	// many it found already there (none, with this data).
	Facts      int `json:"facts"`
	Duplicates int `json:"duplicates"`
	// Prepared is what ScaleStore.Prepare did (the index build), PrepareSeconds
	// its time.
	Prepared       string  `json:"prepared,omitempty"`
	PrepareSeconds float64 `json:"prepare_seconds,omitempty"`
	// Search is hybrid search (top 10, facts by full text and vector) of a random
	// user; HitShare the share of searches that found anything.
	Search   Result  `json:"search"`
	HitShare float64 `json:"search_hit_share"`
	// PointRead is a read of one key of a random user (Engine.Get), Write one new
	// fact of a random user through Apply.
	PointRead Result `json:"point_read"`
	Write     Result `json:"write"`
	// Blocks per loaded fact and per operation, when the store counts them.
	LoadBlocks      *Blocks `json:"load_blocks_per_fact,omitempty"`
	SearchBlocks    *Blocks `json:"search_blocks,omitempty"`
	PointReadBlocks *Blocks `json:"point_read_blocks,omitempty"`
	WriteBlocks     *Blocks `json:"write_blocks,omitempty"`
	// DiskBytes is the store on disk after the load (and Prepare); BytesPerFact
	// divides it by Facts; Tables is the share of each table, when the store tells.
	DiskBytes    int64       `json:"disk_bytes"`
	BytesPerFact float64     `json:"bytes_per_fact"`
	Tables       []TableSize `json:"tables,omitempty"`
	// The targets met.
	SearchWithin bool    `json:"search_within_target"`
	LoadWithin   bool    `json:"load_within_target"`
	DiskWithin   bool    `json:"disk_within_target"`
	Seconds      float64 `json:"seconds"`
	CPUSeconds   float64 `json:"cpu_seconds"` // this process's; a server's own is not counted
}

// scaleKeyPrefix starts the keys of the generated facts, declared sets: each fact is
// the one member of its own key, so that a read by key finds exactly it.
const scaleKeyPrefix = "note."

// ScaleFact returns fact i of user u of the data set seed: a person, an activity
// and a place (as the other benchmarks' facts), a member of the set
// note.<type>.<noun>_<i>. It is always the same for the same arguments.
func ScaleFact(seed uint64, u, i int) factbase.Fact {
	f, _, noun := synthetic(rand.New(rand.NewPCG(seed<<32|uint64(u), uint64(i))))
	f.Key = fmt.Sprintf("%s%s.%s_%d", scaleKeyPrefix, f.Type, noun, i)
	f.Category = factbase.Categories[i%len(factbase.Categories)]
	f.Cardinality = factbase.Many
	return f
}

// ScaleUser returns user u of the data set seed: a version 4 UUID drawn from a
// generator seeded by (seed, u), so that users' rows arrive in the indexes led by
// the user in no order, as real users' random ids do (sequential ids would fill
// those b-trees at their right edge, denser than they get in service).
func ScaleUser(seed uint64, u int) factbase.UserID {
	r := rand.New(rand.NewPCG(seed, uint64(u)^0x5ca1e))
	var b [16]byte
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return factbase.UserID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// RunScale loads and measures each of o.Stores in turn.
func RunScale(ctx context.Context, o ScaleOptions) (ScaleReport, error) {
	o = scaleDefaults(o)
	rep := ScaleReport{Users: o.Users, FactsPerUser: o.Facts, Batch: o.Batch, Writers: o.Writers, Seed: o.Seed,
		Embedder: "none", GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Started: time.Now().UTC(),
		Targets: ScaleTargets{ScaleSearchP95Ms, ScaleLoadPerSecond, ScaleBytesPerFactMax}}
	if o.Embedder != nil {
		rep.Embedder, rep.Dim = o.Embedder.Model(), o.Embedder.Dim()
	}
	if o.Users < 1 || o.Facts < 1 || o.Searches < 1 || o.Reads < 1 || o.Writes < 1 {
		return rep, fmt.Errorf("bench scale: users, facts and operations must be positive")
	}
	if len(o.Stores) == 0 {
		return rep, fmt.Errorf("bench scale: no store to measure")
	}
	start := time.Now()
	for _, st := range o.Stores {
		sr, err := runScaleStore(ctx, o, st, rep.Dim)
		if err != nil {
			return rep, fmt.Errorf("bench scale: %s: %w", st.Name, err)
		}
		rep.Stores = append(rep.Stores, sr)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

func scaleDefaults(o ScaleOptions) ScaleOptions {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Users, 10_000)
	def(&o.Facts, 100)
	def(&o.Batch, min(o.Facts, core.MaxOps))
	o.Batch = min(o.Batch, core.MaxOps)
	def(&o.Writers, 4)
	def(&o.Searches, 1000)
	def(&o.Reads, 1000)
	def(&o.Writes, 1000)
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// runScaleStore measures one store.
func runScaleStore(ctx context.Context, o ScaleOptions, st ScaleStore, dim int) (sr StoreReport, err error) {
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			o.Progress(st.Name + ": " + fmt.Sprintf(format, args...))
		}
	}
	t0, c0 := time.Now(), cputime.Used()
	s, vectors, err := st.Open(ctx)
	if err != nil {
		return sr, err
	}
	defer func() {
		if cerr := st.Close(context.WithoutCancel(ctx), s); err == nil {
			err = cerr
		}
	}()
	sr.Name, sr.Vectors = st.Name, vectors
	cards := factbase.DefaultCardinalities()
	cards.Declare(scaleKeyPrefix+"*", factbase.Many)
	e := memory.New(s, memory.Options{Embedder: o.Embedder, Cardinalities: cards, NoSheetRegen: true})
	blocks := func() (hit, read int64, err error) {
		if st.Blocks == nil {
			return 0, 0, nil
		}
		return st.Blocks(ctx, s)
	}
	// phase runs fn and returns its blocks per op (nil when the store counts none).
	phase := func(ops int, fn func() error) (*Blocks, error) {
		h0, r0, err := blocks()
		if err != nil {
			return nil, err
		}
		if err := fn(); err != nil {
			return nil, err
		}
		h1, r1, err := blocks()
		if err != nil || st.Blocks == nil {
			return nil, err
		}
		return &Blocks{Hit: float64(h1-h0) / float64(ops), Read: float64(r1-r0) / float64(ops)}, nil
	}

	progress("loading %d users x %d facts", o.Users, o.Facts)
	sr.LoadBlocks, err = phase(o.Users*o.Facts, func() error {
		var err error
		sr.Load, sr.Facts, sr.Duplicates, err = scaleLoad(ctx, e, o, progress)
		return err
	})
	if err != nil {
		return sr, fmt.Errorf("load: %w", err)
	}
	if st.Prepare != nil {
		progress("preparing after the load")
		p0 := time.Now()
		if sr.Prepared, err = st.Prepare(ctx, s, dim); err != nil {
			return sr, fmt.Errorf("prepare: %w", err)
		}
		sr.PrepareSeconds = time.Since(p0).Seconds()
	}
	progress("sizing")
	var tables []TableSize
	if sr.DiskBytes, tables, err = st.Size(ctx, s); err != nil {
		return sr, fmt.Errorf("size: %w", err)
	}
	sr.Tables = tables
	if sr.Facts > 0 {
		sr.BytesPerFact = float64(sr.DiskBytes) / float64(sr.Facts)
	}

	r := rand.New(rand.NewPCG(o.Seed, 7))
	qs := Questions(o.Seed, 256)
	// One search first, untimed: a store's first search may load what later ones
	// find ready (SQLite's vector copy of a user is loaded per user, so every timed
	// search of a random user still pays for its own).
	if _, err := e.Retrieve.Search(ctx, ScaleUser(o.Seed, 0), qs[0], retrieve.SearchOptions{}); err != nil {
		return sr, fmt.Errorf("search: %w", err)
	}
	progress("%d searches of random users", o.Searches)
	hits := 0
	sr.SearchBlocks, err = phase(o.Searches, func() error {
		var err error
		sr.Search, err = timedOps("hybrid search, top 10, random user", o.Searches, func(i int) error {
			res, err := e.Retrieve.Search(ctx, ScaleUser(o.Seed, r.IntN(o.Users)), qs[i%len(qs)], retrieve.SearchOptions{})
			if len(res.Hits) > 0 {
				hits++
			}
			return err
		})
		return err
	})
	if err != nil {
		return sr, fmt.Errorf("search: %w", err)
	}
	sr.HitShare = float64(hits) / float64(o.Searches)

	progress("%d reads by key of random users", o.Reads)
	sr.PointReadBlocks, err = phase(o.Reads, func() error {
		var err error
		sr.PointRead, err = timedOps("read by key, random user", o.Reads, func(int) error {
			u, i := r.IntN(o.Users), r.IntN(o.Facts)
			want := ScaleFact(o.Seed, u, i)
			got, err := e.Get(ctx, ScaleUser(o.Seed, u), "", want.Key, nil)
			if err == nil && (len(got) != 1 || got[0].Value != want.Value) {
				err = fmt.Errorf("user %d, key %s: read %d facts, want the one of value %q", u, want.Key, len(got), want.Value)
			}
			return err
		})
		return err
	})
	if err != nil {
		return sr, fmt.Errorf("read: %w", err)
	}

	progress("%d writes of one fact of random users", o.Writes)
	sr.WriteBlocks, err = phase(o.Writes, func() error {
		var err error
		sr.Write, err = timedOps("write one fact, random user", o.Writes, func(i int) error {
			u := r.IntN(o.Users)
			f := ScaleFact(o.Seed, u, o.Facts+i) // a fact the load did not write
			res, err := e.Apply(ctx, ScaleUser(o.Seed, u), []factbase.Op{{Kind: factbase.OpSet, Fact: f}})
			if err == nil && res.Stored != 1 {
				err = fmt.Errorf("user %d: the write stored %d facts, want 1", u, res.Stored)
			}
			return err
		})
		return err
	})
	if err != nil {
		return sr, fmt.Errorf("write: %w", err)
	}
	sr.SearchWithin = sr.Search.P95us <= ScaleSearchP95Ms*1000
	sr.LoadWithin = sr.Load.Throughput >= ScaleLoadPerSecond
	sr.DiskWithin = sr.Facts > 0 && sr.BytesPerFact <= ScaleBytesPerFactMax
	sr.Seconds = time.Since(t0).Seconds()
	if c0 >= 0 {
		sr.CPUSeconds = (cputime.Used() - c0).Seconds()
	}
	return sr, nil
}

// timedOps is timeOps with the process's CPU time over the operations.
func timedOps(name string, n int, op func(i int) error) (Result, error) {
	c0 := cputime.Used()
	r, err := timeOps(name, n, op)
	if c0 >= 0 {
		r.CPUSeconds = (cputime.Used() - c0).Seconds()
	}
	return r, err
}

// scaleLoad writes every user's facts through Apply, o.Batch facts a transaction
// (the bulk set insert: core's applyOps takes addMembers for 32 or more set
// members), o.Writers users at once. It returns the load's Result (throughput in
// facts/s, latencies per transaction) and the write path's counters.
func scaleLoad(ctx context.Context, e *memory.Engine, o ScaleOptions, progress func(string, ...any)) (Result, int, int, error) {
	stored := make([]int, o.Writers)
	dups := make([]int, o.Writers)
	c0 := cputime.Used()
	lat, total, err := concurrently(o.Writers, func(w int) ([]time.Duration, error) {
		var lat []time.Duration
		ops := make([]factbase.Op, 0, o.Batch)
		for u := w; u < o.Users; u += o.Writers {
			for off := 0; off < o.Facts; off += o.Batch {
				ops = ops[:0]
				for i := off; i < min(o.Facts, off+o.Batch); i++ {
					ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: ScaleFact(o.Seed, u, i)})
				}
				s := time.Now()
				res, err := e.Apply(ctx, ScaleUser(o.Seed, u), ops)
				if err != nil {
					return lat, fmt.Errorf("user %d: %w", u, err)
				}
				lat = append(lat, time.Since(s))
				stored[w] += res.Stored
				dups[w] += len(res.Duplicates)
			}
			if w == 0 && u > 0 && u%(max(1, o.Users/20)*o.Writers) == 0 {
				progress("%d of %d users", u, o.Users)
			}
		}
		return lat, nil
	})
	if err != nil {
		return Result{}, 0, 0, err
	}
	var facts, duplicates int
	for w := range o.Writers {
		facts, duplicates = facts+stored[w], duplicates+dups[w]
	}
	r := summarize(fmt.Sprintf("load: %d users x %d facts", o.Users, o.Facts), lat, total)
	r.Throughput, r.Unit = float64(o.Users*o.Facts)/total.Seconds(), "facts/s"
	if c0 >= 0 {
		r.CPUSeconds = (cputime.Used() - c0).Seconds()
	}
	r.Note = fmt.Sprintf("through Apply, %d facts a transaction (the bulk set insert), %d writers; latencies per transaction", o.Batch, o.Writers)
	return r, facts, duplicates, nil
}

// SQLiteScaleStore is the SQLite store as a ScaleStore: a new file in dir, removed
// at the end unless keep.
func SQLiteScaleStore(dir string, keep bool) ScaleStore {
	path := filepath.Join(dir, "scale.db")
	return ScaleStore{
		Name: "sqlite",
		Open: func(ctx context.Context) (factbase.Store, string, error) {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				if err := os.Remove(path + suffix); err != nil && !os.IsNotExist(err) {
					return nil, "", err
				}
			}
			s, err := sqlite.Open(ctx, path, sqlite.Options{})
			if err != nil {
				return nil, "", err
			}
			return s, "sqlite file " + path, nil
		},
		Size: func(ctx context.Context, s factbase.Store) (int64, []TableSize, error) {
			// The write-ahead log checkpointed into the file, so that its size is
			// the database's.
			if _, err := s.Purge(ctx); err != nil {
				return 0, nil, err
			}
			tables, err := sqliteTables(ctx, path)
			return dirSize(dir, "scale.db"), tables, err
		},
		Close: func(ctx context.Context, s factbase.Store) error {
			err := s.Close()
			if !keep {
				for _, suffix := range []string{"", "-wal", "-shm"} {
					os.Remove(path + suffix)
				}
			}
			return err
		},
	}
}

// sqliteTables returns the rows of each table of the file at path and, when SQLite
// has its dbstat table, the bytes of each table with its indexes, largest first.
func sqliteTables(ctx context.Context, path string) ([]TableSize, error) {
	db, err := sqlite.OpenDB(path, sqlite.Options{})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	bytes := map[string]int64{}
	if rows, err := db.QueryContext(ctx, `SELECT coalesce(tbl_name, d.name), sum(pgsize) FROM dbstat d
		LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY 1`); err == nil {
		for rows.Next() {
			var n string
			var b int64
			if rows.Scan(&n, &b) == nil {
				bytes[n] += b
			}
		}
		rows.Close()
	}
	out := make([]TableSize, 0, len(names))
	for _, n := range names {
		t := TableSize{Name: n, Bytes: bytes[n]}
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM "`+n+`"`).Scan(&t.Rows); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b TableSize) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out, nil
}
