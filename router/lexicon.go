package router

import (
	"strconv"

	"github.com/factbase/factbase/normalize"
)

// MaxRank is the largest rank the router accepts; a larger one is not a statement.
const MaxRank = 1000

var ordinalUnits = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
	"seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
	"thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
	"seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
	"thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
	"eightieth": 80, "ninetieth": 90, "hundredth": 100,
}

var cardinals = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
	"fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
	"nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
	"seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}

var tens = map[string]int{
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
	"eighty": 80, "ninety": 90,
}

// ordinalValue returns the rank of one ordinal token: "fourth", "4th", "21st", "1st";
// 0 if it is none.
func ordinalValue(w string) int {
	if n, ok := ordinalUnits[w]; ok {
		return n
	}
	if len(w) < 3 {
		return 0
	}
	suf := w[len(w)-2:]
	if suf != "st" && suf != "nd" && suf != "rd" && suf != "th" {
		return 0
	}
	num := w[:len(w)-2]
	if !normalize.IsDigits(num) || len(num) > 4 {
		return 0
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return 0
	}
	return n
}

// numberValue returns the value of a number token: "4" or "four"; 0 if none.
func numberValue(w string) int {
	if normalize.IsDigits(w) {
		if len(w) > 4 {
			return 0
		}
		n, _ := strconv.Atoi(w)
		return n
	}
	return cardinals[w]
}

// leadIns are phrases that may open a clause without changing what it says; they are
// skipped. Each is a sequence of normalised tokens.
var leadIns = [][]string{
	{"by", "the", "way"}, {"just", "so", "you", "know"}, {"so", "you", "know"},
	{"for", "the", "record"}, {"for", "your", "information"}, {"for", "reference"},
	{"please", "note", "that"}, {"please", "note"}, {"note", "that"},
	{"please", "remember", "that"}, {"please", "remember"}, {"remember", "that"},
	{"keep", "in", "mind", "that"}, {"keep", "in", "mind"}, {"bear", "in", "mind", "that"},
	{"i", "meant"}, {"i", "mean"}, {"i", "think"}, {"i", "guess"}, {"i", "believe"}, {"i", "would", "say"},
	{"i", "want", "you", "to", "know", "that"}, {"i", "want", "you", "to", "know"},
	{"i", "would", "like", "you", "to", "know", "that"}, {"i", "would", "like", "you", "to", "know"},
	{"you", "should", "know", "that"}, {"just", "to", "let", "you", "know"},
	{"i", "just", "wanted", "to", "let", "you", "know", "that"},
	{"i", "just", "wanted", "to", "let", "you", "know"},
	{"i", "wanted", "to", "let", "you", "know", "that"}, {"i", "wanted", "to", "let", "you", "know"},
	{"just", "wanted", "to", "let", "you", "know"}, {"just", "letting", "you", "know"},
	{"i", "just", "wanted", "to", "say"}, {"i", "wanted", "to", "say"}, {"just", "wanted", "to", "say"},
	{"let", "me", "tell", "you"}, {"fun", "fact"}, {"quick", "update"}, {"heads", "up"},
	{"without", "a", "doubt"}, {"no", "doubt"}, {"of", "course"}, {"for", "sure"},
	{"hands", "down"}, {"by", "far"}, {"big", "news"}, {"good", "news"}, {"great", "news"}, {"exciting", "news"}, {"some", "news"},
	{"in", "case", "you", "forgot"}, {"as", "you", "know"}, {"to", "be", "honest"},
	{"in", "fact"}, {"make", "a", "note", "that"}, {"make", "a", "note"}, {"take", "note", "that"},
	{"note", "down", "that"}, {"do", "not", "forget", "that"}, {"never", "forget", "that"},
	{"can", "you", "please"}, {"could", "you", "please"}, {"would", "you", "please"},
	{"will", "you", "please"}, {"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"},
	{"i", "want", "you", "to"}, {"i", "would", "like", "you", "to"}, {"i", "need", "you", "to"},
	{"go", "ahead", "and"}, {"please", "make", "sure", "to"}, {"make", "sure", "to"},
	{"would", "you", "mind"}, {"you", "should", "remember", "that"}, {"save", "this"},
	{"so", "yeah"}, {"oh", "and"}, {"and", "also"}, {"one", "more", "thing"}, {"also", "note"},
	{"hey"}, {"hi"}, {"hello"}, {"yo"}, {"ok"}, {"okay"}, {"so"}, {"well"}, {"oh"}, {"ah"},
	{"btw"}, {"also"}, {"and"}, {"but"}, {"plus"}, {"please"}, {"pls"}, {"plz"}, {"kindly"},
	{"actually"}, {"honestly"}, {"fyi"}, {"yes"}, {"yeah"}, {"yep"}, {"alright"}, {"anyway"},
	{"anyways"}, {"um"}, {"uh"}, {"hmm"}, {"now"}, {"just"}, {"then"}, {"great"}, {"cool"},
	{"tbh"}, {"thanks"}, {"thank", "you"}, {"sorry"}, {"remember"}, {"quick", "question"},
	{"dear", "assistant"}, {"assistant"}, {"also", "please"},
}

