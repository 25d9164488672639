package memory_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/bench/cputime"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// bulkTestOps is a write of set members large enough for the bulk set insert, with
// values repeated within the write (also in another spelling), values already
// stored, a value a ranked list holds, and a valid-from time outside UTC.
func bulkTestOps() []factbase.Op {
	zone := time.FixedZone("UTC+2", 2*3600)
	member := func(subject, key, value string) factbase.Op {
		return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Subject: subject, Key: key, Value: value,
			Cardinality: factbase.Many, Confidence: 0.8, Category: factbase.Technical, Type: ingest.TranscriptFactType,
			Source:    factbase.Source{Kind: factbase.SourceTranscript, ID: "f.jsonl:" + value},
			Extractor: "rule_" + key, ValidFrom: time.Date(2025, 6, 2, 18, 0, 0, 0, zone)}}
	}
	var ops []factbase.Op
	for i := range 34 {
		ops = append(ops, member(fmt.Sprintf("action_%d", i%5), "used_tool", fmt.Sprintf("Tool%d", i%7)))
	}
	ops = append(ops,
		member(factbase.SubjectUser, "tags", "ALPHA"),  // stored as "alpha"
		member(factbase.SubjectUser, "tags", "delta"),  // new
		member(factbase.SubjectUser, "tags", "Delta!"), // the same value, restated in this write
		member(factbase.SubjectUser, "favorites.x", "gamma"),
		member("action_1", "used_tool", "tool3"),
		member(factbase.SubjectUser, "tags", "epsilon"))
	return ops
}

// bulkEngine returns an engine over a new store whose clock stands at now, holding
// for u what the ops above meet: a set and a ranked list.
func bulkEngine(t *testing.T, now time.Time, u factbase.UserID) *memory.Engine {
	t.Helper()
	e := memory.New(openStore(t, "", fixed(now)), memory.Options{})
	mustApply(t, e, u,
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "tags", Value: "alpha", Cardinality: factbase.Many}},
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "tags", Value: "beta", Cardinality: factbase.Many}},
		factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.x", Value: "Gamma", Cardinality: factbase.Ranked}})
	return e
}

// withoutIDs blanks what differs between two stores given the same writes: fact ids.
func withoutIDs(facts []factbase.Fact) []factbase.Fact {
	out := make([]factbase.Fact, len(facts))
	for i, f := range facts {
		f.ID = ""
		out[i] = f
	}
	return out
}

// TestBulkMembersMatchOneByOne: a write of many set members (the bulk set insert a
// transcript batch takes) stores the same rows and returns the same result as the
// same ops written one at a time through the per-op path.
func TestBulkMembersMatchOneByOne(t *testing.T) {
	ctx := t.Context()
	now := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	u := storetest.NewUser()
	ops := bulkTestOps()

	bulk := bulkEngine(t, now, u)
	got, err := bulk.Apply(ctx, u, ops)
	if err != nil {
		t.Fatal(err)
	}

	single := bulkEngine(t, now, u)
	want := factbase.Result{Duplicates: []factbase.Duplicate{}}
	for _, op := range ops {
		r, err := single.Apply(ctx, u, []factbase.Op{op})
		if err != nil {
			t.Fatal(err)
		}
		want.Stored += r.Stored
		want.Duplicates = append(want.Duplicates, r.Duplicates...)
		want.Facts = append(want.Facts, r.Facts...)
	}

	// 7 tools on each of 5 actions is 35 pairs, but i%5 and i%7 over 0..33 meet
	// 34 of them once each, less tool3 on action_1 restated at the end; tags: delta
	// and epsilon.
	if got.Stored != want.Stored || got.Stored != 34+2 {
		t.Errorf("stored %d in bulk, %d one at a time; want 36", got.Stored, want.Stored)
	}
	if len(got.Duplicates) != len(want.Duplicates) || len(got.Duplicates) != 4 {
		t.Fatalf("duplicates %+v in bulk, %+v one at a time; want 4", got.Duplicates, want.Duplicates)
	}
	gotFacts, err := bulk.Facts(ctx, u, factbase.FactFilter{History: true})
	if err != nil {
		t.Fatal(err)
	}
	wantFacts, err := single.Facts(ctx, u, factbase.FactFilter{History: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withoutIDs(gotFacts), withoutIDs(wantFacts)) {
		t.Errorf("stored rows differ:\nbulk   %+v\nsingle %+v", withoutIDs(gotFacts), withoutIDs(wantFacts))
	}
	byID := func(facts []factbase.Fact) map[string]factbase.Fact {
		m := map[string]factbase.Fact{}
		for _, f := range facts {
			m[f.ID] = f
		}
		return m
	}
	gotByID, wantByID := byID(gotFacts), byID(wantFacts)
	for i := range got.Duplicates {
		g, w := got.Duplicates[i], want.Duplicates[i]
		if g.Key != w.Key || g.Value != w.Value || gotByID[g.FactID].Value != wantByID[w.FactID].Value || gotByID[g.FactID].Value == "" {
			t.Errorf("duplicate %d: bulk %+v (fact %q), one at a time %+v (fact %q)", i, g, gotByID[g.FactID].Value, w, wantByID[w.FactID].Value)
		}
	}
	if !reflect.DeepEqual(withoutIDs(got.Facts), withoutIDs(want.Facts)) {
		t.Errorf("result facts differ:\nbulk   %+v\nsingle %+v", withoutIDs(got.Facts), withoutIDs(want.Facts))
	}

	// Written again, every op is a duplicate and nothing is stored.
	again, err := bulk.Apply(ctx, u, ops)
	if err != nil {
		t.Fatal(err)
	}
	if again.Stored != 0 || len(again.Duplicates) != len(ops) {
		t.Errorf("second write: %d stored, %d duplicates; want 0 and %d", again.Stored, len(again.Duplicates), len(ops))
	}
	// The new facts are in the full-text index, as the per-op path leaves them.
	hits, err := bulk.Retrieve.Search(ctx, u, "epsilon", retrieve.SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits.Hits) == 0 || hits.Hits[0].Fact == nil || hits.Hits[0].Fact.Value != "epsilon" {
		t.Errorf("search for a bulk-inserted value: %+v", hits)
	}
}

// pastMaxOpsLog is a task and n assistant messages each running one command.
func pastMaxOpsLog(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"user","uuid":"u0","sessionId":"s1","timestamp":"2025-06-02T18:00:00Z","message":{"role":"user","content":"tidy the servers"}}` + "\n")
	parent := "u0"
	for i := range n {
		id := fmt.Sprintf("a%05d", i)
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"%s","parentUuid":"%s","sessionId":"s1","timestamp":"2025-06-02T18:01:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"ssh root@host%d.example.com uptime"}}]}}`+"\n", id, parent, i, i)
		parent = id
	}
	return b.String()
}

