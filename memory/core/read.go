package core

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/ranked"
)

// Page limits of list reads.
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
)

// PageLimit checks a page's offset and limit: it returns limit, or DefaultPageSize
// when limit is 0, and EINVALID for a limit outside 1..MaxPageSize or a negative
// offset.
func PageLimit(offset, limit int) (int, error) {
	return PageLimitOf(offset, limit, DefaultPageSize, MaxPageSize)
}

// PageLimitOf is PageLimit with another default and maximum.
func PageLimitOf(offset, limit, def, most int) (int, error) {
	if limit == 0 {
		limit = def
	}
	if limit < 0 || limit > most {
		return 0, factbase.Errorf(factbase.EINVALID, "limit %d is outside 1..%d", limit, most)
	}
	if offset < 0 {
		return 0, factbase.Errorf(factbase.EINVALID, "offset %d is negative", offset)
	}
	return limit, nil
}

// TrimPage returns the first limit of items, which were read one past a page of limit
// to tell whether more follow, and whether there were more. The page is never nil.
func TrimPage[T any](items []T, limit int) ([]T, bool) {
	if len(items) > limit {
		return items[:limit:limit], true
	}
	if items == nil {
		items = []T{}
	}
	return items, false
}

// ListPage is one page of a ranked list.
type ListPage struct {
	Subject string          `json:"subject"`
	Key     string          `json:"key"`
	Items   []factbase.Fact `json:"items"`
	Total   int             `json:"total"`
	Offset  int             `json:"offset"`
	Limit   int             `json:"limit"`
}

func checkRead(user factbase.UserID, subject, key string) (string, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return "", err
	}
	if subject == "" {
		subject = factbase.SubjectUser
	}
	return subject, factbase.ValidateKey(key)
}

// Fact returns one fact by id, current or not.
func (e *Engine) Fact(ctx context.Context, user factbase.UserID, id string) (factbase.Fact, error) {
	return Read(ctx, e, user, func(tx factbase.ReadTx) (factbase.Fact, error) { return tx.Fact(ctx, id) })
}

// Facts returns the user's facts matching filter.
func (e *Engine) Facts(ctx context.Context, user factbase.UserID, filter factbase.FactFilter) ([]factbase.Fact, error) {
	return Read(ctx, e, user, func(tx factbase.ReadTx) ([]factbase.Fact, error) { return tx.Facts(ctx, filter) })
}

// Get returns the current facts of (subject, key): the one current fact of a
// single-valued key, the members of a set, or a ranked list in rank order; of a set
// or a list, the first MaxPageSize (List and Facts page through the rest). With
// asOf, the facts that were current then.
func (e *Engine) Get(ctx context.Context, user factbase.UserID, subject, key string, asOf *time.Time) ([]factbase.Fact, error) {
	subject, err := checkRead(user, subject, key)
	if err != nil {
		return nil, err
	}
	switch e.opts.Cardinalities.Of(key) {
	case factbase.Ranked:
		p, err := e.List(ctx, user, subject, key, 0, MaxPageSize, asOf)
		return p.Items, err
	case factbase.One:
		if asOf == nil { // the point read: one index seek
			f, ok, err := e.store.CurrentFact(ctx, user, subject, key)
			if !ok || err != nil {
				return nil, err
			}
			return []factbase.Fact{f}, nil
		}
	}
	return e.Facts(ctx, user, factbase.FactFilter{Subject: subject, Key: key, AsOf: asOf, Limit: MaxPageSize})
}

// List returns a page of the ranked list (subject, key): limit 0 means
// DefaultPageSize; limit above MaxPageSize or a negative offset is EINVALID. With asOf,
// the list as it was then, rebuilt from its events.
func (e *Engine) List(ctx context.Context, user factbase.UserID, subject, key string, offset, limit int, asOf *time.Time) (ListPage, error) {
	subject, err := checkRead(user, subject, key)
	if err != nil {
		return ListPage{}, err
	}
	if limit, err = PageLimit(offset, limit); err != nil {
		return ListPage{}, err
	}
	p := ListPage{Subject: subject, Key: key, Offset: offset, Limit: limit, Items: []factbase.Fact{}}
	err = e.store.View(ctx, user, func(tx factbase.ReadTx) error {
		if asOf == nil {
			items, n, err := tx.ListPage(ctx, subject, key, offset, limit)
			if items != nil {
				p.Items = items
			}
			p.Total = n
			return err
		}
		items, n, err := listAsOf(ctx, tx, subject, key, *asOf, offset, limit)
		p.Items, p.Total = append(p.Items, items...), n
		return err
	})
	return p, err
}

