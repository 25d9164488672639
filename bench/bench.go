// Package bench runs Factbase's synthetic workloads in process and times them beside
// a raw-SQLite baseline measured in the same run on the same kind of file: a bare
// prepared INSERT per transaction for writes, a bare indexed SELECT for reads. Every
// figure is a measurement of this run; nothing is estimated.
package bench

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench/cputime"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
)

// Scale sizes the workloads.
type Scale struct {
	Name      string `json:"name"`
	Users     int    `json:"users"`          // users in the store, each with Facts facts
	Facts     int    `json:"facts_per_user"` // written with the embedder's vectors
	Ops       int    `json:"ops"`            // timed operations per workload
	ListSizes []int  `json:"list_sizes"`     // ranked-list lengths to append to and move within
	// SearchFacts and SearchEpisodes are one more user's facts and episodes, which
	// search and the fact sheet read; SheetRefs is how many references its facts have
	// in all (one each from the write path, the rest spread over 60 days).
	SearchFacts    int `json:"search_facts"`
	SearchEpisodes int `json:"search_episodes"`
	SearchOps      int `json:"search_ops"` // timed searches (and raw FTS5 queries)
	SheetRefs      int `json:"sheet_references"`
	// TranscriptBytes is the size of the generated JSONL session file ingested.
	TranscriptBytes int64 `json:"transcript_bytes"`
	// ServeClients concurrent clients make ServeOps requests in all over the store of
	// Users x Facts, opened afresh: the memory target's load.
	ServeClients int `json:"serve_clients"`
	ServeOps     int `json:"serve_ops"`
}

// Scales are the named sizes. Large is the memory target's store: 1,000,000 facts of
// 1,000 users; tiny is for tests (seconds).
var Scales = map[string]Scale{
	"tiny": {Name: "tiny", Users: 3, Facts: 40, Ops: 20, ListSizes: []int{10},
		SearchFacts: 100, SearchEpisodes: 10, SearchOps: 20, SheetRefs: 500,
		TranscriptBytes: 256 << 10, ServeClients: 2, ServeOps: 40},
	"small": {Name: "small", Users: 10, Facts: 200, Ops: 300, ListSizes: []int{10, 1000},
		SearchFacts: 2000, SearchEpisodes: 200, SearchOps: 100, SheetRefs: 20_000,
		TranscriptBytes: 4 << 20, ServeClients: 4, ServeOps: 600},
	"medium": {Name: "medium", Users: 100, Facts: 1000, Ops: 1000, ListSizes: []int{10, 1000, 10000},
		SearchFacts: 10_000, SearchEpisodes: 1000, SearchOps: 250, SheetRefs: 100_000,
		TranscriptBytes: 32 << 20, ServeClients: 8, ServeOps: 1500},
	"large": {Name: "large", Users: 1000, Facts: 1000, Ops: 3000, ListSizes: []int{10, 1000, 10000},
		SearchFacts: 100_000, SearchEpisodes: 5000, SearchOps: 200, SheetRefs: 1_000_000,
		TranscriptBytes: 200 << 20, ServeClients: 8, ServeOps: 2000},
}

// Result is one workload's measurement.
type Result struct {
	Name      string  `json:"name"`
	Ops       int     `json:"ops"`
	PerSecond float64 `json:"ops_per_second"`
	P50us     float64 `json:"p50_us"`
	P95us     float64 `json:"p95_us"`
	P99us     float64 `json:"p99_us"`
	// Throughput is, for bulk workloads (the store's build, transcript ingest), the
	// amount moved per second, in Unit ("facts/s", "MB/s").
	Throughput float64 `json:"throughput,omitempty"`
	Unit       string  `json:"unit,omitempty"`
	Baseline   string  `json:"baseline,omitempty"`
	RatioP50   float64 `json:"ratio_p50,omitempty"` // p50 / baseline p50
	// RatioThroughput is the baseline's throughput over this one's: how many times
	// slower than the bare SQLite work it is.
	RatioThroughput float64 `json:"ratio_throughput,omitempty"`
	// Seconds is the workload's wall time, setup included; CPUSeconds the process's
	// CPU time (user and system, every goroutine) meanwhile, steadier than wall time
	// on a shared machine.
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	// PeakRSSBytes is the process's peak resident set when the workload ended (the
	// peak is reset once, before the memory target's load).
	PeakRSSBytes int64  `json:"peak_rss_bytes"`
	Note         string `json:"note,omitempty"`
}

