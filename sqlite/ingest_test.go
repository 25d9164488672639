package sqlite_test

import (
	"bytes"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/factbase/factbase"
	benchdata "github.com/factbase/factbase/bench"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

// TestIngestLeavesTheWriterBetweenBatches: while a long transcript ingest runs, a
// write of another user gets the writer between two of its batches, not after the
// ingest. When the ingest's first batch has committed, the other user's write
// starts, and the ingest goes on once that write is in its transaction or queued
// for the writer (the pool hands the writer to a queued transaction before the
// ingest's next one asks): the write must commit while batches remain.
func TestIngestLeavesTheWriterBetweenBatches(t *testing.T) {
	ctx := t.Context()
	s := sqlite.OpenTemp(t, sqlite.Options{})
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	var log bytes.Buffer
	if _, err := benchdata.WriteCodingTranscript(&log, 300<<10, 5); err != nil {
		t.Fatal(err)
	}
	writer := sqlite.WriterOf(s)

	var (
		batches  atomic.Int64 // the ingest's committed batches
		inside   atomic.Bool  // the other write is in its transaction
		atOther  = int64(-1)  // the ingest's batches when the other write ran
		otherErr = make(chan error, 1)
	)
	other := storetest.NewUser()
	progress := func(ingest.IngestProgress) {
		if batches.Add(1) != 1 {
			return
		}
		waits := writer.Stats().WaitCount
		go func() {
			_, err := e.ApplyWith(ctx, other, []factbase.Op{{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "contact.email", Value: "b@example.com"}}},
				func(*core.Writer) error {
					atOther = batches.Load()
					inside.Store(true)
					return nil
				})
			otherErr <- err
		}()
		for !inside.Load() && writer.Stats().WaitCount == waits {
			runtime.Gosched()
		}
	}
	sum, err := e.Ingest.IngestTranscript(ctx, storetest.NewUser(), bytes.NewReader(log.Bytes()), "f.jsonl",
		ingest.IngestOptions{BatchFacts: 100, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-otherErr; err != nil {
		t.Fatal(err)
	}
	total := batches.Load()
	if total < 5 || sum.Stored < 400 {
		t.Fatalf("%d batches, %d facts: the ingest should take many", total, sum.Stored)
	}
	t.Logf("the other write ran after batch %d of %d", atOther, total)
	if atOther < 1 || atOther >= total {
		t.Errorf("the other user's write ran after %d of the ingest's %d batches; want after the first and before the last", atOther, total)
	}
}
