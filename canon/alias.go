package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/factbase/factbase"
)

// DefaultAliases returns a fresh copy of the built-in alias table, alias to canonical
// topic, both in Normalize form. Only synonyms that mean the same list in a favorites
// context are here; words that name a different list as often as the same one are left
// out on purpose, and the embedding and teacher steps are there for them:
//
//	cryptocurrency    crypto, crypto currency, cryptocoin, crypto coin
//	movie             film, flick, motion picture, feature film
//	movie genre       film genre, type/kind of movie or film
//	tv show           show, television show, tv series, television series, tv program(me)
//	book              novel
//	book genre        literary genre, reading genre, fiction genre, type/kind of book
//	music genre       musical genre, music style, style/type/kind/sort of music
//	song              track, tune, music track
//	band              music group, musical group
//	food              dish
//	drink             beverage
//	color             colour
//	restaurant        eatery, place to eat
//	country           nation
//	vacation destination  holiday/travel/trip destination, vacation/holiday/travel spot,
//	                  destination, place to travel, place to visit
//	programming language  coding language, computer language, programming lang
//	text editor       editor, code editor
//	author            writer, novelist
//	musician          music artist, musical artist, recording artist
//	video game        videogame, computer game, pc game, console game
//	board game        tabletop game
//	vegetable         veggie, veg
//	car               automobile, auto, motorcar
//	podcast           podcast show
//	coffee            coffee drink
//	cuisine           type/kind of food, type/kind of cuisine
//
// Left out: "game" (video or board game), "artist" (painter or musician), "group",
// "coin" (coin collecting), "series" (book or TV), "language" (spoken or programming),
// "holiday" (Christmas or a destination) and "meal" ("breakfast"). Sport, city, animal,
// fruit, tea and the other one-word topics need no alias: Normalize folds their plurals.
func DefaultAliases() map[string]string {
	m := make(map[string]string, len(defaultAliases))
	for k, v := range defaultAliases {
		m[k] = v
	}
	return m
}

var defaultAliases = map[string]string{
	"crypto": "cryptocurrency", "crypto currency": "cryptocurrency",
	"cryptocoin": "cryptocurrency", "crypto coin": "cryptocurrency",
	"film": "movie", "flick": "movie", "motion picture": "movie", "feature film": "movie",
	"film genre": "movie genre", "type of movie": "movie genre", "kind of movie": "movie genre",
	"type of film": "movie genre", "kind of film": "movie genre",
	"show": "tv show", "television show": "tv show", "tv series": "tv show",
	"television series": "tv show", "tv program": "tv show", "tv programme": "tv show",
	"television program": "tv show", "television programme": "tv show",
	"novel":          "book",
	"literary genre": "book genre", "reading genre": "book genre", "fiction genre": "book genre",
	"type of book": "book genre", "kind of book": "book genre",
	"musical genre": "music genre", "music style": "music genre", "style of music": "music genre",
	"type of music": "music genre", "kind of music": "music genre", "sort of music": "music genre",
	"track": "song", "tune": "song", "music track": "song",
	"music group": "band", "musical group": "band",
	"dish":     "food",
	"beverage": "drink",
	"colour":   "color",
	"eatery":   "restaurant", "place to eat": "restaurant",
	"nation":              "country",
	"holiday destination": "vacation destination", "travel destination": "vacation destination",
	"trip destination": "vacation destination", "vacation spot": "vacation destination",
	"holiday spot": "vacation destination", "travel spot": "vacation destination",
	"destination": "vacation destination", "place to travel": "vacation destination",
	"place to visit":  "vacation destination",
	"coding language": "programming language", "computer language": "programming language",
	"programming lang": "programming language",
	"editor":           "text editor", "code editor": "text editor",
	"writer": "author", "novelist": "author",
	"music artist": "musician", "musical artist": "musician", "recording artist": "musician",
	"videogame": "video game", "computer game": "video game", "pc game": "video game",
	"console game":  "video game",
	"tabletop game": "board game",
	"veggie":        "vegetable", "veg": "vegetable",
	"automobile": "car", "auto": "car", "motorcar": "car",
	"podcast show": "podcast",
	"coffee drink": "coffee",
	"type of food": "cuisine", "kind of food": "cuisine", "type of cuisine": "cuisine",
	"kind of cuisine": "cuisine",
}

// MaxAliasFile is the most bytes LoadAliases reads.
const MaxAliasFile = 1 << 20

// LoadAliases reads a user-editable aliases file: one JSON object mapping an alias to
// its canonical topic, such as {"crypto": "cryptocurrency", "flick": "movie"}. Keys and
// values are returned as written; New puts both in Normalize form. Mapping an alias to
// itself ("show": "show") switches a built-in alias off.
//
// A bad file is refused with an EINVALID error naming the line and column: invalid
// JSON, a value that is not a string, a key or value that is empty after Normalize, a
// key given twice, or more than MaxAliasFile bytes.
func LoadAliases(r io.Reader) (map[string]string, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxAliasFile+1))
	if err != nil {
		return nil, fmt.Errorf("canon: read aliases: %w", err)
	}
	if len(b) > MaxAliasFile {
		return nil, factbase.Errorf(factbase.EINVALID, "aliases file is larger than %d bytes", MaxAliasFile)
	}
	bad := func(off int64, format string, args ...any) error {
		line, col := position(b, off)
		return factbase.Errorf(factbase.EINVALID, "aliases file, line %d, column %d: %s", line, col, fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	syntax := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return bad(se.Offset, "%s", se.Error())
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return bad(int64(len(b)), "unexpected end of file")
		}
		return bad(dec.InputOffset(), "%s", err.Error())
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, bad(dec.InputOffset(), "want a JSON object of alias to topic")
	}
	out := map[string]string{}
	seen := map[string]string{}
	for dec.More() {
		// Offsets are taken after each token, so that they point into its line.
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		key, _ := tok.(string)
		keyAt := dec.InputOffset()
		tok, err = dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		valAt := dec.InputOffset()
		val, ok := tok.(string)
		if !ok {
			return nil, bad(valAt, "the topic for alias %q is not a string", key)
		}
		nk, nv := Normalize(key), Normalize(val)
		switch {
		case nk == "":
			return nil, bad(keyAt, "alias %q is empty", key)
		case nv == "":
			return nil, bad(valAt, "the topic for alias %q is empty", key)
		}
		if prev, dup := seen[nk]; dup {
			return nil, bad(keyAt, "alias %q is given twice (also as %q)", key, prev)
		}
		seen[nk] = key
		out[key] = val
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad(dec.InputOffset(), "unexpected data after the object")
	}
	return out, nil
}

// position turns a byte offset into a 1-based line and column.
func position(b []byte, off int64) (line, col int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	if off < 0 {
		off = 0
	}
	head := b[:off]
	line = 1 + bytes.Count(head, []byte("\n"))
	col = 1 + len(head) - (bytes.LastIndexByte(head, '\n') + 1)
	return line, col
}

// resolve follows alias chains ("cine" -> "film" -> "movie") to their end, at most
// depth steps; a cycle leaves the first step.
func resolve(m map[string]string, k string) string {
	v := m[k]
	seen := map[string]bool{k: true}
	for i := 0; i < 8; i++ {
		next, ok := m[v]
		if !ok || next == v {
			return v
		}
		if seen[v] {
			return m[k]
		}
		seen[v] = true
		v = next
	}
	return v
}
