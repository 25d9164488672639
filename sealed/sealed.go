// Package sealed is a factbase.Store that keeps every text a person wrote encrypted
// at rest in another Store (issue #28): fact values and texts, list events, episode
// contents and metadata, people's names, aliases and attributes, conflicts,
// transcript sessions' directories, branches and summaries, saved sheets' texts, and
// jobs' inputs, results and errors are sealed (internal/seal: AES-256-GCM, bound to
// the user and the row) before the inner store sees them and opened when read back.
//
// What the inner store must still compare, it gets as keyed hashes: a fact's
// normalised value as its blind index (seal.Keyring.Blind), so duplicates, list
// members and look-ups work; the hashed words of its texts as Fact.Index and
// Episode.Index, so its full-text index ranks hashed terms by BM25 as it ranked
// words; search terms hashed the same way. A preference's normalised value, which
// the store must both match and give back, is sealed deterministically
// (seal.Keyring.SealExact). What a store used to do in SQL on texts (a job's
// substring, a transcript object's substring and grouping) is done here, in Go,
// over opened texts.
//
// Labels stay in the clear: users, ids, subjects, fact keys, types, categories,
// scopes, said-by, temporal markers and time anchors, sources, episode tags,
// metadata and attribute names, entity roles and relations, transcript files,
// versions, sessions and checkpoints, job kinds, models and error codes, sheet
// scores and dedup logs, API keys (hashed already), the audit trail, and vectors.
package sealed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/internal/seal"
)

// Store seals the texts of an inner factbase.Store. It is safe for concurrent use,
// from several processes too: each re-reads the database's key record at most once
// a second (refreshEvery), so that every server starts sealing with the new key
// soon after a rotation starts (Rotate).
//
// Methods that hold no text (Users, Purge, Ping, Close, the audit trail, settings,
// ResealRows, API keys, job usage) are the inner store's.
type Store struct {
	factbase.Store
	key *seal.Key

	mu   sync.Mutex // serialises reloads of the key record
	ring atomic.Pointer[ring]
}

var _ factbase.Store = (*Store)(nil)

// ring is a keyring and the key record it was opened from.
type ring struct {
	kr   *seal.Keyring
	rec  string    // the record as stored
	read time.Time // when rec was read
}

// refreshEvery is how long a Store trusts the key record it read.
const refreshEvery = time.Second

// Open returns inner sealed with the data key key. A database without a key record
// gets one (a new index key, sealed under key), unless it already holds users,
// whose texts are in the clear: that is refused, and nothing is written. A database
// with a record opens only with one of its data keys. Either refusal is EINVALID
// and says what to do.
func Open(ctx context.Context, inner factbase.Store, key *seal.Key) (*Store, error) {
	if key == nil {
		return nil, factbase.Errorf(factbase.EINVALID, "sealed: no data key")
	}
	s := &Store{Store: inner, key: key}
	for range 2 {
		v, ok, err := inner.Setting(ctx, seal.SettingName)
		if err != nil {
			return nil, err
		}
		if ok {
			r, err := s.openRecord(v, nil)
			if err != nil {
				return nil, err
			}
			s.ring.Store(r)
			return s, nil
		}
		users, err := inner.Users(ctx)
		if err != nil {
			return nil, err
		}
		if len(users) > 0 {
			return nil, factbase.Errorf(factbase.EINVALID, "this database holds texts in the clear: export its users and import them into a new database opened with the key")
		}
		kr, rec := seal.NewKeyring(key)
		switch err := inner.SwapSetting(ctx, seal.SettingName, "", rec.String()); {
		case err == nil:
			s.ring.Store(&ring{kr: kr, rec: rec.String(), read: time.Now()})
			return s, nil
		case factbase.ErrorCode(err) != factbase.ECONFLICT:
			return nil, err
		}
		// Another process made the record first: open with it.
	}
	return nil, factbase.Errorf(factbase.EUNAVAILABLE, "sealed: the database's key record keeps changing")
}

// CheckPlain returns nil if inner can be used without a data key: it has no key
// record. A sealed database is EINVALID, naming its key.
func CheckPlain(ctx context.Context, inner factbase.Store) error {
	v, ok, err := inner.Setting(ctx, seal.SettingName)
	if err != nil || !ok {
		return err
	}
	id := "(unreadable record)"
	if r, err := seal.ParseRecord(v); err == nil {
		id = strings.Join(r.Keys, " and ")
	}
	return factbase.Errorf(factbase.EINVALID, "this database is sealed with data key %s: give its key file with --data-key-file (or FACTBASE_DATA_KEY_FILE)", id)
}

// Unwrap returns the store under the encryption, for what only a backend can say
// (which vector search PostgreSQL runs). Its texts are sealed: never read them there.
func (s *Store) Unwrap() factbase.Store { return s.Store }

// KeyID is the id of the data key the Store seals with now.
func (s *Store) KeyID() string { return s.ring.Load().kr.KeyID() }