// Report is a whole run.
type Report struct {
	Scale    Scale    `json:"scale"`
	Embedder string   `json:"embedder"` // the embedder's model, "none" without one
	Results  []Result `json:"results"`
	// Serve is the memory target: the store of Users x Facts answering a medium load.
	Serve ServeReport `json:"serve"`
	// PeakRSSBytes is the whole run's peak resident set.
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
	// DiskBytes is the store's file (and WAL, after a checkpoint) once the Users x
	// Facts facts and their vectors are written; BytesPerFact divides it by the facts.
	DiskBytes        int64     `json:"disk_bytes"`
	StoredFacts      int       `json:"stored_facts"`
	BytesPerFact     float64   `json:"disk_bytes_per_fact"`
	DiskTargetBytes  int       `json:"disk_target_bytes_per_fact"`
	WithinDiskTarget bool      `json:"within_disk_target"`
	Seconds          float64   `json:"seconds"`
	CPUSeconds       float64   `json:"cpu_seconds"`
	GoVersion        string    `json:"go_version"`
	CPUs             int       `json:"cpus"`
	Started          time.Time `json:"started"`
}

// Options configure Run.
type Options struct {
	Scale Scale
	Dir   string // where the files go; default a new temporary directory, removed after
	// Embedder gives facts and episodes their vectors, as in the product; nil: none
	// (search by full text alone).
	Embedder factbase.Embedder
	// Progress, if set, is called as each workload starts.
	Progress func(name string)
	// Extra workloads run after the built-in ones, over the same engine.
	Extra []Workload
}

// Workload is one timed workload over an engine loaded with the scale's data.
type Workload struct {
	Name string
	// Baseline names the raw measurement to compare with: "insert", "select", "fts"
	// or "sheet".
	Baseline string
	// Ops is how many timed operations; 0 means the scale's Ops.
	Ops int
	// Setup runs untimed; Op runs once per timed operation i.
	Setup func(ctx context.Context, e *memory.Engine) error
	Op    func(ctx context.Context, e *memory.Engine, i int) error
}

