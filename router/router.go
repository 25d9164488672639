// Package router classifies a user message as a fact write, a fact read or neither,
// and extracts what it says: statements ("My favorite movies are Up and Heat", "My
// email is ...") and queries ("What's my second favorite movie?"). It is pure: no I/O,
// no model, no global mutable state, safe for concurrent use.
//
// # How it reads a message
//
// The message is cut into tokens (lower-cased, contractions expanded: "isn't" is "is
// not", "what's" is "what is"; "favourite", "fave" and "fav" are "favorite"; quoted
// spans are one token), then into sentences (at . ! ? and line breaks, not after
// abbreviations or initials), then into clauses at connectors (",", ";", "and",
// "but", "also", ...) when what follows reads as a clause of its own ("..., and my email is
// ..."), but not inside lists ("Up, Heat and Alien"). Each clause is matched by a
// small grammar after skipping lead-ins ("hey", "please", "btw", "just so you know",
// "can you", ...). Values are cut from the original text, so they keep their spelling;
// bulk values are split with normalize.ParseList. Every step is linear in the length of
// the message.
//
// # Writes
//
//   - "My favorite X is Y", "Y is my favorite X", "Y's my favorite X", "Favorite X: Y",
//     "Y is one of / among my favorite X": Add Y. A single "My favorite X is Y" or
//     "Y is my favorite X" names THE favorite: SetRank Y at 1 (moved there if present).
//   - "My favorite X are A, B and C", "My favorites X: A, B, C", "My favorite X
//     include ...": Add A, B, C (split by ParseList). With "is" the value is one item
//     ("My favorite band is Simon and Garfunkel").
//   - "My #4 / 4th / fourth / number 4 favorite X is Y", "Y is my second favorite X":
//     SetRank Y at 4. Ordinals "first" to "hundredth", compounds ("twenty-first"),
//     "Nth", "#N", "number N" / "no. N" with digits or words.
//   - "My top 3 X are A, B and C", "My favorite X are A, B and C, in that order":
//     SetRank with Rank 1, the values taking ranks 1, 2, 3 in order. When the count
//     named differs from the number of values, every value is kept and ranked in order;
//     the count is only descriptive.
//   - "Add Y (and Z) to my favorite X", "Put Y on my list of favorite X": Add.
//     "... at #2", "Add Y as my #2 favorite X", "Put Y at number 3 in my favorite X",
//     "Move Y to #2 / to the top of / up to number 1 in my favorite X", "Make Y my
//     favorite X" (rank 1): SetRank.
//   - "Remove / delete / drop / get rid of Y from my favorite X", "Take Y off my
//     favorite X", "Y is
//     no longer (one of) my favorite X", "Y isn't my favorite X anymore", "My favorite X
//     is no longer Y": Remove.
//   - "Replace Y with Z in my favorite X": Replace, Values [Y, Z] (Z takes Y's rank).
//   - "Swap A and B (in my favorite X)", "switch the order of A and B", "swap A with
//     B": Swap. "Move Y to the bottom / the end", "put Y last", "Y should be last on
//     ...": SetRank at Last. "Move Y up/down two spots": Shift. "Y should be #3 on my
//     favorite X", "Y should come third / belongs at #3": SetRank. A move, swap or
//     remove that names no list ("swap mango and figs", "remove pizza from my
//     favorites") has Topic "": the caller finds the one list holding the values.
//   - Rankings: "My favorite X, in order: A > B > C", "A, then B, then C", "A,
//     followed by B", "best to worst": SetRank from 1.
//   - "it" in a command is the thing an earlier clause of the message named: "I'm
//     done with Heat, take it off my favorite movies", "Zuni closed, so drop it from
//     ...", "Add Tenet to ... Hmm, no, remove it again" (the two cancel out).
//   - "My least favorite X is Y", "Y is my least favorite X", "I hate Y, it's my least
//     favorite X": Set with Least (one value, not the favorites list).
//   - The user in the third person, as assistants and memory systems write: "The user
//     lives in Lyon", "User works at Siemens", "The user's email is ...", and "She/They
//     ..." opening the next sentences, are read as "I" and "my".
//   - Personal facts, Set with one value: "My email (address) is ..." contact.email,
//     "My work email is ..." contact.work_email, "My phone/cell/mobile (number) is ..."
//     contact.phone, "My name is ...", "Call me ...", "I go by ...", "Hi, I'm Sam"
//     person.name, "I live in ...", "I moved to ...", "I'm based in ..." home.city,
//     "I work at/for ...", "My employer is ..." work.employer, "I work as a ...", "My
//     job title is ...", "I'm a nurse" (a known occupation) work.role, "I'm a nurse at
//     St. Mary's" both, "My birthday is ...", "I was born on ..." person.birthday,
//     "Change/update/set my email to ...", "Email / reach me at ..." too. "I'm Ada
//     Lovelace" is a name only when the words are capitalised and not a known adjective
//     or nationality. After "... and", a clause may drop its "I": "I live in Oslo and
//     work at Equinor". Values are checked by kind (an email has an "@", a phone number
//     5 to 20 digits, a birthday a digit or a month name, a name only name-like words);
//     a value that fails is not a statement.
//
// A clause that names a topic but no value ("My favorite color is") or a value but no
// topic ("Add pizza to my favorites") gives no statement but a clarification question
// in Result.Clarify, and the route is still RouteWrite.
//
// # Reads
//
// "What are my favorite X?" (QueryList), "What is my favorite X?" (QueryRank 1), "What's
// my #2 / second / 2nd favorite X?" (QueryRank), "What are my top 3 X?" (QueryList with
// Limit 3), "List / show me / tell me / remind me of my favorite X" (QueryList; "tell
// me" with a singular topic is QueryRank 1), "Which X do I like most?" (QueryRank 1),
// "Do you know my favorite X?", "Is Y my favorite X?", and the personal facts: "What is
// my email / name / phone number / job?", "Who am I?", "Where do I live / work?", "Who
// do I work for?", "What do I do for work?", "When is my birthday?", "When was I born?".
// "What are my favorite movies and books?" gives two queries.
//
// # Not facts
//
// Route is RouteNone for statements about someone else ("Anna's favorite color is
// blue", "my sister's favorite movie is Up", "What is Anna's favorite color?"),
// negations ("I don't like X", "X is not my favorite Y"), past states ("My favorite
// color used to be red", "I lived in Rome"), hypotheticals ("If my favorite color were
// red", "Maybe my favorite ..."), declaratives asked as questions ("My favorite color
// is blue?"), and topics that are not lists: a topic starting with "thing", "part",
// "bit", "aspect", "moment", "memory", "scene", "way", "one", "reason", ... or holding
// "about" or "of this/that/my/his/..." ("My favorite thing about Paris is the food",
// "my favorite part of the movie"). "of all time", "ever", "right now" and the like
// are dropped from the end of a topic. A sentence whose first clause is a condition
// ("If I had to choose, my favorite is ...") states nothing.
package router

