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
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
)

// Scale sizes the workloads.
type Scale struct {
	Name      string `json:"name"`
	Users     int    `json:"users"`
	Facts     int    `json:"facts_per_user"`
	Ops       int    `json:"ops"`        // timed operations per workload
	ListSizes []int  `json:"list_sizes"` // ranked-list lengths to append to and move within
}

// Scales are the named sizes.
var Scales = map[string]Scale{
	"small":  {Name: "small", Users: 10, Facts: 200, Ops: 300, ListSizes: []int{10, 1000}},
	"medium": {Name: "medium", Users: 100, Facts: 1000, Ops: 1000, ListSizes: []int{10, 1000, 10000}},
	"large":  {Name: "large", Users: 1000, Facts: 1000, Ops: 3000, ListSizes: []int{10, 1000, 10000}},
}

// Result is one workload's measurement.
type Result struct {
	Name      string  `json:"name"`
	Ops       int     `json:"ops"`
	PerSecond float64 `json:"ops_per_second"`
	P50us     float64 `json:"p50_us"`
	P95us     float64 `json:"p95_us"`
	P99us     float64 `json:"p99_us"`
	Baseline  string  `json:"baseline,omitempty"`
	RatioP50  float64 `json:"ratio_p50,omitempty"` // p50 / baseline p50
	Note      string  `json:"note,omitempty"`
}

// Report is a whole run.
type Report struct {
	Scale        Scale     `json:"scale"`
	Results      []Result  `json:"results"`
	PeakRSSBytes int64     `json:"peak_rss_bytes"`
	DiskBytes    int64     `json:"disk_bytes"`
	StoredFacts  int       `json:"stored_facts"`
	BytesPerFact float64   `json:"disk_bytes_per_fact"`
	Seconds      float64   `json:"seconds"`
	GoVersion    string    `json:"go_version"`
	CPUs         int       `json:"cpus"`
	Started      time.Time `json:"started"`
}

// Options configure Run.
type Options struct {
	Scale Scale
	Dir   string // where the files go; default a new temporary directory, removed after
	// Progress, if set, is called as each workload starts.
	Progress func(name string)
	// Extra workloads run after the built-in ones, over the same engine.
	Extra []Workload
}

// Workload is one timed workload over an engine loaded with the scale's data.
type Workload struct {
	Name     string
	Baseline string // "insert" or "select": which raw baseline to compare with
	// Setup runs untimed; Op runs once per timed operation i.
	Setup func(ctx context.Context, e *memory.Engine) error
	Op    func(ctx context.Context, e *memory.Engine, i int) error
}

// Run runs the built-in workloads and o.Extra.
func Run(ctx context.Context, o Options) (Report, error) {
	rep := Report{Scale: o.Scale, GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Started: time.Now().UTC()}
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

	// The raw baseline, on its own file with the store's pragmas.
	progress("raw SQLite baseline")
	raw, err := sqlite.Open(ctx, filepath.Join(dir, "raw.db"), sqlite.Options{})
	if err != nil {
		return rep, err
	}
	defer raw.Close()
	ins, sel, err := rawBaseline(ctx, raw.Writer(), o.Scale.Ops)
	if err != nil {
		return rep, err
	}
	rep.Results = append(rep.Results, ins, sel)
	base := map[string]Result{"insert": ins, "select": sel}

	store, err := sqlite.Open(ctx, filepath.Join(dir, "factbase.db"), sqlite.Options{})
	if err != nil {
		return rep, err
	}
	defer store.Close()
	e := memory.New(store, memory.Options{})

	progress(fmt.Sprintf("loading %d users x %d facts", o.Scale.Users, o.Scale.Facts))
	users, err := load(ctx, e, o.Scale)
	if err != nil {
		return rep, err
	}
	rep.StoredFacts = o.Scale.Users * o.Scale.Facts
	for _, w := range append(builtin(o.Scale, users), o.Extra...) {
		progress(w.Name)
		r, err := measure(ctx, e, w, o.Scale.Ops)
		if err != nil {
			return rep, fmt.Errorf("bench: %s: %w", w.Name, err)
		}
		if b, ok := base[w.Baseline]; ok && b.P50us > 0 {
			r.Baseline, r.RatioP50 = "raw "+w.Baseline, r.P50us/b.P50us
		}
		rep.Results = append(rep.Results, r)
	}
	// Checkpoint so that the size on disk is the database's, not a WAL's backlog.
	if _, err := store.Writer().ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return rep, err
	}
	rep.DiskBytes = dirSize(dir, "factbase.db")
	facts, _ := countFacts(ctx, store)
	if facts > 0 {
		rep.StoredFacts = facts
		rep.BytesPerFact = float64(rep.DiskBytes) / float64(facts)
	}
	rep.PeakRSSBytes = peakRSS()
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// rawBaseline times a bare prepared INSERT (one immediate transaction each) and a
// bare indexed SELECT on the same kind of file.
func rawBaseline(ctx context.Context, db *sql.DB, n int) (Result, Result, error) {
	if _, err := db.ExecContext(ctx, `CREATE TABLE raw (id INTEGER PRIMARY KEY, k TEXT NOT NULL, v TEXT NOT NULL);
		CREATE INDEX raw_k ON raw (k)`); err != nil {
		return Result{}, Result{}, err
	}
	stmt, err := db.PrepareContext(ctx, "INSERT INTO raw (k, v) VALUES (?, ?)")
	if err != nil {
		return Result{}, Result{}, err
	}
	defer stmt.Close()
	lat := make([]time.Duration, 0, n)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		s := time.Now()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return Result{}, Result{}, err
		}
		if _, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, "k"+strconv.Itoa(i), "value"); err != nil {
			tx.Rollback()
			return Result{}, Result{}, err
		}
		if err := tx.Commit(); err != nil {
			return Result{}, Result{}, err
		}
		lat = append(lat, time.Since(s))
	}
	ins := summarize("raw insert (baseline)", lat, time.Since(t0))
	q, err := db.PrepareContext(ctx, "SELECT v FROM raw WHERE k = ?")
	if err != nil {
		return Result{}, Result{}, err
	}
	defer q.Close()
	lat = lat[:0]
	t0 = time.Now()
	for i := 0; i < n; i++ {
		s := time.Now()
		var v string
		if err := q.QueryRowContext(ctx, "k"+strconv.Itoa(rand.IntN(n))).Scan(&v); err != nil {
			return Result{}, Result{}, err
		}
		lat = append(lat, time.Since(s))
	}
	return ins, summarize("raw select (baseline)", lat, time.Since(t0)), nil
}

