package core

import (
	"context"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/sheet"
)

// DefaultSheetRetention is how long saved fact sheets are kept by default: when a new
// sheet is saved, the user's sheets created more than this before it are deleted.
const DefaultSheetRetention = 7 * 24 * time.Hour

// SheetOptions configure fact sheet generation. Zero fields take the engine's
// Options.Sheet, whose zero fields take the defaults below.
type SheetOptions struct {
	// Config holds the weights, decay table, per-category limits and size. A Config
	// with Size 0 is unset. Default sheet.DefaultConfig().
	Config sheet.Config
	// Privacy leaves facts of sensitivity "high" off the sheet. It is on if set here
	// or in the engine's options (or in Config). Default false.
	Privacy bool
	// Retention: saving a sheet deletes the user's sheets created more than this
	// before it. Default DefaultSheetRetention (7 days).
	Retention time.Duration
	// Now, when set, is the time of assembly and the sheet's created time, instead of
	// the store's time (for what-if sheets and tests).
	Now time.Time
}

// sheetOptions resolves o against the engine's options and the defaults.
func (e *Engine) sheetOptions(o SheetOptions) SheetOptions {
	base := e.opts.Sheet
	if o.Config.Size == 0 {
		o.Config = base.Config
	}
	if o.Config.Size == 0 {
		o.Config = sheet.DefaultConfig()
	}
	o.Config.Privacy = o.Config.Privacy || o.Privacy || base.Privacy || base.Config.Privacy
	o.Privacy = o.Config.Privacy
	if o.Retention == 0 {
		o.Retention = base.Retention
	}
	if o.Retention == 0 {
		o.Retention = DefaultSheetRetention
	}
	return o
}

// scanViewer is a store with a cheaper way to run a read that walks most of a
// user's data (SQLite maps the file for its duration); ScanView has View's
// contract. The fact sheet's read uses it when the store has it: a speed-up of one
// backend, so it is not part of the store contract.
type scanViewer interface {
	ScanView(ctx context.Context, user factbase.UserID, fn func(tx factbase.ReadTx) error) error
}

// relabeledTexts returns the texts of the user's current facts about people whose
// name or relation changed since the facts were written (factbase.Relabeler), by
// fact id: the facts of the other people are not read.
func relabeledTexts(ctx context.Context, tx factbase.ReadTx) (map[string]string, error) {
	ens, err := tx.Entities(ctx, factbase.EntityFilter{})
	if err != nil {
		return nil, err
	}
	r := factbase.NewRelabeler(ens)
	out := map[string]string{}
	for _, subject := range r.Stale() {
		fs, err := tx.Facts(ctx, factbase.FactFilter{Subject: subject})
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if t := r.Text(f); t != f.Text {
				out[f.ID] = t
			}
		}
	}
	return out, nil
}

// GenerateSheet scores the user's current facts by their references, assembles the
// fact sheet (see package sheet), saves it, deleting the user's sheets older than the
// retention, and returns it. The facts and their references are read in one
// snapshot, counted per decay bucket by the store rather than loaded one by one.
// Returns EINVALID for a bad user or configuration.
func (e *Engine) GenerateSheet(ctx context.Context, user factbase.UserID, o SheetOptions) (factbase.FactSheet, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.FactSheet{}, err
	}
	o = e.sheetOptions(o)
	if o.Retention < 0 {
		return factbase.FactSheet{}, factbase.Errorf(factbase.EINVALID, "sheet retention %v is negative", o.Retention)
	}
	if err := o.Config.Validate(); err != nil {
		return factbase.FactSheet{}, err
	}
	var (
		cands candidates
		now   time.Time
	)
	view := e.store.View
	if sv, ok := e.store.(scanViewer); ok {
		view = sv.ScanView
	}
	err := view(ctx, user, func(tx factbase.ReadTx) error {
		now = o.Now
		if now.IsZero() {
			now = tx.Now()
		}
		relabeled, err := relabeledTexts(ctx, tx)
		if err != nil {
			return err
		}
		cuts := sheet.Cutoffs(now, o.Config.Buckets)
		return tx.SheetFacts(ctx, cuts, func(f factbase.SheetFact) error {
			c := cands.next(len(cuts) + 1)
			text := f.Text
			if t, ok := relabeled[f.ID]; ok {
				text = t
			}
			*c = sheet.Candidate{
				FactID: f.ID, Category: f.Category, Text: text, Key: f.Key, Value: f.Value,
				Sensitivity: f.Sensitivity, Current: true, RecordedAt: f.RecordedAt,
				Counts: sheet.BucketCounts(append(c.Counts, f.Newer...), f.References), Last: f.Last,
			}
			return nil
		})
	})
	if err != nil {
		return factbase.FactSheet{}, err
	}
	sh, err := sheet.AssembleBlocks(cands.blocks, now, o.Config)
	if err != nil {
		return factbase.FactSheet{}, err
	}
	fs := toFactSheet(sh)
	fs.ID, fs.User, fs.CreatedAt = e.opts.NewID(), user, now.UTC()
	if _, err := e.store.SaveSheet(ctx, fs, o.Retention); err != nil {
		return factbase.FactSheet{}, err
	}
	return fs, nil
}

