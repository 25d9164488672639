package factbase

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"time"
)

// KeyPrefix starts every API key, so that a leaked key is recognisable.
const KeyPrefix = "fb_"

// Key is the stored record of an API key. The key itself is shown once, when it is
// created; only its SHA-256 hash is stored.
type Key struct {
	ID   string `json:"id"`             // public identifier, e.g. "key_3f9a0c1b2d4e5f60"
	Name string `json:"name,omitempty"` // a label chosen by its creator
	// User is the one user whose data the key may touch; "" makes it an application
	// key, valid for every user.
	User      UserID     `json:"user,omitempty"`
	Hash      string     `json:"-"` // hex SHA-256 of the key
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// Revoked reports whether the key has been revoked.
func (k Key) Revoked() bool { return k.RevokedAt != nil }

// Allows reports whether the key may act on user's data: an application key may act on
// every user's, a user key only on its own user's.
func (k Key) Allows(user UserID) bool { return k.User == "" || k.User == user }

// Matches reports, in constant time, whether secret is this key.
func (k Key) Matches(secret string) bool {
	h := HashKey(secret)
	return subtle.ConstantTimeCompare([]byte(h), []byte(k.Hash)) == 1
}

// Validate reports whether k can be stored (KeyStore.CreateKey): it needs an id and a
// hex SHA-256 hash. Returns EINVALID otherwise.
func (k Key) Validate() error {
	if k.ID == "" || len(k.Hash) != 64 {
		return Errorf(EINVALID, "a key needs an id and a hex SHA-256 hash")
	}
	return nil
}

// KeyStore keeps API keys. It is separate from users' data: keys belong to the
// installation. All methods are safe for concurrent use and return EUNAVAILABLE when
// the store cannot be reached.
type KeyStore interface {
	// CreateKey stores k, whose ID, Hash and CreatedAt are set (see NewKey). A key
	// with the same ID or hash already stored is ECONFLICT; a key that fails
	// Key.Validate is EINVALID.
	CreateKey(ctx context.Context, k Key) error
	// KeyByHash returns the key whose hash is hash, revoked or not. ENOTFOUND if none.
	KeyByHash(ctx context.Context, hash string) (Key, error)
	// Keys returns every key, revoked ones included, oldest first.
	Keys(ctx context.Context) ([]Key, error)
	// RevokeKey marks key id revoked at the given time and returns it. ENOTFOUND if no
	// key has that id; a key already revoked keeps its first revocation time.
	RevokeKey(ctx context.Context, id string, at time.Time) (Key, error)
}

// NewKey makes a new API key: the secret to hand to its owner ("fb_" and 43 base64url
// characters encoding 32 random bytes) and the record to store, with its hash, a
// random ID and CreatedAt = now. user "" makes an application key.
func NewKey(user UserID, name string, now time.Time) (secret string, k Key, err error) {
	if user != "" && !user.Valid() {
		if _, err := ParseUserID(string(user)); err != nil {
			return "", Key{}, err
		}
		return "", Key{}, Errorf(EINVALID, "user id %q is not in canonical lower-case form", string(user))
	}
	if len(name) > 200 {
		return "", Key{}, Errorf(EINVALID, "key name is longer than 200 bytes")
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", Key{}, &Error{Code: EINTERNAL, Message: "cannot read random bytes", Err: err}
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", Key{}, &Error{Code: EINTERNAL, Message: "cannot read random bytes", Err: err}
	}
	secret = KeyPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return secret, Key{ID: "key_" + hex.EncodeToString(id[:]), Name: name, User: user,
		Hash: HashKey(secret), CreatedAt: now.UTC()}, nil
}

// HashKey returns the hex SHA-256 of an API key, the form in which keys are stored.
func HashKey(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// LooksLikeKey reports whether s has the shape of an API key made by NewKey. It lets
// a caller refuse garbage without a store look-up.
func LooksLikeKey(s string) bool {
	rest, ok := strings.CutPrefix(s, KeyPrefix)
	if !ok || len(rest) != base64.RawURLEncoding.EncodedLen(32) {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
