package chat

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/when"
	"github.com/kljensen/snowball/english"
)

// Recall limits and defaults.
const (
	DefaultRecallLimit = 10
	MaxRecallLimit     = 100
	// DefaultRecallMinScore is the least score a recalled fact needs (see Recall).
	DefaultRecallMinScore = 0.5
)

// RecallOptions tune Recall. The zero value returns up to 10 facts, hides
// high-sensitivity facts unless the query asks about health, and reads "now" from the
// clock.
type RecallOptions struct {
	// Limit is the most hits: 0 means DefaultRecallLimit, at most MaxRecallLimit.
	Limit int
	// IncludeSensitive includes high-sensitivity facts (health, medical) even when
	// the query does not ask about them. Default false: the privacy mode.
	IncludeSensitive bool
	// MinScore is the least score of a hit; 0 means DefaultRecallMinScore.
	MinScore float64
	// Now is the time temporal questions ("next week") count from; zero: the clock.
	Now time.Time
}

// RecallHit is one recalled fact.
type RecallHit struct {
	About    string  `json:"about"` // the entity's name (or relation), or "user"
	Role     string  `json:"role"`  // the entity's relation ("colleague"), or "user"
	EntityID string  `json:"entity_id,omitempty"`
	Key      string  `json:"key"`
	Value    string  `json:"value"`
	Text     string  `json:"text"`
	Score    float64 `json:"score"`
	// Why lists the signals that scored the hit: "intent diet", "names Martin",
	// "words 0.50", "search #1", "in window 2026-03-10".
	Why []string `json:"why"`
	// When is the occurrence in the asked-for window, for temporal hits.
	When *time.Time    `json:"when,omitempty"`
	Fact factbase.Fact `json:"fact"`
}

// EntityFacts groups the hits about one subject.
type EntityFacts struct {
	About    string      `json:"about"`
	Role     string      `json:"role"`
	EntityID string      `json:"entity_id,omitempty"`
	Facts    []RecallHit `json:"facts"`
}

// Recollection is what Recall found and the prompt block it renders.
type Recollection struct {
	Query         string        `json:"query"`
	Hits          []RecallHit   `json:"hits"`
	FactsByEntity []EntityFacts `json:"facts_by_entity"`
	// Entities are the ids of the entities the query names, whose facts were boosted.
	Entities []string     `json:"entities"`
	Window   *when.Window `json:"window,omitempty"`
	// Hidden counts the high-sensitivity facts the privacy mode left out.
	Hidden int `json:"hidden"`
	// Degraded says which source of hits failed (search), when one did; the hits
	// come from the others.
	Degraded string `json:"degraded,omitempty"`
	Prompt   string `json:"prompt"`
}

