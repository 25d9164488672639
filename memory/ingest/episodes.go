package ingest

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/episode"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/text"
)

// DefaultImportance is the importance of an episode created without one.
const DefaultImportance = 0.5

// EpisodeInput is a new episode.
type EpisodeInput struct {
	Content  string            // required; at most factbase.MaxEpisodeLen bytes
	Tags     []string          // lower-cased, trimmed and deduplicated
	Metadata map[string]string // free-form; at most factbase.MaxMetadata entries
	// Importance in 0..1; nil means DefaultImportance.
	Importance *float64
	// CreatedAt is when the episode happened; zero means the write's time. A future
	// time is refused.
	CreatedAt time.Time
	// NoExtract skips pattern extraction; a later backfill runs it.
	NoExtract bool
	// Facts are added to the episode by hand, in the same transaction, after the
	// extracted ones; their source is set to the episode.
	Facts []factbase.Fact
}

// EpisodeResult reports a created episode.
type EpisodeResult struct {
	Episode factbase.Episode `json:"episode"`
	// Facts are the facts linked to the episode by this write, in order: each one
	// extracted or given, as stored, or the fact already holding that value (a
	// duplicate is not stored twice and keeps its own source).
	Facts  []factbase.Fact `json:"facts"`
	Result factbase.Result `json:"result"`
}

func checkMetadata(m map[string]string) error {
	if len(m) > factbase.MaxMetadata {
		return factbase.Errorf(factbase.EINVALID, "%d metadata entries; the limit is %d", len(m), factbase.MaxMetadata)
	}
	for k, v := range m {
		if k == "" {
			return factbase.Errorf(factbase.EINVALID, "a metadata key is empty")
		}
		if len(k) > factbase.MaxMetadataLen || len(v) > factbase.MaxMetadataLen {
			return factbase.Errorf(factbase.EINVALID, "metadata %q is longer than %d bytes", core.Clip(k, 32), factbase.MaxMetadataLen)
		}
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return factbase.Errorf(factbase.EINVALID, "metadata %q is not valid UTF-8", core.Clip(k, 32))
		}
	}
	return nil
}

// validateEpisode checks an episode input and returns the episode to store (without
// id and times).
func validateEpisode(in EpisodeInput, now time.Time) (factbase.Episode, error) {
	var ep factbase.Episode
	if strings.TrimSpace(in.Content) == "" {
		return ep, factbase.Errorf(factbase.EINVALID, "episode content is empty")
	}
	if len(in.Content) > factbase.MaxEpisodeLen {
		return ep, factbase.Errorf(factbase.EINVALID, "episode content is %d bytes; the limit is %d", len(in.Content), factbase.MaxEpisodeLen)
	}
	if !utf8.ValidString(in.Content) {
		return ep, factbase.Errorf(factbase.EINVALID, "episode content is not valid UTF-8")
	}
	tags, err := factbase.NormalizeTags(in.Tags)
	if err != nil {
		return ep, err
	}
	if err := checkMetadata(in.Metadata); err != nil {
		return ep, err
	}
	imp := DefaultImportance
	if in.Importance != nil {
		imp = *in.Importance
		if !(imp >= 0 && imp <= 1) {
			return ep, factbase.Errorf(factbase.EINVALID, "importance %v is outside 0..1", imp)
		}
	}
	if !in.CreatedAt.IsZero() && in.CreatedAt.After(now.Add(time.Minute)) {
		return ep, factbase.Errorf(factbase.EINVALID, "episode time %s is in the future", in.CreatedAt.Format(time.RFC3339))
	}
	ep = factbase.Episode{Content: in.Content, Tags: tags, Importance: imp, CreatedAt: in.CreatedAt.UTC()}
	if len(in.Metadata) > 0 {
		ep.Metadata = maps.Clone(in.Metadata)
	}
	return ep, nil
}

