package chat

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/when"
)

// episodeQuestion is what a question asks of the episodes.
type episodeQuestion struct {
	words    []string // the question's content words: not stop, question or frame words
	versions []string // the version numbers it names, without "v": an episode must hold each
	window   *windowOf
	lead     string // the first word: "what", "when", "how", "is", ...
	answer   answerKind
	who      bool // asks who: not for the episodes
	when     bool // asks when: the answer is the episode's date
	yesNo    bool // asks yes or no, about a thing, not the user
	recent   bool // asks for the latest: "last", "latest", "now", "currently"
	// story: asks why, how or what made something happen ("What took checkout
	// down?", "How did we fix INC-204?"), or for an earlier value ("What version did
	// we upgrade from?"): the episode's words answer, not a value extracted from it.
	story bool
	why   bool // asks why: the episode must give a reason ("because", "after", ...)
	many  bool // asks for every one: "Which deploy failed?", "What incidents ...?"
	// counted are the words after "how many" ("invoices", "ETL jobs"): an episode
	// must count one of them ("48,200 invoices", countOf), or say what implies it.
	counted   []string
	countedRE []*regexp.Regexp
}

// windowOf is the past time a question names and the words that name it.
type windowOf struct {
	From, To time.Time
	words    map[string]bool
}

// Contains reports whether t is in the window.
func (w *windowOf) Contains(t time.Time) bool { return !t.Before(w.From) && t.Before(w.To) }

// answerKind is the kind of value a question's frame asks for.
type answerKind int

const (
	answerAny      answerKind = iota
	answerDuration            // "how long"
	answerSize                // "how big", "how large"
	answerNumber              // "how many", "how much"
	answerShare               // "how far", "what percentage"
)

