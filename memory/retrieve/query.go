package retrieve

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/search"
	"github.com/kljensen/snowball/english"
)

// LookupOptions select facts for a direct look-up. At least one of Type, Key and
// KeyPrefix is required.
type LookupOptions struct {
	Type      string   // fact type: version, metric, latency, count, status, date, phase, ...
	Key       string   // an exact key, e.g. "nexus.version"
	KeyPrefix string   // keys starting with this
	Subject   string   // "" for any subject
	Tags      []string // facts whose source episode carries every tag
	// From (inclusive) and To (exclusive) bound the fact's valid-from time (for an
	// extracted fact, its episode's time); zero is open.
	From, To time.Time
	Limit    int // 0 means DefaultLookupLimit; at most core.MaxPageSize
	Offset   int // skip this many of the newest
}

// DefaultLookupLimit is the most facts a look-up returns when it is not told.
const DefaultLookupLimit = 10

// LookupResult is one fact found by a direct look-up.
type LookupResult struct {
	Key        string    `json:"key"`
	Value      string    `json:"value"`
	Type       string    `json:"type,omitempty"`
	Episode    string    `json:"episode,omitempty"` // the source episode's id
	Confidence float64   `json:"confidence"`
	Timestamp  time.Time `json:"timestamp"` // when the fact became true (valid from)
	FactID     string    `json:"fact_id"`
	Text       string    `json:"text,omitempty"`
}

func lookupResult(f factbase.Fact) LookupResult {
	r := LookupResult{Key: f.Key, Value: f.Value, Type: f.Type, Confidence: f.Confidence,
		Timestamp: f.ValidFrom, FactID: f.ID, Text: f.Text}
	if f.Source.Kind == factbase.SourceEpisode {
		r.Episode = f.Source.ID
	}
	return r
}

// Lookup is the direct fact look-up: a page of the user's current facts of a type or
// key, newest first, narrowed by subject, source-episode tags and time; more is true
// when facts follow the page.
func (s *Service) Lookup(ctx context.Context, user factbase.UserID, o LookupOptions) (out []LookupResult, more bool, err error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return nil, false, err
	}
	if o.Type == "" && o.Key == "" && o.KeyPrefix == "" {
		return nil, false, factbase.Errorf(factbase.EINVALID, "a look-up needs a fact type, a key or a key prefix")
	}
	if o.Limit, err = core.PageLimitOf(o.Offset, o.Limit, DefaultLookupLimit, core.MaxPageSize); err != nil {
		return nil, false, err
	}
	if o.Key != "" {
		if err := factbase.ValidateKey(o.Key); err != nil {
			return nil, false, err
		}
	}
	tags, err := factbase.NormalizeTags(o.Tags)
	if err != nil {
		return nil, false, err
	}
	f := factbase.SearchFilter{Type: o.Type, KeyPrefix: o.KeyPrefix, Subject: o.Subject, Tags: tags, From: o.From, To: o.To}
	out = []LookupResult{}
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		facts, err := tx.FilterFacts(ctx, o.Key, f, o.Offset, o.Limit+1)
		facts, more = core.TrimPage(facts, o.Limit)
		for _, fact := range facts {
			out = append(out, lookupResult(fact))
		}
		return err
	})
	return out, more, err
}

// The sources of an answer.
const (
	SourceFact      = "fact"
	SourceNarrative = "narrative"
)

// The preferences of a hybrid query.
const (
	PreferAuto      = "auto"
	PreferFact      = "fact"
	PreferNarrative = "narrative"
)

// QueryOptions tune a hybrid query.
type QueryOptions struct {
	// Prefer is PreferAuto (the default: the question decides), PreferFact (facts
	// first, then narrative) or PreferNarrative (episodes first, then facts).
	Prefer string
	// Passages is the most narrative passages: 0 means 3, at most 20.
	Passages int
	// Now is the query time for recency decay; zero means the wall clock.
	Now time.Time
}

// Passage is an excerpt of an episode that answers a question.
type Passage struct {
	Episode   string    `json:"episode"`
	Text      string    `json:"text"`    // the best sentences of the episode
	Content   string    `json:"content"` // the whole episode
	Score     float64   `json:"score"`
	CreatedAt time.Time `json:"created_at"`
}

// QueryAnswer is the hybrid query's answer.
type QueryAnswer struct {
	Question string `json:"question"`
	// Source is which read answered: SourceFact, SourceNarrative, or "" when neither
	// found anything.
	Source string `json:"source"`
	// FactSeeking is whether the question was read as asking for a fact.
	FactSeeking bool `json:"fact_seeking"`
	// Tried lists the sources tried, in order.
	Tried []string `json:"tried"`
	// Value is the answering fact's value (Source fact).
	Value    string        `json:"value,omitempty"`
	Fact     *LookupResult `json:"fact,omitempty"`
	Passages []Passage     `json:"passages,omitempty"`
	// Warnings are the warnings of the searches run (SearchResult.Warnings).
	Warnings []string `json:"warnings,omitempty" doc:"Why a search behind the answer ranked by full text alone (as in a search's warnings); absent when none did."`
}

