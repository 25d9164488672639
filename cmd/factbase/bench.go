package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/factbase/factbase/bench"
)

// runBench implements "factbase bench": synthetic workloads beside a raw-SQLite
// baseline measured in the same run.
func (m *Main) runBench(ctx context.Context, args []string) error {
	var (
		c     common
		scale string
		dir   string
	)
	fs := m.flags("bench", &c, false)
	names := make([]string, 0, len(bench.Scales))
	for n := range bench.Scales {
		names = append(names, n)
	}
	sort.Strings(names)
	fs.StringVar(&scale, "scale", "medium", "workload size: "+strings.Join(names, ", "))
	fs.StringVar(&dir, "dir", "", "directory for the benchmark's database files (default: a temporary one, removed after)")
	if err := parse(fs, args); err != nil {
		return err
	}
	sc, ok := bench.Scales[scale]
	if !ok {
		return usagef("--scale %q is not one of %s", scale, strings.Join(names, ", "))
	}
	rep, err := bench.Run(ctx, bench.Options{Scale: sc, Dir: dir, Extra: benchExtras(),
		Progress: func(name string) { fmt.Fprintf(m.Stderr, "bench: %s\n", name) }})
	if err != nil {
		return err
	}
	if c.json {
		return m.printJSON(rep)
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tops/s\tp50 µs\tp95 µs\tp99 µs\tp50 vs baseline\t")
	for _, r := range rep.Results {
		ratio := ""
		if r.RatioP50 > 0 {
			ratio = fmt.Sprintf("%.1fx %s", r.RatioP50, r.Baseline)
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%.0f\t%.0f\t%s\t\n", r.Name, r.PerSecond, r.P50us, r.P95us, r.P99us, ratio)
	}
	tw.Flush()
	fmt.Fprintf(m.Stdout, "\nscale %s: %d facts stored, %.0f bytes per fact on disk, peak RSS %.0f MB, %.1f s\n",
		sc.Name, rep.StoredFacts, rep.BytesPerFact, float64(rep.PeakRSSBytes)/(1<<20), rep.Seconds)
	return nil
}

// benchExtras returns the workloads of features outside the core write path.
func benchExtras() []bench.Workload { return nil }