// factType names the type of an extracted fact by the family of the rule that found
// it: version, metric, latency, count, percent, status, health, date, or for ordinals
// the measure itself (phase, session, sprint, milestone).
func factType(f episode.Fact) string {
	if f.Rule == "ordinal" {
		if i := strings.LastIndexByte(f.Key, '.'); i >= 0 {
			return f.Key[i+1:]
		}
		return f.Key
	}
	fam, _, _ := strings.Cut(f.Rule, ".")
	return fam
}

// extractEpisode returns the facts pattern extraction finds in ep: its content is
// read into one parse, which the extractor reads its words, sentences and clauses from.
func extractEpisode(ep factbase.Episode) []episode.Fact {
	return episode.ExtractText(text.New(ep.Content), ep.Tags)
}

// episodeOps turns an episode's extracted and hand-given facts into set ops whose
// source is the episode and whose validity starts at the episode's time.
func episodeOps(ep factbase.Episode, extracted []episode.Fact, given []factbase.Fact) []factbase.Op {
	ops := make([]factbase.Op, 0, len(extracted)+len(given))
	src := factbase.Source{Kind: factbase.SourceEpisode, ID: ep.ID}
	for _, x := range extracted {
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
			Key: x.Key, Value: x.Value, ValueType: x.ValueType, Text: x.Text, Type: factType(x),
			Category: factbase.Project, Confidence: x.Confidence, Source: src,
			Extractor: "episode:" + x.Rule, ValidFrom: ep.CreatedAt,
		}})
	}
	for _, f := range given {
		f.Source = src
		if f.Extractor == "" {
			f.Extractor = "manual"
		}
		if f.ValidFrom.IsZero() {
			f.ValidFrom = ep.CreatedAt
		}
		ops = append(ops, factbase.Op{Kind: factbase.OpSet, Fact: f})
	}
	return ops
}

// AddEpisode stores a new episode. Unless in.NoExtract, pattern extraction turns its
// content into facts linked to it (source kind "episode"), each with the rule's
// confidence, written through the one write path in the same transaction as the
// episode, its full-text entry and its vector.
func (s *Service) AddEpisode(ctx context.Context, user factbase.UserID, in EpisodeInput) (EpisodeResult, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EpisodeResult{}, err
	}
	ep, err := validateEpisode(in, time.Now())
	if err != nil {
		return EpisodeResult{}, err
	}
	ep.ID = s.core.NewID()
	var extracted []episode.Fact
	if !in.NoExtract {
		extracted = extractEpisode(ep)
	}
	ops := episodeOps(ep, extracted, in.Facts)
	tv, err := s.core.EmbedForWrite(ctx, []string{ep.Content})
	if err != nil {
		return EpisodeResult{}, err
	}
	res, err := s.core.ApplyWith(ctx, user, ops, func(w *core.Writer) error {
		now := w.Tx().Now()
		if ep.CreatedAt.IsZero() || ep.CreatedAt.After(now) {
			ep.CreatedAt = now
		}
		if !in.NoExtract {
			ep.ExtractedAt = &now
		}
		if err := w.Tx().InsertEpisode(ctx, ep); err != nil {
			return err
		}
		return putEpisodeVector(ctx, w.Tx(), ep, tv)
	})
	if err != nil {
		return EpisodeResult{}, err
	}
	ep.User = user
	facts := res.Facts
	if facts == nil {
		facts = []factbase.Fact{}
	}
	return EpisodeResult{Episode: ep, Facts: facts, Result: res}, nil
}

func putEpisodeVector(ctx context.Context, st factbase.SearchTx, ep factbase.Episode, tv *core.Vectors) error {
	return putEpisodeVectors(ctx, st, []factbase.Episode{ep}, tv)
}

