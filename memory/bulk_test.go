package memory_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/storetest"
	"github.com/factbase/factbase/transcript"
)

// codingLog returns a generated coding-session log of about size bytes (the bulk
// benchmarks' input).
func codingLog(t testing.TB, size int64) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := bench.WriteCodingTranscript(&b, size, 3); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// storedState is what a user's store holds, as the product reads it, with what
// differs between two stores given the same writes (fact ids) taken out: every
// version of every fact in order, the references of each, the hits of some
// questions (full text and vectors, as of now), the sets' objects, the sessions, the
// vectors by model and the fact sheet.
func storedState(t *testing.T, e *memory.Engine, u factbase.UserID, now time.Time) map[string]any {
	t.Helper()
	ctx := t.Context()
	facts, err := e.Facts(ctx, u, factbase.FactFilter{History: true})
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{} // fact id -> place in facts
	for i, f := range facts {
		index[f.ID] = i
	}
	state := map[string]any{"facts": withoutIDs(facts)}
	var (
		refs   []string
		models []factbase.VectorModel
	)
	err = e.Store().View(ctx, u, func(tx factbase.ReadTx) error {
		for i, f := range facts {
			rs, err := tx.References(ctx, f.ID)
			if err != nil {
				return err
			}
			for _, r := range rs {
				refs = append(refs, fmt.Sprintf("%d %s %+v", i, r.At, r.Source))
			}
		}
		models, err = tx.VectorModels(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	state["references"], state["vectors"] = refs, models
	for _, q := range []string{"docker", "handler.go", "error", "nginx restart", "migration failed"} {
		r, err := e.Retrieve.Search(ctx, u, q, retrieve.SearchOptions{Limit: 20, Kinds: []string{factbase.KindFact},
			MinSimilarity: -1, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		var hits []string
		for _, h := range r.Hits {
			hits = append(hits, fmt.Sprintf("%d %.6f %+v", index[h.ID], h.Score, h.Explain))
		}
		state["search "+q] = hits
	}
	objs, _, err := e.Ingest.TranscriptObjects(ctx, u, factbase.TranscriptQuery{Limit: ingest.MaxTranscriptLimit})
	if err != nil {
		t.Fatal(err)
	}
	state["objects"] = objs
	sessions, _, err := e.Ingest.TranscriptSessions(ctx, u, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	state["sessions"] = sessions
	sh, err := e.GenerateSheet(ctx, u, core.SheetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for _, en := range sh.Entries {
		entries = append(entries, fmt.Sprintf("%d %s %s %.6f", index[en.FactID], en.Category, en.Text, en.Score))
	}
	state["sheet"] = entries
	return state
}

// TestIngestBulkMatchesOneByOne: a log ingested in the product's batches (the bulk
// set insert, full text and sheet records written once before each commit, vectors
// put in chunks) leaves what the same log ingested a message a transaction (the
// write path one op at a time) leaves: the same facts, versions, references,
// full-text and vector hits, objects, sessions, vectors and fact sheet. Both stores
// have the same clock.
func TestIngestBulkMatchesOneByOne(t *testing.T) {
	ctx := t.Context()
	log := codingLog(t, 200<<10)
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	u := storetest.NewUser()
	ingestWith := func(o ingest.IngestOptions) (*memory.Engine, factbase.UserID, ingest.IngestSummary) {
		t.Helper()
		e := memory.New(openStore(t, "", fixed(now)), memory.Options{Embedder: embed.NewHash(64), NoSheetRegen: true})
		// Twice, the second time from the start (a rewritten file): every fact is
		// then restated, a duplicate blocked.
		for _, name := range []string{"a.jsonl", "b.jsonl"} {
			if _, err := e.Ingest.IngestTranscript(ctx, u, bytes.NewReader(log), name, o); err != nil {
				t.Fatal(err)
			}
		}
		sum, err := e.Ingest.IngestTranscript(ctx, u, bytes.NewReader(log), "c.jsonl", o)
		if err != nil {
			t.Fatal(err)
		}
		return e, u, sum
	}
	bulk, bu, bsum := ingestWith(ingest.IngestOptions{})
	one, ou, osum := ingestWith(ingest.IngestOptions{BatchFacts: 1}) // a message a transaction: fewer ops than the bulk insert takes
	if bsum.Duplicate == 0 || bsum.Stored != 0 || bsum.Duplicate != osum.Duplicate {
		t.Errorf("third ingest: %d stored, %d duplicates in bulk; %d one by one; want none stored and the same duplicates", bsum.Stored, bsum.Duplicate, osum.Duplicate)
	}
	got, want := storedState(t, bulk, bu, now), storedState(t, one, ou, now)
	if facts := want["facts"].([]factbase.Fact); len(facts) < 500 {
		t.Fatalf("%d facts; the log should make hundreds", len(facts))
	}
	for k := range want {
		if g, w := reflect.ValueOf(got[k]), reflect.ValueOf(want[k]); !reflect.DeepEqual(got[k], want[k]) {
			if g.Kind() != reflect.Slice || w.Kind() != reflect.Slice {
				t.Errorf("%s differs:\nbulk       %v\none by one %v", k, got[k], want[k])
				continue
			}
			for i := range max(g.Len(), w.Len()) {
				if i >= g.Len() || i >= w.Len() {
					t.Errorf("%s: %d in bulk, %d one by one", k, g.Len(), w.Len())
					break
				}
				if !reflect.DeepEqual(g.Index(i).Interface(), w.Index(i).Interface()) {
					t.Errorf("%s differs at %d:\nbulk       %+v\none by one %+v", k, i, g.Index(i).Interface(), w.Index(i).Interface())
					break
				}
			}
		}
	}
}

// TestIngestMemoryFlat: the ingest streams its input; the live heap while it runs
// does not grow with the file. Sampled after each committed batch, after a
// collection, for a log of 1 MB and one four times larger, in batches of 500 facts
// (so that both fill the pipeline: a batch read, one waiting, one written). What
// the extractor
// remembers to link actions to tasks (up to 2 x 100,000 message ids by default,
// reached at about 70 MB of a dense log) is bounded lower here, to reach its bound
// within the smaller log.
func TestIngestMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 5 MB")
	}
	peak := func(size int64) (uint64, int) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "f.jsonl")
		if err := os.WriteFile(path, codingLog(t, size), 0o600); err != nil {
			t.Fatal(err)
		}
		log, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer log.Close()
		e := newEngine(t, memory.Options{NoSheetRegen: true})
		var (
			top     uint64
			batches int
		)
		_, err = e.Ingest.IngestTranscript(t.Context(), storetest.NewUser(), log, path, ingest.IngestOptions{
			Extractor: transcript.ExtractorOptions{Memory: 1000}, BatchFacts: 500,
			Progress: func(ingest.IngestProgress) {
				batches++
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				top = max(top, ms.HeapAlloc)
			}})
		if err != nil {
			t.Fatal(err)
		}
		return top, batches
	}
	small, sb := peak(1 << 20)
	large, lb := peak(4 << 20)
	t.Logf("peak live heap: %.1f MiB over %d batches (1 MB), %.1f MiB over %d batches (4 MB)",
		float64(small)/(1<<20), sb, float64(large)/(1<<20), lb)
	if lb < 3*sb {
		t.Fatalf("%d and %d batches: the larger log should take about four times as many", sb, lb)
	}
	// The larger log's input alone is 3 MB more; its peak may not grow by that.
	if large > small+small/4+(1<<20) {
		t.Errorf("peak live heap %.1f MiB for 4 MB, %.1f MiB for 1 MB: it grows with the input", float64(large)/(1<<20), float64(small)/(1<<20))
	}
}

// TestBackfillInBatches: a backfill extracts in transactions of about an ingest
// batch's facts and stores what extraction on creation stores.
func TestBackfillInBatches(t *testing.T) {
	ctx := t.Context()
	const n = 1300
	in := make([]ingest.EpisodeInput, n)
	for i := range in {
		content, tags := episodeText(i)
		in[i] = ingest.EpisodeInput{Content: content, Tags: tags}
	}
	current := func(e *memory.Engine, u factbase.UserID) []string {
		t.Helper()
		facts, err := e.Facts(ctx, u, factbase.FactFilter{History: true})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range facts {
			out = append(out, fmt.Sprintf("%s %s %s %v %.2f %s", f.Subject, f.Key, f.Value, f.Current, f.Confidence, f.Extractor))
		}
		slices.Sort(out)
		return out
	}

	add := func(e *memory.Engine, u factbase.UserID) {
		t.Helper()
		for i := 0; i < len(in); i += ingest.MaxEpisodeBatch {
			if _, _, err := e.Ingest.AddEpisodes(ctx, u, in[i:min(i+ingest.MaxEpisodeBatch, len(in))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	created, cu := newEngine(t, memory.Options{NoSheetRegen: true}), storetest.NewUser()
	add(created, cu)
	for i := range in {
		in[i].NoExtract = true
	}
	later, lu := newEngine(t, memory.Options{NoSheetRegen: true}), storetest.NewUser()
	add(later, lu)
	var calls []int
	res, err := later.Ingest.BackfillEpisodes(ctx, lu, 0, func(done, total int) { calls = append(calls, done) })
	if err != nil {
		t.Fatal(err)
	}
	want := current(created, cu)
	if res.Episodes != n || res.Remaining != 0 || len(want) < 2*ingest.DefaultIngestBatchFacts {
		t.Fatalf("backfill = %+v, %d facts on creation; want %d episodes and more facts than two batches", res, len(want), n)
	}
	if len(calls) < 2 || calls[len(calls)-1] != n {
		t.Errorf("progress after %v episodes; want several batches ending at %d", calls, n)
	}
	if got := current(later, lu); !slices.Equal(got, want) {
		t.Errorf("facts after the backfill differ from extraction on creation: %d, want %d", len(got), len(want))
	}
}
