// Package normalize compares fact values and splits bulk lists. It is pure: no I/O, no
// global state, safe for concurrent use.
//
// # Comparing values
//
// Value returns the comparison form of a value; the original spelling is what is
// stored, the form is only compared. Two values are the same when their forms are equal.
// The form is, in order: invalid UTF-8 replaced by U+FFFD and terminal escape
// sequences, control characters and invisible format characters dropped (Clean, which
// is also what the write path stores); smart quotes to ASCII
// (‘ ’ ‚ ‛ ′ to ' and “ ” „ ‟ ″ to "); Unicode NFKC; full Unicode case folding
// (golang.org/x/text/cases.Fold, locale-independent, so "Straße" equals "STRASSE")
// followed by NFKC again; every run of Unicode white space made one space and the ends
// trimmed; trailing characters from .,!?;: stripped repeatedly with the white space
// before them. So "  BTC. " is "btc", "Ｂｔｃ" is "btc" and "rock  n’ roll!!" is
// "rock n' roll". Value is idempotent.
//
// # Splitting lists
//
// ParseList splits the value part of a message such as "BTC, ETH, and XMR" into items.
// The rules:
//
//   - Separators. A comma or a semicolon always separates items (outside quotes). The
//     connectors "and" (any case) and "&" separate items only as whole words: preceded
//     by white space, a separator or the start, and followed by white space, a separator
//     or the end; so "AT&T", "R&B", "Anderson" and "band" stay whole. "or" and "/" never
//     separate: "A or B" and "TCP/IP" are one item each, because "or" offers a choice
//     rather than listing, and "/" appears inside too many names. Line breaks are white
//     space, not separators.
//   - Chunks. The text is first cut at commas and semicolons into chunks. Only the last
//     chunk is split on connectors, so "BTC, ETH and XMR" and "BTC, ETH, and XMR" both
//     give BTC, ETH, XMR, while "salt and pepper, rice and beans" gives "salt and
//     pepper", "rice", "beans". An earlier chunk made only of a connector and one item
//     (", and X,") gives that item. Text without commas or semicolons is one chunk and
//     so is split on every connector: "Salt and pepper" gives "Salt" and "pepper".
//     Quote an item to keep it whole.
//   - Quotes. An item may be wrapped in double quotes (" “ ” „ ‟ ＂, any of them opening
//     or closing) or single quotes (' ‘ ’ ‚ ‛ ＇). The opening quote must be the item's
//     first character after white space; the closing quote is the first quote of the same
//     family that is followed only by white space and .!?: before a separator, a
//     connector or the end. Between them the text is kept whole, commas and "and"
//     included: `"Lord of the Rings", "Dune" and Emma` gives three items. The quotes
//     are not part of the item. A quote opens nothing, and is kept as an ordinary
//     character, when it has no such closing quote, or when another quote of its family
//     starts a word (follows white space, a comma or a semicolon) before that closing
//     quote: in `'90s rock, 'Dune'` the first quote is an ordinary character. So
//     apostrophes at the start of an item ("'90s") and inside words ("rock n' roll")
//     are safe, and a quote that does not wrap a whole item is kept as written.
//   - Trimming. Every item is trimmed of white space; an unquoted item is also stripped
//     of trailing .,!?;: characters (a quoted item keeps them: "Help!" is a title).
//   - Dropping. Items that are empty, or whose Value is empty, are dropped.
//   - Duplicates. Items with equal Value are kept once, with the first spelling, in the
//     order of their first appearance: "BTC, btc, Eth" gives BTC, Eth.
//
// ParseList's cost is linear in the length of its input. ParseListChecked refuses
// input over MaxInput bytes, for callers that take text from outside.
package normalize
