package seal

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Keyring seals with one data key and opens with any key it holds, and makes blind
// indexes with the database's index key. It is safe for concurrent use once made.
type Keyring struct {
	sealer *Key
	keys   map[string]*Key
	index  []byte

	exactOnce sync.Once // makes exact, SealExact's keys, on first use
	exact     *exactKeys
}

// Record is what a database keeps about its keys (a store setting, SettingName): the
// ids of the data keys its texts are sealed with, its index key sealed under the
// newest of them, and, while a rotation runs, the new key sealed under the old one,
// so that every server holding the old key reads and writes with the new one.
type Record struct {
	Version  int      `json:"version"`
	Keys     []string `json:"keys"`      // data key ids, oldest first; the last seals
	IndexKey string   `json:"index_key"` // sealed under the last key
	// NewKey, during a rotation, is the new data key (hex) sealed under Keys[0].
	NewKey string `json:"new_key,omitempty"`
}

// SettingName is the name of the store setting that holds a database's Record.
const SettingName = "seal"

// recordRow is the row id the index key and a rotation's new key are sealed for.
const (
	indexRow  = "seal.index_key"
	newKeyRow = "seal.new_key"
)

// ParseRecord reads a Record from its JSON.
func ParseRecord(s string) (Record, error) {
	var r Record
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return r, fmt.Errorf("the database's key record is not valid JSON: %w", err)
	}
	if r.Version != 1 || len(r.Keys) == 0 || r.IndexKey == "" {
		return r, fmt.Errorf("the database's key record (version %d, %d keys) is not one this version reads", r.Version, len(r.Keys))
	}
	return r, nil
}

// String is the Record's JSON.
func (r Record) String() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// NewKeyring makes the keyring of a new database sealed with k: a new random index
// key, and the Record to store.
func NewKeyring(k *Key) (*Keyring, Record) {
	index := NewKey()
	r := Record{Version: 1, Keys: []string{k.id}, IndexKey: k.seal("", indexRow, hex.EncodeToString(index))}
	return &Keyring{sealer: k, keys: map[string]*Key{k.id: k}, index: index}, r
}

// OpenKeyring makes the keyring of a database whose Record is r, with the data key
// k. It fails, saying which keys the database wants, when k is not one of them. While
// a rotation runs (r.NewKey set), the old key opens the new one and the keyring seals
// with the new key; the new key alone opens everything too.
func OpenKeyring(r Record, k *Key) (*Keyring, error) {
	kr := &Keyring{keys: map[string]*Key{k.id: k}}
	if !slices.Contains(r.Keys, k.id) {
		return nil, fmt.Errorf("data key %s does not open this database: its texts are sealed with key %s", k.id, strings.Join(r.Keys, " and "))
	}
	if r.NewKey != "" && len(r.Keys) == 2 && k.id == r.Keys[0] {
		s, err := kr.open("", newKeyRow, r.NewKey)
		if err != nil {
			return nil, fmt.Errorf("the new data key of the rotation in progress: %w", err)
		}
		raw, err := hex.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("the new data key of the rotation in progress: %w", err)
		}
		nk, err := newKey(raw)
		if err != nil {
			return nil, err
		}
		kr.keys[nk.id] = nk
	}
	kr.sealer = kr.keys[r.Keys[len(r.Keys)-1]]
	if kr.sealer == nil {
		return nil, fmt.Errorf("data key %s does not open this database while its rotation to key %s runs: use the new key", k.id, r.Keys[len(r.Keys)-1])
	}
	s, err := kr.open("", indexRow, r.IndexKey)
	if err != nil {
		return nil, fmt.Errorf("the database's index key: %w", err)
	}
	if kr.index, err = hex.DecodeString(s); err != nil || len(kr.index) != KeySize {
		return nil, fmt.Errorf("the database's index key is damaged")
	}
	return kr, nil
}

