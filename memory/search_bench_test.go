package memory_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/storetest"
)

// Word lists for synthetic facts: a user's memory of people, places, projects and
// habits. Names and topics repeat across facts, as they do in real memories, so that
// query words have long posting lists.
var (
	benchNames  = strings.Fields("Martin Sarah Dana Eli Priya Tom Anna Lukas Mei Omar Grace Ivan Nora Raj Lea Hugo Ines Sam Kofi Yara")
	benchVerbs  = strings.Fields("likes avoids prefers cooks reads plays visits studies builds fixes plans books orders recommends collects")
	benchAdjs   = strings.Fields("spicy quiet old new italian vegan cheap fast small green early late weekly favourite local")
	benchNouns  = strings.Fields("pasta tea coffee jazz chess tennis museum library bicycle garden curry novel podcast camera guitar sushi bakery hiking yoga marathon violin pottery laptop tyres budget report dentist flight hotel conference")
	benchPlaces = strings.Fields("Lisbon Berlin Kyoto Austin Oslo Lagos Lima Porto Seoul Denver")
	benchTypes  = strings.Fields("preference health travel work hobby schedule contact")
)

// benchFact returns the i-th synthetic fact.
func benchFact(r *rand.Rand, i int) factbase.Fact {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	name, verb, adj, noun, place := pick(benchNames), pick(benchVerbs), pick(benchAdjs), pick(benchNouns), pick(benchPlaces)
	return factbase.Fact{
		Subject: "entity:" + strings.ToLower(name),
		Key:     fmt.Sprintf("%s.%s.%d", strings.ToLower(name), noun, i),
		Value:   adj + " " + noun,
		Text:    fmt.Sprintf("%s %s %s %s in %s", name, verb, adj, noun, place),
		Type:    pick(benchTypes),
	}
}

// benchQuestions are questions over the synthetic facts.
func benchQuestions(r *rand.Rand, n int) []string {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	forms := []func() string{
		func() string { return fmt.Sprintf("What does %s like to eat?", pick(benchNames)) },
		func() string { return fmt.Sprintf("Which %s does %s recommend?", pick(benchNouns), pick(benchNames)) },
		func() string { return fmt.Sprintf("%s %s in %s", pick(benchAdjs), pick(benchNouns), pick(benchPlaces)) },
		func() string { return fmt.Sprintf("Who %s %s?", pick(benchVerbs), pick(benchNouns)) },
		func() string { return "What music do they enjoy?" },
	}
	out := make([]string, n)
	for i := range out {
		out[i] = forms[i%len(forms)]()
	}
	return out
}

// fill100k gives one user 100,000 facts, with GloVe vectors, in batches of 1,000.
func fill100k(b *testing.B) (*memory.Engine, factbase.UserID) { return fillFacts(b, 100000) }

// fillFacts gives one user n facts (a multiple of 1,000), with GloVe vectors, in
// batches of 1,000.
func fillFacts(b *testing.B, n int) (*memory.Engine, factbase.UserID) {
	b.Helper()
	e := newEngine(b, memory.Options{Embedder: glove(b)})
	u := storetest.NewUser()
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for off := 0; off < n; off += 1000 {
		ops := make([]factbase.Op, 0, 1000)
		for i := off; i < off+1000; i++ {
			ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: benchFact(r, i)})
		}
		mustApply(b, e, u, ops...)
	}
	b.Logf("%d facts written with vectors in %v", n, time.Since(start).Round(time.Millisecond))
	return e, u
}

// percentiles reports the p50 and p95 of ds in milliseconds, named prefix+"p50-ms".
func percentiles(b *testing.B, prefix string, ds []time.Duration) {
	if len(ds) == 0 || ds[0] < 0 {
		return
	}
	slices.Sort(ds)
	at := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.50), prefix+"p50-ms")
	b.ReportMetric(at(0.95), prefix+"p95-ms")
}

// timeLoop runs op(i) in the benchmark's i-th iteration, on one locked OS thread,
// and reports the percentiles of its wall and thread CPU times.
func timeLoop(b *testing.B, op func(i int) error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var wall, cpu []time.Duration
	for i := 0; b.Loop(); i++ {
		c, start := threadCPU(), time.Now()
		err := op(i)
		wall = append(wall, time.Since(start))
		if c >= 0 {
			cpu = append(cpu, threadCPU()-c)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	percentiles(b, "", wall)
	percentiles(b, "cpu-", cpu)
}

// BenchmarkSearch100k is hybrid search (BM25 + GloVe vectors, fused, decayed,
// boosted, top 10 with their rows) over 100,000 facts of one user. The first search
// loads the user's vectors into memory; it runs before the timer starts.
func BenchmarkSearch100k(b *testing.B) { benchSearch(b, 100000) }

// BenchmarkSearch4k is the same over 4,000 facts, few enough for the SQLite store
// to rank vectors with sqlite-vec's k-NN (vec0) instead of an in-memory copy.
func BenchmarkSearch4k(b *testing.B) { benchSearch(b, 4000) }

func benchSearch(b *testing.B, n int) {
	e, u := fillFacts(b, n)
	ctx := b.Context()
	qs := benchQuestions(rand.New(rand.NewPCG(3, 4)), 200)
	cold := time.Now()
	if _, err := e.Retrieve.Search(ctx, u, qs[0], retrieve.SearchOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Logf("first search (loads the vectors): %v", time.Since(cold).Round(time.Millisecond))
	timeLoop(b, func(i int) error {
		res, err := e.Retrieve.Search(ctx, u, qs[i%len(qs)], retrieve.SearchOptions{})
		if err != nil || len(res.Hits) == 0 {
			return fmt.Errorf("Search(%q) = %d hits, %v", qs[i%len(qs)], len(res.Hits), err)
		}
		return nil
	})
}

// BenchmarkLookup is the direct fact look-up by type (newest 10) among 100,000 facts
// of one user.
func BenchmarkLookup(b *testing.B) {
	e, u := fill100k(b)
	ctx := b.Context()
	timeLoop(b, func(i int) error {
		rs, err := e.Retrieve.Lookup(ctx, u, retrieve.LookupOptions{Type: benchTypes[i%len(benchTypes)], Limit: 10})
		if err != nil || len(rs) != 10 {
			return fmt.Errorf("Lookup = %d results, %v", len(rs), err)
		}
		return nil
	})
}

// BenchmarkAddEpisode stores a 300-byte episode with extraction and its vectors.
func BenchmarkAddEpisode(b *testing.B) {
	e := newEngine(b, memory.Options{Embedder: glove(b)})
	u := storetest.NewUser()
	ctx := b.Context()
	i := 0
	for b.Loop() {
		_, err := e.Ingest.AddEpisode(ctx, u, ingest.EpisodeInput{Content: fmt.Sprintf(
			"Session %d complete: NEXUS v2.3.%d deployed to staging. Test success rate 97%%, p95 latency 120 ms. Phase 3 IN_PROGRESS; the team reviewed the retrieval failures.", i, i)})
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}
