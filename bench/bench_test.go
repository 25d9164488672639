package bench

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/factbase/factbase/embed"
)

// TestRunTiny runs the tiny scale end to end with the default embedder: every
// workload reports operations and latencies, every workload with a baseline its ratio,
// and the run its disk and memory figures.
func TestRunTiny(t *testing.T) {
	emb, err := embed.NewGloVe()
	if err != nil {
		t.Fatal(err)
	}
	sc := Scales["tiny"]
	rep, err := Run(context.Background(), Options{Scale: sc, Dir: t.TempDir(), Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Results), 6+2+3*len(sc.ListSizes)+4+1; got != want {
		t.Errorf("%d results, want %d (6 baselines, build, load, 3 per list size, set, read, search, sheet, ingest)", got, want)
	}
	finite := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	for _, r := range rep.Results {
		if r.Ops < 1 || !finite(r.P50us) || r.P99us < r.P50us || !finite(r.PerSecond) || !finite(r.Seconds) {
			t.Errorf("%s: %+v", r.Name, r)
		}
		base := strings.HasSuffix(r.Name, "(baseline)") || strings.HasPrefix(r.Name, "medium load")
		if !base && !finite(r.RatioP50) && !finite(r.RatioThroughput) {
			t.Errorf("%s has no baseline ratio", r.Name)
		}
	}
	if rep.StoredFacts < sc.Users*sc.Facts || !finite(rep.BytesPerFact) || rep.PeakRSSBytes <= 0 {
		t.Errorf("stored %d, bytes/fact %.0f, peak RSS %d", rep.StoredFacts, rep.BytesPerFact, rep.PeakRSSBytes)
	}
	if rep.Embedder != emb.Model() {
		t.Errorf("embedder %q, want %q", rep.Embedder, emb.Model())
	}
	if s := rep.Serve; s.PeakRSSBytes <= 0 || s.Facts != sc.Users*sc.Facts || s.Result.Ops < sc.ServeOps/2 || s.FullSize {
		t.Errorf("serve: %+v", s)
	}
}

// TestRunRefusesEmptyScale: a scale without users, facts or operations is refused.
func TestRunRefusesEmptyScale(t *testing.T) {
	_, err := Run(context.Background(), Options{Scale: Scale{Name: "empty"}, Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("Run(empty scale) = %v, want an error naming the scale", err)
	}
}

// TestFleetFactStable: fact i of user u is the same every time (readers name facts
// by regenerating them), and differs between users.
func TestFleetFactStable(t *testing.T) {
	a, b := fleetFact(3, 17), fleetFact(3, 17)
	if a != b {
		t.Errorf("fleetFact(3, 17) = %+v, then %+v", a, b)
	}
	diff := 0
	for i := range 20 {
		if fleetFact(1, i).Text != fleetFact(2, i).Text {
			diff++
		}
	}
	if diff == 0 {
		t.Error("users 1 and 2 have the same 20 facts")
	}
}

// TestFTSOr quotes each word but stop words and ORs them, dropping punctuation.
func TestFTSOr(t *testing.T) {
	if got, want := ftsOr(`What does "Martin" like in Lisbon?`), `"martin" OR "like" OR "lisbon"`; got != want {
		t.Errorf("ftsOr = %q, want %q", got, want)
	}
}