// readEpisodeQuestion reads q, asked at now, for the episodes. It is pure.
func readEpisodeQuestion(q string, now time.Time) episodeQuestion {
	l := strings.ToLower(strings.NewReplacer("’", "'").Replace(strings.TrimSpace(q)))
	l = strings.TrimRight(l, "?!. ")
	eq := episodeQuestion{}
	raw := recallWords(l)
	ws := recallWords(phrases(l))
	if len(ws) > 0 {
		eq.lead = ws[0]
	}
	for _, v := range versionLike.FindAllString(l, -1) {
		eq.versions = append(eq.versions, strings.TrimPrefix(v, "v"))
	}
	switch eq.lead {
	case "who", "whom", "whose":
		eq.who = true
	case "when":
		eq.when = true
	case "is", "are", "was", "were", "did", "does", "do", "has", "have", "had":
		eq.yesNo = !slices.ContainsFunc(ws, func(w string) bool { return w == "i" || w == "me" || w == "my" || w == "am" })
	case "which":
		eq.many = len(ws) > 1 && !measureNouns[ws[1]]
	case "what":
		eq.many = len(ws) > 2 && len(ws[1]) > 3 && strings.HasSuffix(ws[1], "s") && !measureNouns[ws[1]]
	}
	switch {
	case strings.HasPrefix(l, "how long"), strings.HasPrefix(l, "how much time"):
		eq.answer = answerDuration
	case strings.HasPrefix(l, "how big"), strings.HasPrefix(l, "how large"), strings.HasPrefix(l, "what size"),
		strings.HasPrefix(l, "how much space"), strings.HasPrefix(l, "how much disk"), strings.HasPrefix(l, "how much data"),
		strings.HasPrefix(l, "how much storage"), strings.HasPrefix(l, "how much memory"):
		eq.answer = answerSize
	case strings.HasPrefix(l, "how many"), strings.HasPrefix(l, "how much"):
		eq.answer = answerNumber
	case strings.HasPrefix(l, "how far"):
		eq.answer = answerShare
	}
	if win, ok := queryWindow(strings.ReplaceAll(l, "'s ", " "), now); ok {
		if win.From.After(now) && pastTense(raw) {
			// "What did we do on Tuesday?", "What caused the June 3 outage?": the
			// last Tuesday, the last June 3.
			win = win.back(now)
		}
		if !win.From.After(now) {
			// A time to come ("next week") is not in the logs: its words are then
			// content words like any other.
			eq.window = &win
		}
	}
	// A story is asked by why, how, "tell me about", "what happened", "what did we
	// fix" (a verb after "what did"), "what caused", "what took ... down".
	eq.story = eq.lead == "why" || eq.lead == "how" && eq.answer == answerAny ||
		eq.lead == "what" && len(ws) > 2 && (ws[1] == "did" || ws[1] == "do" || ws[1] == "does") && ws[2] != "you" ||
		eq.lead == "what" && len(raw) > 1 && len(raw[1]) > 4 && strings.HasSuffix(raw[1], "ed") // "What slipped to sprint 9?"
	eq.why = eq.lead == "why"
	if reLatestOn.MatchString(l) {
		// "What's the latest on ORBIT?": the newest episode about it
		eq.story, eq.recent = true, true
	}
	for i, w := range ws {
		switch w {
		case "last", "latest", "lately", "recent", "recently", "now", "currently", "current", "still", "today", "new", "newest":
			eq.recent = true
		case "cause", "caused", "causes", "causing", "reason", "led", "triggered", "from", "before", "previous",
			"previously", "prior", "old", "earlier", "originally", "happen", "happened", "happening", "about":
			eq.story = true
		case "took", "made", "broke", "brought", "knocked":
			eq.story = eq.story || i == 1 && eq.lead == "what"
		}
		if recallStop[w] || questionWords[w] || episodeFrame[w] || len(w) < 3 && !isDigits(w) || len(w) < 2 {
			continue
		}
		if eq.many && genericNouns[w] || eq.answer == answerSize && sizeNouns[w] ||
			(w == "production" || w == "prod") && slices.Contains(ws, "version") ||
			i == 1 && (eq.lead == "what" || eq.lead == "which") && categoryNouns[w] {
			continue // "Which services ...", "What optimizer ...": the kind of answer, not a word of it
		}
		if isDigits(w) && slices.ContainsFunc(eq.versions, func(v string) bool { return slices.Contains(strings.Split(v, "."), w) }) {
			continue // a part of a version, checked whole
		}
		if !slices.Contains(eq.words, w) {
			eq.words = append(eq.words, w)
		}
	}
	if eq.recent || eq.yesNo || eq.when {
		eq.many = false
	}
	if eq.answer == answerNumber && len(ws) > 2 && ws[1] == "many" {
		for _, w := range ws[2:min(len(ws), 4)] {
			if slices.Contains(eq.words, w) {
				eq.counted = append(eq.counted, w)
				eq.countedRE = append(eq.countedRE, countOf(w))
			}
		}
	}
	return eq
}

// queryWindow is when.QueryWindow with the words that name the window.
func queryWindow(q string, now time.Time) (windowOf, bool) {
	w, ok := when.QueryWindow(q, now)
	if !ok {
		return windowOf{}, false
	}
	words := map[string]bool{}
	for _, x := range recallWords(w.Text) {
		words[x] = true
	}
	return windowOf{From: w.From, To: w.To, words: words}, true
}

// back moves a window that starts after now to its last occurrence before: a week
// back for a weekday ("on Tuesday"), a year back for a date or a month ("June 3");
// a window said to come ("next week", "tomorrow") stays.
func (w windowOf) back(now time.Time) windowOf {
	for _, x := range []string{"next", "this", "coming", "following", "tomorrow", "upcoming", "soon"} {
		if w.words[x] {
			return w
		}
	}
	weekday := slices.ContainsFunc([]string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"},
		func(d string) bool { return w.words[d] })
	for i := 0; i < 2 && w.From.After(now); i++ {
		if weekday {
			w.From, w.To = w.From.AddDate(0, 0, -7), w.To.AddDate(0, 0, -7)
		} else {
			w.From, w.To = w.From.AddDate(-1, 0, 0), w.To.AddDate(-1, 0, 0)
		}
	}
	return w
}