// Run builds the store, measures the raw baselines, the built-in workloads, o.Extra,
// transcript ingest and the memory target's load.
func Run(ctx context.Context, o Options) (Report, error) {
	sc := o.Scale
	rep := Report{Scale: sc, Embedder: "none", GoVersion: runtime.Version(), CPUs: runtime.NumCPU(),
		Started: time.Now().UTC(), DiskTargetBytes: DiskTarget}
	if o.Embedder != nil {
		rep.Embedder = o.Embedder.Model()
	}
	if sc.Users < 1 || sc.Facts < 1 || sc.Ops < 1 {
		return rep, fmt.Errorf("bench: scale %q needs at least one user, fact and op", sc.Name)
	}
	start := time.Now()
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "factbase-bench-")
		if err != nil {
			return rep, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	progress := func(n string) {
		if o.Progress != nil {
			o.Progress(n)
		}
	}
	var peak int64
	// step runs one measurement and records it with its wall and CPU time (the
	// whole process's, all goroutines and the garbage collector included) and the
	// peak resident set so far.
	step := func(fn func() (Result, error)) (Result, error) {
		t0, c0 := time.Now(), cputime.Used()
		r, err := fn()
		if err != nil {
			return r, err
		}
		if r.Seconds == 0 {
			r.Seconds = time.Since(t0).Seconds()
		}
		if c0 >= 0 {
			r.CPUSeconds = (cputime.Used() - c0).Seconds()
		}
		r.PeakRSSBytes = procStatus("VmHWM")
		peak = max(peak, r.PeakRSSBytes)
		rep.Results = append(rep.Results, r)
		return r, nil
	}
	su := userID(sc.Users) // the search and sheet user, beside the store's users
	searchQs := Questions(3, 256)
	cpu0 := cputime.Used()

	// The raw baselines, on their own file with the store's pragmas.
	progress("raw SQLite baselines")
	db, err := sqlite.OpenDB(filepath.Join(dir, "raw.db"), sqlite.Options{})
	if err != nil {
		return rep, err
	}
	defer db.Close()
	base := map[string]Result{}
	for _, b := range []struct {
		name string
		run  func() (Result, error)
	}{
		{"insert", func() (Result, error) { return rawInsert(ctx, db, sc.Ops) }},
		{"select", func() (Result, error) { return rawSelect(ctx, db, sc.Ops) }},
		{"bulk", func() (Result, error) {
			return rawBulk(ctx, db, min(sc.Users*sc.Facts, 100_000), min(sc.Facts, core.MaxOps))
		}},
		{"fts", func() (Result, error) { return rawFTS(ctx, db, searchTexts(sc), searchQs, max(1, sc.SearchOps)) }},
		{"sheet", func() (Result, error) { return rawSheet(ctx, db, sc.SearchFacts, sc.SheetRefs, sheetOps(sc)) }},
	} {
		r, err := step(b.run)
		if err != nil {
			return rep, fmt.Errorf("bench: raw %s: %w", b.name, err)
		}
		base[b.name] = r
	}

	// The store: Users x Facts facts with their vectors, through the write path.
	path := filepath.Join(dir, "factbase.db")
	store, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return rep, err
	}
	e := memory.New(store, memory.Options{Embedder: o.Embedder, NoSheetRegen: true})
	progress(fmt.Sprintf("building the store: %d users x %d facts", sc.Users, sc.Facts))
	if _, err := step(func() (Result, error) {
		r, err := load(ctx, e, sc)
		r.Baseline, r.RatioThroughput = "raw bulk insert", base["bulk"].Throughput/r.Throughput
		return r, err
	}); err != nil {
		store.Close()
		return rep, fmt.Errorf("bench: build: %w", err)
	}
	// Checkpoint so that the size on disk is the database's, not a WAL's backlog:
	// SQLite's Purge checkpoints the WAL into the file and truncates it.
	if _, err := store.Purge(ctx); err != nil {
		store.Close()
		return rep, err
	}
	rep.DiskBytes = dirSize(dir, "factbase.db")
	rep.StoredFacts, err = countFacts(ctx, store)
	if err != nil {
		store.Close()
		return rep, err
	}
	if rep.StoredFacts > 0 {
		rep.BytesPerFact = float64(rep.DiskBytes) / float64(rep.StoredFacts)
		rep.WithinDiskTarget = rep.BytesPerFact < DiskTarget
	}
	if err := store.Close(); err != nil {
		return rep, err
	}

	// The memory target: the store opened afresh under a medium load.
	progress(fmt.Sprintf("medium load: %d clients over %d users", sc.ServeClients, sc.Users))
	peak = max(peak, procStatus("VmHWM")) // the load resets the kernel's peak
	if _, err := step(func() (Result, error) {
		rep.Serve, err = serveLoad(ctx, path, sc, o.Embedder)
		return rep.Serve.Result, err
	}); err != nil {
		return rep, fmt.Errorf("bench: medium load: %w", err)
	}

	// The per-operation workloads, on the same store.
	store, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return rep, err
	}
	defer store.Close()
	e = memory.New(store, memory.Options{Embedder: o.Embedder, NoSheetRegen: true})
	for _, w := range append(builtin(sc, su, searchQs), o.Extra...) {
		progress(w.Name)
		if _, err := step(func() (Result, error) {
			n := w.Ops
			if n <= 0 {
				n = sc.Ops
			}
			r, err := measure(ctx, e, w, n)
			if b, ok := base[w.Baseline]; ok && b.P50us > 0 {
				r.Baseline, r.RatioP50 = strings.TrimSuffix(b.Name, " (baseline)"), r.P50us/b.P50us
			}
			return r, err
		}); err != nil {
			return rep, fmt.Errorf("bench: %s: %w", w.Name, err)
		}
	}

	// Transcript ingest, into a new file, beside its baseline on the same file.
	if sc.TranscriptBytes > 0 {
		progress(fmt.Sprintf("transcript ingest: %d MB", sc.TranscriptBytes>>20))
		tpath := filepath.Join(dir, "session.jsonl")
		size, err := writeTranscriptFile(tpath, sc.TranscriptBytes)
		if err != nil {
			return rep, fmt.Errorf("bench: writing the transcript: %w", err)
		}
		defer os.Remove(tpath)
		rawLines, err := step(func() (Result, error) { return rawLineInsert(ctx, filepath.Join(dir, "raw-lines.db"), tpath, size) })
		if err != nil {
			return rep, fmt.Errorf("bench: raw line insert: %w", err)
		}
		if _, err := step(func() (Result, error) {
			r, err := ingestFile(ctx, filepath.Join(dir, "ingest.db"), tpath, size, o.Embedder)
			r.Baseline, r.RatioThroughput = "raw line insert", rawLines.Throughput/r.Throughput
			return r, err
		}); err != nil {
			return rep, fmt.Errorf("bench: transcript ingest: %w", err)
		}
	}
	rep.PeakRSSBytes = max(peak, procStatus("VmHWM"))
	rep.Seconds = time.Since(start).Seconds()
	if cpu0 >= 0 {
		rep.CPUSeconds = (cputime.Used() - cpu0).Seconds()
	}
	return rep, nil
}