// TestIngestBatchPastMaxOps: with BatchFacts at MaxOps, the message that fills a
// batch carries it past MaxOps; the ingest still stores every fact, as one with
// small batches does.
func TestIngestBatchPastMaxOps(t *testing.T) {
	count := func(log string, o ingest.IngestOptions) ingest.IngestSummary {
		t.Helper()
		sum, _ := ingestFresh(t, []byte(log), o)
		return sum
	}
	base, one := count(pastMaxOpsLog(0), ingest.IngestOptions{}).Facts, count(pastMaxOpsLog(1), ingest.IngestOptions{}).Facts
	per := one - base
	if per < 2 || (core.MaxOps-base)%per == 0 {
		t.Fatalf("%d facts for the task and %d a message: no message would cross MaxOps; change the log", base, per)
	}
	log := pastMaxOpsLog((core.MaxOps-base)/per + 50)
	want := count(log, ingest.IngestOptions{})
	got := count(log, ingest.IngestOptions{BatchFacts: core.MaxOps})
	if got.Stored != want.Stored || got.Stored <= core.MaxOps || got.Duplicate != 0 || got.Offset != int64(len(log)) {
		t.Errorf("with batches of MaxOps: %d stored, %d duplicates, offset %d; with small batches %d stored; want the same, over %d, offset %d",
			got.Stored, got.Duplicate, got.Offset, want.Stored, core.MaxOps, len(log))
	}
}

// TestIngestCrashMidwayBulk is TestIngestCrashMidway with batches that take the bulk
// set insert: a failed batch leaves nothing of itself, and running again stores
// exactly the rest.
func TestIngestCrashMidwayBulk(t *testing.T) {
	ctx := t.Context()
	log := pastMaxOpsLog(200)
	_, want := ingestFresh(t, []byte(log), ingest.IngestOptions{})

	e, repair := crashEngine(t, 3)
	u := storetest.NewUser()
	o := ingest.IngestOptions{BatchFacts: 100}
	sum, err := e.Ingest.IngestTranscript(ctx, u, strings.NewReader(log), "f.jsonl", o)
	if !errors.Is(err, errCrash) {
		t.Fatalf("IngestTranscript = %v, want the simulated crash", err)
	}
	half := allFacts(t, e, u)
	if len(half) != sum.Stored || sum.Stored < 2*100 || sum.Stored >= len(want) {
		t.Fatalf("after the crash %d facts stored, summary %d; want two batches' worth of %d", len(half), sum.Stored, len(want))
	}
	repair()
	again, err := e.Ingest.IngestTranscript(ctx, u, strings.NewReader(log), "f.jsonl", o)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Resumed || again.Duplicate != 0 || again.Stored != len(want)-len(half) {
		t.Errorf("second run = %+v, want resumed, %d stored, no duplicates", again, len(want)-len(half))
	}
	if got := allFacts(t, e, u); !slices.Equal(got, want) {
		t.Errorf("facts after crash and rerun differ from a clean ingest: %d, want %d", len(got), len(want))
	}
}