// pastTense reports whether a question's words ask about the past: "did", "was",
// "happened", "deployed".
func pastTense(ws []string) bool {
	for _, w := range ws {
		switch w {
		case "did", "was", "were", "had", "happened", "went", "took", "broke", "ran", "got":
			return true
		}
		if len(w) > 4 && strings.HasSuffix(w, "ed") {
			return true
		}
	}
	return false
}

// factFirst reports whether an extracted fact may answer alone: the question asks for
// a value, not a date, a yes or no, a list, or what happened in a time.
func (eq episodeQuestion) factFirst() bool {
	return !eq.yesNo && !eq.when && !eq.many && !eq.story && eq.window == nil && eq.answer != answerDuration &&
		eq.answer != answerSize
}

// asksValue reports whether the question asks for a value an episode's extracted
// fact may hold (a version, a status, a rate), not a count, a story or a time.
func (eq episodeQuestion) asksValue() bool {
	return eq.answer == answerAny && !eq.story && !eq.yesNo && !eq.when && !eq.many
}

// requiredIn returns the words an episode must hold: the content words, less those
// naming the window when the episode falls in it.
func (eq episodeQuestion) requiredIn(inWindow bool) []string {
	if !inWindow || eq.window == nil {
		return eq.words
	}
	return slices.DeleteFunc(slices.Clone(eq.words), func(w string) bool { return eq.window.words[w] })
}

// expanded is the question's content words with the other words of their verbs'
// classes, for the search: "How did we fix INC-204?" also looks for "resolved". ""
// when no word has a class.
func (eq episodeQuestion) expanded() string {
	var add []string
	for _, w := range eq.words {
		if c, ok := classOf(w); ok {
			add = append(add, verbClasses[c]...)
		}
	}
	if len(add) == 0 {
		return ""
	}
	return strings.Join(append(slices.Clone(eq.words), add...), " ")
}

// pick returns the episodes that answer, and for a yes/no question its verdict
// ("Yes", "No"). Those in the window the question names come first; among them, and
// then among the others, those that hold every required word (holds). A yes/no
// question is answered "No" by an episode that holds all but its verb and says the
// opposite ("paused" for "finished"). The latest is picked for a question that asks
// for it, every one (up to episodeListed) for a list or a time with nothing else
// asked, else the best by search rank.
func (eq episodeQuestion) pick(eps []scoredEpisode) ([]scoredEpisode, string) {
	for _, inWindow := range []bool{true, false} {
		if inWindow && eq.window == nil {
			continue
		}
		var hold, deny []scoredEpisode
		for _, ep := range eps {
			if inWindow && !ep.inWindow {
				continue
			}
			text := episodeWords(ep.Episode)
			req := eq.requiredIn(inWindow)
			switch {
			case len(req) == 0 && len(eq.versions) == 0 && !inWindow:
				// nothing asked but a time: only what falls in it answers
			case eq.yesNo && eq.denies(text, req):
				deny = append(deny, ep)
			case eq.holdsAll(text, req), eq.yesNo && eq.affirms(text, req):
				hold = append(hold, ep)
			}
		}
		if len(hold) == 0 && len(deny) == 0 {
			continue
		}
		if eq.yesNo {
			// the latest word on it
			all := append(hold, deny...)
			newest := slices.MaxFunc(all, func(a, b scoredEpisode) int { return a.CreatedAt.Compare(b.CreatedAt) })
			if slices.ContainsFunc(deny, func(e scoredEpisode) bool { return e.ID == newest.ID }) {
				return []scoredEpisode{newest}, "No"
			}
			return []scoredEpisode{newest}, "Yes"
		}
		listAll := eq.many || inWindow && len(eq.requiredIn(true)) == 0 && len(eq.versions) == 0
		switch {
		case listAll:
			if len(hold) > episodeListed {
				hold = hold[:episodeListed]
			}
			sort.SliceStable(hold, func(i, j int) bool { return hold[i].CreatedAt.Before(hold[j].CreatedAt) })
			return hold, ""
		case eq.recent:
			return []scoredEpisode{slices.MaxFunc(hold, func(a, b scoredEpisode) int { return a.CreatedAt.Compare(b.CreatedAt) })}, ""
		default:
			return hold[:1], ""
		}
	}
	return nil, ""
}

