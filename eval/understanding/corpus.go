package understanding

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultNow is the time of every message that sets none: a Wednesday morning, the
// same as the personal-fact extractor's corpus.
var DefaultNow = time.Date(2026, time.March, 4, 9, 30, 0, 0, time.UTC)

// Case is one corpus line: one or more turns said in order by one fresh user, and
// the facts that user must have (and must not have) afterwards.
type Case struct {
	Name  string
	Line  int // the line of the corpus file, from 1
	Turns []Turn
	// Facts are the user's current facts after the last turn, exactly: every stored
	// fact not among them is a false positive.
	Facts []Want
	// Not are facts that must not be stored; each one stored is a violation (and,
	// being unexpected, a false positive too).
	Not []Want
}

// Turn is one message of a case.
type Turn struct {
	Msg     string
	Speaker string    // "user" or "assistant"
	Now     time.Time // when it was said
}

// Want is an expected (or forbidden) fact.
type Want struct {
	About Label
	// Key is a fact key; "*" (in Not only) is any key.
	Key string
	// Values are the accepted spellings, compared by NormValue; "*" (in Not only) is
	// any value.
	Values []string
	Rank   int    // a ranked list member's rank; 0: not checked
	Anchor string // the time anchor's date, YYYY-MM-DD; "": not checked
	// SaidBy is who stated it: "user", "assistant" or a person label; nil: not checked.
	SaidBy *Label
}

// String renders w as the corpus writes it.
func (w Want) String() string {
	s := fmt.Sprintf("[%s] %s = %s", w.About, w.Key, strings.Join(w.Values, "|"))
	if w.Rank > 0 {
		s += fmt.Sprintf(" #%d", w.Rank)
	}
	return s
}

// The JSON forms of a line and a turn.
type (
	caseJSON struct {
		Comment string            `json:"comment"`
		Name    string            `json:"name"`
		Msg     *string           `json:"msg"`
		Turns   []json.RawMessage `json:"turns"`
		Speaker string            `json:"speaker"`
		Now     string            `json:"now"`
		Facts   [][]string        `json:"facts"`
		Not     [][]string        `json:"not"`
	}
	turnJSON struct {
		Msg     string `json:"msg"`
		Speaker string `json:"speaker"`
		Now     string `json:"now"`
	}
)