// requestLeadIns make a clause a request even when it ends in "?": "Can you add ...?"
var requestLeadIns = map[string]bool{
	"can": true, "could": true, "would": true, "will": true, "please": true, "kindly": true,
	"pls": true, "plz": true, "remember": true, "note": true, "make": true, "save": true,
	"go": true, "i": true, "do": true, "never": true, "keep": true, "bear": true, "take": true,
}

// greetings may be followed by a name and a comma: "Hey Claude, ...".
var greetings = map[string]bool{"hey": true, "hi": true, "hello": true, "yo": true, "dear": true}

// guards open clauses that state nothing as fact: hypotheticals and conditions.
var guards = map[string]bool{
	"if": true, "maybe": true, "perhaps": true, "suppose": true, "supposing": true,
	"imagine": true, "pretend": true, "hypothetically": true, "whether": true,
	"unless": true, "assuming": true, "assume": true, "once": true, "before": true,
	"probably": true, "possibly": true, "might": true, "wish": true, "hopefully": true,
	"should": true, "would": true, "could": true, "apparently": true, "allegedly": true,
}

// adverbs may sit between a copula and what follows without changing its meaning.
var adverbs = map[string]bool{
	"definitely": true, "certainly": true, "absolutely": true, "still": true, "now": true,
	"currently": true, "actually": true, "really": true, "honestly": true, "totally": true,
	"clearly": true, "obviously": true, "undoubtedly": true, "always": true, "easily": true,
	"surely": true, "just": true, "simply": true, "officially": true, "also": true,
	"truly": true, "basically": true, "finally": true, "recently": true, "probably": true,
	"likely": true, "presumably": true,
}

// frameAdjectives may sit between "my" and "favorite": "my all time favorite".
var frameAdjectives = map[string]bool{
	"absolute": true, "very": true, "personal": true, "current": true, "new": true,
	"biggest": true, "ultimate": true, "true": true, "real": true, "most": true,
	"definite": true, "undisputed": true, "utmost": true, "super": true, "total": true,
	"newest": true, "latest": true, "own": true, "big": true, "forever": true,
	"alltime": true,
}

// pronouns never make a topic or a whole value.
var pronouns = map[string]bool{
	"i": true, "me": true, "you": true, "he": true, "him": true, "she": true, "her": true,
	"it": true, "we": true, "us": true, "they": true, "them": true, "his": true, "its": true,
	"our": true, "their": true, "your": true, "this": true, "that": true, "these": true,
	"those": true, "which": true, "what": true, "who": true, "there": true, "here": true,
	"mine": true, "yours": true, "one": true, "everything": true, "something": true,
	"anything": true, "nothing": true, "someone": true, "everyone": true,
}