// holds reports whether text (an episode's or a fact's words) holds all the question
// asks: holdsAll of its content words.
func (eq episodeQuestion) holds(text episodeText) bool {
	return (len(eq.words) > 0 || len(eq.versions) > 0) && eq.holdsAll(text, eq.words)
}

// holdsAll reports whether text holds every one of words and the question's version
// numbers, and a value of the kind the question's frame asks for (a duration for "how
// long"). A word is held by its stem, by a word of its verb class ("resolved" holds
// "fix"), or by what implies it (a "%" holds "rate", a version number "version").
func (eq episodeQuestion) holdsAll(text episodeText, words []string) bool {
	for _, v := range eq.versions {
		if !text.versions[v] {
			return false
		}
	}
	for _, w := range words {
		if !text.has(w) {
			return false
		}
	}
	if eq.why && !reasonRE.MatchString(text.raw) {
		return false // "Why did gpu-5 go down?" is not answered by a text that gives no reason
	}
	switch eq.answer {
	case answerDuration:
		return durationRE.MatchString(text.raw)
	case answerSize:
		return sizeRE.MatchString(text.raw)
	case answerNumber:
		if len(eq.counted) > 0 {
			for i, w := range eq.counted {
				if eq.countedRE[i].MatchString(text.raw) || implied(w, text.raw) {
					return true
				}
			}
			return false
		}
		return numberRE.MatchString(text.raw)
	case answerShare:
		return strings.Contains(text.raw, "%")
	}
	return true
}

// denies reports whether text holds a word of the opposite class of one of the
// question's verbs, and all its other words: "rollout paused at 20%" denies "Did the
// Android rollout finish?", "in progress: 60% done" denies "Is the reindexing
// finished?".
func (eq episodeQuestion) denies(text episodeText, words []string) bool {
	var rest []string
	denied := false
	for _, w := range words {
		if c, ok := classOf(w); ok && !text.stems[stemOf(w)] && text.hasClass(opposites[c]...) {
			denied = true
			continue
		}
		rest = append(rest, w)
	}
	return denied && eq.holdsAll(text, rest)
}

// affirms reports whether text holds all of words but the question's verbs of
// success ("successful", "finished", "go out"), and nothing that denies them: "Kafka
// upgraded from 3.5.1 to 3.7.0" affirms "Was the Kafka upgrade successful?".
func (eq episodeQuestion) affirms(text episodeText, words []string) bool {
	var rest []string
	for _, w := range words {
		if c, ok := classOf(w); ok && affirmed[c] && !text.has(w) {
			if text.hasClass(opposites[c]...) {
				return false
			}
			continue
		}
		rest = append(rest, w)
	}
	return len(rest) > 0 && len(rest) < len(words) && eq.holdsAll(text, rest)
}

// asksMeasure reports whether the question asks for a measure named by the last
// part of an extracted fact's key: "version" for "Which version ...", "uptime",
// "p95_ms" for "latency".
func (eq episodeQuestion) asksMeasure(measure string) bool {
	for _, part := range strings.FieldsFunc(measure, func(r rune) bool { return r == '_' }) {
		if part == "ms" || part == "rate" || len(part) < 3 && part[0] != 'p' {
			continue
		}
		for _, w := range eq.words {
			if stemOf(w) == stemOf(part) || part == "version" && (w == "release" || w == "build") && !eq.namesMeasure() {
				return true
			}
		}
	}
	return false
}

// says reports whether the question holds a value itself: "What slipped to sprint 9?"
// does not ask for the sprint.
func (eq episodeQuestion) says(value string) bool {
	v := strings.ToLower(value)
	return slices.Contains(eq.words, v) || slices.Contains(eq.versions, strings.TrimPrefix(v, "v"))
}

// namesMeasure reports whether the question names a measure ("rate", "accuracy"):
// then a "release" in it is the thing measured, not a version asked for.
func (eq episodeQuestion) namesMeasure() bool {
	return slices.ContainsFunc(eq.words, func(w string) bool { return measureNouns[w] })
}