// FuzzIngestTranscript checks, for any input, that ingest never fails on content,
// that a second ingest of the same bytes reads and stores nothing, and that
// ingesting a prefix (cut anywhere) and then the whole stores exactly what the
// whole at once does.
func FuzzIngestTranscript(f *testing.F) {
	for _, name := range []string{"reference.jsonl", "forms.jsonl", "malformed.jsonl"} {
		b := readFixture(f, name)
		f.Add(b, uint16(len(b)/2))
	}
	f.Add([]byte("{}\n\n[\n"), uint16(3))
	// One engine for every execution (a new pair of users each), and no fact sheet
	// regenerated after each of the four ingests: that is best effort, nothing here
	// reads the sheet, and it was a third of an execution's CPU time (8.9 ms of
	// it, without the fuzzer's instrumentation). The sheet has its own fuzzers.
	// Go's default minimizing stalls this target (.ci/fuzz says why): fuzz it with
	// -fuzzminimizetime=0.
	e := newEngine(f, memory.Options{NoSheetRegen: true})
	f.Fuzz(func(t *testing.T, body []byte, cut uint16) {
		if len(body) > 8<<10 {
			return
		}
		ingest := func(u factbase.UserID, b []byte) ingest.IngestSummary {
			t.Helper()
			sum, err := e.Ingest.IngestTranscript(t.Context(), u, bytes.NewReader(b), "f.jsonl", ingest.IngestOptions{BatchFacts: 25})
			if err != nil {
				t.Fatalf("IngestTranscript(%q): %v", b, err)
			}
			return sum
		}
		whole, split := storetest.NewUser(), storetest.NewUser()
		first := ingest(whole, body)
		again := ingest(whole, body)
		if again.Lines != 0 || again.Stored != 0 || again.Bytes != 0 {
			t.Fatalf("second ingest of the same bytes = %+v, want nothing read", again)
		}
		if first.Offset+int64(len(body))-int64(bytes.LastIndexByte(body, '\n')+1) != int64(len(body)) {
			t.Fatalf("offset %d after ingesting %d bytes whose last newline ends at %d", first.Offset, len(body), bytes.LastIndexByte(body, '\n')+1)
		}
		k := int(cut) % (len(body) + 1)
		ingest(split, body[:k])
		ingest(split, body)
		got, want := allFacts(t, e, split), allFacts(t, e, whole)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("prefix of %d bytes then the whole:\n%s\nwant\n%s", k, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// maxRSS returns the process's peak resident set size in bytes so far (VmHWM in
// /proc/self/status), or 0 where that file does not exist.
func maxRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// benchIngest ingests a generated transcript of about size bytes end to end into a
// new SQLite file per iteration. MB/s is the end-to-end throughput (MB/cpu-s the
// same per CPU second);
// peak-heap-MiB is the largest live heap sampled after each committed batch, and
// peak-rss-MiB the process's peak resident set during the ingests (the kernel's peak
// is reset after the file is generated, where Linux allows it; run one size per
// process to read it for that size alone); batch-rss-MiB is that peak sampled after
// each committed batch, before the fact sheet is regenerated at the end (which reads
// every current fact of the user, so it grows with the facts stored).
func benchIngest(b *testing.B, size int64) {
	dir := b.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	n, err := bench.WriteTranscript(f, size, 1) // the generator factbase bench uses
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(n)
	ctx := b.Context()
	// Count only the ingest in the peak resident set, not the file's generation.
	runtime.GC()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	var (
		peak   uint64
		rss    int64
		sum    ingest.IngestSummary
		elapse time.Duration
		cpu    time.Duration
	)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		runtime.GC()
		s, err := sqlite.Open(ctx, filepath.Join(dir, fmt.Sprintf("f%d.db", i)), sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		e := memory.New(s, memory.Options{})
		in, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, c0 := time.Now(), cputime.Used()
		sum, err = e.Ingest.IngestTranscript(ctx, storetest.NewUser(), in, path, ingest.IngestOptions{
			Progress: func(ingest.IngestProgress) {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
				rss = max(rss, maxRSS())
			}})
		elapse += time.Since(start)
		cpu += cputime.Used() - c0
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Offset != n || sum.Stored == 0 {
			b.Fatalf("ingest stopped at %d of %d bytes, %d facts stored", sum.Offset, n, sum.Stored)
		}
		in.Close()
		s.Close()
		os.Remove(filepath.Join(dir, fmt.Sprintf("f%d.db", i)))
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(maxRSS())/(1<<20), "peak-rss-MiB")
	b.ReportMetric(float64(rss)/(1<<20), "batch-rss-MiB")
	b.ReportMetric(float64(sum.Stored), "facts/op")
	b.ReportMetric(float64(sum.Stored)/elapse.Seconds()*float64(b.N), "facts/s")
	if cpu > 0 {
		// Per CPU second (user+system of the whole process, parse and SQLite on
		// both cores): steadier than MB/s when other work shares the machine.
		b.ReportMetric(float64(n)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkIngest200MB: the benchmark, a 200 MB transcript end to end into
// SQLite.
func BenchmarkIngest200MB(b *testing.B) { benchIngest(b, 200<<20) }

// BenchmarkIngest50MB is the same at a quarter of the size, to compare memory.
func BenchmarkIngest50MB(b *testing.B) { benchIngest(b, 50<<20) }
