package memory_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/storetest"
)

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
	e := newEngine(f, memory.Options{})
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