// sheetOps is how many fact sheets are timed: each reads all of a user's facts and
// references (a second each at the large scale).
func sheetOps(sc Scale) int { return max(3, min(sc.Ops/20, 30)) }

// rawInsert creates the baseline table and times n bare prepared INSERTs, one
// transaction each.
func rawInsert(ctx context.Context, db *sql.DB, n int) (Result, error) {
	if _, err := db.ExecContext(ctx, `CREATE TABLE raw (id INTEGER PRIMARY KEY, k TEXT NOT NULL, v TEXT NOT NULL);
		CREATE INDEX raw_k ON raw (k)`); err != nil {
		return Result{}, err
	}
	stmt, err := db.PrepareContext(ctx, "INSERT INTO raw (k, v) VALUES (?, ?)")
	if err != nil {
		return Result{}, err
	}
	defer stmt.Close()
	return timeOps("raw insert (baseline)", n, func(i int) error {
		return inTx(ctx, db, func(tx *sql.Tx) error {
			_, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, "k"+strconv.Itoa(i), "value")
			return err
		})
	})
}

// rawSelect times n bare indexed SELECTs of the rows rawInsert wrote.
func rawSelect(ctx context.Context, db *sql.DB, n int) (Result, error) {
	q, err := db.PrepareContext(ctx, "SELECT v FROM raw WHERE k = ?")
	if err != nil {
		return Result{}, err
	}
	defer q.Close()
	return timeOps("raw select (baseline)", n, func(int) error {
		var v string
		return q.QueryRowContext(ctx, "k"+strconv.Itoa(rand.IntN(n))).Scan(&v)
	})
}

func measure(ctx context.Context, e *memory.Engine, w Workload, n int) (Result, error) {
	t0 := time.Now()
	if w.Setup != nil {
		if err := w.Setup(ctx, e); err != nil {
			return Result{}, err
		}
	}
	r, err := timeOps(w.Name, n, func(i int) error { return w.Op(ctx, e, i) })
	r.Seconds = time.Since(t0).Seconds()
	return r, err
}

// userID makes the i-th synthetic user's id.
func userID(i int) factbase.UserID {
	return factbase.UserID(fmt.Sprintf("00000000-0000-4000-8000-%012d", i))
}

// load writes the scale's users and facts through the write path, one transaction
// per user (at most core.MaxOps facts each), the facts' vectors computed by the
// engine's embedder before each transaction. Two writers overlap one user's
// embedding with another's transaction, as concurrent clients of a server would; the
// store serialises the transactions. Latencies are per transaction; the throughput is
// facts per second.
func load(ctx context.Context, e *memory.Engine, sc Scale) (Result, error) {
	const writers = 2
	batch := min(sc.Facts, core.MaxOps)
	lat, total, err := concurrently(writers, func(w int) ([]time.Duration, error) {
		var lat []time.Duration
		for u := w; u < sc.Users; u += writers {
			for off := 0; off < sc.Facts; off += batch {
				ops := make([]factbase.Op, 0, batch)
				for i := off; i < min(sc.Facts, off+batch); i++ {
					ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fleetFact(u, i)})
				}
				s := time.Now()
				if _, err := e.Apply(ctx, userID(u), ops); err != nil {
					return lat, fmt.Errorf("user %d: %w", u, err)
				}
				lat = append(lat, time.Since(s))
			}
		}
		return lat, nil
	})
	if err != nil {
		return Result{}, err
	}
	r := summarize(fmt.Sprintf("build: %d users x %d facts", sc.Users, sc.Facts), lat, total)
	r.Throughput, r.Unit = float64(sc.Users*sc.Facts)/total.Seconds(), "facts/s"
	r.Note = fmt.Sprintf("through Apply, %d facts a transaction (vectors, if any, computed before it), %d writers; latencies per transaction", batch, writers)
	return r, nil
}

