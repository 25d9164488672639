package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
)

// searchCase is one conformance test of the search primitives.
type searchCase struct {
	name string
	fn   func(t *testing.T, s factbase.Store, e *memory.Engine)
}

// testSearch checks episodes and the search indexes (factbase.SearchReadTx,
// factbase.SearchTx) through the engine: every index entry is written in the
// transaction of its fact or episode and leaves with it.
func testSearch(t *testing.T, s factbase.Store) {
	e := memory.New(s, memory.Options{Embedder: embed.NewHash(64), NoSheetRegen: true})
	for _, tc := range []searchCase{
		{"EpisodesRoundTrip", testEpisodesRoundTrip},
		{"EpisodeFilters", testEpisodeFilters},
		{"TextCandidates", testTextCandidates},
		{"SearchFilters", testSearchFilters},
		{"VectorCandidates", testVectorCandidates},
		{"IndexLeavesWithFact", testIndexLeavesWithFact},
		{"IndexLeavesWithEpisode", testIndexLeavesWithEpisode},
		{"Unembedded", testUnembedded},
		{"VectorModels", testVectorModels},
		{"TermStatsAndSubjects", testTermStatsAndSubjects},
		{"SearchIsolation", testSearchIsolation},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, s, e) })
	}
}

// view runs fn in a read transaction of user.
func view(t *testing.T, s factbase.Store, u factbase.UserID, fn func(st factbase.ReadTx) error) {
	t.Helper()
	if err := s.View(context.Background(), u, fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// textIDs returns the ids of the full-text candidates of q, checking that each has
// its rank and q's kind.
func textIDs(t *testing.T, s factbase.Store, u factbase.UserID, q factbase.TextQuery) []string {
	t.Helper()
	cs := candidates(t, s, u, func(st factbase.ReadTx) ([]factbase.Candidate, error) {
		return st.TextCandidates(context.Background(), q)
	})
	var out []string
	for i, c := range cs {
		if c.Rank != i+1 || c.Kind != q.Kind {
			t.Errorf("candidate %d: rank %d kind %q", i, c.Rank, c.Kind)
		}
		out = append(out, c.ID)
	}
	return out
}

// vectorIDs returns the ids of the vector candidates of q.
func vectorIDs(t *testing.T, s factbase.Store, u factbase.UserID, q factbase.VectorQuery) []string {
	t.Helper()
	var out []string
	for _, c := range candidates(t, s, u, func(st factbase.ReadTx) ([]factbase.Candidate, error) {
		return st.VectorCandidates(context.Background(), q)
	}) {
		out = append(out, c.ID)
	}
	return out
}

// candidates returns what read finds in a read transaction of u.
func candidates(t *testing.T, s factbase.Store, u factbase.UserID, read func(factbase.ReadTx) ([]factbase.Candidate, error)) []factbase.Candidate {
	t.Helper()
	var cs []factbase.Candidate
	view(t, s, u, func(st factbase.ReadTx) error {
		var err error
		cs, err = read(st)
		return err
	})
	return cs
}

func episode(t *testing.T, e *memory.Engine, u factbase.UserID, in ingest.EpisodeInput) ingest.EpisodeResult {
	t.Helper()
	r, err := e.Ingest.AddEpisode(context.Background(), u, in)
	if err != nil {
		t.Fatalf("AddEpisode(%q): %v", in.Content, err)
	}
	return r
}

func setFact(t *testing.T, e *memory.Engine, u factbase.UserID, f factbase.Fact) factbase.Fact {
	t.Helper()
	res := apply(t, e, u, factbase.Op{Kind: factbase.OpSet, Fact: f})
	if len(res.Facts) != 1 {
		t.Fatalf("set %s: %d facts", f.Key, len(res.Facts))
	}
	return res.Facts[0]
}

func testEpisodesRoundTrip(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	imp := 0.8
	at := time.Date(2025, 5, 1, 9, 30, 0, 0, time.UTC)
	r := episode(t, e, u, ingest.EpisodeInput{Content: "NEXUS v2.3.1 deployed, accuracy 94.2%", Tags: []string{"Deploy", " nexus ", "deploy"},
		Importance: &imp, CreatedAt: at, Metadata: map[string]string{"speaker": "agent"}})
	got, err := e.Ingest.Episode(ctx, u, r.Episode.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != r.Episode.Content || !slices.Equal(got.Tags, []string{"deploy", "nexus"}) || got.Importance != 0.8 ||
		!got.CreatedAt.Equal(at) || got.Metadata["speaker"] != "agent" || got.ExtractedAt == nil || got.User != u {
		t.Errorf("Episode = %+v; want the stored fields (tags normalised, extracted)", got)
	}
	keys := map[string]string{}
	for _, f := range r.Facts {
		keys[f.Key] = f.Value
		if f.Source.Kind != factbase.SourceEpisode || f.Source.ID != r.Episode.ID || f.Confidence <= 0 || f.Confidence > 1 {
			t.Errorf("fact %s: source %+v confidence %v", f.Key, f.Source, f.Confidence)
		}
		if !f.ValidFrom.Equal(at) {
			t.Errorf("fact %s valid from %v, want the episode's time %v", f.Key, f.ValidFrom, at)
		}
	}
	if keys["nexus.version"] != "2.3.1" || keys["accuracy"] != "94.2" {
		t.Errorf("extracted %v; want nexus.version 2.3.1 and accuracy 94.2", keys)
	}
	added, err := e.Ingest.AddEpisodeFacts(ctx, u, r.Episode.ID, []factbase.Fact{{Key: "owner", Value: "Dana", Confidence: 0.7}})
	if err != nil || added.Stored != 1 {
		t.Fatalf("AddEpisodeFacts: %+v, %v", added, err)
	}
	facts, _, err := e.Ingest.EpisodeFacts(ctx, u, r.Episode.ID, false, 0, 0)
	if err != nil || len(facts) != len(r.Facts)+1 {
		t.Fatalf("EpisodeFacts: %d facts, %v; want %d", len(facts), err, len(r.Facts)+1)
	}
	if _, err := e.Ingest.Episode(ctx, u, "no-such-episode"); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("Episode(unknown): %v, want not_found", err)
	}
	if _, err := e.Ingest.AddEpisodeFacts(ctx, u, "no-such-episode", []factbase.Fact{{Key: "k", Value: "v"}}); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("AddEpisodeFacts(unknown): %v, want not_found", err)
	}
	for _, bad := range []ingest.EpisodeInput{{Content: " "}, {Content: "x", CreatedAt: time.Now().Add(time.Hour)}, {Content: "x", Importance: ptr(1.5)}} {
		if _, err := e.Ingest.AddEpisode(ctx, u, bad); factbase.ErrorCode(err) != factbase.EINVALID {
			t.Errorf("AddEpisode(%+v): %v, want invalid", bad, err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func testEpisodeFilters(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	day := func(d int) time.Time { return time.Date(2025, 1, d, 0, 0, 0, 0, time.UTC) }
	a := episode(t, e, u, ingest.EpisodeInput{Content: "a", Tags: []string{"x"}, CreatedAt: day(1)})
	b := episode(t, e, u, ingest.EpisodeInput{Content: "b", Tags: []string{"x", "y"}, CreatedAt: day(2), NoExtract: true})
	c := episode(t, e, u, ingest.EpisodeInput{Content: "c", CreatedAt: day(3)})
	ids := func(f factbase.EpisodeFilter) []string {
		p, err := e.Ingest.Episodes(ctx, u, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, ep := range p.Episodes {
			out = append(out, ep.Content)
		}
		return out
	}
	cases := []struct {
		name string
		f    factbase.EpisodeFilter
		want []string
	}{
		{"all", factbase.EpisodeFilter{}, []string{"a", "b", "c"}},
		{"newest first", factbase.EpisodeFilter{NewestFirst: true}, []string{"c", "b", "a"}},
		{"tag", factbase.EpisodeFilter{Tags: []string{"x"}}, []string{"a", "b"}},
		{"two tags", factbase.EpisodeFilter{Tags: []string{"x", "y"}}, []string{"b"}},
		{"from", factbase.EpisodeFilter{From: day(2)}, []string{"b", "c"}},
		{"to", factbase.EpisodeFilter{To: day(2)}, []string{"a"}},
		{"unextracted", factbase.EpisodeFilter{Unextracted: true}, []string{"b"}},
		{"page", factbase.EpisodeFilter{Limit: 1, Offset: 1}, []string{"b"}},
	}
	for _, tc := range cases {
		if got := ids(tc.f); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Episodes = %v, want %v", tc.name, got, tc.want)
		}
	}
	p, _ := e.Ingest.Episodes(ctx, u, factbase.EpisodeFilter{Limit: 1})
	if p.Total != 3 {
		t.Errorf("Total = %d, want 3", p.Total)
	}
	_, _ = a, c
	if _, err := e.Ingest.BackfillEpisodes(ctx, u, 0, nil); err != nil {
		t.Fatal(err)
	}
	if got := ids(factbase.EpisodeFilter{Unextracted: true}); len(got) != 0 {
		t.Errorf("after backfill, unextracted = %v", got)
	}
	if ep, _ := e.Ingest.Episode(ctx, u, b.Episode.ID); ep.ExtractedAt == nil {
		t.Error("backfilled episode has no extraction time")
	}
}

func testTextCandidates(t *testing.T, s factbase.Store, e *memory.Engine) {
	u := NewUser()
	veg := setFact(t, e, u, factbase.Fact{Key: "diet", Value: "vegetarian", Text: "Martin is vegetarian"})
	mail := setFact(t, e, u, factbase.Fact{Key: "contact.email_address", Value: "a@example.com"})
	ep := episode(t, e, u, ingest.EpisodeInput{Content: "We talked about vegetarians and their recipes", Tags: []string{"cooking"}})
	cases := []struct {
		name  string
		kind  string
		terms []string
		want  []string
	}{
		{"text word", factbase.KindFact, []string{"martin"}, []string{veg.ID}},
		{"porter stem", factbase.KindFact, []string{"vegetarians"}, []string{veg.ID}},
		{"key word", factbase.KindFact, []string{"email"}, []string{mail.ID}},
		{"key underscore part", factbase.KindFact, []string{"address"}, []string{mail.ID}},
		{"episode content", factbase.KindEpisode, []string{"recipe"}, []string{ep.Episode.ID}},
		{"episode tag", factbase.KindEpisode, []string{"cooking"}, []string{ep.Episode.ID}},
		{"any term", factbase.KindFact, []string{"zebra", "martin"}, []string{veg.ID}},
		{"no match", factbase.KindFact, []string{"zebra"}, nil},
		{"no terms", factbase.KindFact, nil, nil},
		{"syntax is not injected", factbase.KindFact, []string{`martin" OR "email`, "NEAR(martin email)", "key:email"}, nil},
	}
	for _, tc := range cases {
		if got := textIDs(t, s, u, factbase.TextQuery{Kind: tc.kind, Terms: tc.terms, Limit: 10}); !slices.Equal(got, tc.want) {
			t.Errorf("%s: TextCandidates(%q) = %v, want %v", tc.name, tc.terms, got, tc.want)
		}
	}
}

func testSearchFilters(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	old := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	tagged := episode(t, e, u, ingest.EpisodeInput{Content: "alpha release v1.2.3", Tags: []string{"alpha"}, CreatedAt: old})
	f1 := setFact(t, e, u, factbase.Fact{Key: "alpha.owner", Value: "Dana", Type: "work", Category: factbase.Core, Confidence: 0.9})
	f2 := setFact(t, e, u, factbase.Fact{Key: "beta.owner", Value: "alpha team", Type: "work", Confidence: 0.4, Subject: "entity:x"})
	f3 := setFact(t, e, u, factbase.Fact{Key: "alpha.owner", Value: "Eli"}) // supersedes f1
	var relID string
	for _, f := range tagged.Facts {
		if f.Key == "alpha.version" || f.Key == "version" {
			relID = f.ID
		}
	}
	if relID == "" {
		t.Fatalf("no version fact extracted from %q: %+v", tagged.Episode.Content, tagged.Facts)
	}
	cases := []struct {
		name string
		f    factbase.SearchFilter
		want []string // fact ids, in any order
	}{
		{"current only", factbase.SearchFilter{}, []string{f2.ID, f3.ID, relID}},
		{"include superseded", factbase.SearchFilter{IncludeSuperseded: true}, []string{f1.ID, f2.ID, f3.ID, relID}},
		{"key prefix", factbase.SearchFilter{KeyPrefix: "beta."}, []string{f2.ID}},
		{"type", factbase.SearchFilter{Type: "work", IncludeSuperseded: true}, []string{f1.ID, f2.ID}},
		{"category", factbase.SearchFilter{Category: factbase.Core, IncludeSuperseded: true}, []string{f1.ID}},
		{"subject", factbase.SearchFilter{Subject: "entity:x"}, []string{f2.ID}},
		{"min confidence", factbase.SearchFilter{MinConfidence: 0.5, IncludeSuperseded: true}, []string{f1.ID, f3.ID, relID}},
		{"tags", factbase.SearchFilter{Tags: []string{"alpha"}}, []string{relID}},
		{"to", factbase.SearchFilter{To: old.Add(time.Hour)}, []string{relID}},
		{"from", factbase.SearchFilter{From: old.Add(time.Hour)}, []string{f2.ID, f3.ID}},
	}
	vec, err := embed.NewHash(64).Embed(ctx, []string{"alpha owner"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		want := slices.Sorted(slices.Values(tc.want))
		got := textIDs(t, s, u, factbase.TextQuery{Kind: factbase.KindFact, Terms: []string{"alpha", "owner", "release", "version"}, Filter: tc.f, Limit: 10})
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("%s: text candidates %v, want %v", tc.name, got, want)
		}
		got = vectorIDs(t, s, u, factbase.VectorQuery{Kind: factbase.KindFact, Model: "hash-64-v1", Vector: vec[0], Filter: tc.f, Limit: 10})
		if slices.Sort(got); !slices.Equal(got, want) {
			t.Errorf("%s: vector candidates %v, want %v", tc.name, got, want)
		}
		var looked []string
		view(t, s, u, func(st factbase.ReadTx) error {
			facts, err := st.FilterFacts(ctx, "", tc.f, 0, 10)
			for _, f := range facts {
				looked = append(looked, f.ID)
			}
			return err
		})
		if slices.Sort(looked); !slices.Equal(looked, want) {
			t.Errorf("%s: FilterFacts %v, want %v", tc.name, looked, want)
		}
	}
	// Fact-only filters exclude episodes; tags and times apply to them.
	if got := textIDs(t, s, u, factbase.TextQuery{Kind: factbase.KindEpisode, Terms: []string{"alpha"}, Filter: factbase.SearchFilter{Type: "work"}, Limit: 10}); got != nil {
		t.Errorf("episodes with a type filter: %v, want none", got)
	}
	if got := textIDs(t, s, u, factbase.TextQuery{Kind: factbase.KindEpisode, Terms: []string{"alpha"}, Filter: factbase.SearchFilter{Tags: []string{"alpha"}}, Limit: 10}); !slices.Equal(got, []string{tagged.Episode.ID}) {
		t.Errorf("episodes tagged alpha: %v", got)
	}
}

func testVectorCandidates(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	// Orthogonal unit vectors make the expected order exact.
	unit := func(i int) []float32 { v := make([]float32, 4); v[i] = 1; return v }
	facts := []factbase.Fact{
		setFact(t, e, u, factbase.Fact{Key: "k.a", Value: "a"}),
		setFact(t, e, u, factbase.Fact{Key: "k.b", Value: "b"}),
		setFact(t, e, u, factbase.Fact{Key: "k.c", Value: "c"}),
	}
	put := func(vs ...factbase.Vector) {
		t.Helper()
		if err := s.Update(ctx, u, func(tx factbase.Tx) error { return tx.PutVectors(ctx, vs) }); err != nil {
			t.Fatalf("PutVectors: %v", err)
		}
	}
	q := []float32{0.8, 0.6, 0, 0}
	put(factbase.Vector{Kind: factbase.KindFact, ID: facts[0].ID, Model: "m", Vec: unit(0)},
		factbase.Vector{Kind: factbase.KindFact, ID: facts[1].ID, Model: "m", Vec: unit(1)},
		factbase.Vector{Kind: factbase.KindFact, ID: facts[2].ID, Model: "other", Vec: unit(0)},
		factbase.Vector{Kind: factbase.KindFact, ID: "erased-meanwhile", Model: "m", Vec: unit(0)})
	var sims []float64
	view(t, s, u, func(st factbase.ReadTx) error {
		cs, err := st.VectorCandidates(ctx, factbase.VectorQuery{Kind: factbase.KindFact, Model: "m", Vector: q, Limit: 10})
		for _, c := range cs {
			sims = append(sims, c.Score)
		}
		return err
	})
	if got, want := vectorIDs(t, s, u, factbase.VectorQuery{Kind: factbase.KindFact, Model: "m", Vector: q, Limit: 10}), []string{facts[0].ID, facts[1].ID}; !slices.Equal(got, want) {
		t.Errorf("VectorCandidates = %v, want %v (the other model's vector left out)", got, want)
	}
	if len(sims) != 2 || sims[0] < 0.7999 || sims[0] > 0.8001 || sims[1] < 0.5999 || sims[1] > 0.6001 {
		t.Errorf("similarities %v, want 0.8 and 0.6", sims)
	}
	// A newer vector replaces the item's earlier one.
	put(factbase.Vector{Kind: factbase.KindFact, ID: facts[0].ID, Model: "m", Vec: unit(2)})
	if got, want := vectorIDs(t, s, u, factbase.VectorQuery{Kind: factbase.KindFact, Model: "m", Vector: q, Limit: 1}), []string{facts[1].ID}; !slices.Equal(got, want) {
		t.Errorf("after replacing a's vector: %v, want %v", got, want)
	}
	if got := vectorIDs(t, s, u, factbase.VectorQuery{Kind: factbase.KindEpisode, Model: "m", Vector: q, Limit: 10}); got != nil {
		t.Errorf("episodes: %v, want none", got)
	}
}

// testIndexLeavesWithFact checks that retracting, removing and erasing a fact take
// it out of both indexes, and that superseding keeps it findable in history.
func testIndexLeavesWithFact(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	vec, _ := embed.NewHash(64).Embed(ctx, []string{"zanzibar"})
	found := func(id string, history bool) (text, vector bool) {
		f := factbase.SearchFilter{IncludeSuperseded: history}
		text = slices.Contains(textIDs(t, s, u, factbase.TextQuery{Kind: factbase.KindFact, Terms: []string{"zanzibar"}, Filter: f, Limit: 50}), id)
		vector = slices.Contains(vectorIDs(t, s, u, factbase.VectorQuery{Kind: factbase.KindFact, Model: "hash-64-v1", Vector: vec[0], Filter: f, Limit: 50}), id)
		return text, vector
	}
	retracted := setFact(t, e, u, factbase.Fact{Key: "trip.one", Value: "zanzibar"})
	erased := setFact(t, e, u, factbase.Fact{Key: "trip.two", Value: "zanzibar"})
	old := setFact(t, e, u, factbase.Fact{Key: "trip.three", Value: "zanzibar"})
	setFact(t, e, u, factbase.Fact{Key: "trip.three", Value: "zanzibar island"})
	apply(t, e, u, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{Key: "favorites.islands", Value: "zanzibar"}})
	removed, _, _ := e.AtRank(ctx, u, "", "favorites.islands", 1, nil)
	for _, id := range []string{retracted.ID, erased.ID, removed.ID} {
		if text, vector := found(id, false); !text || !vector {
			t.Fatalf("fact %s before: text %v vector %v; want both", id, text, vector)
		}
	}
	apply(t, e, u, factbase.Op{Kind: factbase.OpRetract, ID: retracted.ID},
		factbase.Op{Kind: factbase.OpDelete, ID: erased.ID},
		factbase.Op{Kind: factbase.OpRemove, Fact: factbase.Fact{Key: "favorites.islands", Value: "zanzibar"}})
	for _, id := range []string{retracted.ID, erased.ID, removed.ID} {
		if text, vector := found(id, true); text || vector {
			t.Errorf("fact %s after retract/delete/remove: text %v vector %v; want neither", id, text, vector)
		}
	}
	if text, vector := found(old.ID, false); text || vector {
		t.Errorf("superseded fact without history: text %v vector %v; want neither", text, vector)
	}
	if text, vector := found(old.ID, true); !text || !vector {
		t.Errorf("superseded fact with history: text %v vector %v; want both", text, vector)
	}
	// Erasing a superseded version takes it out too.
	apply(t, e, u, factbase.Op{Kind: factbase.OpDelete, Fact: factbase.Fact{Key: "trip.three"}})
	if text, vector := found(old.ID, true); text || vector {
		t.Errorf("erased superseded fact: text %v vector %v; want neither", text, vector)
	}
}

func testIndexLeavesWithEpisode(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	vec, _ := embed.NewHash(64).Embed(ctx, []string{"quokka sighting v3.1.4"})
	keep := episode(t, e, u, ingest.EpisodeInput{Content: "quokka sighting v3.1.4"})
	gone := episode(t, e, u, ingest.EpisodeInput{Content: "quokka sighting v3.1.4", Tags: []string{"zoo"}})
	if len(gone.Facts) == 0 {
		t.Fatal("no fact extracted")
	}
	d, err := e.Ingest.DeleteEpisode(ctx, u, gone.Episode.ID, false)
	if err != nil || d.Episodes != 1 {
		t.Fatalf("DeleteEpisode: %+v, %v", d, err)
	}
	text := textIDs(t, s, u, factbase.TextQuery{Kind: factbase.KindEpisode, Terms: []string{"quokka"}, Limit: 10})
	vecs := vectorIDs(t, s, u, factbase.VectorQuery{Kind: factbase.KindEpisode, Model: "hash-64-v1", Vector: vec[0], Limit: 10})
	if !slices.Equal(text, []string{keep.Episode.ID}) || !slices.Equal(vecs, []string{keep.Episode.ID}) {
		t.Errorf("after delete: text %v vector %v; want only %s", text, vecs, keep.Episode.ID)
	}
	if _, err := e.Ingest.Episode(ctx, u, gone.Episode.ID); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("deleted episode: %v, want not_found", err)
	}
	for _, f := range gone.Facts {
		if _, err := e.Fact(ctx, u, f.ID); factbase.ErrorCode(err) != factbase.ENOTFOUND && f.Source.ID == gone.Episode.ID {
			t.Errorf("fact %s of the deleted episode: %v, want erased", f.ID, err)
		}
	}
	if _, err := e.Ingest.DeleteEpisode(ctx, u, gone.Episode.ID, false); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("deleting again: %v, want not_found", err)
	}
	// keepFacts leaves the facts in place.
	kept := episode(t, e, u, ingest.EpisodeInput{Content: "accuracy 77%"})
	if _, err := e.Ingest.DeleteEpisode(ctx, u, kept.Episode.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Fact(ctx, u, kept.Facts[0].ID); err != nil {
		t.Errorf("kept fact: %v", err)
	}
}

func testUnembedded(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	plain := memory.New(s, memory.Options{NoSheetRegen: true}) // writes no vectors
	setFact(t, plain, u, factbase.Fact{Key: "a", Value: "1"})
	setFact(t, e, u, factbase.Fact{Key: "b", Value: "2"})
	episode(t, plain, u, ingest.EpisodeInput{Content: "no numbers here"})
	count := func(model string) (n int) {
		view(t, s, u, func(st factbase.ReadTx) (err error) { n, err = st.CountUnembedded(ctx, model); return err })
		return n
	}
	if got := count("hash-64-v1"); got != 2 {
		t.Errorf("CountUnembedded(hash) = %d, want 2 (a fact and an episode without vectors)", got)
	}
	if got := count("another-model"); got != 3 {
		t.Errorf("CountUnembedded(another) = %d, want 3", got)
	}
	var fs []factbase.Fact
	var eps []factbase.Episode
	view(t, s, u, func(st factbase.ReadTx) (err error) {
		if fs, err = st.UnembeddedFacts(ctx, "hash-64-v1", "", 10); err != nil {
			return err
		}
		eps, err = st.UnembeddedEpisodes(ctx, "hash-64-v1", "", 10)
		return err
	})
	if len(fs) != 1 || fs[0].Key != "a" || len(eps) != 1 {
		t.Errorf("unembedded: facts %v episodes %d; want fact a and one episode", fs, len(eps))
	}
	var total, last int
	n, err := e.Retrieve.Reembed(ctx, u, func(done, all int) { last, total = done, all })
	if err != nil || n != 2 || last != 2 || total != 2 {
		t.Errorf("Reembed: %d, %v (progress %d/%d); want 2 items", n, err, last, total)
	}
	if got := count("hash-64-v1"); got != 0 {
		t.Errorf("after Reembed, CountUnembedded = %d", got)
	}
	if n, err := e.Retrieve.Reembed(ctx, u, nil); err != nil || n != 0 {
		t.Errorf("second Reembed: %d, %v; want nothing to do", n, err)
	}
}

func testTermStatsAndSubjects(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u := NewUser()
	for _, c := range []string{"Caroline: hi", "Caroline: the pottery class", "Melanie: pottery again"} {
		episode(t, e, u, ingest.EpisodeInput{Content: c, NoExtract: true})
	}
	setFact(t, e, u, factbase.Fact{Subject: "entity:42", Key: "name", Value: "Martin"})
	setFact(t, e, u, factbase.Fact{Subject: "entity:42", Key: "diet", Value: "vegetarian"})
	view(t, s, u, func(st factbase.ReadTx) error {
		docs, df, err := st.TermStats(ctx, factbase.KindEpisode, []string{"caroline", "pottery", "zebra"}, 0)
		if err != nil {
			return err
		}
		if docs != 3 || !slices.Equal(df, []int{2, 2, 0}) {
			t.Errorf("TermStats = %d, %v; want 3, [2 2 0]", docs, df)
		}
		_, df, err = st.TermStats(ctx, factbase.KindEpisode, []string{"caroline"}, 0.1)
		if err != nil {
			return err
		}
		if df[0] != 1 {
			t.Errorf("TermStats capped at 10%% = %v, want [1]", df)
		}
		for _, tc := range []struct {
			kind  string
			limit int
			want  []int
		}{
			{factbase.KindEpisode, 5, []int{2, 2, 0}},
			{factbase.KindEpisode, 1, []int{1, 1, 0}},
			{factbase.KindFact, 5, []int{0, 0, 0}},
		} {
			got, err := st.TermCounts(ctx, tc.kind, []string{"caroline", "pottery", "zebra"}, tc.limit)
			if err != nil {
				return err
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("TermCounts(%s, limit %d) = %v, want %v", tc.kind, tc.limit, got, tc.want)
			}
		}
		if got, err := st.TermCounts(ctx, factbase.KindFact, []string{"vegetarian", "martin"}, 5); err != nil || !slices.Equal(got, []int{1, 1}) {
			t.Errorf("TermCounts(fact) = %v, %v; want [1 1]", got, err)
		}
		subs, err := st.SubjectsNamed(ctx, []string{"martin", "user", "entity:42", "nobody"})
		if slices.Sort(subs); !slices.Equal(subs, []string{"entity:42"}) {
			t.Errorf("SubjectsNamed = %v, want [entity:42]", subs)
		}
		return err
	})
}

func testSearchIsolation(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	a, b := NewUser(), NewUser()
	fa := setFact(t, e, a, factbase.Fact{Key: "secret", Value: "platypus"})
	ea := episode(t, e, a, ingest.EpisodeInput{Content: "platypus notes"})
	vec, _ := embed.NewHash(64).Embed(ctx, []string{"secret platypus"})
	for _, kind := range []string{factbase.KindFact, factbase.KindEpisode} {
		if got := textIDs(t, s, b, factbase.TextQuery{Kind: kind, Terms: []string{"platypus"}, Limit: 10}); got != nil {
			t.Errorf("user b finds a's %s by text: %v", kind, got)
		}
		if got := vectorIDs(t, s, b, factbase.VectorQuery{Kind: kind, Model: "hash-64-v1", Vector: vec[0], Limit: 10}); got != nil {
			t.Errorf("user b finds a's %s by vector: %v", kind, got)
		}
	}
	if got := textIDs(t, s, a, factbase.TextQuery{Kind: factbase.KindFact, Terms: []string{"platypus"}, Limit: 10}); !slices.Equal(got, []string{fa.ID}) {
		t.Errorf("user a: %v", got)
	}
	if _, err := e.Ingest.Episode(ctx, b, ea.Episode.ID); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("user b reads a's episode: %v, want not_found", err)
	}
	if _, err := e.Ingest.DeleteEpisode(ctx, b, ea.Episode.ID, false); factbase.ErrorCode(err) != factbase.ENOTFOUND {
		t.Errorf("user b deletes a's episode: %v, want not_found", err)
	}
}

// testVectorModels checks the counts of a user's vectors per embedder model and
// dimension: they follow every write that adds, replaces or removes a vector, and
// count no other user's.
func testVectorModels(t *testing.T, s factbase.Store, e *memory.Engine) {
	ctx := context.Background()
	u, other := NewUser(), NewUser()
	models := func(u factbase.UserID) (ms []factbase.VectorModel) {
		t.Helper()
		view(t, s, u, func(st factbase.ReadTx) (err error) { ms, err = st.VectorModels(ctx); return err })
		return ms
	}
	check := func(step string, want ...factbase.VectorModel) {
		t.Helper()
		if got := models(u); !slices.Equal(got, want) {
			t.Errorf("%s: VectorModels = %+v, want %+v", step, got, want)
		}
	}
	check("a user without rows")
	plain := memory.New(s, memory.Options{NoSheetRegen: true}) // writes no vectors
	a := setFact(t, e, u, factbase.Fact{Key: "k.a", Value: "alpha"})
	b := setFact(t, e, u, factbase.Fact{Key: "k.b", Value: "beta"})
	c := setFact(t, e, u, factbase.Fact{Key: "k.c", Value: "gamma"})
	ep := episode(t, plain, u, ingest.EpisodeInput{Content: "a quiet afternoon"})
	check("three facts by the hash embedder", factbase.VectorModel{Model: "hash-64-v1", Dim: 64, Facts: 3})

	// Another model's vectors, one of them in a second dimension and one a zero
	// vector: each replaces the item's earlier vector.
	vec := func(n int) []float32 { v := make([]float32, n); v[0] = 1; return v }
	if err := s.Update(ctx, u, func(tx factbase.Tx) error {
		return tx.PutVectors(ctx, []factbase.Vector{
			{Kind: factbase.KindFact, ID: c.ID, Model: "other", Vec: vec(4)},
			{Kind: factbase.KindEpisode, ID: ep.Episode.ID, Model: "other", Vec: make([]float32, 4)},
			{Kind: factbase.KindFact, ID: b.ID, Model: "other", Vec: vec(8)},
		})
	}); err != nil {
		t.Fatalf("PutVectors: %v", err)
	}
	check("after re-embedding two facts and an episode",
		factbase.VectorModel{Model: "hash-64-v1", Dim: 64, Facts: 1},
		factbase.VectorModel{Model: "other", Dim: 4, Facts: 1, Episodes: 1},
		factbase.VectorModel{Model: "other", Dim: 8, Facts: 1})

	// A superseded fact keeps its vector; a retracted one and a deleted episode lose
	// theirs, and a model with no vector left is not listed.
	setFact(t, e, u, factbase.Fact{Key: "k.c", Value: "delta"})
	apply(t, e, u, factbase.Op{Kind: factbase.OpRetract, ID: a.ID})
	if _, err := plain.Ingest.DeleteEpisode(ctx, u, ep.Episode.ID, true); err != nil {
		t.Fatal(err)
	}
	check("after a supersession, a retraction and an episode deleted",
		factbase.VectorModel{Model: "hash-64-v1", Dim: 64, Facts: 1},
		factbase.VectorModel{Model: "other", Dim: 4, Facts: 1},
		factbase.VectorModel{Model: "other", Dim: 8, Facts: 1})
	if err := s.Update(ctx, u, func(tx factbase.Tx) error {
		return tx.PutVectors(ctx, []factbase.Vector{{Kind: factbase.KindFact, ID: b.ID, Model: "hash-64-v1", Vec: vec(64)}})
	}); err != nil {
		t.Fatalf("PutVectors: %v", err)
	}
	check("after b is re-embedded by the hash model",
		factbase.VectorModel{Model: "hash-64-v1", Dim: 64, Facts: 2},
		factbase.VectorModel{Model: "other", Dim: 4, Facts: 1})

	setFact(t, e, other, factbase.Fact{Key: "k.a", Value: "alpha"})
	if got, want := models(other), []factbase.VectorModel{{Model: "hash-64-v1", Dim: 64, Facts: 1}}; !slices.Equal(got, want) {
		t.Errorf("another user: VectorModels = %+v, want %+v", got, want)
	}
	check("unchanged by another user's write",
		factbase.VectorModel{Model: "hash-64-v1", Dim: 64, Facts: 2},
		factbase.VectorModel{Model: "other", Dim: 4, Facts: 1})
}