// candidates collects a user's candidates in blocks of candidateBlock (for
// sheet.AssembleBlocks), so that 100,000 of them are never copied, and carves their
// bucket counts out of shared arrays instead of one allocation each.
type candidates struct {
	blocks [][]sheet.Candidate
	ints   []int
}

const candidateBlock = 4096

// next returns a new zero candidate whose Counts is an empty slice with room for k
// counts.
func (cs *candidates) next(k int) *sheet.Candidate {
	if len(cs.blocks) == 0 || len(cs.blocks[len(cs.blocks)-1]) == candidateBlock {
		cs.blocks = append(cs.blocks, make([]sheet.Candidate, 0, candidateBlock))
	}
	if len(cs.ints) < k {
		cs.ints = make([]int, k*candidateBlock)
	}
	b := &cs.blocks[len(cs.blocks)-1]
	*b = append(*b, sheet.Candidate{Counts: cs.ints[:0:k]})
	cs.ints = cs.ints[k:]
	return &(*b)[len(*b)-1]
}

// RegenerateSheet generates and saves the user's sheet with the engine's options.
// Ingest paths call it after a write that changed the user's facts (SheetChanged).
func (e *Engine) RegenerateSheet(ctx context.Context, user factbase.UserID) error {
	_, err := e.GenerateSheet(ctx, user, SheetOptions{})
	return err
}

// SheetAfter regenerates the user's fact sheet after a committed write that changed
// the user's facts (changed: SheetChanged of its result), unless
// Options.NoSheetRegen: in the background with Options.BackgroundDelay, else now.
// Every write through Update does it; a feature that deferred it (Writer.DeferSheet)
// calls it once at the end. It is best effort: the write has committed, and a failed
// regeneration leaves the previous sheet in place until the next one.
func (e *Engine) SheetAfter(ctx context.Context, user factbase.UserID, changed bool) {
	if e.opts.NoSheetRegen || !changed {
		return
	}
	if e.bg != nil && e.bg.markSheet(user) { // regenerated in the background: background.go
		return
	}
	_ = e.RegenerateSheet(ctx, user)
}

// pendingSheet regenerates user's sheet now if a write queued its regeneration for
// the background, so that a read never serves a sheet older than the user's last
// write.
func (e *Engine) pendingSheet(ctx context.Context, user factbase.UserID) error {
	if e.bg != nil && e.bg.takeSheet(user) {
		return e.RegenerateSheet(ctx, user)
	}
	return nil
}

// SheetChanged reports whether a write result can change the user's fact sheet: it
// stored, superseded, retracted or erased facts, changed a ranked list, or restated a
// fact (a duplicate or a ranked NOOP adds a reference, so the fact gains weight).
func SheetChanged(res factbase.Result) bool {
	return res.Stored+res.Updated+res.Retracted+res.Deleted > 0 || len(res.Duplicates) > 0 || len(res.Mutations) > 0
}

// LatestSheet returns the user's most recently saved sheet. A user who has none yet
// gets one generated and saved with the engine's options, so the first read of a
// sheet never fails for want of a generation.
func (e *Engine) LatestSheet(ctx context.Context, user factbase.UserID) (factbase.FactSheet, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.FactSheet{}, err
	}
	if err := e.pendingSheet(ctx, user); err != nil {
		return factbase.FactSheet{}, err
	}
	fs, err := e.store.LatestSheet(ctx, user)
	if factbase.ErrorCode(err) == factbase.ENOTFOUND {
		return e.GenerateSheet(ctx, user, SheetOptions{})
	}
	return fs, err
}

