package sqlite

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/storetest"
)

// TestTermStatsSample: a user with more than termSample episodes who owns most of
// them is counted over the termSample newest; a user who owns less than half is
// counted in full; TermCounts always counts every item, up to its limit.
func TestTermStatsSample(t *testing.T) {
	defer func(n int) { termSample = n }(termSample)
	termSample = 4
	ctx := context.Background()
	s := OpenTemp(t, Options{})
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	add := func(u factbase.UserID, contents ...string) {
		t.Helper()
		var in []ingest.EpisodeInput
		for _, c := range contents {
			in = append(in, ingest.EpisodeInput{Content: c, NoExtract: true})
		}
		if _, _, err := e.Ingest.AddEpisodes(ctx, u, in); err != nil {
			t.Fatal(err)
		}
	}
	// Ten episodes: zebra in the six oldest, lion in the four newest, even in every
	// second one.
	big, small := storetest.NewUser(), storetest.NewUser()
	var contents []string
	for i := range 10 {
		c := fmt.Sprintf("note %d", i)
		if i < 6 {
			c += " zebra"
		} else {
			c += " lion"
		}
		if i%2 == 0 {
			c += " even"
		}
		contents = append(contents, c)
	}
	add(big, contents...)
	add(small, contents[:5]...) // a third of the store: counted in full
	terms := []string{"zebra", "lion", "even"}
	for _, tc := range []struct {
		name     string
		u        factbase.UserID
		fraction float64
		docs     int
		want     []int
	}{
		{"newest four", big, 0, 4, []int{0, 4, 2}},
		{"newest four, capped at a quarter", big, 0.25, 4, []int{0, 2, 2}},
		{"a small share, in full", small, 0, 5, []int{5, 0, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.View(ctx, tc.u, func(tx factbase.ReadTx) error {
				docs, df, err := tx.TermStats(ctx, factbase.KindEpisode, terms, tc.fraction)
				if err != nil {
					return err
				}
				if docs != tc.docs || !slices.Equal(df, tc.want) {
					t.Errorf("TermStats = %d, %v; want %d, %v", docs, df, tc.docs, tc.want)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	err := s.View(ctx, big, func(tx factbase.ReadTx) error {
		for _, tc := range []struct {
			limit int
			want  []int
		}{{100, []int{6, 4, 5}}, {5, []int{5, 4, 5}}} {
			got, err := tx.TermCounts(ctx, factbase.KindEpisode, terms, tc.limit)
			if err != nil {
				return err
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("TermCounts(limit %d) = %v, want %v", tc.limit, got, tc.want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkTermStats100k counts the terms of a question (a very common word, a
// common one, a rarer one and a rare one) over 100,000 episodes of one user, the way
// search's common-term pruning does: over the newest termSample episodes (sample),
// and over all of them, as every search did before (all).
func BenchmarkTermStats100k(b *testing.B) {
	ctx := context.Background()
	s := OpenTemp(b, Options{})
	e := memory.New(s, memory.Options{NoSheetRegen: true})
	u := storetest.NewUser()
	r := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(r, 1.1, 1, 4999)
	word := func(k uint64) string { return fmt.Sprintf("w%d", k) }
	for off := 0; off < 100_000; off += ingest.MaxEpisodeBatch {
		in := make([]ingest.EpisodeInput, ingest.MaxEpisodeBatch)
		for i := range in {
			var c []string
			for range 12 {
				c = append(c, word(zipf.Uint64()))
			}
			in[i] = ingest.EpisodeInput{Content: strings.Join(c, " "), NoExtract: true}
		}
		if _, _, err := e.Ingest.AddEpisodes(ctx, u, in); err != nil {
			b.Fatal(err)
		}
	}
	terms := []string{word(0), word(10), word(100), word(1000)}
	for _, bc := range []struct {
		name   string
		sample int
	}{{"sample", factbase.TermStatsSample}, {"all", math.MaxInt}} {
		b.Run(bc.name, func(b *testing.B) {
			defer func(n int) { termSample = n }(termSample)
			termSample = bc.sample
			for b.Loop() {
				err := s.View(ctx, u, func(tx factbase.ReadTx) error {
					_, _, err := tx.TermStats(ctx, factbase.KindEpisode, terms, 0.2)
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
