package retrieve

import (
	"context"
	"math"
	"slices"

	"github.com/factbase/factbase"
)

// Decisive evidence (issue #26). Reciprocal rank fusion counts the full-text and the
// vector list alike, and a general-purpose embedder knows nothing of names,
// identifiers and invented words: a question asked by such a word ("What did
// Vydepor borrow in Glasgow?") has its one matching memory first by full text and
// nowhere by vector, while memories that share its common words rank a little lower
// in both lists and won: with GloVe the right memory came first for about half of
// such questions, against all of them with the hashing embedder, whose vectors see
// every word. Two things now count the full-text match as the evidence it is:
//
//   - a word few of the user's items hold is rare (at most rareMax items of the kind
//     searched, and at most one in rareRatio of them); an item holding the query's
//     rare words has its score multiplied by rareBoost (search.Options.RareBoost),
//     a share of it for some of them;
//   - the vector list weighs what its embedder saw of the query: the share of the
//     query's information (each word's inverse document frequency, over the words
//     the user's items hold) in the words the embedder knows (vocabulary). Words no
//     item holds weigh nothing either way, so an unknown word that is also a typo
//     adds no noise.
//
// The constants were chosen on factbase bench search's data, seed 7, and checked on
// seed 1 and on LoCoMo (docs/benchmarks.md).
const (
	rareMax   = 8
	rareRatio = 20
	rareBoost = 2.0
)

// vocabulary is an embedder whose vectors see a fixed vocabulary (embed.GloVe): it
// says which words add to a text's vector. Embedders without it are taken to see
// every word.
type vocabulary interface {
	Knows(word string) bool
}

// kindTerms is what the user's items of one kind say of a query's terms.
type kindTerms struct {
	exact []int // per term, all the items that hold it, counted up to rareMax+1
	// docs and df are TermStats': the items counted over (all, or a sample of the
	// newest) and, per term, those of them that hold it, counted up to
	// commonFraction. Read only when needed: for episodes (common terms), when the
	// embedder does not know a term (vectorWeight) or a term may be rare (rareTerms).
	docs int
	df   []int
}

// queryTerms reads, in one snapshot, the statistics of terms among the user's items
// of each kind; known says which terms the embedder knows (nil: all of them).
func (s *Service) queryTerms(ctx context.Context, user factbase.UserID, terms []string, kinds []string, known []bool) (map[string]kindTerms, error) {
	out := map[string]kindTerms{}
	if len(terms) == 0 {
		return out, nil
	}
	unknown := slices.Contains(known, false)
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		for _, kind := range kinds {
			exact, err := tx.TermCounts(ctx, kind, terms, rareMax+1)
			if err != nil {
				return err
			}
			st := kindTerms{exact: exact}
			maybeRare := slices.ContainsFunc(exact, func(n int) bool { return n > 0 && n <= rareMax })
			if kind == factbase.KindEpisode || unknown || maybeRare {
				if st.docs, st.df, err = tx.TermStats(ctx, kind, terms, commonFraction); err != nil {
					return err
				}
			}
			out[kind] = st
		}
		return nil
	})
	return out, err
}

// knownTerms says which of terms emb's vectors see; nil when it sees every word.
func knownTerms(emb factbase.Embedder, terms []string) []bool {
	v, ok := emb.(vocabulary)
	if !ok {
		return nil
	}
	known := make([]bool, len(terms))
	for i, t := range terms {
		known[i] = v.Knows(t)
	}
	return known
}

// rareTerms returns the terms rare among the items st describes.
func rareTerms(terms []string, st kindTerms) []string {
	var out []string
	for i, t := range terms {
		if n := st.exact[i]; n > 0 && n <= rareMax && n*rareRatio <= st.docs {
			out = append(out, t)
		}
	}
	return out
}

// vectorWeight is the share of the query's information the embedder's vectors see:
// the inverse document frequencies, among the items of every kind searched, of the
// terms it knows (known) over those of all terms that some item holds. 1 when it
// knows every term, or no item holds any.
func vectorWeight(known []bool, stats map[string]kindTerms) float64 {
	if !slices.Contains(known, false) {
		return 1
	}
	docs := 0
	for _, st := range stats {
		docs += st.docs
	}
	var seen, all float64
	for i, k := range known {
		df := 0
		for _, st := range stats {
			if st.df != nil {
				df += st.df[i]
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + float64(docs)/float64(df))
		all += idf
		if k {
			seen += idf
		}
	}
	if all == 0 {
		return 1
	}
	return seen / all
}

// rareShares returns, for each item of kind holding some of rare (the query's rare
// terms for that kind), the share of them it holds. Each rare term is held by at
// most rareMax items, so each look-up is small.
func rareShares(ctx context.Context, tx factbase.SearchReadTx, kind string, rare []string, filter factbase.SearchFilter) (map[string]float64, error) {
	if len(rare) == 0 {
		return nil, nil
	}
	out := map[string]float64{}
	for _, t := range rare {
		cs, err := tx.TextCandidates(ctx, factbase.TextQuery{Kind: kind, Terms: []string{t}, Filter: filter, Limit: rareMax + 1})
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			out[c.ID] += 1 / float64(len(rare))
		}
	}
	return out, nil
}
