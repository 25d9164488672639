package retrieve

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/search"
)

// Conversation context: episodes that are turns of a conversation pass a share of
// their score to the turn after them, and turns said by someone the query names are
// boosted (search.WithContext); this file finds the turns and their neighbours.

// contextOptions are the conversation-context parameters of Search (the defaults of
// search.WithContext, measured on the LoCoMo development split).
var contextOptions = search.ContextOptions{}

// contextGap is the longest pause between two turns of one conversation: episodes
// further apart in time are not each other's context.
const contextGap = 30 * time.Minute

// SpeakerKey is the episode metadata key naming who said an episode. Without it, a
// "Name: " at the start of the content names the speaker.
const SpeakerKey = "speaker"

// episodeSpeaker returns who said ep: its speaker metadata, else the one to three
// capitalised words before a colon that open its content ("Caroline: ..."), else "".
func episodeSpeaker(ep factbase.Episode) string {
	if s := strings.TrimSpace(ep.Metadata[SpeakerKey]); s != "" {
		return s
	}
	head, _, ok := strings.Cut(ep.Content, ":")
	if !ok || len(head) > 64 {
		return ""
	}
	words := strings.Fields(head)
	if len(words) == 0 || len(words) > 3 {
		return ""
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '.' && r != '\'' }) >= 0 {
			return ""
		}
	}
	return strings.Join(words, " ")
}

// minNickname is the shortest capitalised word taken for the start of a name.
const minNickname = 3

// queryNames returns the capitalised words of query (lower case, stop words and
// words shorter than minNickname left out): the words that may be a short form of a
// name ("Mel" for Melanie).
func queryNames(query string) map[string]bool {
	names := map[string]bool{}
	for _, w := range strings.FieldsFunc(query, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) || utf8.RuneCountInString(w) < minNickname {
			continue
		}
		if l := strings.ToLower(w); !search.IsStopWord(l) {
			names[l] = true
		}
	}
	return names
}

// speakerNamed reports whether the query names speaker: a word of the speaker's
// name (not a stop word) is one of the query's terms, or starts with one of its
// capitalised words (names, from queryNames).
func speakerNamed(speaker string, terms, names map[string]bool) bool {
	for _, w := range search.Terms(speaker) {
		if terms[w] {
			return true
		}
		for n := range names {
			if strings.HasPrefix(w, n) {
				return true
			}
		}
	}
	return false
}

// conversationContext applies conversation context (search.WithContext) to hits,
// ranked best first by Fuse, for a search returning o.Limit hits. Turns of a
// conversation are episodes with a speaker. The best of them pass context to the
// turns just before and after them (the nearest episodes within contextGap, inside
// the search's tag and time filters); every turn the query names the speaker of is
// boosted. Episodes are read only where it can change the first o.Limit hits; those
// read are returned by id.
func (s *Service) conversationContext(ctx context.Context, st factbase.SearchReadTx, hits []search.Hit, query string, terms []string, o SearchOptions) ([]search.Hit, map[string]factbase.Episode, error) {
	termSet := make(map[string]bool, len(terms))
	for _, t := range terms {
		termSet[t] = true
	}
	names := queryNames(query)
	turns := map[string]search.Turn{}
	eps := map[string]factbase.Episode{} // episodes read, turns or not
	// read reads episode id and records it as a turn if it has a speaker.
	read := func(id string, ep *factbase.Episode) (bool, error) {
		if ep == nil {
			x, err := st.Episode(ctx, id)
			if err != nil {
				return false, err
			}
			ep = &x
		}
		eps[id] = *ep
		sp := episodeSpeaker(*ep)
		if sp == "" {
			return false, nil
		}
		if _, ok := turns[id]; !ok {
			turns[id] = search.Turn{Kind: factbase.KindEpisode, ID: id, Named: speakerNamed(sp, termSet, names)}
		}
		return true, nil
	}
	co := contextOptions.Resolved()
	for i := 0; i < len(hits) && i < co.Spread; i++ {
		h := hits[i]
		if h.Kind != factbase.KindEpisode {
			continue
		}
		ep, ok := eps[h.ID]
		if !ok {
			var err error
			if ep, err = st.Episode(ctx, h.ID); err != nil {
				return nil, nil, err
			}
		}
		if ok, err := read(h.ID, &ep); err != nil || !ok {
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		t := turns[h.ID]
		for _, next := range []bool{false, true} {
			if next && co.Next == 0 || !next && co.Prev == 0 {
				continue // that side passes no context
			}
			// Walk co.Reach turns away on this side, while they are turns.
			cur := ep
			for d := 0; d < co.Reach; d++ {
				nb, found, err := neighbour(ctx, st, cur, next, o)
				if err != nil {
					return nil, nil, err
				}
				if !found {
					break
				}
				if ok, err := read(nb.ID, &nb); err != nil {
					return nil, nil, err
				} else if !ok {
					break
				}
				switch {
				case next && d == 0:
					t.Next = nb.ID
				case d == 0:
					t.Prev = nb.ID
				case next:
					t.After = append(t.After, nb.ID)
				default:
					t.Before = append(t.Before, nb.ID)
				}
				cur = nb
			}
		}
		turns[h.ID] = t
	}
	if len(turns) == 0 {
		return hits, eps, nil
	}
	out := search.WithContext(hits, turns, contextOptions)
	// The other episodes matter only if the speaker boost could lift them into the
	// first o.Limit hits: scores only grow, so the o.Limit-th score is a floor.
	var floor float64
	if len(out) > o.Limit {
		floor = out[o.Limit-1].Score
	}
	boost := co.SpeakerBoost
	more := false
	for _, h := range out {
		if h.Kind != factbase.KindEpisode || hasEp(eps, h.ID) || h.Score*boost < floor {
			continue
		}
		ok, err := read(h.ID, nil)
		if err != nil {
			return nil, nil, err
		}
		more = more || ok && turns[h.ID].Named
	}
	if more {
		out = search.WithContext(hits, turns, contextOptions)
	}
	return out, eps, nil
}

func hasEp(eps map[string]factbase.Episode, id string) bool {
	_, ok := eps[id]
	return ok
}

// neighbour returns the episode just before (or after, with next) ep within
// contextGap and the search's tag and time filters.
func neighbour(ctx context.Context, st factbase.SearchReadTx, ep factbase.Episode, next bool, o SearchOptions) (factbase.Episode, bool, error) {
	f := factbase.EpisodeFilter{Tags: o.Tags, Limit: 1}
	if next {
		f.From, f.To = ep.CreatedAt.Add(time.Nanosecond), ep.CreatedAt.Add(contextGap+time.Nanosecond)
	} else {
		f.From, f.To, f.NewestFirst = ep.CreatedAt.Add(-contextGap), ep.CreatedAt, true
	}
	if !o.From.IsZero() && o.From.After(f.From) {
		f.From = o.From
	}
	if !o.To.IsZero() && o.To.Before(f.To) {
		f.To = o.To
	}
	if !f.From.Before(f.To) {
		return factbase.Episode{}, false, nil
	}
	eps, err := st.Episodes(ctx, f)
	if err != nil || len(eps) == 0 {
		return factbase.Episode{}, false, err
	}
	return eps[0], true, nil
}