// openRecord opens the keyring of the stored record v with s's key. When the key
// does not open it, but cur (the keyring in use) already seals with the key the
// record names last, cur is kept: a server that held the old key through a
// rotation unwrapped the new one, and keeps it after the rotation ends.
func (s *Store) openRecord(v string, cur *seal.Keyring) (*ring, error) {
	rec, err := seal.ParseRecord(v)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "sealed: %v", err)
	}
	kr, err := seal.OpenKeyring(rec, s.key)
	if err != nil {
		if cur == nil || cur.KeyID() != rec.Keys[len(rec.Keys)-1] {
			return nil, factbase.Errorf(factbase.EINVALID, "%v", err)
		}
		kr = cur
	}
	return &ring{kr: kr, rec: v, read: time.Now()}, nil
}

// keyring returns the keyring to use now, reading the key record again when the one
// read is older than refreshEvery.
func (s *Store) keyring(ctx context.Context) (*seal.Keyring, error) {
	if r := s.ring.Load(); time.Since(r.read) < refreshEvery {
		return r.kr, nil
	}
	return s.reload(ctx, false)
}

// reload reads the key record again (when forced, even if it was read within
// refreshEvery) and opens its keyring when it changed.
func (s *Store) reload(ctx context.Context, force bool) (*seal.Keyring, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.ring.Load()
	if !force && time.Since(cur.read) < refreshEvery {
		return cur.kr, nil // another caller read it meanwhile
	}
	v, ok, err := s.Store.Setting(ctx, seal.SettingName)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, factbase.Errorf(factbase.EINTERNAL, "sealed: the database's key record is gone")
	}
	next := &ring{kr: cur.kr, rec: v, read: time.Now()}
	if v != cur.rec {
		if next, err = s.openRecord(v, cur.kr); err != nil {
			return nil, err
		}
	}
	s.ring.Store(next)
	return next.kr, nil
}

// codec seals and opens the texts of one user.
type codec struct {
	s    *Store
	user string
}

func (s *Store) codec(user factbase.UserID) codec { return codec{s: s, user: string(user)} }

// seal seals each of texts in place for row.
func (c codec) seal(row string, texts ...*string) {
	kr := c.s.ring.Load().kr
	for _, p := range texts {
		*p = kr.Seal(c.user, row, *p)
	}
}

// open opens each of texts in place, sealed for row of the item what (a kind and an
// id, for the error). A text that is not sealed (but empty) is an error: nothing is
// ever given back as it is. A text sealed with a key this Store does not hold yet
// (another server started a rotation) makes it read the key record again.
func (c codec) open(ctx context.Context, what item, row string, texts ...*string) error {
	kr := c.s.ring.Load().kr
	for _, p := range texts {
		if *p == "" {
			continue
		}
		if !seal.IsSealed(*p) {
			return what.errorf("holds a text that is not sealed", nil)
		}
		plain, err := kr.Open(c.user, row, *p)
		if errors.Is(err, seal.ErrOpen) {
			if nkr, rerr := c.s.reload(ctx, true); rerr == nil && nkr != kr {
				kr = nkr
				plain, err = kr.Open(c.user, row, *p)
			}
		}
		if err != nil {
			return what.errorf("does not open with the data key", err)
		}
		*p = plain
	}
	return nil
}

// item names what a text belongs to, for errors.
type item struct{ kind, id string }

func (it item) errorf(what string, err error) error {
	return &factbase.Error{Code: factbase.EINTERNAL, Message: fmt.Sprintf("sealed: %s %s %s", it.kind, it.id, what), Err: err}
}

// sealMap returns a copy of m with its values sealed for row.
func (c codec) sealMap(row string, m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		c.seal(row, &v)
		out[k] = v
	}
	return out
}

// openMap opens the values of m in place.
func (c codec) openMap(ctx context.Context, what item, row string, m map[string]string) error {
	for k, v := range m {
		if err := c.open(ctx, what, row, &v); err != nil {
			return err
		}
		m[k] = v
	}
	return nil
}

// sealSlice returns a copy of xs with each sealed for row.
func (c codec) sealSlice(row string, xs []string) []string {
	if xs == nil {
		return nil
	}
	out := make([]string, len(xs))
	for i := range xs {
		out[i] = xs[i]
		c.seal(row, &out[i])
	}
	return out
}

// openSlice opens each of xs in place.
func (c codec) openSlice(ctx context.Context, what item, row string, xs []string) error {
	for i := range xs {
		if err := c.open(ctx, what, row, &xs[i]); err != nil {
			return err
		}
	}
	return nil
}

// all, one and found open the texts of what a read returns with fn, and pass on
// its error: all for a list, one for a single item, found for an item that may
// not exist (ok false: nothing to open).
func all[T any](ctx context.Context, fn func(context.Context, *T) error) func([]T, error) ([]T, error) {
	return func(xs []T, err error) ([]T, error) {
		if err != nil {
			return nil, err
		}
		for i := range xs {
			if err := fn(ctx, &xs[i]); err != nil {
				return nil, err
			}
		}
		return xs, nil
	}
}

func one[T any](ctx context.Context, fn func(context.Context, *T) error) func(T, error) (T, error) {
	return func(x T, err error) (T, error) {
		if err == nil {
			err = fn(ctx, &x)
		}
		return x, err
	}
}

func found[T any](ctx context.Context, fn func(context.Context, *T) error) func(T, bool, error) (T, bool, error) {
	return func(x T, ok bool, err error) (T, bool, error) {
		if err == nil && ok {
			err = fn(ctx, &x)
		}
		return x, ok, err
	}
}