// recallIntents map question words to the key prefixes they ask about.
var recallIntents = map[string][]string{
	"eat": {factbase.KeyDiet, factbase.KeyAllergy}, "eats": {factbase.KeyDiet, factbase.KeyAllergy},
	"food": {factbase.KeyDiet, factbase.KeyAllergy, factbase.KeyLikes, factbase.KeyDislikes},
	"diet": {factbase.KeyDiet}, "meal": {factbase.KeyDiet, factbase.KeyAllergy},
	"meals":   {factbase.KeyDiet, factbase.KeyAllergy},
	"cook":    {factbase.KeyDiet, factbase.KeyAllergy, factbase.KeyDislikes},
	"cooking": {factbase.KeyDiet, factbase.KeyAllergy, factbase.KeyDislikes},
	"dinner":  {factbase.KeyDiet, factbase.KeyAllergy}, "lunch": {factbase.KeyDiet, factbase.KeyAllergy},
	"breakfast": {factbase.KeyDiet, factbase.KeyAllergy}, "restaurant": {factbase.KeyDiet, factbase.KeyAllergy},
	"vegetarian": {factbase.KeyDiet}, "vegan": {factbase.KeyDiet}, "drink": {factbase.KeyDiet},
	"menu": {factbase.KeyDiet, factbase.KeyAllergy},

	"allergic": {factbase.KeyAllergy}, "allergy": {factbase.KeyAllergy}, "allergies": {factbase.KeyAllergy},

	"health": {"health.", "medical.", factbase.KeyAllergy}, "medical": {"medical.", "health."},
	"condition": {"health."}, "conditions": {"health."}, "medication": {"medical."}, "medications": {"medical."},
	"medicine": {"medical."}, "meds": {"medical."}, "sick": {"health."}, "illness": {"health."},

	"work": {"work."}, "works": {"work."}, "job": {"work."}, "employer": {factbase.KeyEmployer},
	"company": {factbase.KeyEmployer}, "living": {"work."}, "profession": {factbase.KeyRole},
	"occupation": {factbase.KeyRole},

	"live": {"home."}, "lives": {"home."}, "home": {"home."}, "city": {factbase.KeyCity},
	"from": {factbase.KeyOrigin},

	"birthday":  {factbase.KeyBirthday, factbase.KeyUserBirthday},
	"birthdays": {factbase.KeyBirthday, factbase.KeyUserBirthday},
	"born":      {factbase.KeyBirthday, factbase.KeyUserBirthday}, "anniversary": {factbase.KeyAnniversary},

	"like": {factbase.KeyLikes, factbase.FavoritesPrefix}, "likes": {factbase.KeyLikes, factbase.FavoritesPrefix},
	"love": {factbase.KeyLikes}, "loves": {factbase.KeyLikes}, "enjoy": {factbase.KeyLikes},
	"enjoys": {factbase.KeyLikes}, "hobby": {factbase.KeyLikes}, "hobbies": {factbase.KeyLikes},
	"interests": {factbase.KeyLikes}, "gift": {factbase.KeyLikes, factbase.KeyDislikes},
	"present": {factbase.KeyLikes, factbase.KeyDislikes}, "into": {factbase.KeyLikes},

	"hate": {factbase.KeyDislikes}, "hates": {factbase.KeyDislikes}, "dislike": {factbase.KeyDislikes},
	"dislikes": {factbase.KeyDislikes}, "afraid": {factbase.KeyFears}, "scared": {factbase.KeyFears},

	"schedule": {factbase.KeySchedule}, "lessons": {factbase.KeySchedule}, "lesson": {factbase.KeySchedule},
	"class": {factbase.KeySchedule}, "classes": {factbase.KeySchedule}, "practice": {factbase.KeySchedule},
	"weekly": {factbase.KeySchedule},

	"plans": {factbase.KeyPlan, factbase.KeyTravel}, "plan": {factbase.KeyPlan, factbase.KeyTravel},
	"trip": {factbase.KeyTravel}, "travel": {factbase.KeyTravel}, "flight": {factbase.KeyTravel},
	"flying": {factbase.KeyTravel}, "vacation": {factbase.KeyTravel},
	"happening":   {factbase.KeyPlan, factbase.KeyTravel, factbase.KeySchedule, factbase.KeyBirthday, factbase.KeyAnniversary},
	"upcoming":    {factbase.KeyPlan, factbase.KeyTravel, factbase.KeySchedule, factbase.KeyBirthday, factbase.KeyAnniversary},
	"appointment": {factbase.KeyPlan},

	"old": {factbase.KeyAge}, "age": {factbase.KeyAge},

	"email": {"contact."}, "phone": {"contact."}, "number": {"contact."}, "contact": {"contact."},
	"reach": {"contact."},

	"who": {factbase.KeyRelation}, "relation": {factbase.KeyRelation},

	"language":  {factbase.KeySpeaks, factbase.KeyLanguage},
	"languages": {factbase.KeySpeaks, factbase.KeyLanguage}, "speak": {factbase.KeySpeaks},
	"speaks": {factbase.KeySpeaks},

	"answer": {factbase.CommPrefix}, "answers": {factbase.CommPrefix}, "reply": {factbase.CommPrefix},
	"respond": {factbase.CommPrefix}, "tone": {factbase.CommPrefix},
}

// recallSensitive are question words that ask for high-sensitivity facts.
var recallSensitive = map[string]bool{"health": true, "medical": true, "condition": true, "conditions": true,
	"medication": true, "medications": true, "medicine": true, "meds": true, "sick": true, "illness": true}

// recallStop are question words that carry no content.
var recallStop = map[string]bool{"what": true, "who": true, "when": true, "where": true, "why": true, "how": true,
	"which": true, "does": true, "do": true, "did": true, "is": true, "are": true, "was": true, "were": true,
	"the": true, "a": true, "an": true, "my": true, "me": true, "i": true, "to": true, "of": true, "for": true,
	"about": true, "tell": true, "know": true, "you": true, "your": true, "and": true, "or": true, "in": true,
	"on": true, "at": true, "with": true, "any": true, "anything": true, "there": true, "has": true, "have": true,
	"s": true, "can": true, "should": true, "would": true, "will": true, "it": true, "that": true, "this": true,
	"next": true, "week": true, "get": true, "give": true, "remind": true, "please": true, "we": true, "our": true}

func recallWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func recallStems(ws []string) map[string]bool {
	out := make(map[string]bool, len(ws))
	for _, w := range ws {
		if !recallStop[w] {
			out[english.Stem(w, false)] = true
		}
	}
	return out
}

// keyMatches reports whether key falls under one of the prefixes.
func recallKeyMatches(key string, prefixes []string) bool {
	for _, p := range prefixes {
		if key == p || strings.HasSuffix(p, ".") && strings.HasPrefix(key, p) || strings.HasPrefix(key, p+".") {
			return true
		}
	}
	return false
}

// recurrenceOf returns how a fact repeats: birthdays and anniversaries yearly, a
// schedule as its marker says.
func recallRecurrence(f factbase.Fact) when.Recurrence {
	switch f.Key {
	case factbase.KeyBirthday, factbase.KeyAnniversary, factbase.KeyUserBirthday:
		return when.Yearly
	}
	if f.Temporal != "" && f.Anchor != nil {
		if m, ok := when.Parse(f.Temporal, *f.Anchor); ok {
			return m.Recur
		}
		for _, m := range when.Find(f.Temporal, *f.Anchor) {
			if m.Recur != when.Once {
				return m.Recur
			}
		}
	}
	return when.Once
}

type recallCandidate struct {
	f      factbase.Fact
	score  float64
	why    []string
	when   *time.Time
	search float64
}

