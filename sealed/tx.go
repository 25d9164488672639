package sealed

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/factbase/factbase"
)

// Update runs fn in a write transaction whose texts are sealed, after reading the
// key record again if it is older than refreshEvery.
func (s *Store) Update(ctx context.Context, user factbase.UserID, fn func(tx factbase.Tx) error) error {
	if _, err := s.keyring(ctx); err != nil {
		return err
	}
	return s.Store.Update(ctx, user, func(w factbase.Tx) error {
		return fn(&tx{readTx: readTx{ReadTx: w, c: s.codec(user)}, w: w})
	})
}

// View runs fn in a read transaction whose texts are opened.
func (s *Store) View(ctx context.Context, user factbase.UserID, fn func(tx factbase.ReadTx) error) error {
	return s.view(ctx, user, s.Store.View, fn)
}

// scanViewer is memory/core's optional speed-up of a read that walks most of a
// user's data; the Store offers it when the inner store does.
type scanViewer interface {
	ScanView(ctx context.Context, user factbase.UserID, fn func(tx factbase.ReadTx) error) error
}

// ScanView is the inner store's ScanView when it has one, else View.
func (s *Store) ScanView(ctx context.Context, user factbase.UserID, fn func(tx factbase.ReadTx) error) error {
	view := s.Store.View
	if sv, ok := s.Store.(scanViewer); ok {
		view = sv.ScanView
	}
	return s.view(ctx, user, view, fn)
}

func (s *Store) view(ctx context.Context, user factbase.UserID, view func(context.Context, factbase.UserID, func(factbase.ReadTx) error) error, fn func(tx factbase.ReadTx) error) error {
	if _, err := s.keyring(ctx); err != nil {
		return err
	}
	return view(ctx, user, func(r factbase.ReadTx) error {
		return fn(&readTx{ReadTx: r, c: s.codec(user)})
	})
}

// CurrentFact returns the current fact of (subject, key) with its texts opened.
func (s *Store) CurrentFact(ctx context.Context, user factbase.UserID, subject, key string) (factbase.Fact, bool, error) {
	if _, err := s.keyring(ctx); err != nil {
		return factbase.Fact{}, false, err
	}
	return found(ctx, s.codec(user).openFact)(s.Store.CurrentFact(ctx, user, subject, key))
}

// SaveSheet saves s with its entries' texts sealed.
func (s *Store) SaveSheet(ctx context.Context, sh factbase.FactSheet, retention time.Duration) (int, error) {
	if _, err := s.keyring(ctx); err != nil {
		return 0, err
	}
	return s.Store.SaveSheet(ctx, s.codec(sh.User).sealSheet(sh), retention)
}

// LatestSheet returns the user's latest sheet with its texts opened.
func (s *Store) LatestSheet(ctx context.Context, user factbase.UserID) (factbase.FactSheet, error) {
	if _, err := s.keyring(ctx); err != nil {
		return factbase.FactSheet{}, err
	}
	return one(ctx, s.codec(user).openSheet)(s.Store.LatestSheet(ctx, user))
}

// readTx opens the texts the inner transaction reads. The methods it does not
// define hold no text and are the inner transaction's.
type readTx struct {
	factbase.ReadTx
	c codec
}

// tx seals what the write path writes. Every write method is defined here, those
// that hold no text too, so that a write is never the inner store's by accident.
type tx struct {
	readTx
	w factbase.Tx
}

var (
	_ factbase.ReadTx = (*readTx)(nil)
	_ factbase.Tx     = (*tx)(nil)
)

func (r *readTx) Fact(ctx context.Context, id string) (factbase.Fact, error) {
	return one(ctx, r.c.openFact)(r.ReadTx.Fact(ctx, id))
}

func (r *readTx) Facts(ctx context.Context, f factbase.FactFilter) ([]factbase.Fact, error) {
	return all(ctx, r.c.openFact)(r.ReadTx.Facts(ctx, f))
}

func (r *readTx) Member(ctx context.Context, subject, key, norm string) (factbase.Fact, bool, error) {
	return found(ctx, r.c.openFact)(r.ReadTx.Member(ctx, subject, key, r.blind(norm)))
}

func (r *readTx) Current(ctx context.Context, subject, key string) (factbase.Fact, bool, error) {
	return found(ctx, r.c.openFact)(r.ReadTx.Current(ctx, subject, key))
}

func (r *readTx) ListPage(ctx context.Context, subject, key string, offset, limit int) ([]factbase.Fact, int, error) {
	fs, n, err := r.ReadTx.ListPage(ctx, subject, key, offset, limit)
	fs, err = all(ctx, r.c.openFact)(fs, err)
	return fs, n, err
}