// SavedSheet returns the user's most recently saved sheet, or ENOTFOUND if none has
// been saved yet (unlike LatestSheet, it never generates one).
func (e *Engine) SavedSheet(ctx context.Context, user factbase.UserID) (factbase.FactSheet, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return factbase.FactSheet{}, err
	}
	if err := e.pendingSheet(ctx, user); err != nil {
		return factbase.FactSheet{}, err
	}
	return e.store.LatestSheet(ctx, user)
}

// SheetPrompt is the prompt rendering of a saved sheet.
type SheetPrompt struct {
	SheetID   string    `json:"sheet_id"`
	CreatedAt time.Time `json:"created_at"`
	Text      string    `json:"text"`    // the block (sheet.Render's format); "" for an empty sheet
	Dropped   int       `json:"dropped"` // entries left out to fit the budget
	Tokens    int       `json:"tokens"`  // sheet.EstimateTokens(Text)
}

// SheetPrompt renders the user's latest sheet (see LatestSheet) as a prompt block
// within the budget of ro, dropping the lowest-ranked entries first.
func (e *Engine) SheetPrompt(ctx context.Context, user factbase.UserID, ro sheet.RenderOptions) (SheetPrompt, error) {
	if ro.MaxChars < 0 || ro.MaxTokens < 0 {
		return SheetPrompt{}, factbase.Errorf(factbase.EINVALID, "a prompt budget cannot be negative")
	}
	fs, err := e.LatestSheet(ctx, user)
	if err != nil {
		return SheetPrompt{}, err
	}
	text, dropped := sheet.Render(FromFactSheet(fs), ro)
	return SheetPrompt{SheetID: fs.ID, CreatedAt: fs.CreatedAt, Text: text, Dropped: dropped,
		Tokens: sheet.EstimateTokens(text)}, nil
}

// toFactSheet converts an assembled sheet into its saved form (without id, user and
// time).
func toFactSheet(sh sheet.Sheet) factbase.FactSheet {
	fs := factbase.FactSheet{Count: sh.Count, Entries: make([]factbase.SheetEntry, len(sh.Entries)),
		Dedup: make([]factbase.SheetDedup, len(sh.Dedup))}
	for i, en := range sh.Entries {
		x := en.Explain
		bs := make([]factbase.SheetBucket, len(x.Buckets))
		for j, b := range x.Buckets {
			bs[j] = factbase.SheetBucket{Label: b.Label, Count: b.Count, Points: b.Points, Subtotal: b.Subtotal}
		}
		fs.Entries[i] = factbase.SheetEntry{FactID: en.FactID, Category: en.Category, Text: en.Text,
			Score: en.Score, LastReference: en.LastReference.UTC(),
			Explain: factbase.SheetExplain{Weight: x.Weight, References: x.References, Implicit: x.Implicit,
				Buckets: bs, ReferenceScore: x.ReferenceScore, Included: x.Included}}
	}
	for i, d := range sh.Dedup {
		fs.Dedup[i] = factbase.SheetDedup{Dropped: d.Dropped, Kept: d.Kept, Reason: d.Reason}
	}
	return fs
}

// FromFactSheet converts a saved sheet back into the sheet package's form, for
// sheet.Render. Counts is rebuilt from the entries; Skipped is not saved and is zero.
func FromFactSheet(fs factbase.FactSheet) sheet.Sheet {
	sh := sheet.Sheet{Count: len(fs.Entries), Entries: make([]sheet.Entry, len(fs.Entries)),
		Counts: make(map[factbase.Category]int, len(factbase.Categories))}
	for _, c := range factbase.Categories {
		sh.Counts[c] = 0
	}
	for i, en := range fs.Entries {
		x := en.Explain
		var bs []sheet.BucketCount
		for _, b := range x.Buckets {
			bs = append(bs, sheet.BucketCount{Label: b.Label, Count: b.Count, Points: b.Points, Subtotal: b.Subtotal})
		}
		sh.Entries[i] = sheet.Entry{FactID: en.FactID, Category: en.Category, Text: en.Text, Score: en.Score,
			LastReference: en.LastReference, Explain: sheet.Explain{Weight: x.Weight, References: x.References,
				Implicit: x.Implicit, Buckets: bs, ReferenceScore: x.ReferenceScore, Included: x.Included}}
		sh.Counts[en.Category]++
	}
	for _, d := range fs.Dedup {
		sh.Dedup = append(sh.Dedup, sheet.Dedup{Dropped: d.Dropped, Kept: d.Kept, Reason: d.Reason})
	}
	return sh
}