// putEpisodeVectors writes the vectors tv holds for the episodes' contents.
func putEpisodeVectors(ctx context.Context, st factbase.SearchTx, eps []factbase.Episode, tv *core.Vectors) error {
	if tv == nil {
		return nil
	}
	vs := make([]factbase.Vector, 0, len(eps))
	for _, ep := range eps {
		if v, ok := tv.Vecs[ep.Content]; ok {
			vs = append(vs, factbase.Vector{Kind: factbase.KindEpisode, ID: ep.ID, Model: tv.Model, Vec: v})
		}
	}
	if len(vs) == 0 {
		return nil
	}
	return st.PutVectors(ctx, vs)
}

// MaxEpisodeBatch is the most episodes AddEpisodes stores in one call.
const MaxEpisodeBatch = 1000

// AddEpisodes stores several new episodes in one transaction, as AddEpisode stores
// one: each is validated, extracted unless its NoExtract is set, and written with
// its facts, full-text entry and vector; the texts are embedded together before the
// transaction. Either all are stored or none. It returns the episodes as stored, in
// order, and what the write did to facts. At most MaxEpisodeBatch episodes, and at
// most core.MaxOps facts in all.
func (s *Service) AddEpisodes(ctx context.Context, user factbase.UserID, in []EpisodeInput) ([]factbase.Episode, factbase.Result, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return nil, factbase.Result{}, err
	}
	if len(in) > MaxEpisodeBatch {
		return nil, factbase.Result{}, factbase.Errorf(factbase.EINVALID, "%d episodes; the limit of a batch is %d", len(in), MaxEpisodeBatch)
	}
	if len(in) == 0 {
		return []factbase.Episode{}, factbase.Result{}, nil
	}
	now := time.Now()
	eps := make([]factbase.Episode, len(in))
	texts := make([]string, len(in))
	var ops []factbase.Op
	for i, x := range in {
		ep, err := validateEpisode(x, now)
		if err != nil {
			return nil, factbase.Result{}, fmt.Errorf("episode %d: %w", i+1, err)
		}
		ep.ID = s.core.NewID()
		var extracted []episode.Fact
		if !x.NoExtract {
			extracted = extractEpisode(ep)
		}
		ops = append(ops, episodeOps(ep, extracted, x.Facts)...)
		eps[i], texts[i] = ep, ep.Content
	}
	if len(ops) > core.MaxOps {
		return nil, factbase.Result{}, factbase.Errorf(factbase.EINVALID, "the batch's episodes hold %d facts; the limit is %d", len(ops), core.MaxOps)
	}
	tv, err := s.core.EmbedForWrite(ctx, texts)
	if err != nil {
		return nil, factbase.Result{}, err
	}
	res, err := s.core.ApplyWith(ctx, user, ops, func(w *core.Writer) error {
		now := w.Tx().Now()
		for i := range eps {
			ep := &eps[i]
			if ep.CreatedAt.IsZero() || ep.CreatedAt.After(now) {
				ep.CreatedAt = now
			}
			if !in[i].NoExtract {
				ep.ExtractedAt = &now
			}
			if err := w.Tx().InsertEpisode(ctx, *ep); err != nil {
				return err
			}
		}
		return putEpisodeVectors(ctx, w.Tx(), eps, tv)
	})
	if err != nil {
		return nil, factbase.Result{}, err
	}
	for i := range eps {
		eps[i].User = user
	}
	return eps, res, nil
}

// AddEpisodeFacts adds facts to episode id by hand: each is written through the one
// write path with the episode as its source. ENOTFOUND if the episode does not exist.
func (s *Service) AddEpisodeFacts(ctx context.Context, user factbase.UserID, id string, facts []factbase.Fact) (factbase.Result, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.Result{}, err
	}
	if len(facts) == 0 {
		return factbase.Result{}, factbase.Errorf(factbase.EINVALID, "no facts to add")
	}
	ep, err := s.Episode(ctx, user, id)
	if err != nil {
		return factbase.Result{}, err
	}
	return s.core.ApplyWith(ctx, user, episodeOps(ep, nil, facts), func(w *core.Writer) error {
		_, err = w.Tx().Episode(ctx, id) // deleted meanwhile: abort
		return err
	})
}

