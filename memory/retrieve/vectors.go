package retrieve

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
)

// When a search uses vectors.
//
// A query vector is comparable only with vectors of the same embedder model and
// dimension. A search embeds its query with the engine's embedder and then reads
// which embedders wrote the user's vectors (SearchReadTx.VectorModels, a read of a
// few counts). If any item of the kinds searched has a vector it cannot compare with
// (the embedder was switched, and `factbase reembed` has not run or not finished),
// the search ranks by full text alone and says so in a warning; otherwise it fuses
// both lists as usual.
//
// Mixing would be wrong: the vector list would rank only the items with a vector of
// the query's model, and reciprocal rank fusion would add its share to those alone,
// so an item with an older vector would lose the vector half of its score against
// every item with a new one, whatever its relevance. Re-weighting the text score of
// the items without a comparable vector would not repair it either: the vector list
// ranks a subset of the items and the text list all of them, so their ranks are not
// on one scale, and finding which text candidates lack a comparable vector would take
// a read per candidate. Full text alone ranks every item by the same measure, and
// the warning names the fix. (Items written with no embedder at all have no vector of
// any model and are not detected here; `factbase reembed` gives them vectors too.)
//
// An embedder that cannot be reached (EUNAVAILABLE, ETIMEOUT: a refused connection,
// 5xx or 429 after retries, a timeout) is the same case: the search answers from full
// text with a warning rather than fail. Any other embedder error, and every invalid
// search, is an error.

// embedQuery embeds texts for a search. It returns nil vectors and a warning when
// the embedder is unreachable, and an error for any other failure, or when ctx is
// done (the caller is gone: there is nothing to degrade for).
func (s *Service) embedQuery(ctx context.Context, texts []string) (*core.Vectors, string, error) {
	qv, err := s.core.EmbedTexts(ctx, texts)
	if err == nil {
		return qv, "", nil
	}
	if ctx.Err() != nil {
		return nil, "", err
	}
	switch factbase.ErrorCode(err) {
	case factbase.EUNAVAILABLE, factbase.ETIMEOUT:
		return nil, fmt.Sprintf("the embedder %s is unreachable: %s; results are full-text only",
			s.core.Embedder().Model(), factbase.ErrorMessage(err)), nil
	}
	return nil, "", err
}

// incomparable returns the user's vectors, among the kinds searched, that a query
// vector of model and dim cannot be compared with, per model and dimension, with the
// counts of the kinds not searched left out. A dim of 0 (not known) matches any.
func incomparable(ms []factbase.VectorModel, model string, dim int, kinds []string) []factbase.VectorModel {
	facts, eps := slices.Contains(kinds, factbase.KindFact), slices.Contains(kinds, factbase.KindEpisode)
	var out []factbase.VectorModel
	for _, m := range ms {
		if m.Model == model && (dim == 0 || m.Dim == dim) {
			continue
		}
		if !facts {
			m.Facts = 0
		}
		if !eps {
			m.Episodes = 0
		}
		if m.Count() > 0 {
			out = append(out, m)
		}
	}
	return out
}

// mixedWarning is the warning of a search whose query vector, of model and dim,
// cannot be compared with the user's vectors of other.
func mixedWarning(model string, dim int, other []factbase.VectorModel) string {
	var b strings.Builder
	n := 0
	for i, m := range other {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%d dimensions, %d items)", m.Model, m.Dim, m.Count())
		n += m.Count()
	}
	current := model
	if dim > 0 {
		current = fmt.Sprintf("%s (%d dimensions)", model, dim)
	}
	return fmt.Sprintf("the stored vectors of %d items were made by another embedder than the current one, %s: %s; "+
		"vectors of different embedders cannot be compared, so results are full-text only until `factbase reembed` "+
		"gives every item a vector of %s", n, current, b.String(), model)
}

// addWarnings adds to dst the warnings of ws it does not hold yet.
func addWarnings(dst *[]string, ws []string) {
	for _, w := range ws {
		if !slices.Contains(*dst, w) {
			*dst = append(*dst, w)
		}
	}
}