// searchTexts are the texts of the search user's facts and episodes, in the order
// they are written.
func searchTexts(sc Scale) []string {
	out := make([]string, 0, sc.SearchFacts+sc.SearchEpisodes)
	for i := range sc.SearchFacts {
		out = append(out, fleetFact(sc.Users, i).Text)
	}
	for i := range sc.SearchEpisodes {
		out = append(out, episodeText(i))
	}
	return out
}

// builtin returns the per-operation workloads: ranked lists of each size on the first
// user, one-valued sets and point reads over all users, then search and the fact
// sheet over the search user su.
func builtin(sc Scale, su factbase.UserID, qs []string) []Workload {
	var ws []Workload
	u0 := userID(0)
	for _, n := range sc.ListSizes {
		key := fmt.Sprintf("favorites.bench_%d", n)
		fill := func(ctx context.Context, e *memory.Engine) error {
			for off := 0; off < n; off += 1000 {
				var ops []factbase.Op
				for i := off; i < min(n, off+1000); i++ {
					ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: fmt.Sprintf("m%05d", i)}})
				}
				if _, err := e.Apply(ctx, u0, ops); err != nil {
					return err
				}
			}
			return nil
		}
		ws = append(ws, Workload{Name: fmt.Sprintf("ranked append (list of %d)", n), Baseline: "insert", Setup: fill,
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				_, err := e.Apply(ctx, u0, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key, Value: fmt.Sprintf("new%d", i)}}})
				return err
			}})
		// A MOVE writes one row (ranked/positions.go) but counts its way to its ranks,
		// in PostgreSQL on the index: fewer operations on long lists keep the run
		// short (a percentile of 100 is still a percentile).
		ws = append(ws, Workload{Name: fmt.Sprintf("ranked MOVE, random ranks (list of %d)", n), Baseline: "insert",
			Ops: max(min(sc.Ops, 100), sc.Ops*1000/max(n, 1000)),
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				r := rand.New(rand.NewPCG(uint64(i), 1))
				_, err := e.Apply(ctx, u0, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: key,
					Value: fmt.Sprintf("m%05d", r.IntN(n)), Rank: 1 + r.IntN(n)}}})
				return err
			}})
		ws = append(ws, Workload{Name: fmt.Sprintf("list page of 100 (list of %d)", n), Baseline: "select",
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				_, err := e.List(ctx, u0, "", key, (i*100)%max(1, n), 100, nil)
				return err
			}})
	}
	ws = append(ws,
		Workload{Name: "one-valued set with supersession", Baseline: "insert",
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				_, err := e.Apply(ctx, userID(i%sc.Users), []factbase.Op{{Kind: factbase.OpSet,
					Fact: factbase.Fact{Key: "contact.email", Value: fmt.Sprintf("u%d@example.com", i)}}})
				return err
			}},
		Workload{Name: "point read by key", Baseline: "select",
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				r := rand.New(rand.NewPCG(uint64(i), 2))
				u := r.IntN(sc.Users)
				f, err := e.Get(ctx, userID(u), "", factKey(u, r.IntN(sc.Facts)), nil)
				if err == nil && len(f) != 1 {
					err = fmt.Errorf("point read found %d facts", len(f))
				}
				return err
			}},
	)
	if sc.SearchFacts+sc.SearchEpisodes == 0 {
		return ws
	}
	var ids []string // the search user's fact ids, for the sheet's references
	ws = append(ws,
		Workload{Name: fmt.Sprintf("hybrid search, top 10 (%d facts, %d episodes of one user)", sc.SearchFacts, sc.SearchEpisodes),
			Baseline: "fts", Ops: max(1, sc.SearchOps),
			Setup: func(ctx context.Context, e *memory.Engine) error {
				var err error
				if ids, err = fillSearchUser(ctx, e, sc, su); err != nil {
					return err
				}
				// The first search loads the user's vectors into memory.
				_, err = e.Retrieve.Search(ctx, su, qs[0], retrieve.SearchOptions{})
				return err
			},
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				res, err := e.Retrieve.Search(ctx, su, qs[i%len(qs)], retrieve.SearchOptions{})
				if err == nil && len(res.Hits) == 0 && i%5 != 4 { // the fifth form names no stored word
					err = fmt.Errorf("search %q found nothing", qs[i%len(qs)])
				}
				return err
			}},
		Workload{Name: fmt.Sprintf("fact sheet generation (%d facts, %d references)", sc.SearchFacts, max(sc.SheetRefs, sc.SearchFacts)),
			Baseline: "sheet", Ops: sheetOps(sc),
			Setup: func(ctx context.Context, e *memory.Engine) error { return addReferences(ctx, e, su, ids, sc.SheetRefs) },
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				sh, err := e.GenerateSheet(ctx, su, core.SheetOptions{})
				if err == nil && sh.Count == 0 {
					err = fmt.Errorf("the sheet of %d facts is empty", len(ids))
				}
				return err
			}},
	)
	return ws
}