// Episode returns one episode. ENOTFOUND if the user has none with that id.
func (s *Service) Episode(ctx context.Context, user factbase.UserID, id string) (factbase.Episode, error) {
	return core.Read(ctx, s.core, user, func(tx factbase.ReadTx) (factbase.Episode, error) { return tx.Episode(ctx, id) })
}

// EpisodeFacts returns a page of the facts whose source is episode id, oldest first:
// the current ones, or every version with history; and whether more follow the page.
// A zero limit means core.DefaultPageSize; a limit above core.MaxPageSize or a
// negative offset is EINVALID. ENOTFOUND if the episode does not exist.
func (s *Service) EpisodeFacts(ctx context.Context, user factbase.UserID, id string, history bool, offset, limit int) ([]factbase.Fact, bool, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return nil, false, err
	}
	limit, err := core.PageLimit(offset, limit)
	if err != nil {
		return nil, false, err
	}
	var (
		facts []factbase.Fact
		more  bool
	)
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		if _, err := tx.Episode(ctx, id); err != nil {
			return err
		}
		fs, err := tx.EpisodeFacts(ctx, id, history, offset, limit+1)
		facts, more = core.TrimPage(fs, limit)
		return err
	})
	return facts, more, err
}

// EpisodePage is one page of a user's episodes.
type EpisodePage struct {
	Episodes []factbase.Episode `json:"episodes"`
	Total    int                `json:"total"`
	Offset   int                `json:"offset"`
	Limit    int                `json:"limit"`
}

// Episodes returns a page of the user's episodes matching f (tags are normalised as
// on creation). A zero f.Limit means core.DefaultPageSize; above core.MaxPageSize is EINVALID.
func (s *Service) Episodes(ctx context.Context, user factbase.UserID, f factbase.EpisodeFilter) (EpisodePage, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return EpisodePage{}, err
	}
	var err error
	if f.Limit, err = core.PageLimit(f.Offset, f.Limit); err != nil {
		return EpisodePage{}, err
	}
	tags, err := factbase.NormalizeTags(f.Tags)
	if err != nil {
		return EpisodePage{}, err
	}
	f.Tags = tags
	p := EpisodePage{Episodes: []factbase.Episode{}, Offset: f.Offset, Limit: f.Limit}
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		eps, err := tx.Episodes(ctx, f)
		if err != nil {
			return err
		}
		if eps != nil {
			p.Episodes = eps
		}
		p.Total, err = tx.CountEpisodes(ctx, f)
		return err
	})
	return p, err
}

// DeleteResult reports a deleted episode.
type DeleteResult struct {
	Episodes int `json:"episodes"` // episode rows deleted: 1
	Facts    int `json:"facts"`    // fact rows erased with it
}

// DeleteEpisode erases episode id, its full-text entry and its vector, and, unless
// keepFacts, every version of the facts whose source it is (through the write path,
// so ranked lists close up and their index entries go too). ENOTFOUND if there is no
// such episode.
func (s *Service) DeleteEpisode(ctx context.Context, user factbase.UserID, id string, keepFacts bool) (DeleteResult, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return DeleteResult{}, err
	}
	var ops []factbase.Op
	if !keepFacts {
		// Every version: the delete's work is the episode's facts, however many.
		facts, err := core.Read(ctx, s.core, user, func(tx factbase.ReadTx) ([]factbase.Fact, error) {
			if _, err := tx.Episode(ctx, id); err != nil {
				return nil, err
			}
			return tx.EpisodeFacts(ctx, id, true, 0, 0)
		})
		if err != nil {
			return DeleteResult{}, err
		}
		// Newest first, so that a key's later versions go before the ones they replaced.
		for i := len(facts) - 1; i >= 0; i-- {
			ops = append(ops, factbase.Op{Kind: factbase.OpDelete, ID: facts[i].ID})
		}
	}
	var n int
	res, err := s.core.ApplyWith(ctx, user, ops, func(w *core.Writer) error {
		var err error
		if n, err = w.Tx().DeleteEpisode(ctx, id); err != nil {
			return err
		}
		if n == 0 {
			return factbase.Errorf(factbase.ENOTFOUND, "episode %q not found", id)
		}
		return nil
	})
	if err != nil {
		return DeleteResult{}, err
	}
	return DeleteResult{Episodes: n, Facts: res.Deleted}, nil
}