func (r *readTx) AtRank(ctx context.Context, subject, key string, rank int) (factbase.Fact, bool, error) {
	return found(ctx, r.c.openFact)(r.ReadTx.AtRank(ctx, subject, key, rank))
}

func (r *readTx) KeyStats(ctx context.Context, subject, key, norm string) (factbase.KeyStats, error) {
	return r.ReadTx.KeyStats(ctx, subject, key, r.blind(norm))
}

func (r *readTx) ListEvents(ctx context.Context, subject, key string, until time.Time) ([]factbase.ListEvent, error) {
	return all(ctx, r.c.openListEvent)(r.ReadTx.ListEvents(ctx, subject, key, until))
}

func (r *readTx) TranscriptSessions(ctx context.Context, id string, offset, limit int) ([]factbase.TranscriptSession, error) {
	return all(ctx, r.c.openSession)(r.ReadTx.TranscriptSessions(ctx, id, offset, limit))
}

func (r *readTx) SheetFacts(ctx context.Context, cuts []time.Time, fn func(factbase.SheetFact) error) error {
	return r.ReadTx.SheetFacts(ctx, cuts, func(f factbase.SheetFact) error {
		what := item{"fact", f.ID}
		if err := r.c.open(ctx, what, f.ID, &f.Text); err != nil {
			return err
		}
		// The value is shown only when the text is blank (factbase.SheetFact).
		if strings.TrimSpace(f.Text) == "" {
			if err := r.c.open(ctx, what, f.ID, &f.Value); err != nil {
				return err
			}
		} else {
			f.Value = ""
		}
		return fn(f)
	})
}

func (r *readTx) Episode(ctx context.Context, id string) (factbase.Episode, error) {
	return one(ctx, r.c.openEpisode)(r.ReadTx.Episode(ctx, id))
}

func (r *readTx) Episodes(ctx context.Context, f factbase.EpisodeFilter) ([]factbase.Episode, error) {
	return all(ctx, r.c.openEpisode)(r.ReadTx.Episodes(ctx, f))
}

func (r *readTx) EpisodeFacts(ctx context.Context, id string, history bool, offset, limit int) ([]factbase.Fact, error) {
	return all(ctx, r.c.openFact)(r.ReadTx.EpisodeFacts(ctx, id, history, offset, limit))
}

func (r *readTx) FilterFacts(ctx context.Context, key string, f factbase.SearchFilter, offset, limit int) ([]factbase.Fact, error) {
	return all(ctx, r.c.openFact)(r.ReadTx.FilterFacts(ctx, key, f, offset, limit))
}

// TextCandidates searches the hashed words of q.Terms.
func (r *readTx) TextCandidates(ctx context.Context, q factbase.TextQuery) ([]factbase.Candidate, error) {
	q.Terms = r.terms(q.Terms)
	return r.ReadTx.TextCandidates(ctx, q)
}

func (r *readTx) UnembeddedFacts(ctx context.Context, model, after string, limit int) ([]factbase.Fact, error) {
	return all(ctx, r.c.openFact)(r.ReadTx.UnembeddedFacts(ctx, model, after, limit))
}

func (r *readTx) UnembeddedEpisodes(ctx context.Context, model, after string, limit int) ([]factbase.Episode, error) {
	return all(ctx, r.c.openEpisode)(r.ReadTx.UnembeddedEpisodes(ctx, model, after, limit))
}

// TermStats counts the hashed words of terms; a term without a word is "", which
// the store counts as no match, as it counts such a term in the clear.
func (r *readTx) TermStats(ctx context.Context, kind string, terms []string, maxFraction float64) (int, []int, error) {
	return r.ReadTx.TermStats(ctx, kind, r.terms(terms), maxFraction)
}

// TermCounts counts the hashed words of terms, as TermStats.
func (r *readTx) TermCounts(ctx context.Context, kind string, terms []string, limit int) ([]int, error) {
	return r.ReadTx.TermCounts(ctx, kind, r.terms(terms), limit)
}

// SubjectsNamed asks for the names as subjects (labels, in the clear) and as the
// blind indexes of "name" facts' values: a subject is never a blind index, and a
// blind index never a name, so the union is what the names name.
func (r *readTx) SubjectsNamed(ctx context.Context, names []string) ([]string, error) {
	both := slices.Clip(slices.Clone(names))
	for _, n := range names {
		both = append(both, r.blind(n))
	}
	return r.ReadTx.SubjectsNamed(ctx, both)
}

