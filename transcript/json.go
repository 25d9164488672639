package transcript

import (
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is the deepest nesting of objects and arrays a line may have. It matches
// encoding/json's limit, so that this scanner and json.Valid agree on every input.
const maxDepth = 10000

// syntaxError is a JSON syntax error at byte off of the scanned line.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at column %d: %s", e.off+1, e.msg)
}

// scanner is a small validating JSON reader over one line. It decodes only the
// values the caller asks for and skips (while still validating) everything else, in
// one pass and without reflection: a line's multi-megabyte tool output is looked at
// once, a word at a time where it is plain ASCII.
//
// Its notion of valid JSON is encoding/json's (json.Valid): strings may hold invalid
// UTF-8, which readString replaces with U+FFFD as json.Unmarshal does.
type scanner struct {
	data  []byte
	pos   int
	depth int
	tmp   []byte // scratch for strings with escapes
}

func (s *scanner) errorf(format string, args ...any) error {
	return &syntaxError{off: s.pos, msg: fmt.Sprintf(format, args...)}
}

// unexpected reports the byte at pos (or the end of input) where want was expected.
func (s *scanner) unexpected(want string) error {
	if s.pos >= len(s.data) {
		return &syntaxError{off: s.pos, msg: "unexpected end of input, want " + want}
	}
	return &syntaxError{off: s.pos, msg: fmt.Sprintf("unexpected %s, want %s", quoteByte(s.data[s.pos]), want)}
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the byte at pos, or 0 at the end of input.
func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// object reads the object at pos, calling field for each member with pos at the
// member's value; field must consume exactly that value. Keys are passed as
// decoded bytes valid only during the call.
func (s *scanner) object(field func(key []byte) error) error {
	return s.container('{', '}', func() error {
		if s.peek() != '"' {
			return s.unexpected("string key")
		}
		key, err := s.readKey()
		if err != nil {
			return err
		}
		s.ws()
		if s.peek() != ':' {
			return s.unexpected("':'")
		}
		s.pos++
		s.ws()
		return field(key)
	})
}

// array reads the array at pos, calling elem with pos at each element; elem must
// consume exactly that element.
func (s *scanner) array(elem func() error) error {
	return s.container('[', ']', elem)
}

// container reads what object and array share: the open bracket at pos, the nesting
// limit, the members separated by commas (item consumes each one), and the close
// bracket.
func (s *scanner) container(open, close byte, item func() error) error {
	if s.peek() != open {
		return s.unexpected("'" + string(open) + "'")
	}
	s.depth++
	if s.depth > maxDepth {
		return s.errorf("nesting deeper than %d", maxDepth)
	}
	s.pos++
	s.ws()
	if s.peek() == close {
		s.pos++
		s.depth--
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.pos++
			s.ws()
		case close:
			s.pos++
			s.depth--
			return nil
		default:
			return s.unexpected("',' or '" + string(close) + "'")
		}
	}
}

// skip validates and steps over the value at pos.
func (s *scanner) skip() error {
	switch c := s.peek(); {
	case c == '{':
		return s.object(func([]byte) error { return s.skip() })
	case c == '[':
		return s.array(s.skip)
	case c == '"':
		_, _, err := s.scanString()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	default:
		return s.unexpected("a value")
	}
}

func (s *scanner) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if s.pos >= len(s.data) || s.data[s.pos] != lit[i] {
			return s.unexpected(fmt.Sprintf("%q", lit[i:i+1]) + " in " + lit)
		}
		s.pos++
	}
	return nil
}

func (s *scanner) isDigit() bool {
	return s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9'
}

