package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/factbase/factbase/bench"
)

// runBench implements "factbase bench": synthetic workloads beside a raw-SQLite
// baseline measured in the same run, the store's size on disk and the memory target;
// "factbase bench search" is search at scale (benchsearch.go), "factbase bench
// scale" many users in PostgreSQL and SQLite (benchscale.go).
func (m *Main) runBench(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "search" {
		return m.runBenchSearch(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "scale" {
		return m.runBenchScale(ctx, args[1:])
	}
	var (
		c              common
		o              bench.Options
		scale, profile string
	)
	fs := m.flags("bench", &c, false)
	names := slices.Sorted(maps.Keys(bench.Scales))
	fs.StringVar(&scale, "scale", "medium", "workload size: "+strings.Join(names, ", ")+
		" (large: the memory target's 1,000,000 facts of 1,000 users)")
	fs.StringVar(&o.Dir, "dir", "", "directory for the benchmark's database files (default: a temporary one, removed after)")
	fs.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the whole run to this file (for go tool pprof)")
	if err := parse(fs, args); err != nil {
		return err
	}
	var ok bool
	if o.Scale, ok = bench.Scales[scale]; !ok {
		return usagef("--scale %q is not one of %s", scale, strings.Join(names, ", "))
	}
	var err error
	if o.Embedder, err = m.embedder(&c); err != nil {
		return err
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
	o.Progress = func(name string) { fmt.Fprintf(m.Stderr, "bench: %6.1f s  %s\n", time.Since(start).Seconds(), name) }
	rep, err := bench.Run(ctx, o)
	if err != nil {
		return err
	}
	return m.print(&c, rep, func() error { return m.printBench(rep) })
}

// printBench writes a benchmark report for people: a table of the workloads, then the
// disk and memory figures beside their targets.
func (m *Main) printBench(rep bench.Report) error {
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tops\tops/s\tp50 µs\tp95 µs\tp99 µs\tthroughput\tvs baseline\tcpu s\t")
	for _, r := range rep.Results {
		tput, ratio := "", ""
		if r.Throughput > 0 {
			tput = fmt.Sprintf("%.1f %s", r.Throughput, r.Unit)
		}
		switch {
		case r.RatioThroughput > 0:
			ratio = fmt.Sprintf("%.1fx slower than %s", r.RatioThroughput, r.Baseline)
		case r.RatioP50 > 0:
			ratio = fmt.Sprintf("p50 %.1fx %s", r.RatioP50, r.Baseline)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.0f\t%.0f\t%s\t%s\t%.1f\t\n", r.Name, r.Ops, r.PerSecond, r.P50us, r.P95us, r.P99us, tput, ratio, r.CPUSeconds)
	}
	tw.Flush()
	mb := func(b int64) float64 { return float64(b) / (1 << 20) }
	verdict := func(ok bool) string {
		if ok {
			return "within"
		}
		return "OVER"
	}
	s := rep.Serve
	fmt.Fprintf(m.Stdout, "\nscale %s, embedder %s, %.1f s (%.1f s of CPU), peak RSS of the whole run %.0f MB\n",
		rep.Scale.Name, rep.Embedder, rep.Seconds, rep.CPUSeconds, mb(rep.PeakRSSBytes))
	fmt.Fprintf(m.Stdout, "disk: %d facts, %.0f bytes per fact with indexes and vectors (%s the target of %d)\n",
		rep.StoredFacts, rep.BytesPerFact, verdict(rep.WithinDiskTarget), rep.DiskTargetBytes)
	fmt.Fprintf(m.Stdout, "memory: %s\n  under %s: peak RSS %.0f MB (%.0f MB at opening, Go heap %.0f MB after), %s the target of %.0f MB\n",
		s.Label, s.Mix, mb(s.PeakRSSBytes), mb(s.StartRSSBytes), mb(int64(s.GoHeapBytes)), verdict(s.WithinTarget), mb(s.TargetBytes))
	if !s.PeakReset {
		fmt.Fprintln(m.Stdout, "  (the kernel's peak could not be reset: the figure includes building the store)")
	}
	return nil
}
