package bench

import (
	"context"
	"strings"
	"testing"
)

// TestRunSmall runs a tiny scale end to end: every workload reports operations and
// latencies, and every workload with a baseline reports its ratio.
func TestRunSmall(t *testing.T) {
	sc := Scale{Name: "test", Users: 2, Facts: 50, Ops: 20, ListSizes: []int{10}}
	rep, err := Run(context.Background(), Options{Scale: sc, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) < 7 {
		t.Fatalf("%d results, want the 2 baselines and at least 5 workloads", len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.Ops != sc.Ops || r.P50us <= 0 || r.P99us < r.P50us || r.PerSecond <= 0 {
			t.Errorf("%s: %+v", r.Name, r)
		}
		if !strings.Contains(r.Name, "baseline") && r.RatioP50 <= 0 {
			t.Errorf("%s has no baseline ratio", r.Name)
		}
	}
	if rep.StoredFacts < sc.Users*sc.Facts || rep.BytesPerFact <= 0 || rep.PeakRSSBytes <= 0 {
		t.Errorf("stored %d, bytes/fact %.0f, peak RSS %d", rep.StoredFacts, rep.BytesPerFact, rep.PeakRSSBytes)
	}
}