// Recall answers "what do I know that bears on this question": it merges the hybrid
// search (Search), the facts of the entities the query names (by name, alias or
// relation: "Martin", "my wife"), the facts whose keys the question asks about ("eat":
// diet and allergies), and temporal retrieval (facts anchored in the window the query
// names — "next week", "upcoming" — with birthdays recurring yearly and schedules
// weekly). Each fact's score is the sum of its signals — intent 1, words matched up
// to 1, in the window 1, search up to 0.4, a named entity's fact 0.5 (0.2 when the
// question also asks for something specific) — doubled for facts about a named
// entity and halved for facts about anyone else when the query names someone; hits
// below MinScore are dropped. The privacy mode leaves out high-sensitivity facts
// unless asked. Hits are grouped by entity and rendered as a prompt block.
func (e *Service) Recall(ctx context.Context, user factbase.UserID, query string, o RecallOptions) (Recollection, error) {
	out := Recollection{Query: query, Hits: []RecallHit{}, FactsByEntity: []EntityFacts{}, Entities: []string{}}
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return out, err
	}
	if strings.TrimSpace(query) == "" {
		return out, factbase.Errorf(factbase.EINVALID, "query is empty")
	}
	if len(query) > retrieve.MaxQueryLen {
		return out, factbase.Errorf(factbase.EINVALID, "query is %d bytes; the limit is %d", len(query), retrieve.MaxQueryLen)
	}
	if o.Limit == 0 {
		o.Limit = DefaultRecallLimit
	}
	if o.Limit < 0 || o.Limit > MaxRecallLimit {
		return out, factbase.Errorf(factbase.EINVALID, "limit %d is outside 1..%d", o.Limit, MaxRecallLimit)
	}
	if o.MinScore == 0 {
		o.MinScore = DefaultRecallMinScore
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	words := recallWords(query)
	qStems := recallStems(words)
	var prefixes []string
	sensitiveAsked := o.IncludeSensitive
	for _, w := range words {
		prefixes = append(prefixes, recallIntents[w]...)
		sensitiveAsked = sensitiveAsked || recallSensitive[w]
	}
	win, hasWin := when.QueryWindow(query, o.Now)
	if hasWin {
		out.Window = &win
	}

	// search hits, when the store can search
	searchScore := map[string]float64{}
	if sr, err := e.retrieve.Search(ctx, user, query, retrieve.SearchOptions{Kinds: []string{factbase.KindFact}, Limit: 20, Now: o.Now}); err == nil {
		top := 0.0
		for _, h := range sr.Hits {
			top = max(top, h.Score)
		}
		for _, h := range sr.Hits {
			if h.Fact != nil && top > 0 {
				searchScore[h.ID] = 0.4 * h.Score / top
			}
		}
	} else if ctx.Err() != nil {
		return out, err
	} else {
		// Search is one signal of several: without it recall still has the named
		// people, the intents and the time window. The failure is reported, not hidden.
		out.Degraded = "search failed: " + factbase.ErrorMessage(err)
		if factbase.ErrorCode(err) == factbase.EINTERNAL {
			out.Degraded = "search failed: " + err.Error()
		}
	}

	entities := map[string]factbase.Entity{} // subject -> entity (live ones, and merged ones by their own subject)
	named := map[string]bool{}               // subjects the query names
	cands := map[string]*recallCandidate{}
	add := func(f factbase.Fact) *recallCandidate {
		c := cands[f.ID]
		if c == nil {
			c = &recallCandidate{f: f}
			cands[f.ID] = c
		}
		return c
	}
	relabel := (*factbase.Relabeler)(nil) // texts name people as they are named now
	err := e.core.View(ctx, user, func(tx factbase.ReadTx) error {
		all, err := tx.Entities(ctx, factbase.EntityFilter{})
		if err != nil {
			return err
		}
		relabel = factbase.NewRelabeler(all)
		for _, en := range all {
			entities[en.Subject()] = en
		}
		for _, en := range all {
			if en.MergedInto == "" && recallNamedBy(en, words) {
				named[en.Subject()] = true
				out.Entities = append(out.Entities, en.ID)
			}
		}
		sort.Strings(out.Entities)
		for s := range named {
			fs, err := tx.Facts(ctx, factbase.FactFilter{Subject: s, Limit: 500})
			if err != nil {
				return err
			}
			for _, f := range fs {
				add(f)
			}
		}
		seenPrefix := map[string]bool{}
		for _, p := range prefixes {
			if seenPrefix[p] {
				continue
			}
			seenPrefix[p] = true
			fs, err := tx.Facts(ctx, factbase.FactFilter{KeyPrefix: p, Limit: 500, NewestFirst: true})
			if err != nil {
				return err
			}
			for _, f := range fs {
				if recallKeyMatches(f.Key, []string{p}) {
					add(f)
				}
			}
		}
		for id := range searchScore {
			f, err := tx.Fact(ctx, id)
			if err != nil {
				return err
			}
			if f.Current {
				add(f)
			}
		}
		if hasWin {
			fs, err := tx.AnchoredFacts(ctx, win.From, win.To, 1000)
			if err != nil {
				return err
			}
			// recurring facts anchored elsewhere: birthdays, anniversaries, schedules
			for _, k := range []string{factbase.KeyBirthday, factbase.KeyUserBirthday, factbase.KeyAnniversary, factbase.KeySchedule} {
				rs, err := tx.Facts(ctx, factbase.FactFilter{Key: k, Limit: 1000})
				if err != nil {
					return err
				}
				fs = append(fs, rs...)
			}
			for _, f := range fs {
				if f.Anchor == nil && recallRecurrence(f) == when.Yearly {
					// a birthday said without a resolved date ("My birthday is June 3")
					if ms := when.Find(f.Value, o.Now); len(ms) > 0 {
						a := ms[0].Anchor
						f.Anchor = &a
					}
				}
				if f.Anchor == nil {
					continue
				}
				anchor := *f.Anchor
				occ := when.Occurrences(anchor, recallRecurrence(f), win.From, win.To, 1)
				if len(occ) == 0 {
					continue
				}
				c := add(f)
				t := occ[0]
				c.when = &t
			}
		}
		return nil
	})
	if err != nil {
		return out, err
	}

	specific := len(prefixes) > 0 || hasWin
	var hits []RecallHit
	for _, c := range cands {
		f := c.f
		if f.Sensitivity == factbase.High && !sensitiveAsked {
			out.Hidden++
			continue
		}
		if hasWin && c.when == nil && (f.Anchor != nil || recallRecurrence(f) == when.Yearly) {
			continue // a dated fact outside the window the question asks about
		}
		score := 0.0
		if len(prefixes) > 0 && recallKeyMatches(f.Key, prefixes) {
			score += 1
			c.why = append(c.why, "intent "+f.Key)
		}
		if ov := recallOverlap(qStems, f); ov > 0 {
			score += ov
			c.why = append(c.why, fmt.Sprintf("words %.2f", ov))
		}
		if c.when != nil {
			score += 1
			c.why = append(c.why, "in window "+c.when.Format("2006-01-02"))
		}
		if s := searchScore[f.ID]; s > 0 {
			score += s
			c.why = append(c.why, fmt.Sprintf("search %.2f", s))
		}
		switch {
		case named[f.Subject]:
			if specific {
				score += 0.2
			} else {
				score += 0.5
			}
			score *= 2
			c.why = append(c.why, "names "+personal.Label(entities[f.Subject]))
		case len(named) > 0:
			score *= 0.5
		}
		if hasWin && c.when == nil && len(named) == 0 && !recallKeyMatches(f.Key, prefixes) {
			score *= 0.5 // a time question: facts outside the window matter less
		}
		if score < o.MinScore {
			continue
		}
		f.Text = relabel.Text(f)
		h := RecallHit{Key: f.Key, Value: f.Value, Text: retrieve.HitText(f), Score: recallRound(score), Why: c.why, When: c.when, Fact: f}
		h.About, h.Role, h.EntityID = recallAbout(f.Subject, entities)
		if c.when != nil {
			h.Text += " — on " + c.when.Format("Mon 2006-01-02")
		}
		hits = append(hits, h)
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if (hits[i].When == nil) != (hits[j].When == nil) {
			return hits[i].When != nil
		}
		if hits[i].When != nil && !hits[i].When.Equal(*hits[j].When) {
			return hits[i].When.Before(*hits[j].When)
		}
		return hits[i].Fact.ID < hits[j].Fact.ID
	})
	if len(hits) > o.Limit {
		hits = hits[:o.Limit]
	}
	if hits != nil {
		out.Hits = hits
	}
	out.FactsByEntity = groupByEntity(out.Hits)
	out.Prompt = renderRecall(out)
	return out, nil
}

