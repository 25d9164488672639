package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/pprof"
	"text/tabwriter"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/postgres"
)

// runBenchScale implements "factbase bench scale": many users' facts loaded through
// the write path's bulk insert into PostgreSQL and SQLite, then searches, reads and
// writes of random users and the size on disk (bench.RunScale).
func (m *Main) runBenchScale(ctx context.Context, args []string) error {
	var (
		c                common
		o                bench.ScaleOptions
		pgURL, schema    string
		dir, profile     string
		hnsw             string
		keep, skipSQLite bool
	)
	fs := m.flags("bench scale", &c, false)
	fs.IntVar(&o.Users, "users", 10_000, "users")
	fs.IntVar(&o.Facts, "facts", 100, "facts per user")
	fs.IntVar(&o.Batch, "batch", 0, "facts per transaction of the load (default: --facts; the bulk insert takes 32 or more)")
	fs.IntVar(&o.Writers, "writers", 4, "users loaded at once")
	fs.IntVar(&o.Searches, "searches", 1000, "timed hybrid searches")
	fs.IntVar(&o.Reads, "reads", 1000, "timed reads by key")
	fs.IntVar(&o.Writes, "writes", 1000, "timed writes of one fact")
	fs.Uint64Var(&o.Seed, "seed", 1, "the generated data set, and the users and questions of the timed operations")
	fs.StringVar(&pgURL, "postgres", "", "a PostgreSQL URL: measure the PostgreSQL store too, in a schema of its own")
	fs.StringVar(&schema, "schema", "", "the PostgreSQL schema, which must hold no facts (default: a new factbase_bench_* one)")
	fs.BoolVar(&skipSQLite, "no-sqlite", false, "measure PostgreSQL alone")
	fs.StringVar(&dir, "dir", "", "directory for the SQLite file (default: a temporary one)")
	fs.BoolVar(&keep, "keep", false, "keep the PostgreSQL schema and the SQLite file (default: dropped and removed after)")
	fs.StringVar(&hnsw, "hnsw", "auto", "auto: build pgvector's HNSW index after the load when a search would ask for it (a user with enough vectors for a walk to beat scanning them); build: always")
	fs.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the whole run to this file (for go tool pprof)")
	setUsage(fs, `Usage: factbase bench scale [--users N] [--facts N] [--postgres URL] [--embedder hash|glove|none] [--json]

Loads --users x --facts generated facts (default 10,000 x 100 = 1,000,000) through
the write path's bulk set insert, --batch facts a transaction and --writers users at
once, into each store: PostgreSQL (with --postgres, in a new schema dropped after;
pgvector's HNSW index is built after the load if a search would ask for it, or
always with --hnsw build) and SQLite (a new file). Then times
hybrid searches, reads by key and writes of one fact of random users, and prints the
load rate, p50/p95/p99 of each, the size on disk per fact (tables, indexes, vectors
and TOAST) with its tables, and, for PostgreSQL, the shared-buffer blocks each
operation touched, beside the targets (search p95 20 ms, load 5,000 facts/s, 1.5 KB
a fact). For a large load give PostgreSQL room to build the index:
?maintenance_work_mem=1GB in the URL.

`)
	if err := parse(fs, args); err != nil {
		return err
	}
	if o.Users < 1 || o.Facts < 1 || o.Batch < 0 || o.Writers < 1 || o.Searches < 1 || o.Reads < 1 || o.Writes < 1 {
		return usagef("--users, --facts, --writers, --searches, --reads and --writes must be positive")
	}
	if hnsw != "auto" && hnsw != "build" {
		return usagef("--hnsw %q is not auto or build", hnsw)
	}
	if pgURL == "" && skipSQLite {
		return usagef("--no-sqlite leaves no store: give --postgres URL")
	}
	if c.embedder == "hash" {
		o.Embedder = embed.NewHash(256)
	} else {
		var err error
		if o.Embedder, err = m.embedder(&c); err != nil {
			return err
		}
	}
	if pgURL != "" {
		if schema == "" {
			var b [4]byte
			rand.Read(b[:])
			schema = "factbase_bench_" + hex.EncodeToString(b[:])
		}
		o.Stores = append(o.Stores, postgresScaleStore(pgURL, schema, keep, hnsw == "build"))
	}
	if !skipSQLite {
		if dir == "" {
			d, err := os.MkdirTemp("", "factbase-scale-")
			if err != nil {
				return err
			}
			if !keep {
				defer os.RemoveAll(d)
			}
			dir = d
		}
		o.Stores = append(o.Stores, bench.SQLiteScaleStore(dir, keep))
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	o.Progress = func(msg string) {
		fmt.Fprintf(m.Stderr, "bench scale: %7.1f s  %s\n", time.Since(start).Seconds(), msg)
	}
	rep, err := bench.RunScale(ctx, o)
	if err != nil {
		return err
	}
	return m.print(&c, rep, func() error { return m.printBenchScale(rep) })
}

// postgresScaleStore is the PostgreSQL store in schema as a bench.ScaleStore.
func postgresScaleStore(url, schema string, keep, buildIndex bool) bench.ScaleStore {
	return bench.ScaleStore{
		Name: "postgres",
		Open: func(ctx context.Context) (factbase.Store, string, error) {
			s, err := postgres.Open(ctx, url, postgres.Options{Schema: schema})
			if err != nil {
				return nil, "", err
			}
			tables, err := s.TableSizes(ctx)
			for _, t := range tables {
				if t.Name == "facts" && t.Rows > 0 && err == nil {
					err = usagef("schema %s already holds %d facts: name a new one with --schema", schema, t.Rows)
				}
			}
			if err != nil {
				s.Close()
				return nil, "", err
			}
			path, reason := s.VectorSearch()
			if reason != "" {
				path += " (" + reason + ")"
			}
			return s, "schema " + schema + ", vectors " + path, nil
		},
		Prepare: func(ctx context.Context, st factbase.Store, dim int) (string, error) {
			s := st.(*postgres.Store)
			if path, _ := s.VectorSearch(); dim == 0 || path != postgres.VectorsPgvector {
				return "no HNSW index (vectors " + path + ")", nil
			}
			if !buildIndex {
				// A search asks for the build only when its user has enough vectors
				// for a walk of the index to beat the exact scan (limit 50, what a
				// search of 10 hits asks for).
				wanted, err := s.VectorIndexWanted(ctx, dim, 50)
				if err != nil || !wanted {
					return "no HNSW index: no user has enough vectors for a search to walk one", err
				}
			}
			if err := s.BuildVectorIndex(ctx, dim); err != nil {
				return "", err
			}
			return fmt.Sprintf("HNSW index of %d dimensions built", dim), nil
		},
		Size: func(ctx context.Context, st factbase.Store) (int64, []bench.TableSize, error) {
			tables, err := st.(*postgres.Store).TableSizes(ctx)
			var total int64
			out := make([]bench.TableSize, len(tables))
			for i, t := range tables {
				out[i] = bench.TableSize{Name: t.Name, Rows: t.Rows, Bytes: t.Bytes, IndexBytes: t.IndexBytes}
				total += t.Bytes
			}
			return total, out, err
		},
		Blocks: func(ctx context.Context, st factbase.Store) (int64, int64, error) {
			return st.(*postgres.Store).BlockCounts(ctx)
		},
		Close: func(ctx context.Context, st factbase.Store) error {
			if keep {
				return st.Close()
			}
			return st.(*postgres.Store).DropSchema(ctx)
		},
	}
}

// printBenchScale writes a scale benchmark's report for people: the stores side by
// side, then each store's tables.
func (m *Main) printBenchScale(rep bench.ScaleReport) error {
	fmt.Fprintf(m.Stdout, "%d users x %d facts (seed %d), embedder %s, %d facts a transaction, %d writers, %.0f s\n\n",
		rep.Users, rep.FactsPerUser, rep.Seed, rep.Embedder, rep.Batch, rep.Writers, rep.Seconds)
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, s := range rep.Stores {
		fmt.Fprintf(tw, "%s\t", s.Name)
	}
	fmt.Fprintln(tw)
	row := func(name string, cell func(s bench.StoreReport) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, s := range rep.Stores {
			fmt.Fprintf(tw, "%s\t", cell(s))
		}
		fmt.Fprintln(tw)
	}
	ms := func(us float64) string { return fmt.Sprintf("%.2f", us/1000) }
	verdict := func(ok bool) string {
		if ok {
			return ""
		}
		return " OVER"
	}
	lat := func(name string, r func(s bench.StoreReport) bench.Result) {
		row(name+" p50 ms", func(s bench.StoreReport) string { return ms(r(s).P50us) })
		row(name+" p95 ms", func(s bench.StoreReport) string { return ms(r(s).P95us) })
		row(name+" p99 ms", func(s bench.StoreReport) string { return ms(r(s).P99us) })
	}
	row("facts stored", func(s bench.StoreReport) string { return fmt.Sprint(s.Facts) })
	row(fmt.Sprintf("load facts/s (target %.0f)", rep.Targets.LoadPerSecond), func(s bench.StoreReport) string {
		return fmt.Sprintf("%.0f%s", s.Load.Throughput, verdict(s.LoadWithin))
	})
	row("load s (cpu s)", func(s bench.StoreReport) string {
		return fmt.Sprintf("%.1f (%.1f)", s.Load.Seconds, s.Load.CPUSeconds)
	})
	lat("load transaction", func(s bench.StoreReport) bench.Result { return s.Load })
	row("after the load, s", func(s bench.StoreReport) string { return fmt.Sprintf("%.1f", s.PrepareSeconds) })
	lat("hybrid search", func(s bench.StoreReport) bench.Result { return s.Search })
	row(fmt.Sprintf("search p95 within %.0f ms", rep.Targets.SearchP95Ms), func(s bench.StoreReport) string {
		return fmt.Sprint(s.SearchWithin)
	})
	row("searches with hits", func(s bench.StoreReport) string { return fmt.Sprintf("%.0f%%", 100*s.HitShare) })
	lat("read by key", func(s bench.StoreReport) bench.Result { return s.PointRead })
	lat("write one fact", func(s bench.StoreReport) bench.Result { return s.Write })
	row("cpu ms per search / read / write", func(s bench.StoreReport) string {
		per := func(r bench.Result) float64 { return 1000 * r.CPUSeconds / float64(max(1, r.Ops)) }
		return fmt.Sprintf("%.2f / %.2f / %.2f", per(s.Search), per(s.PointRead), per(s.Write))
	})
	row("disk MB", func(s bench.StoreReport) string { return fmt.Sprintf("%.1f", float64(s.DiskBytes)/(1<<20)) })
	row(fmt.Sprintf("bytes per fact (target %.0f)", rep.Targets.BytesPerFactMax), func(s bench.StoreReport) string {
		return fmt.Sprintf("%.0f%s", s.BytesPerFact, verdict(s.DiskWithin))
	})
	blocks := func(name string, b func(s bench.StoreReport) *bench.Blocks) {
		row(name, func(s bench.StoreReport) string {
			if x := b(s); x != nil {
				return fmt.Sprintf("%.1f / %.1f", x.Hit, x.Read)
			}
			return "-"
		})
	}
	blocks("blocks hit / read per loaded fact", func(s bench.StoreReport) *bench.Blocks { return s.LoadBlocks })
	blocks("per search", func(s bench.StoreReport) *bench.Blocks { return s.SearchBlocks })
	blocks("per read by key", func(s bench.StoreReport) *bench.Blocks { return s.PointReadBlocks })
	blocks("per write", func(s bench.StoreReport) *bench.Blocks { return s.WriteBlocks })
	tw.Flush()
	fmt.Fprintln(m.Stdout, "(cpu: this process's, PostgreSQL's own not counted; blocks: PostgreSQL's shared buffers)")
	for _, s := range rep.Stores {
		fmt.Fprintf(m.Stdout, "\n%s: %s\n", s.Name, s.Vectors)
		if s.Prepared != "" {
			fmt.Fprintf(m.Stdout, "after the load: %s (%.1f s)\n", s.Prepared, s.PrepareSeconds)
		}
		if len(s.Tables) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "table\trows\trows per fact\tMB\tindexes MB\tbytes per fact\t")
		for _, t := range s.Tables {
			if t.Bytes == 0 && t.Rows == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.1f\t%.1f\t%.0f\t\n", t.Name, t.Rows, float64(t.Rows)/float64(max(1, s.Facts)),
				float64(t.Bytes)/(1<<20), float64(t.IndexBytes)/(1<<20), float64(t.Bytes)/float64(max(1, s.Facts)))
		}
		tw.Flush()
	}
	return nil
}