// verbs mark a clause, and are never part of a topic.
var verbs = map[string]bool{
	"is": true, "are": true, "am": true, "was": true, "were": true, "be": true, "been": true,
	"live": true, "lives": true, "living": true, "work": true, "works": true, "working": true,
	"moved": true, "move": true, "call": true, "calls": true, "add": true, "remove": true,
	"delete": true, "drop": true, "take": true, "put": true, "make": true, "replace": true,
	"list": true, "show": true, "tell": true, "give": true, "remind": true, "do": true,
	"does": true, "did": true, "have": true, "has": true, "had": true, "used": true,
	"like": true, "likes": true, "love": true, "loves": true, "hate": true, "hates": true,
	"prefer": true, "include": true, "includes": true, "know": true, "think": true,
	"want": true, "need": true, "go": true, "went": true, "get": true, "got": true,
	"born": true, "relocated": true, "reside": true, "joined": true, "started": true,
	"would": true, "will": true, "can": true, "could": true, "should": true, "says": true,
	"said": true, "thinks": true, "knows": true, "enjoy": true, "enjoys": true,
	"feel": true, "feels": true, "believe": true, "guess": true, "told": true,
	"changed": true, "set": true, "update": true, "change": true, "remains": true,
	"lived": true, "worked": true, "loved": true, "liked": true, "mean": true, "means": true,
}

// heads are the words a new clause may start with after a connector ("..., and my
// email is ...").
var heads = map[string]bool{
	"my": true, "i": true, "call": true, "add": true, "remove": true, "delete": true,
	"drop": true, "take": true, "move": true, "put": true, "make": true, "replace": true,
	"include": true, "what": true, "where": true, "when": true, "which": true, "who": true,
	"list": true, "show": true, "tell": true, "give": true, "remind": true, "please": true,
	"can": true, "could": true, "would": true, "will": true, "do": true, "work": true,
	"live": true, "moved": true, "am": true, "you": true, "set": true, "change": true,
	"update": true, "also": true, "how": true}

// connectors may join two clauses in one sentence.
var connectors = map[string]bool{
	",": true, ";": true, "and": true, "but": true, "also": true, "plus": true, "then": true, "&": true,
	".": true, "-": true, "–": true, "—": true, "oh": true, "btw": true, "so": true,
	"while": true, "whereas": true, "although": true, "though": true, "(": true, ")": true,
}

// abbreviations end in a period that does not end a sentence: "Dr. No", "St. Louis".
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "jr": true, "sr": true,
	"vs": true, "etc": true, "inc": true, "ltd": true, "co": true, "mt": true, "ft": true,
	"no": true, "prof": true, "rev": true, "gen": true, "col": true, "lt": true, "sgt": true,
	"capt": true, "ave": true, "blvd": true, "rd": true, "corp": true, "approx": true,
	"dept": true, "est": true, "fig": true, "vol": true, "feat": true, "ft.": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "e.g": true, "i.e": true,
	"u.s": true, "u.k": true, "a.m": true, "p.m": true,
}

// topicRejects are first words that make a phrase not a list topic: "my favorite thing
// about Paris", "my favorite part of the film" speak of one thing, not a category.
var topicRejects = map[string]bool{
	"thing": true, "things": true, "part": true, "parts": true, "bit": true, "bits": true,
	"aspect": true, "aspects": true, "moment": true, "moments": true, "memory": true,
	"memories": true, "scene": true, "scenes": true, "feature": true, "features": true,
	"one": true, "ones": true, "stuff": true, "something": true, "anything": true,
	"everything": true, "way": true, "ways": true, "reason": true, "reasons": true,
	"quality": true, "qualities": true, "is": true, "are": true,
	"line": true, "lines": true, "detail": true, "details": true,
	"among": true, "of": true, "and": true, "or": true, "to": true, "in": true,
}

// topicTails are trailing phrases dropped from a topic: "movie of all time".
var topicTails = [][]string{
	{"of", "all", "time"}, {"of", "all", "times"}, {"ever"}, {"right", "now"},
	{"at", "the", "moment"}, {"currently"}, {"these", "days"}, {"nowadays"}, {"lately"},
	{"so", "far"}, {"to", "date"}, {"by", "far"}, {"for", "now"}, {"in", "the", "world"},
	{"on", "earth"}, {"list"}, {"too"}, {"as", "well"}, {"also"}, {"again"},
	{"anymore"}, {"any", "more"}, {"any", "longer"}, {"please"}, {"then"}, {"now"},
	{"at", "present"}, {"at", "this", "point"}, {"in", "life"}, {"if", "you", "remember"},
	{"again", "please"}, {"for", "me"}, {"that", "i", "have"}, {"that", "i", "told", "you"},
	{"i", "told", "you", "about"}, {"i", "mentioned"}, {"i", "told", "you"}, {"i", "gave", "you"},
	{"you", "know"}, {"you", "remember"}, {"you", "have"}, {"you", "saved"}, {"you", "stored"},
	{"in", "order"}, {"in", "that", "order"},
}