import (
	"strings"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/text"
)

// MaxMessage is the longest message, in bytes, Parse accepts. Longer messages are
// refused with EINVALID rather than cut, so nothing is silently lost.
const MaxMessage = 16 << 10

// Route is what a message asks of the fact store.
type Route string

// The routes.
const (
	RouteWrite Route = "write" // the message states facts (or tried to: see Result.Clarify)
	RouteRead  Route = "read"  // the message asks for facts
	RouteNone  Route = "none"  // neither: leave the message to the assistant
)

// StmtKind is what a statement does.
type StmtKind string

// The statement kinds.
const (
	// Add appends the values to the list Topic unless present (unranked write).
	Add StmtKind = "add"
	// SetRank places Values[0] at Rank, Values[1] at Rank+1, and so on.
	SetRank StmtKind = "set_rank"
	// Remove takes the values out of the list Topic.
	Remove StmtKind = "remove"
	// Set writes the single-valued personal fact Key; Values has one value.
	Set StmtKind = "set"
	// Replace puts Values[1] where Values[0] is in the list Topic (appending it if
	// Values[0] is absent) and removes Values[0].
	Replace StmtKind = "replace"
	// Swap exchanges the ranks of Values[0] and Values[1] in the list Topic; when
	// only Values[0] is in the list, Values[1] takes its place, as with Replace
	// ("swap Heat with Up").
	Swap StmtKind = "swap"
	// Shift moves Values[0] by Rank places in the list Topic: up (towards #1) when
	// Rank is negative ("move Heat up one spot"), down when positive.
	Shift StmtKind = "shift"
)