// fillSearchUser writes the search user's facts (in transactions of 1,000) and
// episodes (one each, with pattern extraction), and returns the facts' ids.
func fillSearchUser(ctx context.Context, e *memory.Engine, sc Scale, su factbase.UserID) ([]string, error) {
	ids := make([]string, 0, sc.SearchFacts)
	for off := 0; off < sc.SearchFacts; off += 1000 {
		ops := make([]factbase.Op, 0, 1000)
		for i := off; i < min(sc.SearchFacts, off+1000); i++ {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: fleetFact(sc.Users, i)})
		}
		res, err := e.Apply(ctx, su, ops)
		if err != nil {
			return nil, err
		}
		for _, f := range res.Facts {
			ids = append(ids, f.ID)
		}
	}
	for i := range sc.SearchEpisodes {
		if _, err := e.Ingest.AddEpisode(ctx, su, ingest.EpisodeInput{Content: episodeText(i)}); err != nil {
			return nil, fmt.Errorf("episode %d: %w", i, err)
		}
	}
	return ids, nil
}

// addReferences gives the facts ids refs references in all: each has one already,
// from the write path; the rest are spread at random over the 60 days before now and
// recorded through the write path in transactions of 100,000.
func addReferences(ctx context.Context, e *memory.Engine, user factbase.UserID, ids []string, refs int) error {
	if len(ids) == 0 {
		return fmt.Errorf("no facts to reference")
	}
	r := rand.New(rand.NewPCG(1, 2))
	now := time.Now()
	const batch = 100_000
	for left := refs - len(ids); left > 0; left -= batch {
		rs := make([]factbase.Reference, min(batch, left))
		for i := range rs {
			rs[i] = factbase.Reference{FactID: ids[r.IntN(len(ids))], At: now.Add(-time.Duration(r.Int64N(int64(60 * 24 * time.Hour)))),
				Source: factbase.Source{Kind: factbase.SourceMessage}}
		}
		if _, err := e.ApplyWith(ctx, user, nil, func(wr *core.Writer) error {
			tx := wr.Tx()
			_, err := tx.AddReferences(ctx, rs)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// countFacts counts the fact rows of every user of s, history included.
func countFacts(ctx context.Context, s factbase.Store) (int, error) {
	users, err := s.Users(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range users {
		err := s.View(ctx, u, func(tx factbase.ReadTx) error {
			rows, err := tx.UserRows(ctx)
			n += int(rows["facts"])
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// dirSize adds up the sizes of the database file and its WAL.
func dirSize(dir, name string) int64 {
	var total int64
	for _, suffix := range []string{"", "-wal"} {
		if st, err := os.Stat(filepath.Join(dir, name+suffix)); err == nil {
			total += st.Size()
		}
	}
	return total
}
