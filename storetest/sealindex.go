package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
)

// testSealedIndex checks Fact.Index and Episode.Index: a row written with an index
// text is found by the full-text index through it alone (its hashed words, as
// internal/seal makes them, one query term or a phrase of several), not by its own
// texts, key or tags; it leaves the index as a plain row does (supersession,
// retraction, erasure, deletion); the index text is never read back; and no hashed
// word is dropped, split or confused with another by the index or the query.
func testSealedIndex(t *testing.T, s factbase.Store) {
	ctx := context.Background()
	key, err := seal.ParseKey(seal.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	kr, _ := seal.NewKeyring(key)
	u := NewUser()
	hashed := func(terms ...string) []string { return kr.QueryTerms(terms) }
	newFact := func(tx factbase.Tx, card factbase.Cardinality, k, value, text string, index bool) factbase.Fact {
		now := tx.Now()
		f := factbase.Fact{ID: fmt.Sprintf("sealed-%016x", rand.Uint64()), Subject: factbase.SubjectUser, Key: k, Cardinality: card,
			ValueType: factbase.String, Category: factbase.Transient, Confidence: 1, RecordedAt: now, ValidFrom: now, Current: true}
		f.Value, f.Text = value, text
		if index {
			f.Index = kr.IndexText(k, value, text)
			f.Value, f.Text = kr.Seal(string(u), f.ID, value), ""
			if text != "" {
				f.Text = kr.Seal(string(u), f.ID, text)
			}
		}
		return f
	}
	insert := func(t *testing.T, facts ...func(tx factbase.Tx) factbase.Fact) []factbase.Fact {
		t.Helper()
		var out []factbase.Fact
		err := s.Update(ctx, u, func(tx factbase.Tx) error {
			for _, mk := range facts {
				f := mk(tx)
				if err := tx.Insert(ctx, f, kr.Blind(f.Key+f.ID)); err != nil {
					return err
				}
				out = append(out, f)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	one := func(k, value, text string, index bool) func(tx factbase.Tx) factbase.Fact {
		return func(tx factbase.Tx) factbase.Fact { return newFact(tx, factbase.One, k, value, text, index) }
	}
	find := func(t *testing.T, kind string, terms []string, f factbase.SearchFilter, want ...string) {
		t.Helper()
		got := textIDs(t, s, u, factbase.TextQuery{Kind: kind, Terms: terms, Filter: f, Limit: 50})
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("TextCandidates(%s, %q) = %v, want %v", kind, terms, got, want)
		}
	}
	all := factbase.SearchFilter{IncludeSuperseded: true}
	none := factbase.SearchFilter{}

	// The first fact of a write is indexed on its own (SQLite: by its trigger), the
	// next ones of the same write together (SQLite: before the commit).
	f0 := insert(t, one("note.first", "first lighthouse", "", true))[0]
	fs := insert(t,
		one("contact.email", "alice@zanzibar.example", "Alice works at the Zanzibar harbour", true),
		one("note.whales", "blue whales sing", "", true),
		one("note.plain", "plain zanzibar", "", false))
	f1, f2, f3 := fs[0], fs[1], fs[2]

	find(t, factbase.KindFact, hashed("zanzibar"), none, f1.ID)
	find(t, factbase.KindFact, []string{"zanzibar"}, none, f3.ID)
	find(t, factbase.KindFact, hashed("harbours"), none, f1.ID) // stemmed as indexed
	find(t, factbase.KindFact, hashed("zanzibar harbour"), none, f1.ID)
	find(t, factbase.KindFact, hashed("harbour zanzibar"), none) // a phrase, in order
	find(t, factbase.KindFact, hashed("works harbour"), none)    // a phrase, adjacent
	find(t, factbase.KindFact, hashed("nothing", "whale"), none, f2.ID)
	find(t, factbase.KindFact, hashed("lighthouse"), none, f0.ID)
	find(t, factbase.KindFact, []string{"email", "contact", "whales", "lighthouse"}, none) // the key and texts are not indexed
	find(t, factbase.KindFact, []string{"fb1"}, none)                                      // nor the sealed texts

	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		got, err := tx.Fact(ctx, f1.ID)
		if err != nil {
			return err
		}
		if got.Index != "" || got.Value != f1.Value || got.Text != f1.Text || !seal.IsSealed(got.Value) {
			t.Errorf("Fact read back %+v; want the sealed value and text, no index", got)
		}
		docs, df, err := tx.TermStats(ctx, factbase.KindFact, hashed("zanzibar", "whale", "nothing"), 0)
		if err != nil || docs != 4 || !slices.Equal(df, []int{1, 1, 0}) {
			t.Errorf("TermStats = %d, %v, %v; want 4 facts, [1 1 0]", docs, df, err)
		}
		counts, err := tx.TermCounts(ctx, factbase.KindFact, hashed("zanzibar harbour", "zanzibar", "blue whales"), 10)
		if err != nil || !slices.Equal(counts, []int{1, 1, 1}) {
			t.Errorf("TermCounts = %v, %v; want [1 1 1]", counts, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Supersession keeps the old entry for history; retraction and erasure remove it.
	var f4 factbase.Fact
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		f4 = newFact(tx, factbase.One, "contact.email", "alice@lisbon.example", "Alice works in Lisbon", true)
		if err := tx.End(ctx, f1.ID, tx.Now(), f4.ID); err != nil {
			return err
		}
		if err := tx.Insert(ctx, f4, kr.Blind(f4.ID)); err != nil {
			return err
		}
		return tx.End(ctx, f2.ID, tx.Now(), "")
	})
	if err != nil {
		t.Fatal(err)
	}
	find(t, factbase.KindFact, hashed("zanzibar"), none)
	find(t, factbase.KindFact, hashed("zanzibar"), all, f1.ID)
	find(t, factbase.KindFact, hashed("lisbon"), none, f4.ID)
	find(t, factbase.KindFact, hashed("whales"), all)
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		for _, id := range []string{f4.ID, f1.ID, f0.ID} {
			if n, err := tx.Erase(ctx, id); err != nil || n != 1 {
				return fmt.Errorf("Erase(%s) = %d, %v", id, n, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	find(t, factbase.KindFact, hashed("zanzibar", "lisbon", "alice", "lighthouse"), all)
	find(t, factbase.KindFact, []string{"zanzibar"}, all, f3.ID)

	// Hashed words that look like numbers, hex or English words stay whole and apart:
	// each, written in the bulk insert, is found exactly once, as a term and as a
	// phrase with its neighbour.
	tokens := []string{"t3fa9c0d1e2b4a5f6", "tabcdefabcdefabcd", "t0000000000000000", "t1e10000000000000",
		"t00000000000000e5", "t0e0e0e0e0e0e0e0e", "tffffffffffffffff", "teeeeeeeeeeeeeeee", "tdeadbeefcafebabe",
		"t1234567890abcdef", "tfeedfacedeadbeef", "taaaaaaaaaaaaaaas", "tcafebabedeadbeed", "t0000000000000ing"}
	for len(tokens) < 120 {
		tokens = append(tokens, hashed(fmt.Sprintf("word%d", len(tokens)))...)
	}
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		facts := make([]factbase.Fact, len(tokens))
		norms := make([]string, len(tokens))
		for i, tok := range tokens {
			facts[i] = newFact(tx, factbase.Many, "tokens", fmt.Sprint(i), "", true)
			facts[i].Index = tok + " " + tokens[(i+1)%len(tokens)]
			norms[i] = kr.Blind(fmt.Sprint(i))
		}
		return tx.InsertFacts(ctx, facts, norms)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		counts, err := tx.TermCounts(ctx, factbase.KindFact, tokens, 5)
		if err != nil {
			return err
		}
		phrases := make([]string, len(tokens))
		for i, tok := range tokens {
			phrases[i] = tok + " " + tokens[(i+1)%len(tokens)]
			if counts[i] != 2 {
				t.Errorf("the hashed word %s is in %d facts, want 2", tok, counts[i])
			}
		}
		pc, err := tx.TermCounts(ctx, factbase.KindFact, phrases, 5)
		if err != nil {
			return err
		}
		for i, n := range pc {
			if n != 1 {
				t.Errorf("the phrase %q is in %d facts, want 1", phrases[i], n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Episodes: the index text in place of the content and the tags.
	var sealedEp, plainEp factbase.Episode
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		sealedEp = factbase.Episode{ID: "ep-sealed", User: u, Tags: []string{"travel"}, Importance: 0.5, CreatedAt: tx.Now(),
			Metadata: map[string]string{"place": kr.Seal(string(u), "ep-sealed", "beach")},
			Content:  kr.Seal(string(u), "ep-sealed", "A day at the beach"), Index: kr.IndexText("A day at the beach", "travel")}
		plainEp = factbase.Episode{ID: "ep-plain", User: u, Tags: []string{"diary"}, Importance: 0.5, CreatedAt: tx.Now(),
			Content: "travel notes from the beach"}
		if err := tx.InsertEpisode(ctx, sealedEp); err != nil {
			return err
		}
		return tx.InsertEpisode(ctx, plainEp)
	})
	if err != nil {
		t.Fatal(err)
	}
	find(t, factbase.KindEpisode, hashed("beach"), none, sealedEp.ID)
	find(t, factbase.KindEpisode, hashed("travel"), none, sealedEp.ID)
	find(t, factbase.KindEpisode, hashed("day beach"), none) // a phrase, adjacent
	find(t, factbase.KindEpisode, []string{"travel"}, none, plainEp.ID)
	find(t, factbase.KindEpisode, []string{"diary"}, none, plainEp.ID)
	err = s.View(ctx, u, func(tx factbase.ReadTx) error {
		got, err := tx.Episode(ctx, sealedEp.ID)
		if err != nil {
			return err
		}
		if got.Index != "" || got.Content != sealedEp.Content || !slices.Equal(got.Tags, sealedEp.Tags) || got.Metadata["place"] != sealedEp.Metadata["place"] {
			t.Errorf("Episode read back %+v; want the sealed content, the tags, no index", got)
		}
		counts, err := tx.TermCounts(ctx, factbase.KindEpisode, append(hashed("beach", "travel"), "beach"), 10)
		if err != nil || !slices.Equal(counts, []int{1, 1, 1}) {
			t.Errorf("episode TermCounts = %v, %v; want [1 1 1]", counts, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, u, func(tx factbase.Tx) error {
		_, err := tx.DeleteEpisode(ctx, sealedEp.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	find(t, factbase.KindEpisode, hashed("beach", "travel"), none)
	find(t, factbase.KindEpisode, []string{"beach"}, none, plainEp.ID)
	// Another user shares no entry.
	if got := textIDs(t, s, NewUser(), factbase.TextQuery{Kind: factbase.KindFact, Terms: tokens[:3], Limit: 10}); len(got) != 0 {
		t.Errorf("another user finds %v", got)
	}
}