// names reports whether the question names a thing: "api-gateway" is named by "API
// gateway".
func (eq episodeQuestion) names(thing string) bool {
	tw := recallWords(thing)
	for _, w := range tw {
		if !slices.ContainsFunc(eq.words, func(x string) bool { return stemOf(x) == stemOf(w) }) {
			return false
		}
	}
	return len(tw) > 0
}

// episodeText is an episode's (or a fact's) words as the coverage test reads them.
type episodeText struct {
	raw      string
	stems    map[string]bool
	versions map[string]bool
}

// episodeWords reads an episode: its content and tags.
func episodeWords(ep factbase.Episode) episodeText {
	return newEpisodeText(ep.Content + " " + strings.Join(ep.Tags, " "))
}

// factWords reads an extracted fact: its key, value and text.
func factWords(key, value, text string) episodeText {
	return newEpisodeText(strings.NewReplacer(".", " ", "_", " ").Replace(key) + " " + value + " " + text)
}

func newEpisodeText(s string) episodeText {
	low := strings.ToLower(s)
	t := episodeText{raw: low, stems: recallStems(recallWords(phrases(low))), versions: map[string]bool{}}
	for _, v := range versionLike.FindAllString(low, -1) {
		t.versions[strings.TrimPrefix(v, "v")] = true
	}
	return t
}

// has reports whether the text holds w: its stem, a word of its class, or what
// implies it.
func (t episodeText) has(w string) bool {
	st := stemOf(w)
	if t.stems[st] {
		return true
	}
	if c, ok := classOf(w); ok && t.hasClass(c) {
		return true
	}
	return implied(w, t.raw)
}

// hasClass reports whether the text holds a word of one of the classes.
func (t episodeText) hasClass(classes ...string) bool {
	for _, c := range classes {
		for _, w := range verbClasses[c] {
			if t.stems[stemOf(w)] {
				return true
			}
		}
	}
	return false
}

// phrases joins the multi-word verbs the classes know into one word: "rolled back"
// is "rollback", "went out" is "shipped".
func phrases(s string) string { return phraseReplacer.Replace(s) }

var phraseReplacer = strings.NewReplacer(
	"rolled back", "rollback", "roll back", "rollback", "rolling back", "rollback", "rolls back", "rollback",
	"rolled out", "rollout", "roll out", "rollout", "rolling out", "rollout",
	"went out", "shipped", "go out", "ship", "goes out", "ships", "gone out", "shipped",
	"went live", "shipped", "go live", "ship", "gone live", "shipped",
	"took down", "down", "taken down", "down", "went down", "down", "go down", "down",
	"timed out", "timeout", "time out", "timeout",
	"failing over", "failover", "failed over", "failover", "fail over", "failover", "fails over", "failover",
	"kicked off", "started", "kick off", "start",
	"went wrong", "failed", "go wrong", "fail", "goes wrong", "fails", "gone wrong", "failed",
	"in progress", "inprogress", "in_progress", "inprogress", "in-progress", "inprogress")

// verbClasses are the verbs (and nouns of them) an episode may say a question's verb
// with: "resolved" for "fix", "halted" or "rolled back" for "fail".
var verbClasses = map[string][]string{
	"fail":    {"fail", "failed", "failing", "failure", "failures", "crashed", "crash", "rollback", "revert", "reverted", "halted", "aborted", "errored", "timeout"},
	"break":   {"broke", "broken", "break", "breaks", "fail", "failed", "failure", "crashed", "crash", "down", "outage", "unavailable", "offline"},
	"stop":    {"pause", "paused", "halt", "halted", "stop", "stopped", "abort", "aborted", "suspended", "frozen"},
	"fix":     {"fix", "fixed", "resolve", "resolved", "resolution", "mitigate", "mitigated", "repair", "repaired", "restore", "restored", "solved", "recovered"},
	"finish":  {"finish", "finished", "complete", "completed", "done", "ended"},
	"ship":    {"deploy", "deployed", "deployment", "ship", "shipped", "release", "released", "launch", "launched", "rollout", "live"},
	"down":    {"down", "outage", "unavailable", "offline"},
	"upgrade": {"upgrade", "upgraded", "bump", "bumped", "update", "updated"},
	"start":   {"start", "started", "begin", "began"},
	"pending": {"inprogress", "pending", "blocked", "blocker", "blockers", "ongoing", "underway", "started"},
	"succeed": {"succeed", "succeeded", "success", "successful", "successfully"},
}

