// Package factbase is the vocabulary of Factbase, a long-term fact memory for AI
// assistants and agents: the domain types (Fact, Op, Result), the error codes, and the
// contracts the engine consumes (Store, Tx). It imports the standard library only;
// adapters such as sqlite and postgres implement its interfaces, and the memory package
// is the engine that drives them.
package factbase

import (
	"fmt"
	"strings"
)

// UserID identifies the user a row belongs to. It is always a canonical, lower-case
// UUID string; construct one with ParseUserID.
type UserID string

// ParseUserID validates s as a UUID (8-4-4-4-12 hexadecimal digits, any case) and
// returns it in canonical lower-case form. Anything else is refused with an EINVALID
// error naming the bad value.
func ParseUserID(s string) (UserID, error) {
	if len(s) != 36 {
		return "", Errorf(EINVALID, "user id %q is not a UUID", clip(s, 64))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return "", Errorf(EINVALID, "user id %q is not a UUID", s)
			}
		default:
			if !isHex(c) {
				return "", Errorf(EINVALID, "user id %q is not a UUID", s)
			}
		}
	}
	return UserID(strings.ToLower(s)), nil
}

// Valid reports whether u is a canonical UUID as produced by ParseUserID.
func (u UserID) Valid() bool {
	v, err := ParseUserID(string(u))
	return err == nil && v == u
}

// Validate returns nil if u is a canonical UUID as produced by ParseUserID, else an
// EINVALID error naming it: the check of every store method given a user.
func (u UserID) Validate() error {
	if !u.Valid() {
		return Errorf(EINVALID, "user id %q is not a UUID", string(u))
	}
	return nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// clip shortens s to at most n bytes for use in error messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// SubjectUser is the subject of facts about the user themself.
const SubjectUser = "user"

// EntitySubject returns the subject string of facts about the entity with the given id.
func EntitySubject(entityID string) string { return "entity:" + entityID }

// Cardinality decides the write semantics of a key.
type Cardinality string

// The cardinalities.
const (
	// One: latest wins; a new value supersedes the current fact, which stays in history.
	One Cardinality = "one"
	// Many: a set; a value already present (by normalised comparison) is not stored again.
	Many Cardinality = "many"
	// Ranked: an ordered list with ranks exactly 1..N.
	Ranked Cardinality = "ranked"
)

// Valid reports whether c is one of the known cardinalities.
func (c Cardinality) Valid() bool { return c == One || c == Many || c == Ranked }

// Cardinalities maps keys to their cardinality. Exact keys win over prefixes; the
// longest matching prefix wins among prefixes; keys matching neither are One.
// The zero value treats every key as One. It is not safe to modify concurrently
// with reads.
type Cardinalities struct {
	Exact  map[string]Cardinality
	Prefix map[string]Cardinality // e.g. "favorites." -> Ranked
}

// DefaultCardinalities returns the built-in declarations: favorites.* is ranked and
// the structural transcript predicates are sets.
func DefaultCardinalities() Cardinalities {
	return Cardinalities{
		Exact: map[string]Cardinality{},
		Prefix: map[string]Cardinality{
			FavoritesPrefix: Ranked,
		},
	}
}

// Of returns the cardinality of key.
func (c Cardinalities) Of(key string) Cardinality {
	if v, ok := c.Exact[key]; ok {
		return v
	}
	best, card := -1, One
	for p, v := range c.Prefix {
		if strings.HasPrefix(key, p) && len(p) > best {
			best, card = len(p), v
		}
	}
	return card
}

// Declare sets the cardinality of an exact key, or of every key starting with prefix
// when key ends in "*" (e.g. "likes.*").
func (c *Cardinalities) Declare(key string, card Cardinality) error {
	if !card.Valid() {
		return Errorf(EINVALID, "cardinality %q is not one of one, many, ranked", card)
	}
	if c.Exact == nil {
		c.Exact = map[string]Cardinality{}
	}
	if c.Prefix == nil {
		c.Prefix = map[string]Cardinality{}
	}
	if p, ok := strings.CutSuffix(key, "*"); ok {
		c.Prefix[p] = card
		return nil
	}
	c.Exact[key] = card
	return nil
}

// ValidateKey checks that key is usable: non-empty, at most 200 bytes, no control
// characters or surrounding white space.
func ValidateKey(key string) error {
	if key == "" {
		return Errorf(EINVALID, "key is empty")
	}
	if len(key) > 200 {
		return Errorf(EINVALID, "key %q is longer than 200 bytes", clip(key, 64))
	}
	if strings.TrimSpace(key) != key {
		return Errorf(EINVALID, "key %q has leading or trailing white space", key)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f {
			return Errorf(EINVALID, "key %q contains a control character", key)
		}
	}
	return nil
}

// String implements fmt.Stringer for error messages.
func (u UserID) String() string { return string(u) }

var _ fmt.Stringer = UserID("")
