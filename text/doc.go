// Package text is the language front end: it reads a message once into tokens,
// sentences, clauses and lists that the extractors (router, personal, when, episode
// extraction, canon's topic words) read instead of cutting the message again.
//
// # Tokens
//
// A Token is one unit of a message with its byte span (Start, End) in it: a word, a
// number, an email, a URL, a quoted span, one punctuation or symbol rune, or a line
// break. W is its normalised form (lower case, apostrophes made ASCII, possessive
// "'s" cut off and Poss set, a contraction's part); a value is always cut from the
// message by span, so it keeps its spelling. Spans never decrease and lie in the
// message; a contraction's two tokens share the span of its word ("isn't": "is",
// "not").
//
// What joins runes into one word differs between readers — the router reads
// "node.js" and "ac/dc" as one word, the date reader "15:30" and "3/4", the
// personal-facts reader "jamal.k@fastmail.com", the episode reader "a--b" and "x_y",
// canon every white-space separated field ("all-time") — so Tokenize takes Options.
// A Parse reads its message rune by rune once, into pieces (runs of letters and
// digits, blanks, single other runes), and joins each token list it is asked for
// (View) from them by that list's Options; its own tokens use the Standard options.
//
// # Sentences, clauses and lists
//
// A sentence ends at . ! ? ; … or a line break, except a dot after a title ("Dr.") or
// an initial. Sentences splits any view by a reader's SentenceRules (the router does
// not end a sentence at ";", and reads its own abbreviations; the episode reader ends
// one at a dot only before white space, at no title, and a clause at ", " and ": "),
// so each reader cuts its sentences with this one splitter. A clause is a run of a sentence's tokens that says one thing; a Parse cuts
// sentences at coordination with a new subject ("... and his wife lives in Rome"),
// appositives ("Ada, my eldest, ..."), relative clauses ("my sister, who lives in
// Rome, ...") and reported speech ("Ada told me (that) she moved"); see ClauseKind.
// A List is three or more items ("Rita, Sam and Leo"). The segmentation is
// heuristic: it reads the words, not a grammar, and is data for extractors to use,
// not a verdict.
//
// Everything here is pure and linear in the message's length; any bytes are
// accepted, valid UTF-8 or not.
package text