// affirmed are the classes whose verbs an episode affirms by telling what was done
// without a word that denies it: "Kafka upgraded ..." was successful.
var affirmed = map[string]bool{"succeed": true, "finish": true, "ship": true}

// opposites are the classes that deny a class, for yes/no questions.
var opposites = map[string][]string{
	"finish":  {"pending", "stop", "fail"},
	"ship":    {"fail", "stop"},
	"upgrade": {"fail", "stop"},
	"succeed": {"fail", "stop", "pending"},
	"fix":     {"fail"},
	"fail":    {"succeed"},
}

// askedClass are question words that ask for a class without being one of its words
// in an episode: "Is the iOS app out?", like "ran out of memory", is not a release.
var askedClass = map[string]string{"out": "ship"}

// classOf returns the class of a question word.
func classOf(w string) (string, bool) {
	if c, ok := wordClass[stemOf(w)]; ok {
		return c, true
	}
	c, ok := askedClass[w]
	return c, ok
}

// wordClass maps the stem of every word of verbClasses to its class: the first of
// classOrder that holds it ("halted" is a failure before it is a stop, "started" a
// start before it is pending).
var wordClass = func() map[string]string {
	m := map[string]string{}
	for _, c := range classOrder {
		for _, w := range verbClasses[c] {
			if _, ok := m[stemOf(w)]; !ok {
				m[stemOf(w)] = c
			}
		}
	}
	return m
}()

// classOrder lists every class of verbClasses, in the order wordClass prefers them.
var classOrder = []string{"fail", "break", "fix", "finish", "ship", "down", "upgrade", "start", "succeed", "stop", "pending"}

// episodeFrame are the words of a question's frame, not of what it asks about: "What
// happened to ...", "How long did ... take", "What took ... down", "so far".
var episodeFrame = map[string]bool{
	"happen": true, "happened": true, "happening": true, "happens": true, "take": true, "took": true, "taken": true,
	"takes": true, "go": true, "goes": true, "went": true, "going": true, "get": true, "got": true, "gets": true,
	"getting": true, "did": true, "long": true, "big": true, "large": true, "far": true, "last": true,
	"latest": true, "recent": true, "recently": true, "lately": true, "currently": true, "now": true, "exactly": true,
	"cause": true, "caused": true, "causes": true, "causing": true, "reason": true, "why": true, "again": true,
	"still": true, "yet": true, "ever": true, "actually": true, "something": true, "everything": true, "thing": true,
	"things": true, "stuff": true, "us": true, "ours": true, "been": true, "being": true, "had": true, "measured": true,
	"measure": true, "size": true, "today": true, "during": true, "within": true, "since": true, "until": true,
	"across": true, "per": true, "total": true, "overall": true, "use": true, "uses": true, "using": true, "used": true,
	"show": true, "list": true, "display": true, "remind": true, "new": true, "newest": true, "before": true, "previously": true, "prior": true, "earlier": true, "originally": true,
	"root": true, "say": true, "said": true, "says": true, "mention": true, "mentioned": true, "note": true, "noted": true,
}

// genericNouns name the kind of answer a "which" question asks for ("Which services
// did we roll back?"), not a word the episode must hold.
var genericNouns = map[string]bool{"service": true, "services": true, "system": true, "systems": true,
	"component": true, "components": true, "app": true, "apps": true, "application": true, "applications": true,
	"one": true, "ones": true, "project": true, "projects": true, "team": true, "teams": true}

