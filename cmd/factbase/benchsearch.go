package main

import (
	"context"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/embed"
)

// runBenchSearch implements "factbase bench search": one user's generated memories
// loaded through the write path, then the product's search beside exact search over
// the same file (bench.RunSearch).
func (m *Main) runBenchSearch(ctx context.Context, args []string) error {
	var (
		c       common
		o       bench.SearchOptions
		seed    uint64
		profile string
	)
	fs := m.flags("bench search", &c, false)
	fs.IntVar(&o.N, "n", 10_000, "memories of the one user: 1000, 10000, 100000 or 1000000 (any positive number)")
	fs.IntVar(&o.Queries, "queries", 200, "questions asked, each of both searches")
	fs.Uint64Var(&seed, "seed", 1, "the generated data set (the fusion was tuned on seed 7)")
	fs.StringVar(&o.Dir, "dir", "", "directory for the database file (default: a temporary one, removed after)")
	fs.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the searches (not of the load) to this file")
	setUsage(fs, `Usage: factbase bench search [--n N] [--queries N] [--embedder hash|glove|none] [--json]

Loads N generated short memories for one user through the write path (batches of
episodes), asks generated questions that know the memory they were made from (a share
by a rare token: an identifier, an invented word, an unusual name), and prints the add
rate, search latency p50/p95/p99, recall@10 and hit@1, the resident set and the bytes
per memory on disk, beside exact search over the same file (every vector scored).

`)
	if err := parse(fs, args); err != nil {
		return err
	}
	if o.N < 1 || o.Queries < 1 {
		return usagef("--n and --queries must be positive")
	}
	o.Seed = seed
	if c.embedder == "hash" {
		o.Embedder = embed.NewHash(256)
	} else {
		var err error
		if o.Embedder, err = m.embedder(&c); err != nil {
			return err
		}
	}
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		o.Profile = f
	}
	start := time.Now()
	o.Progress = func(msg string) {
		fmt.Fprintf(m.Stderr, "bench search: %6.1f s  %s\n", time.Since(start).Seconds(), msg)
	}
	rep, err := bench.RunSearch(ctx, o)
	if err != nil {
		return err
	}
	return m.print(&c, rep, func() error { return m.printBenchSearch(rep) })
}

// printBenchSearch writes a search benchmark's report for people.
func (m *Main) printBenchSearch(rep bench.SearchReport) error {
	mb := func(b int64) float64 { return float64(b) / (1 << 20) }
	fmt.Fprintf(m.Stdout, "%d memories of one user (seed %d), embedder %s: added at %.0f a second (%.1f s, %.1f s of CPU)\n",
		rep.N, rep.Seed, rep.Embedder, rep.AddPerSecond, rep.AddSeconds, rep.AddCPUSeconds)
	fmt.Fprintf(m.Stdout, "disk %.1f MB, %.0f bytes a memory; RSS %.0f MB after the searches (both stores), peak %.0f MB\n",
		mb(rep.DiskBytes), rep.BytesPerMemory, mb(rep.RSSBytes), mb(rep.PeakRSSBytes))
	fmt.Fprintf(m.Stdout, "the product's store alone: RSS %.0f MB after its first search; %.1f MB of vectors in memory (%d)\n\n",
		mb(rep.SearchRSSBytes), mb(rep.VectorBytes), rep.VectorCopies)
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%d questions\tfirst ms\tp50 ms\tp95 ms\tp99 ms\tcpu s\trecall@10\thit@1\trare hit@1\tcommon hit@1\tsynonym hit@1\t\n", rep.Queries)
	for _, r := range []struct {
		name string
		run  bench.SearchRun
	}{{"search", rep.Search}, {"exact search", rep.Exact}} {
		x := r.run
		fmt.Fprintf(tw, "%s\t%.1f\t%.2f\t%.2f\t%.2f\t%.2f\t%.3f\t%.3f\t%.3f (%d)\t%.3f (%d)\t%.3f (%d)\t\n", r.name, x.FirstMs,
			x.Latency.P50ms, x.Latency.P95ms, x.Latency.P99ms, x.Latency.CPUSeconds, x.All.RecallAt10, x.All.HitAt1,
			x.Rare.HitAt1, x.Rare.Questions, x.Common.HitAt1, x.Common.Questions, x.Synonym.HitAt1, x.Synonym.Questions)
	}
	tw.Flush()
	fmt.Fprintf(m.Stdout, "\nsearch's first 10 hold %.1f%% of exact search's", 100*rep.AgreementAt10)
	if rep.Embedder != "none" {
		fmt.Fprintf(m.Stdout, "; its vector candidates %.1f%% of the exact 10 nearest", 100*rep.VectorRecallAt10)
	}
	fmt.Fprintln(m.Stdout)
	return nil
}