func recallRound(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

// namedBy reports whether the query words name the entity: its name or an alias (or
// their first word), or "my <relation>".
func recallNamedBy(en factbase.Entity, words []string) bool {
	has := func(phrase string) bool {
		pw := recallWords(phrase)
		if len(pw) == 0 {
			return false
		}
		for i := 0; i+len(pw) <= len(words); i++ {
			match := true
			for k := range pw {
				if words[i+k] != pw[k] {
					match = false
					break
				}
			}
			if match {
				return true
			}
		}
		return false
	}
	for _, n := range append([]string{en.Name}, en.Aliases...) {
		if n == "" {
			continue
		}
		if has(n) || has(strings.Fields(n)[0]) {
			return true
		}
	}
	if en.Relation != "" && !strings.Contains(en.Relation, "'s ") {
		rw := recallWords(en.Relation)
		for i := 0; i+len(rw) < len(words); i++ {
			if (words[i] == "my" || words[i] == "our") && slices.Equal(words[i+1:i+1+len(rw)], rw) {
				return true
			}
		}
	}
	return false
}

// overlap is the share of the query's content words found in the fact's value, key
// and text.
func recallOverlap(q map[string]bool, f factbase.Fact) float64 {
	if len(q) == 0 {
		return 0
	}
	fs := recallStems(recallWords(f.Value + " " + strings.ReplaceAll(f.Key, ".", " ") + " " + f.Text))
	n := 0
	for s := range q {
		if fs[s] {
			n++
		}
	}
	return float64(n) / float64(len(q))
}

// aboutOf names a subject: the entity's name (or relation) and relation, or "user".
func recallAbout(subject string, entities map[string]factbase.Entity) (about, role, id string) {
	if subject == factbase.SubjectUser {
		return "user", "user", ""
	}
	en, ok := entities[subject]
	if !ok {
		return subject, "", ""
	}
	role = en.Relation
	if role == "" {
		role = string(en.Role)
	}
	about = en.Name
	if about == "" {
		about = "your " + cmp.Or(en.Relation, string(en.Role))
	}
	return about, role, en.ID
}

// groupByEntity groups hits by subject, in the order of each group's best hit.
func groupByEntity(hits []RecallHit) []EntityFacts {
	out := []EntityFacts{}
	idx := map[string]int{}
	for _, h := range hits {
		k := h.Fact.Subject
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, EntityFacts{About: h.About, Role: h.Role, EntityID: h.EntityID})
		}
		out[i].Facts = append(out[i].Facts, h)
	}
	return out
}

// renderRecall renders the prompt block: one section per subject.
func renderRecall(r Recollection) string {
	if len(r.Hits) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("What you remember that bears on this (from the user's memory):\n")
	if r.Window != nil {
		fmt.Fprintf(&b, "Time asked about: %s to %s.\n", r.Window.From.Format("Mon 2006-01-02"), r.Window.To.AddDate(0, 0, -1).Format("Mon 2006-01-02"))
	}
	for _, g := range r.FactsByEntity {
		switch {
		case g.About == "user":
			b.WriteString("About the user:\n")
		default:
			fmt.Fprintf(&b, "About %s (%s):\n", g.About, g.Role)
		}
		for _, h := range g.Facts {
			fmt.Fprintf(&b, "- %s\n", h.Text)
		}
	}
	if r.Hidden > 0 {
		fmt.Fprintf(&b, "(%d sensitive facts withheld; ask about health explicitly to include them.)\n", r.Hidden)
	}
	return b.String()
}