// Last is the Rank of a SetRank that puts its values at the end of the list ("move
// Dune to the bottom"): after the list's last member, or at its place if the value
// is the last member already.
const Last = -1

// Statement is one fact write found in a message.
type Statement struct {
	Kind StmtKind `json:"kind"`
	// Topic is the raw topic phrase of a favorites list, lower-cased ("vacation
	// destinations"); canon makes it canonical. "" for personal facts, and for a
	// swap, move or remove that names no list ("swap mango and figs", "move Dune to
	// the bottom", "remove pizza from my favorites"): the list is the one that
	// holds the values, which the caller finds.
	Topic string `json:"topic,omitempty"`
	// Least marks a Set of the user's least favorite of Topic ("My least favorite
	// vegetable is okra"): one value, not a member of the favorites list.
	Least bool `json:"least,omitempty"`
	// Key is the key of a personal fact (factbase.KeyEmail, ...); "" for favorites.
	Key string `json:"key,omitempty"`
	// Values are the values in their original spelling, in order.
	Values []string `json:"values"`
	// Rank is the rank of Values[0] for SetRank (or Last), the places to move by for
	// Shift; 0 otherwise.
	Rank int `json:"rank,omitempty"`
	// Span is the clause the statement came from.
	Span string `json:"span"`
}

// QueryKind is what a query asks for.
type QueryKind string

// The query kinds.
const (
	QueryList QueryKind = "list" // a whole list (Limit > 0: its first Limit members)
	QueryRank QueryKind = "rank" // the member at Rank
	QueryFact QueryKind = "fact" // the personal fact Key
)

// Query is one fact read found in a message.
type Query struct {
	Kind  QueryKind `json:"kind"`
	Topic string    `json:"topic,omitempty"` // raw topic phrase, as in Statement
	Key   string    `json:"key,omitempty"`   // personal fact key
	// Least marks a QueryFact of the user's least favorite of Topic (Key "").
	Least bool   `json:"least,omitempty"`
	Rank  int    `json:"rank,omitempty"`  // for QueryRank
	Limit int    `json:"limit,omitempty"` // for QueryList: "my top 3 movies"; 0: all
	Span  string `json:"span"`
}

// Result is what Parse found in a message. (The brief called this type Parse; Go
// does not allow a type and a function of one name in a package.)
type Result struct {
	Route      Route       `json:"route"`
	Statements []Statement `json:"statements,omitempty"`
	Queries    []Query     `json:"queries,omitempty"`
	// Clarify, when not empty, is a question to ask back because a write (or read)
	// lacked a topic or a value: "What is your favorite color?". The route is that of
	// the clause that needs it; other clauses' statements are still returned.
	Clarify string `json:"clarify,omitempty"`
}

// Parse classifies message and extracts its statements and queries. Route is
// RouteWrite when any clause is a write (statements, or a clarification of one), else
// RouteRead when any is a read, else RouteNone.
//
// A message longer than MaxMessage bytes is refused with an EINVALID error. Invalid
// UTF-8 is not refused: each invalid byte is read as U+FFFD, and values cut from such a
// message hold U+FFFD there. Parse's cost is linear in len(message).
func Parse(message string) (Result, error) {
	if len(message) > MaxMessage {
		return Result{Route: RouteNone}, factbase.Errorf(factbase.EINVALID,
			"message is %d bytes, more than the limit of %d", len(message), MaxMessage)
	}
	if !utf8.ValidString(message) {
		message = strings.ToValidUTF8(message, "\uFFFD")
	}
	return ParseText(text.New(message))
}

// parse is Parse of a valid message of at most MaxMessage bytes, whose view the
// front end cut, made into toks.
func parse(message string, view []text.Token, toks []token) (Result, error) {
	p := parser{msg: message, view: view, toks: toks}
	p.run()
	p.stmts = cancel(p.stmts)
	r := Result{Route: RouteNone, Statements: p.stmts, Queries: p.queries}
	switch {
	case len(p.stmts) > 0 || p.writeClarify:
		r.Route = RouteWrite
	case len(p.queries) > 0 || p.readClarify:
		r.Route = RouteRead
	}
	r.Clarify = strings.Join(p.clarify, " ")
	return r, nil
}