// BackfillResult reports a backfill.
type BackfillResult struct {
	Episodes int `json:"episodes"` // episodes extracted
	Facts    int `json:"facts"`    // facts stored
	// Remaining counts the episodes still waiting for extraction when the backfill
	// stopped at its limit; 0 when it extracted every one.
	Remaining int `json:"remaining"`
}

// A backfill transaction extracts up to backfillBatch episodes, and fewer when their
// facts pass backfillFacts: about as many facts as a transcript ingest batch, so that
// the writer is held for a similar time and commits write similar amounts.
const (
	backfillBatch = 1000
	backfillFacts = DefaultIngestBatchFacts
)

// BackfillEpisodes runs pattern extraction over the user's episodes that have not
// had it (created with NoExtract, or before extraction existed), oldest first, a
// batch per transaction: the facts and the episodes' extraction marks are written
// together, so an interrupted backfill resumes where it stopped. It stops after
// about limit episodes (whole batches; 0: none), and says how many remain.
// progress, if not nil, is called after each batch.
func (s *Service) BackfillEpisodes(ctx context.Context, user factbase.UserID, limit int, progress core.Progress) (BackfillResult, error) {
	var out BackfillResult
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return out, err
	}
	if limit < 0 {
		return out, factbase.Errorf(factbase.EINVALID, "limit %d is negative", limit)
	}
	total := -1
	for {
		var batch []factbase.Episode
		err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
			var err error
			f := factbase.EpisodeFilter{Unextracted: true, Limit: backfillBatch}
			if total < 0 {
				if total, err = tx.CountEpisodes(ctx, f); err != nil {
					return err
				}
			}
			if limit > 0 && out.Episodes >= limit {
				out.Remaining, err = tx.CountEpisodes(ctx, f)
				return err
			}
			if limit > 0 {
				f.Limit = min(f.Limit, limit-out.Episodes)
			}
			batch, err = tx.Episodes(ctx, f)
			return err
		})
		if err != nil {
			return out, err
		}
		if len(batch) == 0 {
			s.core.SheetAfter(ctx, user, out.Facts > 0)
			return out, nil
		}
		var ops []factbase.Op
		for i, ep := range batch {
			more := episodeOps(ep, extractEpisode(ep), nil)
			if i > 0 && len(ops)+len(more) > backfillFacts {
				batch = batch[:i] // the rest waits for the next transaction
				break
			}
			ops = append(ops, more...)
		}
		if len(ops) > core.MaxOps { // only with an extraordinarily dense episode
			return out, factbase.Errorf(factbase.EINVALID, "episode %s holds %d facts; the limit of a write is %d", batch[0].ID, len(ops), core.MaxOps)
		}
		res, err := s.core.ApplyWith(ctx, user, ops, func(w *core.Writer) error {
			w.DeferSheet() // once, at the end
			for _, ep := range batch {
				if err := w.Tx().MarkExtracted(ctx, ep.ID, w.Tx().Now()); err != nil {
					return fmt.Errorf("episode %s: %w", ep.ID, err)
				}
			}
			return nil
		})
		if err != nil {
			return out, err
		}
		out.Episodes += len(batch)
		out.Facts += res.Stored
		if progress != nil {
			progress(out.Episodes, max(total, out.Episodes))
		}
	}
}