// Query is the hybrid query: it decides whether question seeks a fact ("What is the
// NEXUS version?", "What was the test success rate?"), tries the facts first when it
// does (or when opts.Prefer says so) and falls back to a narrative search over
// episodes, and says which source answered. A fact answers only if its key names
// what the question asks about; narrative passages are the best sentences of the
// best episodes.
func (s *Service) Query(ctx context.Context, user factbase.UserID, question string, o QueryOptions) (QueryAnswer, error) {
	a := QueryAnswer{Question: question, Tried: []string{}}
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return a, err
	}
	if o.Prefer = cmp.Or(o.Prefer, PreferAuto); !slices.Contains([]string{PreferAuto, PreferFact, PreferNarrative}, o.Prefer) {
		return a, factbase.Errorf(factbase.EINVALID, "prefer %q is not one of auto, fact, narrative", o.Prefer)
	}
	if o.Passages == 0 {
		o.Passages = 3
	}
	if o.Passages < 0 || o.Passages > 20 {
		return a, factbase.Errorf(factbase.EINVALID, "passages %d is outside 1..20", o.Passages)
	}
	var subject string
	a.FactSeeking, subject = FactSeeking(question)
	order := []string{SourceNarrative, SourceFact}
	if o.Prefer == PreferFact || o.Prefer == PreferAuto && a.FactSeeking {
		order = []string{SourceFact, SourceNarrative}
	}
	for _, src := range order {
		a.Tried = append(a.Tried, src)
		if src == SourceFact {
			f, ok, err := s.answerFact(ctx, user, question, subject, o.Now, &a.Warnings)
			if err != nil {
				return a, err
			}
			if ok {
				r := lookupResult(f)
				a.Source, a.Value, a.Fact = SourceFact, f.Value, &r
				return a, nil
			}
			continue
		}
		ps, err := s.passages(ctx, user, question, o.Passages, o.Now, &a.Warnings)
		if err != nil {
			return a, err
		}
		if len(ps) > 0 {
			a.Source, a.Passages = SourceNarrative, ps
			return a, nil
		}
	}
	return a, nil
}

// answerFact finds the current fact whose key best covers what question asks about.
// The search's warnings are added to warnings.
func (s *Service) answerFact(ctx context.Context, user factbase.UserID, question, subject string, now time.Time, warnings *[]string) (factbase.Fact, bool, error) {
	want := stems(subject)
	if len(want) == 0 {
		want = stems(question)
	}
	if len(want) == 0 {
		return factbase.Fact{}, false, nil
	}
	res, err := s.Search(ctx, user, question, SearchOptions{Kinds: []string{factbase.KindFact}, Limit: 20, Now: now})
	if err != nil {
		return factbase.Fact{}, false, err
	}
	addWarnings(warnings, res.Warnings)
	var (
		best      factbase.Fact
		bestCover float64
		found     bool
	)
	for _, h := range res.Hits { // best score first; a later hit must cover more
		c := coverage(want, h.Fact.Key)
		if c >= 0.5 && c > bestCover {
			best, bestCover, found = *h.Fact, c, true
		}
	}
	return best, found, nil
}