func (s *scanner) number() error {
	if s.peek() == '-' {
		s.pos++
	}
	switch {
	case s.peek() == '0':
		s.pos++
	case s.isDigit():
		for s.isDigit() {
			s.pos++
		}
	default:
		return s.unexpected("a digit")
	}
	if s.peek() == '.' {
		s.pos++
		if !s.isDigit() {
			return s.unexpected("a digit after '.'")
		}
		for s.isDigit() {
			s.pos++
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		if !s.isDigit() {
			return s.unexpected("a digit in the exponent")
		}
		for s.isDigit() {
			s.pos++
		}
	}
	return nil
}

// readBool reads true, false or null (as false).
func (s *scanner) readBool() (bool, error) {
	switch s.peek() {
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	case 'n':
		return false, s.literal("null")
	}
	return false, s.skip()
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainWord reports whether none of the 8 bytes of x is a quote, a backslash, a
// control character or a non-ASCII byte.
func plainWord(x uint64) bool {
	if x&msb != 0 {
		return false
	}
	q := x ^ (lsb * '"')
	b := x ^ (lsb * '\\')
	// A byte is zero in v exactly when (v-1) borrows into its high bit while the
	// byte itself had none; bytes < 0x20 likewise for v-0x20.
	zeroQ := (q - lsb) &^ q & msb
	zeroB := (b - lsb) &^ b & msb
	ctl := (x - lsb*0x20) &^ x & msb
	return zeroQ|zeroB|ctl == 0
}

// scanString validates the string at pos and steps over it. It returns the raw
// contents between the quotes and whether they need decoding (escapes or non-ASCII
// bytes).
func (s *scanner) scanString() (raw []byte, complex bool, err error) {
	s.pos++ // opening quote
	start := s.pos
	d := s.data
	i := s.pos
	for {
		for i+8 <= len(d) && plainWord(binary.LittleEndian.Uint64(d[i:])) {
			i += 8
		}
		if i >= len(d) {
			s.pos = i
			return nil, false, s.errorf("unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return d[start:i], complex, nil
		case c == '\\':
			complex = true
			if i+1 >= len(d) {
				s.pos = i + 1
				return nil, false, s.errorf("unterminated string")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(d) || !isHexDigit(d[i+k]) {
						s.pos = i + k
						if i+k >= len(d) {
							return nil, false, s.errorf("unterminated string")
						}
						return nil, false, s.errorf("invalid \\u escape")
					}
				}
				i += 6
			default:
				s.pos = i + 1
				return nil, false, s.errorf("invalid escape %s", quoteByte(d[i+1]))
			}
		case c < 0x20:
			s.pos = i
			return nil, false, s.errorf("control character %s in string", quoteByte(c))
		case c >= 0x80:
			complex = true
			i++
		default:
			i++
		}
	}
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// readString reads the string at pos and returns it decoded, as json.Unmarshal
// would: escapes resolved, invalid UTF-8 and unpaired surrogates as U+FFFD.
func (s *scanner) readString() (string, error) {
	raw, complex, err := s.scanString()
	if err != nil {
		return "", err
	}
	if !complex || utf8.Valid(raw) && !hasBackslash(raw) {
		return string(raw), nil
	}
	s.tmp = unquote(s.tmp[:0], raw)
	return string(s.tmp), nil
}

// readStringSame reads the string at pos like readString but returns prev itself
// when the value equals it, so that fields repeated on every line (session id,
// working directory) are not allocated again for each line.
func (s *scanner) readStringSame(prev string) (string, error) {
	raw, complex, err := s.scanString()
	if err != nil {
		return "", err
	}
	if !complex && string(raw) == prev {
		return prev, nil
	}
	if !complex || utf8.Valid(raw) && !hasBackslash(raw) {
		return string(raw), nil
	}
	s.tmp = unquote(s.tmp[:0], raw)
	return string(s.tmp), nil
}

// readKey reads an object key. The result aliases the input or scratch space and is
// valid until the next read.
func (s *scanner) readKey() ([]byte, error) {
	raw, complex, err := s.scanString()
	if err != nil {
		return nil, err
	}
	if !complex {
		return raw, nil
	}
	s.tmp = unquote(s.tmp[:0], raw)
	return s.tmp, nil
}

// readStringOrNull reads a string, or null as "". Any other value is an error
// naming field.
func (s *scanner) readStringOrNull(field string, prev string) (string, error) {
	switch s.peek() {
	case '"':
		return s.readStringSame(prev)
	case 'n':
		return "", s.literal("null")
	}
	start := s.pos
	if err := s.skip(); err != nil {
		return "", err
	}
	return "", &syntaxError{off: start, msg: fmt.Sprintf("field %s is %s, want a string", field, kindOf(s.data[start]))}
}

func kindOf(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// unquote appends the decoded form of the validated string contents raw to dst.
func unquote(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch raw[i+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(raw[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(r) {
					// A high surrogate followed by a low one is one rune; anything
					// else leaves a lone surrogate, which becomes U+FFFD.
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if pair := utf16.DecodeRune(r, hex4(raw[i+2:i+6])); pair != unicode.ReplacementChar {
							dst = utf8.AppendRune(dst, pair)
							i += 6
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, raw[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(raw) && raw[j] < utf8.RuneSelf && raw[j] != '\\' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