// LineError is a malformed corpus line.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Load reads a corpus in JSON Lines from r; file names it in errors. Blank lines and
// lines holding only a comment are skipped. Any malformed line is an error naming the
// file and line; Load reports the first one.
func Load(r io.Reader, file string) ([]Case, error) {
	var out []Case
	names := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		c, ok, err := parseLine(text)
		if err == nil && ok {
			if prev, dup := names[c.Name]; dup {
				err = fmt.Errorf("case %q already on line %d", c.Name, prev)
			}
		}
		if err != nil {
			return nil, &LineError{File: file, Line: line, Err: err}
		}
		if !ok {
			continue
		}
		c.Line = line
		names[c.Name] = line
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// parseLine parses one non-blank line; ok is false for a comment line.
func parseLine(text []byte) (c Case, ok bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	var j caseJSON
	if err := dec.Decode(&j); err != nil {
		return c, false, fmt.Errorf("not a case: %w", err)
	}
	if dec.More() {
		return c, false, errors.New("more than one JSON value on the line")
	}
	if j.Comment != "" && j.Name == "" && j.Msg == nil && j.Turns == nil && j.Facts == nil && j.Not == nil {
		return c, false, nil
	}
	if j.Name == "" {
		return c, false, errors.New("no name")
	}
	c.Name = j.Name
	now := DefaultNow
	if j.Now != "" {
		if now, err = time.Parse(time.RFC3339, j.Now); err != nil {
			return c, false, fmt.Errorf("now %q: not RFC 3339", j.Now)
		}
	}
	speaker, err := parseSpeaker(j.Speaker)
	if err != nil {
		return c, false, err
	}
	switch {
	case j.Msg != nil && j.Turns != nil:
		return c, false, errors.New("both msg and turns")
	case j.Msg != nil:
		if strings.TrimSpace(*j.Msg) == "" {
			return c, false, errors.New("empty msg")
		}
		c.Turns = []Turn{{Msg: *j.Msg, Speaker: speaker, Now: now}}
	case len(j.Turns) > 0:
		for i, raw := range j.Turns {
			t, err := parseTurn(raw, speaker, now)
			if err != nil {
				return c, false, fmt.Errorf("turn %d: %w", i+1, err)
			}
			c.Turns = append(c.Turns, t)
		}
	default:
		return c, false, errors.New("no msg and no turns")
	}
	if j.Facts == nil {
		return c, false, errors.New("no facts (write \"facts\": [] for a message that must store nothing)")
	}
	for i, f := range j.Facts {
		w, err := parseWant(f, false)
		if err != nil {
			return c, false, fmt.Errorf("fact %d %q: %w", i+1, f, err)
		}
		c.Facts = append(c.Facts, w)
	}
	for i, f := range j.Not {
		w, err := parseWant(f, true)
		if err != nil {
			return c, false, fmt.Errorf("not %d %q: %w", i+1, f, err)
		}
		c.Not = append(c.Not, w)
	}
	return c, true, nil
}

func parseSpeaker(s string) (string, error) {
	switch s {
	case "", "user":
		return "user", nil
	case "assistant":
		return s, nil
	}
	return "", fmt.Errorf("speaker %q: want user or assistant", s)
}

// parseTurn reads a turn: a string, or an object {msg, speaker, now}.
func parseTurn(raw json.RawMessage, speaker string, now time.Time) (Turn, error) {
	t := Turn{Speaker: speaker, Now: now}
	if err := json.Unmarshal(raw, &t.Msg); err != nil {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var j turnJSON
		if err := dec.Decode(&j); err != nil {
			return t, fmt.Errorf("want a string or {msg, speaker, now}: %w", err)
		}
		t.Msg = j.Msg
		if j.Speaker != "" {
			if t.Speaker, err = parseSpeaker(j.Speaker); err != nil {
				return t, err
			}
		}
		if j.Now != "" {
			if t.Now, err = time.Parse(time.RFC3339, j.Now); err != nil {
				return t, fmt.Errorf("now %q: not RFC 3339", j.Now)
			}
		}
	}
	if strings.TrimSpace(t.Msg) == "" {
		return t, errors.New("empty msg")
	}
	return t, nil
}

var (
	keyRE  = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$`)
	dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// parseWant reads [about, key, value, options...]. Wildcards ("*") are allowed only
// in a forbidden fact.
func parseWant(f []string, forbidden bool) (Want, error) {
	var w Want
	if len(f) < 3 {
		return w, errors.New("want [about, key, value, options...]")
	}
	about, err := ParseLabel(f[0])
	if err != nil {
		return w, err
	}
	w.About = about
	w.Key = f[1]
	if !(forbidden && w.Key == "*") && !keyRE.MatchString(w.Key) {
		return w, fmt.Errorf("key %q is not a dotted lower-case key", w.Key)
	}
	if f[2] == "*" && !forbidden {
		return w, errors.New("a wildcard value (\"*\") only in \"not\"")
	}
	if f[2] != "*" {
		for _, v := range strings.Split(f[2], "|") {
			if NormValue(v) == "" {
				return w, fmt.Errorf("value %q has an empty alternative", f[2])
			}
			w.Values = append(w.Values, strings.TrimSpace(v))
		}
	} else {
		w.Values = []string{"*"}
	}
	for _, opt := range f[3:] {
		name, val, ok := strings.Cut(opt, "=")
		if !ok || val == "" {
			return w, fmt.Errorf("option %q: want name=value", opt)
		}
		switch name {
		case "rank":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return w, fmt.Errorf("rank %q: want a number from 1", val)
			}
			w.Rank = n
		case "anchor":
			if !dateRE.MatchString(val) {
				return w, fmt.Errorf("anchor %q: want YYYY-MM-DD", val)
			}
			if _, err := time.Parse(time.DateOnly, val); err != nil {
				return w, fmt.Errorf("anchor %q: %w", val, err)
			}
			w.Anchor = val
		case "said_by":
			l, err := ParseLabel(val)
			if err != nil {
				return w, fmt.Errorf("said_by: %w", err)
			}
			w.SaidBy = &l
		default:
			return w, fmt.Errorf("unknown option %q (want rank, anchor or said_by)", name)
		}
	}
	if !forbidden && strings.HasPrefix(w.Key, "favorites.") && w.Rank == 0 {
		return w, errors.New("a favorites fact needs its rank")
	}
	return w, nil
}