// coverage is the share of the wanted stems that the key's words hold.
func coverage(want []string, key string) float64 {
	have := stems(strings.NewReplacer(".", " ", "_", " ").Replace(key))
	n := 0
	for _, w := range want {
		if slices.Contains(have, w) {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// stems returns the Snowball stems of text's search terms.
func stems(text string) []string {
	terms := search.Terms(text)
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		out = append(out, english.Stem(t, false))
	}
	return out
}

// passages runs the narrative search and cuts each episode to its best sentences.
// The search's warnings are added to warnings.
func (s *Service) passages(ctx context.Context, user factbase.UserID, question string, n int, now time.Time, warnings *[]string) ([]Passage, error) {
	res, err := s.Search(ctx, user, question, SearchOptions{Kinds: []string{factbase.KindEpisode}, Limit: n, Now: now})
	if err != nil {
		return nil, err
	}
	addWarnings(warnings, res.Warnings)
	want := stems(question)
	var out []Passage
	for _, h := range res.Hits {
		out = append(out, Passage{Episode: h.ID, Text: bestSentences(h.Episode.Content, want, 300),
			Content: h.Episode.Content, Score: h.Score, CreatedAt: h.Episode.CreatedAt})
	}
	return out, nil
}

// Excerpt returns the sentences of content that best answer question, with their
// neighbours, within max bytes: the text of a narrative passage.
func Excerpt(content, question string, max int) string {
	return bestSentences(content, stems(question), max)
}

// bestSentences returns the sentence of content holding most of the wanted stems
// (the first sentence when none holds any), with its neighbours while the passage
// stays within max bytes; a longer single sentence is cut to max runes and "…".
func bestSentences(content string, want []string, max int) string {
	sents := sentences(content)
	if len(sents) == 0 {
		return ""
	}
	best, bestN := 0, -1
	for i, s := range sents {
		have := stems(s)
		n := 0
		for _, w := range want {
			if slices.Contains(have, w) {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	lo, hi := best, best+1
	size := len(sents[best])
	for {
		grew := false
		if hi < len(sents) && size+1+len(sents[hi]) <= max {
			size += 1 + len(sents[hi])
			hi++
			grew = true
		}
		if lo > 0 && size+1+len(sents[lo-1]) <= max {
			lo--
			size += 1 + len(sents[lo])
			grew = true
		}
		if !grew {
			break
		}
	}
	out := strings.Join(sents[lo:hi], " ")
	if len(out) > max {
		out = core.Clip(out, max)
	}
	return out
}

// sentences splits text after ., ! and ? followed by space, and at line breaks.
func sentences(text string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			flush(i + 1)
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' '):
			flush(i + 1)
		}
	}
	flush(len(text))
	return out
}

// FactSeeking reports whether question asks for one stored fact (a value, a
// measure, a state) rather than for a narrative, and returns the phrase naming what
// it asks about: "What is the NEXUS version?" gives true and "NEXUS version"; "What
// was the test success rate?" gives true and "test success rate"; "Why did the
// deployment fail?" and "What happened in the last session?" give false.
func FactSeeking(question string) (bool, string) {
	words := questionWords(question)
	if len(words) < 2 {
		return false, ""
	}
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLower(w)
	}
	rest := func(i int) (bool, string) {
		phrase := stripArticles(words[i:], lower[i:])
		if len(phrase) == 0 || len(phrase) > 6 {
			return false, ""
		}
		for _, w := range phrase {
			if narrativeWords[strings.ToLower(w)] {
				return false, ""
			}
		}
		return true, strings.Join(phrase, " ")
	}
	switch lower[0] {
	case "what", "what's", "whats", "which":
		// "what is / was / are / were <noun phrase>", "what's <np>", "which <np> is ..."
		if lower[0] == "what's" || lower[0] == "whats" {
			return rest(1)
		}
		if isCopula(lower[1]) {
			return rest(2)
		}
		// "What version is NEXUS on?", "Which status does phase 3 have?"
		if measureWords[lower[1]] {
			return true, strings.Join(stripArticles(words[1:], lower[1:]), " ")
		}
		return false, ""
	case "how":
		// "how many tests passed", "how much memory", "how fast / long is the p95 latency"
		if lower[1] == "many" || lower[1] == "much" {
			return true, strings.Join(words[2:], " ")
		}
		if (lower[1] == "fast" || lower[1] == "high" || lower[1] == "accurate") && len(words) > 3 && isCopula(lower[2]) {
			return rest(3)
		}
		return false, ""
	case "when":
		// "when is the deadline / release date" asks for a date fact, "when did ..." for a story
		if len(words) > 2 && isCopula(lower[1]) {
			return rest(2)
		}
		return false, ""
	}
	// "Tell me the NEXUS version", "NEXUS version?"
	if len(words) <= 4 {
		for _, w := range lower {
			if measureWords[w] {
				return true, strings.Join(words, " ")
			}
		}
	}
	return false, ""
}

func isCopula(w string) bool {
	switch w {
	case "is", "was", "are", "were", "'s":
		return true
	}
	return false
}

// stripArticles drops leading determiners and trailing filler from a phrase.
func stripArticles(words, lower []string) []string {
	i := 0
	for i < len(words) && determiners[lower[i]] {
		i++
	}
	j := len(words)
	for j > i && (lower[j-1] == "now" || lower[j-1] == "currently" || lower[j-1] == "today" || lower[j-1] == "again") {
		j--
	}
	return words[i:j]
}

var determiners = wordSet("the a an my our your its their his her this that current latest")

// narrativeWords in the asked-about phrase make a question narrative: they ask for
// events, reasons or descriptions, not a stored value.
var narrativeWords = wordSet(`happened happen happening reason why story problem problems issue
	issues difference plan plans summary going wrong did do does we i you they he she that who
	which when where how about like think feel said say discussed decided learned`)

// measureWords are the things a fact-seeking question asks for.
var measureWords = wordSet(`version versions status phase rate accuracy latency count number
	percentage precision recall score coverage uptime date deadline email phone address name
	birthday sprint milestone session p50 p95 p99 value total`)

// wordSet is the set of the space-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// questionWords splits a question into words: runs of letters, digits,
// apostrophes, dots, dashes and underscores ("what's", "v2.3.1", "p99"), with
// trailing dots and dashes trimmed.
func questionWords(q string) []string {
	fields := strings.FieldsFunc(strings.ReplaceAll(q, "’", "'"), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '.' && r != '_' && r != '-'
	})
	out := fields[:0]
	for _, f := range fields {
		if f = strings.TrimRight(f, ".-'"); f != "" {
			out = append(out, f)
		}
	}
	return out
}