// listAsOf returns the members at ranks [offset+1, offset+limit] of a ranked list as
// of t, and the list's length then. The list's order is replayed from its events up to
// t (ranked.ReplayPage); only the page's members are read, each from the fact its
// latest event named, followed along its supersessions to the version valid at t. So
// the read costs the list's events, not its members' rows.
func listAsOf(ctx context.Context, tx factbase.ReadTx, subject, key string, t time.Time, offset, limit int) ([]factbase.Fact, int, error) {
	events, err := tx.ListEvents(ctx, subject, key, t)
	if err != nil {
		return nil, 0, err
	}
	page, n := ranked.ReplayPage(events, offset, limit)
	out := make([]factbase.Fact, 0, len(page))
	for i, m := range page {
		f, ok, err := versionAt(ctx, tx, m.FactID, t)
		if err != nil {
			return nil, 0, err
		}
		if !ok { // the member's fact was erased with its events kept (not written so)
			continue
		}
		f.Rank = offset + i + 1
		out = append(out, f)
	}
	return out, n, nil
}

// maxVersions bounds the supersession chain versionAt follows.
const maxVersions = 64

// versionAt returns the version of fact id valid at t: the fact itself or a successor
// along SupersededBy. ok is false when the fact is gone (erased) or no version was
// valid at t.
func versionAt(ctx context.Context, tx factbase.ReadTx, id string, t time.Time) (factbase.Fact, bool, error) {
	for range maxVersions {
		if id == "" {
			return factbase.Fact{}, false, nil
		}
		f, err := tx.Fact(ctx, id)
		if factbase.ErrorCode(err) == factbase.ENOTFOUND {
			return factbase.Fact{}, false, nil
		}
		if err != nil {
			return factbase.Fact{}, false, err
		}
		if f.ValidFrom.After(t) || f.RecordedAt.After(t) {
			return factbase.Fact{}, false, nil
		}
		if f.ValidTo == nil || f.ValidTo.After(t) {
			return f, true, nil
		}
		id = f.SupersededBy
	}
	return factbase.Fact{}, false, nil
}

// AtRank returns the member at rank of the ranked list (subject, key); ok is false when
// the list is shorter.
func (e *Engine) AtRank(ctx context.Context, user factbase.UserID, subject, key string, rank int, asOf *time.Time) (factbase.Fact, bool, error) {
	if rank < 1 {
		return factbase.Fact{}, false, factbase.Errorf(factbase.EINVALID, "rank must be at least 1, got %d", rank)
	}
	p, err := e.List(ctx, user, subject, key, rank-1, 1, asOf)
	if err != nil || len(p.Items) == 0 {
		return factbase.Fact{}, false, err
	}
	return p.Items[0], true, nil
}

// HistoryPage is one page of a key's versions, newest first.
type HistoryPage struct {
	Versions []factbase.Fact `json:"versions"`
	Offset   int             `json:"offset"`
	Limit    int             `json:"limit"`
	// More is true when versions older than this page's remain (the next page starts
	// at Offset+Limit).
	More bool `json:"more"`
}

// History returns the versions of (subject, key) from the offset-th newest on, at
// most limit of them, with their validity: limit 0 means DefaultPageSize; limit above
// MaxPageSize or a negative offset is EINVALID. A list of 100,000 members that
// changed often has as many versions, so a read of them is always paged.
func (e *Engine) History(ctx context.Context, user factbase.UserID, subject, key string, offset, limit int) (HistoryPage, error) {
	subject, err := checkRead(user, subject, key)
	if err != nil {
		return HistoryPage{}, err
	}
	if limit, err = PageLimit(offset, limit); err != nil {
		return HistoryPage{}, err
	}
	facts, err := e.Facts(ctx, user, factbase.FactFilter{Subject: subject, Key: key, History: true, NewestFirst: true,
		Offset: offset, Limit: limit + 1})
	if err != nil {
		return HistoryPage{}, err
	}
	p := HistoryPage{Offset: offset, Limit: limit}
	p.Versions, p.More = TrimPage(facts, limit)
	return p, nil
}

// Keys returns the distinct keys of current facts about subject that start with prefix.
func (e *Engine) Keys(ctx context.Context, user factbase.UserID, subject, prefix string) ([]string, error) {
	return Read(ctx, e, user, func(tx factbase.ReadTx) ([]string, error) { return tx.Keys(ctx, subject, prefix) })
}

// Member returns the current member of the list or set (subject, key) whose value
// equals value (after normalisation); ok is false when there is none.
func (e *Engine) Member(ctx context.Context, user factbase.UserID, subject, key, value string) (f factbase.Fact, ok bool, err error) {
	err = e.View(ctx, user, func(tx factbase.ReadTx) (err error) {
		f, ok, err = tx.Member(ctx, subject, key, normalize.Value(value))
		return err
	})
	return f, ok, err
}

// ClipText shortens s to factbase.MaxTextLen characters, ending it with "…" when it
// was longer: the text of a fact a feature writes.
func ClipText(s string) string {
	r := []rune(s)
	if len(r) <= factbase.MaxTextLen {
		return s
	}
	return string(r[:factbase.MaxTextLen-1]) + "…"
}

// Clip shortens s to n characters followed by "…" when it is longer.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