func (r *readTx) Entities(ctx context.Context, f factbase.EntityFilter) ([]factbase.Entity, error) {
	return all(ctx, r.c.openEntity)(r.ReadTx.Entities(ctx, f))
}

func (r *readTx) Entity(ctx context.Context, id string) (factbase.Entity, error) {
	return one(ctx, r.c.openEntity)(r.ReadTx.Entity(ctx, id))
}

func (r *readTx) Conflicts(ctx context.Context, f factbase.ConflictFilter) ([]factbase.Conflict, error) {
	return all(ctx, r.c.openConflict)(r.ReadTx.Conflicts(ctx, f))
}

func (r *readTx) Conflict(ctx context.Context, id string) (factbase.Conflict, error) {
	return one(ctx, r.c.openConflict)(r.ReadTx.Conflict(ctx, id))
}

func (r *readTx) AnchoredFacts(ctx context.Context, from, to time.Time, limit int) ([]factbase.Fact, error) {
	return all(ctx, r.c.openFact)(r.ReadTx.AnchoredFacts(ctx, from, to, limit))
}

// PreferenceSessions looks the value up by its exact seal (prefNorm).
func (r *readTx) PreferenceSessions(ctx context.Context, key, norm string) ([]string, error) {
	return r.ReadTx.PreferenceSessions(ctx, key, r.prefNorm(key, norm))
}

// ExportPreferenceSessions opens the values and sorts the records again by key,
// value and session, as the contract orders them.
func (r *readTx) ExportPreferenceSessions(ctx context.Context) ([]factbase.PreferenceSession, error) {
	ps, err := r.ReadTx.ExportPreferenceSessions(ctx)
	if err != nil {
		return nil, err
	}
	kr := r.c.s.ring.Load().kr
	for i := range ps {
		if ps[i].Norm, err = kr.OpenExact(r.c.user, ps[i].Key, ps[i].Norm); err != nil {
			return nil, item{"preference session of key", ps[i].Key}.errorf("does not open with the database's index key", err)
		}
	}
	slices.SortFunc(ps, func(a, b factbase.PreferenceSession) int {
		return cmpStrings(a.Key, b.Key, a.Norm, b.Norm, a.Session, b.Session)
	})
	return ps, nil
}

func (r *readTx) ExportSheets(ctx context.Context) ([]factbase.FactSheet, error) {
	return all(ctx, r.c.openSheet)(r.ReadTx.ExportSheets(ctx))
}

// blind is the blind index of a normalised value.
func (r *readTx) blind(norm string) string { return r.c.s.ring.Load().kr.Blind(norm) }

// terms maps search terms to their hashed words, term for term.
func (r *readTx) terms(terms []string) []string {
	if terms == nil {
		return nil
	}
	return r.c.s.ring.Load().kr.QueryTerms(terms)
}

// prefNorm is a preference's normalised value as the store keeps it: sealed equal
// for equal values (seal.Keyring.SealExact), for the user and the key.
func (r *readTx) prefNorm(key, norm string) string {
	return r.c.s.ring.Load().kr.SealExact(r.c.user, key, norm)
}

// cmpStrings compares pairs (a1, b1), then (a2, b2), ... in byte order.
func cmpStrings(pairs ...string) int {
	for i := 0; i+1 < len(pairs); i += 2 {
		if c := strings.Compare(pairs[i], pairs[i+1]); c != 0 {
			return c
		}
	}
	return 0
}

// The write transaction.

// Insert writes f with its texts sealed, its index text and its value's blind index.
func (t *tx) Insert(ctx context.Context, f factbase.Fact, norm string) error {
	return t.w.Insert(ctx, t.c.sealFact(f), t.blind(norm))
}

func (t *tx) End(ctx context.Context, id string, at time.Time, by string) error {
	return t.w.End(ctx, id, at, by)
}

// MoveTo moves m, of which the store reads the id, subject, key and rank only: its
// texts are not passed on.
func (t *tx) MoveTo(ctx context.Context, m factbase.Fact, to int) error {
	m.Value, m.Text = "", ""
	return t.w.MoveTo(ctx, m, to)
}

func (t *tx) Erase(ctx context.Context, id string) (int, error) { return t.w.Erase(ctx, id) }

// AddListEvent records e with its value sealed for its fact.
func (t *tx) AddListEvent(ctx context.Context, e factbase.ListEvent) error {
	t.c.seal(e.FactID, &e.Value)
	return t.w.AddListEvent(ctx, e)
}