// Rotate starts a rotation of a database whose Record is r and whose keyring is kr
// (opened with the old key) to the data key nk: it returns the Record to store, with
// nk sealed under the old key, and the keyring that seals with nk.
func (kr *Keyring) Rotate(r Record, nk *Key) (*Keyring, Record, error) {
	if len(r.Keys) != 1 {
		if r.NewKey != "" && len(r.Keys) == 2 && r.Keys[1] == nk.id {
			return kr.with(nk), r, nil // resuming
		}
		return nil, r, fmt.Errorf("a rotation from key %s to key %s is already running: finish it with the new key", r.Keys[0], r.Keys[len(r.Keys)-1])
	}
	if r.Keys[0] == nk.id {
		return nil, r, fmt.Errorf("the new data key is the database's key %s already", nk.id)
	}
	old := kr.keys[r.Keys[0]]
	if old == nil {
		return nil, r, fmt.Errorf("the keyring does not hold the database's key %s", r.Keys[0])
	}
	nr := Record{Version: 1, Keys: []string{old.id, nk.id},
		IndexKey: nk.seal("", indexRow, hex.EncodeToString(kr.index)),
		NewKey:   old.seal("", newKeyRow, hex.EncodeToString(nk.raw))}
	return kr.with(nk), nr, nil
}

// Finish ends a rotation: the Record that names only the keyring's sealing key.
func (kr *Keyring) Finish() Record {
	return Record{Version: 1, Keys: []string{kr.sealer.id}, IndexKey: kr.sealer.seal("", indexRow, hex.EncodeToString(kr.index))}
}

// with returns a keyring that also holds nk and seals with it.
func (kr *Keyring) with(nk *Key) *Keyring {
	n := &Keyring{sealer: nk, keys: map[string]*Key{nk.id: nk}, index: kr.index}
	for id, k := range kr.keys {
		n.keys[id] = k
	}
	return n
}

// KeyID is the id of the key the keyring seals with.
func (kr *Keyring) KeyID() string { return kr.sealer.id }

// Seal encrypts plain for row of user. The empty text stays empty.
func (kr *Keyring) Seal(user, row, plain string) string {
	if plain == "" {
		return ""
	}
	return kr.sealer.seal(user, row, plain)
}

// Open decrypts s, sealed for row of user. A text that is not sealed (it does not
// start with Prefix: the empty text) is returned as it is.
func (kr *Keyring) Open(user, row, s string) (string, error) {
	if !IsSealed(s) {
		return s, nil
	}
	return kr.open(user, row, s)
}

func (kr *Keyring) open(user, row, s string) (string, error) {
	id := KeyID(s)
	if id == "" {
		return "", fmt.Errorf("%w: not of the form %s<key id>.<base64>", ErrOpen, Prefix)
	}
	k := kr.keys[id]
	if k == nil {
		return "", fmt.Errorf("%w: it is sealed with key %s, which this keyring does not hold", ErrOpen, id)
	}
	body, err := base64.RawStdEncoding.DecodeString(s[len(Prefix)+9:])
	if err != nil {
		return "", fmt.Errorf("%w: its base64 is damaged", ErrOpen)
	}
	return k.open(user, row, body)
}

// Stale reports whether s is sealed with a key other than the sealing key (a
// rotation has yet to re-seal it).
func (kr *Keyring) Stale(s string) bool {
	return IsSealed(s) && KeyID(s) != kr.sealer.id
}

// Blind returns the blind index of a normalised value: 32 hex digits (128 bits) of
// an HMAC-SHA-256 under the index key. Equal values give equal indexes; nothing else
// can be learnt from one without the key. The empty value stays empty.
func (kr *Keyring) Blind(norm string) string {
	if norm == "" {
		return ""
	}
	m := hmac.New(sha256.New, kr.index)
	m.Write([]byte("v\x00"))
	m.Write([]byte(norm))
	return "b" + hex.EncodeToString(m.Sum(nil)[:16])
}