// categoryNouns, right after "what" or "which", name the kind of thing asked for:
// "What optimizer did we switch to?" is answered by "switched to AdamW".
var categoryNouns = map[string]bool{"optimizer": true, "tool": true, "tools": true, "library": true, "libraries": true,
	"framework": true, "frameworks": true, "language": true, "method": true, "approach": true, "algorithm": true,
	"option": true, "vendor": true, "provider": true, "platform": true, "solution": true, "technique": true,
	"strategy": true, "setting": true, "settings": true}

// sizeNouns are what "how much" asks a size of.
var sizeNouns = map[string]bool{"data": true, "space": true, "disk": true, "storage": true, "memory": true}

// measureNouns name a value, not a set of events: "Which version ...", "What
// versions ...".
var measureNouns = map[string]bool{"version": true, "versions": true, "stats": true, "numbers": true, "metrics": true,
	"status": true, "phase": true, "rate": true, "accuracy": true, "precision": true, "recall": true, "uptime": true,
	"latency": true, "percentage": true, "share": true, "value": true, "number": true}

var (
	// versionLike finds a version number: "16.2", "v2.3.1", "4.2.0-rc1".
	versionLike = regexp.MustCompile(`\bv?\d+(\.\d+)+(-[a-z]+\d*)?`)
	// reLatestOn asks for the news about something.
	reLatestOn = regexp.MustCompile(`\b(?:latest|news|update|updates) (?:on|about|with|for|from)\b`)
	// reasonRE finds a reason given: "because", "due to", "after a spike", "blocked
	// on the schema review", "halted: ...".
	reasonRE = regexp.MustCompile(`\b(?:because|due to|since|after|as a result|caused by|root cause|thanks to|so|blocked on|waiting (?:on|for)|owing to)\b|\w:\s`)
	// testCounts finds counts of tests said without the word: "214 passed, 3 failed".
	testCounts = regexp.MustCompile(`\b\d+\s+(?:passed|passing|failed|failing|skipped|flaky)\b`)
	// versionSaid finds a version said as one: "v12", "v2.3", "2.3.1", "version 3.2",
	// "from 14.9 to 16.2"; not a decimal ("94.2%").
	versionSaid = regexp.MustCompile(`\bv\d+(?:\.\d+)*\b|\b\d+\.\d+\.\d+|\b(?:version|ver|from|to|on)\s+\d+\.\d+\b`)
	// durationRE finds how long something took or lasted: "in 42 minutes", "down for
	// 18 minutes", "took 3 h"; not a latency ("lag under 200 ms").
	durationRE = regexp.MustCompile(`\b(?:in|for|took|lasted|lasting|over|after|taking)\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|almost\s+|just\s+|only\s+)?\d+(\.\d+)?\s*(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?)\b`)
	sizeRE     = regexp.MustCompile(`\b\d+(\.\d+)?\s*(b|kb|mb|gb|tb|pb|kib|mib|gib|tib|bytes?)\b`)
	numberRE   = regexp.MustCompile(`\d`)
)

// countOf finds a count of w: a number, then at most two words, then w (by stem):
// "48,200 invoices", "3.2 million rows", "12 nightly jobs".
func countOf(w string) *regexp.Regexp {
	return regexp.MustCompile(`\d[\d,.]*(?:\s+(?:thousand|million|billion|k|m))?(?:\s+[a-z_-]+){0,2}?\s+` + regexp.QuoteMeta(stemOf(w)))
}

func isDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// implied reports whether text says what the question word w names without the
// word: a percentage is a share or rate, a version number a version, passed and
// failed counts are tests.
func implied(w, text string) bool {
	switch w {
	case "share", "percentage", "percent", "proportion", "fraction", "rate":
		return strings.Contains(text, "%")
	case "version", "versions", "release", "releases", "build":
		return versionSaid.MatchString(text)
	case "test", "tests":
		return testCounts.MatchString(text)
	}
	return false
}

// questionWords ask; they are not what is asked about.
var questionWords = map[string]bool{"many": true, "much": true, "number": true, "amount": true,
	"current": true, "currently": true, "now": true, "latest": true, "running": true,
	"run": true, "runs": true, "deployed": true, "status": false, "tell": true, "know": true, "value": true}
