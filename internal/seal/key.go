// Package seal encrypts the texts people write before a store keeps them, and makes
// the keyed hashes ("blind indexes") that let a store match and search them without
// holding them in the clear.
//
// A data key is 32 random bytes, kept in a file outside the database (`factbase
// datakey new`). Each text is sealed with AES-256-GCM under the data key, with the
// owning user's id and the row's id bound as associated data: a ciphertext copied to
// another row or another user fails to open. A sealed text is printable, so it fits
// any text column:
//
//	fb1.<key id>.<base64 of nonce ‖ ciphertext ‖ tag>
//
// The key id (8 hex digits) names the data key that sealed it, so that a database
// can hold texts of two keys while `factbase datakey rotate` re-seals it.
//
// Matching uses a second key, the index key: 32 random bytes made once per database
// and stored there sealed under the data key, so that rotating the data key never
// changes a blind index. Blind(s) is an HMAC-SHA-256 of a normalised value (for
// duplicates, list members and look-ups); Terms(text) hashes each word after
// tokenizing and stemming, so that a full-text index ranks hashed terms by BM25 as it
// ranked words.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
)

// KeySize is the size of a data key and of an index key: 32 bytes (AES-256).
const KeySize = 32

// Prefix starts every sealed text.
const Prefix = "fb1."

// Key is one data key.
type Key struct {
	id   string
	raw  []byte
	aead cipher.AEAD
}

// ID names the key: 8 hex digits of an HMAC of the key, which reveal nothing of it.
func (k *Key) ID() string { return k.id }

// NewKey returns KeySize random bytes, a new data key.
func NewKey() []byte {
	b := make([]byte, KeySize)
	if _, err := rand.Read(b); err != nil {
		panic("seal: crypto/rand failed: " + err.Error()) // never returns an error on supported platforms
	}
	return b
}

// ParseKey reads a data key: KeySize raw bytes, or their hex (64 digits) or base64
// encoding, surrounding white space ignored.
func ParseKey(b []byte) (*Key, error) {
	raw := b
	if len(b) != KeySize {
		s := strings.TrimSpace(string(b))
		var err error
		switch {
		case len(s) == 2*KeySize:
			raw, err = hex.DecodeString(s)
		default:
			raw, err = base64.StdEncoding.DecodeString(s)
			if err != nil {
				raw, err = base64.RawStdEncoding.DecodeString(s)
			}
		}
		if err != nil || len(raw) != KeySize {
			return nil, fmt.Errorf("a data key is %d random bytes (raw, or 64 hex digits, or base64); this one is %d bytes and not a valid encoding of them", KeySize, len(b))
		}
	}
	return newKey(raw)
}

func newKey(raw []byte) (*Key, error) {
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, raw)
	m.Write([]byte("factbase key id"))
	return &Key{id: hex.EncodeToString(m.Sum(nil)[:4]), raw: append([]byte(nil), raw...), aead: aead}, nil
}

// LoadKeyFile reads a data key from a file (ParseKey), naming the file in errors.
func LoadKeyFile(path string) (*Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("data key: %w", err)
	}
	k, err := ParseKey(b)
	if err != nil {
		return nil, fmt.Errorf("data key %s: %w", path, err)
	}
	return k, nil
}

// WriteKeyFile writes a new data key to path, readable by its owner only, and
// refuses to overwrite a file that exists.
func WriteKeyFile(path string) (*Key, error) {
	raw := NewKey()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("data key: %w", err)
	}
	if _, err := f.Write(raw); err != nil {
		f.Close()
		return nil, fmt.Errorf("data key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("data key: %w", err)
	}
	return newKey(raw)
}

// ErrOpen is returned (wrapped) when a sealed text does not open: a wrong key, a text
// moved to another row or user, or damage.
var ErrOpen = errors.New("sealed text does not open")

// ad is the associated data of a text of user in row.
func ad(user, row string) []byte {
	b := make([]byte, 0, 12+len(user)+len(row))
	b = append(b, "factbase\x00"...)
	b = append(b, user...)
	b = append(b, 0)
	return append(b, row...)
}

// seal encrypts plain for (user, row) under k.
func (k *Key) seal(user, row, plain string) string {
	nonce := make([]byte, k.aead.NonceSize(), k.aead.NonceSize()+len(plain)+k.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic("seal: crypto/rand failed: " + err.Error())
	}
	ct := k.aead.Seal(nonce, nonce, []byte(plain), ad(user, row))
	var b strings.Builder
	b.Grow(len(Prefix) + 9 + base64.RawStdEncoding.EncodedLen(len(ct)))
	b.WriteString(Prefix)
	b.WriteString(k.id)
	b.WriteByte('.')
	b.WriteString(base64.RawStdEncoding.EncodeToString(ct))
	return b.String()
}

// open decrypts a body (nonce ‖ ciphertext) sealed by k for (user, row).
func (k *Key) open(user, row string, body []byte) (string, error) {
	n := k.aead.NonceSize()
	if len(body) < n+k.aead.Overhead() {
		return "", fmt.Errorf("%w: %d bytes, too short", ErrOpen, len(body))
	}
	plain, err := k.aead.Open(nil, body[:n], body[n:], ad(user, row))
	if err != nil {
		return "", fmt.Errorf("%w: its user, row or key is not the one it was sealed for", ErrOpen)
	}
	return string(plain), nil
}

// IsSealed reports whether s is a sealed text (it starts with Prefix).
func IsSealed(s string) bool { return strings.HasPrefix(s, Prefix) }

// KeyID returns the id of the key that sealed s, "" when s is not sealed.
func KeyID(s string) string {
	if !IsSealed(s) || len(s) < len(Prefix)+9 || s[len(Prefix)+8] != '.' {
		return ""
	}
	return s[len(Prefix) : len(Prefix)+8]
}