// fillers are trailing phrases dropped from a value when punctuation sets them off
// ("blue, thanks"); the safe ones are dropped even without ("blue by far").
var fillers = [][]string{
	{"please"}, {"thanks"}, {"thank", "you"}, {"thank", "you", "very", "much"}, {"thx"},
	{"ty"}, {"cheers"}, {"lol"}, {"haha"}, {"btw"}, {"by", "the", "way"}, {"i", "think"},
	{"i", "guess"}, {"i", "believe"}, {"for", "sure"}, {"of", "course"}, {"honestly"},
	{"tbh"}, {"to", "be", "honest"}, {"right", "now"}, {"at", "the", "moment"},
	{"these", "days"}, {"nowadays"}, {"currently"}, {"lately"}, {"for", "now"},
	{"by", "far"}, {"hands", "down"}, {"of", "all", "time"}, {"too"}, {"as", "well"},
	{"also"}, {"now"}, {"again"}, {"ok"}, {"okay"}, {"though"}, {"obviously"}, {"really"},
	{"remember", "that"}, {"remember"}, {"ok", "?"}, {"right"}, {"if", "you", "must", "know"},
	{"if", "you", "ask", "me"}, {"just", "so", "you", "know"}, {"fyi"}, {"btw"},
	{"for", "the", "record"}, {"and", "so", "on"}, {"etc"}, {"anyway"}, {"in", "general"},
}

// safeFillers are dropped from a value's end even without punctuation before them.
var safeFillers = map[string]bool{
	"by far": true, "hands down": true, "of all time": true, "these days": true,
	"nowadays": true, "at the moment": true, "for now": true, "btw": true, "lol": true,
	"thx": true, "tbh": true, "haha": true, "fyi": true, "if you must know": true,
	"if you ask me": true, "just so you know": true, "for the record": true,
	"thanks": true, "thank you": true, "please": true, "thank you very much": true,
}

// rankNouns follow a rank in a position phrase: "#2 spot", "second place".
var rankNouns = map[string]bool{
	"spot": true, "place": true, "position": true, "rank": true, "slot": true, "pick": true,
	"choice": true, "one": true,
}

// colonLeads open a clause only when punctuation follows: "Update: my email is ...";
// "Update my email to ..." is a command.
var colonLeads = map[string]bool{
	"update": true, "note": true, "ps": true, "nb": true, "correction": true, "reminder": true,
	"question": true, "fyi": true, "edit": true, "info": true, "memo": true, "no": true,
}

// leadIndex is leadIns by first word. It is built once and never changed.
var leadIndex = byFirstWord(leadIns)

func byFirstWord(phrases [][]string) map[string][][]string {
	m := map[string][][]string{}
	for _, p := range phrases {
		m[p[0]] = append(m[p[0]], p)
	}
	return m
}

// moreVerbs mark clauses too, but may be values' words, so they only serve to find
// clause boundaries: "Heat, but my wife prefers Up".
var moreVerbs = map[string]bool{
	"prefers": true, "prefer": true, "watch": true, "watches": true, "read": true,
	"reads": true, "play": true, "plays": true, "say": true, "wants": true, "needs": true,
	"goes": true, "listen": true, "listens": true, "drink": true, "drinks": true,
	"eat": true, "eats": true, "cook": true, "cooks": true, "makes": true, "thinks": true,
	"knows": true, "hate": true, "hates": true, "adore": true, "adores": true, "disagree": true,
	"disagrees": true, "disagreed": true, "agree": true, "agrees": true, "visit": true,
	"visits": true, "own": true, "owns": true, "use": true, "uses": true, "wear": true,
	"wears": true, "bought": true, "buy": true, "buys": true, "wrote": true, "write": true,
	"writes": true, "saw": true, "see": true, "sees": true, "went": true, "came": true,
	"come": true, "comes": true, "can't": true, "cannot": true, "won't": true,
	"closed": true, "died": true, "shut": true, "ended": true, "based": true,
}