// Members looks the members up by blind index and gives them back under the keys
// asked for.
func (t *tx) Members(ctx context.Context, keys []factbase.MemberKey) (map[factbase.MemberKey]factbase.Fact, error) {
	blind, plain := t.blindKeys(keys)
	got, err := t.w.Members(ctx, blind)
	if err != nil {
		return nil, err
	}
	out := make(map[factbase.MemberKey]factbase.Fact, len(got))
	for k, f := range got {
		if err := t.c.openFact(ctx, &f); err != nil {
			return nil, err
		}
		out[plain[k]] = f
	}
	return out, nil
}

// blindKeys returns keys with blind norms, and the way back.
func (t *tx) blindKeys(keys []factbase.MemberKey) ([]factbase.MemberKey, map[factbase.MemberKey]factbase.MemberKey) {
	blind := make([]factbase.MemberKey, len(keys))
	back := make(map[factbase.MemberKey]factbase.MemberKey, len(keys))
	for i, k := range keys {
		b := k
		b.Norm = t.blind(k.Norm)
		blind[i], back[b] = b, k
	}
	return blind, back
}

// InsertFacts writes facts with their texts sealed, index texts and blind indexes.
func (t *tx) InsertFacts(ctx context.Context, facts []factbase.Fact, norms []string) error {
	sealed := make([]factbase.Fact, len(facts))
	for i, f := range facts {
		sealed[i] = t.c.sealFact(f)
	}
	blind := make([]string, len(norms))
	for i, n := range norms {
		blind[i] = t.blind(n)
	}
	return t.w.InsertFacts(ctx, sealed, blind)
}

func (t *tx) MemberCounts(ctx context.Context, keys []factbase.MemberKey) ([]int, error) {
	blind, _ := t.blindKeys(keys)
	return t.w.MemberCounts(ctx, blind)
}

func (t *tx) EraseUser(ctx context.Context) (map[string]int64, error) { return t.w.EraseUser(ctx) }

func (t *tx) EraseUserSome(ctx context.Context, limit int) (map[string]int64, bool, error) {
	return t.w.EraseUserSome(ctx, limit)
}

func (t *tx) PutTranscriptCheckpoint(ctx context.Context, cp factbase.TranscriptCheckpoint) error {
	return t.w.PutTranscriptCheckpoint(ctx, cp)
}

// PutTranscriptSession writes s with its directory, branch and summary sealed.
func (t *tx) PutTranscriptSession(ctx context.Context, s factbase.TranscriptSession) error {
	return t.w.PutTranscriptSession(ctx, t.c.sealSession(s))
}

func (t *tx) DeleteTranscriptSessions(ctx context.Context, file string) (int, error) {
	return t.w.DeleteTranscriptSessions(ctx, file)
}

func (t *tx) LinkTranscriptSubjects(ctx context.Context, links []factbase.TranscriptLink) error {
	return t.w.LinkTranscriptSubjects(ctx, links)
}

func (t *tx) AddReferences(ctx context.Context, refs []factbase.Reference) (int, error) {
	return t.w.AddReferences(ctx, refs)
}

// InsertEpisode writes e with its content and metadata sealed and its index text.
func (t *tx) InsertEpisode(ctx context.Context, e factbase.Episode) error {
	return t.w.InsertEpisode(ctx, t.c.sealEpisode(e))
}

func (t *tx) DeleteEpisode(ctx context.Context, id string) (int, error) {
	return t.w.DeleteEpisode(ctx, id)
}

func (t *tx) MarkExtracted(ctx context.Context, id string, at time.Time) error {
	return t.w.MarkExtracted(ctx, id, at)
}

func (t *tx) PutVectors(ctx context.Context, vs []factbase.Vector) error {
	return t.w.PutVectors(ctx, vs)
}

// PutEntity writes e with its name, aliases and attribute values sealed.
func (t *tx) PutEntity(ctx context.Context, e factbase.Entity) error {
	return t.w.PutEntity(ctx, t.c.sealEntity(e))
}

func (t *tx) DeleteEntity(ctx context.Context, id string) (int, error) {
	return t.w.DeleteEntity(ctx, id)
}

// PutConflict writes c with its values, texts and reason sealed.
func (t *tx) PutConflict(ctx context.Context, c factbase.Conflict) error {
	return t.w.PutConflict(ctx, t.c.sealConflict(c))
}

// NotePreferenceSession records the value by its exact seal (prefNorm).
func (t *tx) NotePreferenceSession(ctx context.Context, key, norm, session string) error {
	return t.w.NotePreferenceSession(ctx, key, t.prefNorm(key, norm), session)
}