func measure(ctx context.Context, e *memory.Engine, w Workload, n int) (Result, error) {
	if w.Setup != nil {
		if err := w.Setup(ctx, e); err != nil {
			return Result{}, err
		}
	}
	lat := make([]time.Duration, 0, n)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		s := time.Now()
		if err := w.Op(ctx, e, i); err != nil {
			return Result{}, err
		}
		lat = append(lat, time.Since(s))
	}
	return summarize(w.Name, lat, time.Since(t0)), nil
}

func summarize(name string, lat []time.Duration, total time.Duration) Result {
	s := slices.Clone(lat)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	pct := func(p float64) float64 {
		if len(s) == 0 {
			return 0
		}
		return float64(s[min(len(s)-1, int(p*float64(len(s))))].Nanoseconds()) / 1000
	}
	r := Result{Name: name, Ops: len(lat), P50us: pct(0.50), P95us: pct(0.95), P99us: pct(0.99)}
	if total > 0 {
		r.PerSecond = float64(len(lat)) / total.Seconds()
	}
	return r
}

// userID makes the i-th synthetic user's id.
func userID(i int) factbase.UserID {
	return factbase.UserID(fmt.Sprintf("00000000-0000-4000-8000-%012d", i))
}

// load writes the scale's users and facts through the write path, in batches.
func load(ctx context.Context, e *memory.Engine, sc Scale) ([]factbase.UserID, error) {
	users := make([]factbase.UserID, sc.Users)
	cats := factbase.Categories
	for u := range users {
		users[u] = userID(u)
		for off := 0; off < sc.Facts; off += 500 {
			var ops []factbase.Op
			for i := off; i < min(sc.Facts, off+500); i++ {
				ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
					Key: fmt.Sprintf("note.%d", i), Value: fmt.Sprintf("value %d of user %d", i, u),
					Text: fmt.Sprintf("The user noted item %d: %s", i, words[i%len(words)]), Category: cats[i%len(cats)]}})
			}
			if _, err := e.Apply(ctx, users[u], ops); err != nil {
				return nil, err
			}
		}
	}
	return users, nil
}

var words = strings.Fields("coffee tea Lisbon Kyoto running chess piano dinosaurs peanuts vegetarian Rust Go " +
	"kubernetes postgres nginx docker birthday Tuesday accountant sister garden")

func builtin(sc Scale, users []factbase.UserID) []Workload {
	var ws []Workload
	u0 := users[0]
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
		ws = append(ws, Workload{Name: fmt.Sprintf("ranked MOVE, random ranks (list of %d)", n), Baseline: "insert",
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
				_, err := e.Apply(ctx, users[i%len(users)], []factbase.Op{{Kind: factbase.OpSet,
					Fact: factbase.Fact{Key: "contact.email", Value: fmt.Sprintf("u%d@example.com", i)}}})
				return err
			}},
		Workload{Name: "point read by key", Baseline: "select",
			Op: func(ctx context.Context, e *memory.Engine, i int) error {
				r := rand.New(rand.NewPCG(uint64(i), 2))
				f, err := e.Get(ctx, users[r.IntN(len(users))], "", fmt.Sprintf("note.%d", r.IntN(sc.Facts)), nil)
				if err == nil && len(f) != 1 {
					err = fmt.Errorf("point read found %d facts", len(f))
				}
				return err
			}},
	)
	return ws
}

func countFacts(ctx context.Context, s *sqlite.Store) (int, error) {
	var n int
	err := s.Writer().QueryRowContext(ctx, "SELECT count(*) FROM facts").Scan(&n)
	return n, err
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

// peakRSS reads the process's peak resident set size (VmHWM) on Linux; 0 elsewhere.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}
