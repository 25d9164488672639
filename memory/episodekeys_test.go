package memory_test

import (
	"testing"

	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/storetest"
)

// TestEpisodeFactsKeyedByThing: an episode's unnamed status and version are keyed by
// its tag, so unrelated episodes do not overwrite each other, and a rolled-back deploy
// stores the version that runs; the hybrid query still finds them.
func TestEpisodeFactsKeyedByThing(t *testing.T) {
	e := newEngine(t, memory.Options{Embedder: glove(t)})
	ctx := t.Context()
	u := storetest.NewUser()
	for _, in := range []ingest.EpisodeInput{
		{Content: "Invoice run finished. Status: BLOCKED on the tax export.", Tags: []string{"billing"}},
		{Content: "Deploy of v2.4.0-rc1 failed; rolled back to v2.3.1.", Tags: []string{"billing"}},
		{Content: "Gateway cut-over rehearsal went fine. Status: DONE.", Tags: []string{"release", "api-gateway"}},
		{Content: "Upgraded Postgres from 14.9 to 16.2 over the weekend.", Tags: []string{"maintenance"}},
	} {
		if _, err := e.Ingest.AddEpisode(ctx, u, in); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ question, key, value string }{
		{"What is the billing status?", "billing.status", "BLOCKED"},
		{"What is the api-gateway status?", "api-gateway.status", "COMPLETE"},
		{"What is the billing version?", "billing.version", "2.3.1"},
		{"What is the Postgres version?", "postgres.version", "16.2"},
	} {
		a, err := e.Retrieve.Query(ctx, u, tc.question, retrieve.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a.Source != retrieve.SourceFact || a.Fact == nil || a.Fact.Key != tc.key || a.Value != tc.value {
			t.Errorf("Query(%q) = %q from %+v, want %s = %q", tc.question, a.Value, a.Fact, tc.key, tc.value)
		}
	}
}
