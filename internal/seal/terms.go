package seal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"

	"github.com/factbase/factbase/text"
)

// Words splits s as a full-text index does: runs of letters and digits (text.Words,
// their combining marks dropped, so "café" is "cafe"), lower case, each stemmed
// (English Snowball: "allergies" is "allergi", as is "allergy"). Everything else
// separates, so "v2.3" gives "v2" and "3", as FTS5's unicode61 tokenizer and
// search.Terms split.
func Words(s string) []string {
	if !isASCII(s) {
		s = stripMarks(s)
	}
	var out []string
	for _, w := range text.Words(s) {
		out = append(out, stem(w))
	}
	return out
}

func stem(w string) string {
	w = strings.ToLower(w)
	if !isASCII(w) {
		return w // the English stemmer is for English words
	}
	return english.Stem(w, false)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// stripMarks removes combining marks after canonical decomposition.
func stripMarks(s string) string {
	d := norm.NFD.String(s)
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, d)
}

// termHasher hashes words under the index key; one per call, not shared.
type termHasher struct {
	m   hash.Hash
	buf []byte
}

func (kr *Keyring) hasher() *termHasher {
	return &termHasher{m: hmac.New(sha256.New, kr.index)}
}

// term is the hashed form of one word: "t" and 16 hex digits (64 bits of an
// HMAC-SHA-256), a token every full-text tokenizer keeps whole.
func (h *termHasher) term(w string) string {
	h.m.Reset()
	h.m.Write([]byte("t\x00"))
	h.m.Write([]byte(w))
	h.buf = h.m.Sum(h.buf[:0])
	return "t" + hex.EncodeToString(h.buf[:8])
}

// IndexText is the text a store's full-text index holds for texts in place of their
// words: the hashed word of each word of each, in order, separated by spaces (so a
// phrase of hashed words matches where the words did, and repeats count for BM25).
func (kr *Keyring) IndexText(texts ...string) string {
	h := kr.hasher()
	var b strings.Builder
	for _, t := range texts {
		for _, w := range Words(t) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(h.term(w))
		}
	}
	return b.String()
}

// QueryTerms maps search terms (search.Terms) to the hashed words IndexText indexes:
// each term's words hashed and joined by a space, a phrase where a term has several.
// A term without a word becomes "", so that out[i] is always terms[i]'s.
func (kr *Keyring) QueryTerms(terms []string) []string {
	h := kr.hasher()
	out := make([]string, len(terms))
	for i, t := range terms {
		ws := Words(t)
		hs := make([]string, len(ws))
		for j, w := range ws {
			hs[j] = h.term(w)
		}
		out[i] = strings.Join(hs, " ")
	}
	return out
}
