package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// ExactPrefix starts every text sealed by SealExact.
const ExactPrefix = "fbx1."

// exactKeys are the keys of SealExact, derived from the index key.
type exactKeys struct {
	aead cipher.AEAD
	iv   []byte // the key of the synthetic nonce
}

func (kr *Keyring) exactKeys() *exactKeys {
	kr.exactOnce.Do(func() {
		derive := func(label string) []byte {
			m := hmac.New(sha256.New, kr.index)
			m.Write([]byte(label))
			return m.Sum(nil)
		}
		block, err := aes.NewCipher(derive("exact\x00enc"))
		if err != nil {
			panic("seal: " + err.Error()) // a 32-byte key is always valid
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			panic("seal: " + err.Error())
		}
		kr.exact = &exactKeys{aead: aead, iv: derive("exact\x00iv")}
	})
	return kr.exact
}

// nonce is the synthetic nonce of plain for (user, row): an HMAC of both, so that
// equal texts seal equally and different ones under different nonces.
func (x *exactKeys) nonce(user, row, plain string) []byte {
	m := hmac.New(sha256.New, x.iv)
	m.Write(ad(user, row))
	m.Write([]byte{0})
	m.Write([]byte(plain))
	return m.Sum(nil)[:x.aead.NonceSize()]
}

// SealExact seals plain for row of user so that equal texts give equal sealed
// texts: for a value a store must find by equality and still give back (a
// preference's normalised value, which PeopleReadTx.PreferenceSessions looks up and
// the export returns). Like Blind, it shows which values are equal, and nothing
// else. It is AES-256-GCM under a key derived from the index key, with a nonce
// derived from the user, row and text (a synthetic nonce), so a rotation of the data
// key leaves it as it is. The empty text stays empty.
func (kr *Keyring) SealExact(user, row, plain string) string {
	if plain == "" {
		return ""
	}
	x := kr.exactKeys()
	nonce := x.nonce(user, row, plain)
	ct := x.aead.Seal(nonce, nonce, []byte(plain), ad(user, row))
	return ExactPrefix + base64.RawStdEncoding.EncodeToString(ct)
}

// OpenExact opens a text SealExact sealed for row of user. The empty text stays
// empty; anything else that SealExact did not make for (user, row) with this
// database's index key fails with ErrOpen.
func (kr *Keyring) OpenExact(user, row, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	b64, ok := strings.CutPrefix(s, ExactPrefix)
	if !ok {
		return "", fmt.Errorf("%w: not of the form %s<base64>", ErrOpen, ExactPrefix)
	}
	body, err := base64.RawStdEncoding.DecodeString(b64)
	x := kr.exactKeys()
	n := x.aead.NonceSize()
	if err != nil || len(body) < n+x.aead.Overhead() {
		return "", fmt.Errorf("%w: its base64 is damaged or too short", ErrOpen)
	}
	plain, err := x.aead.Open(nil, body[:n], body[n:], ad(user, row))
	if err != nil || !hmac.Equal(body[:n], x.nonce(user, row, string(plain))) {
		return "", fmt.Errorf("%w: its user, row or index key is not the one it was sealed for", ErrOpen)
	}
	return string(plain), nil
}
