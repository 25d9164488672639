package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/transcript"
)

// Transcript ingestion defaults (IngestOptions).
const (
	DefaultIngestBatchFacts = 2000
	DefaultIngestBatchBytes = 8 << 20
	// MaxReportedMalformed is how many malformed lines an IngestSummary lists; the
	// count covers them all.
	MaxReportedMalformed = 100
	// TranscriptFactType is the Type of every fact ingested from a transcript.
	TranscriptFactType = "transcript"
	// MaxTranscriptName is the longest transcript file name, in bytes.
	MaxTranscriptName = 4096
)

// Page limits of transcript queries.
const (
	DefaultTranscriptLimit = 1000
	MaxTranscriptLimit     = 10000
)

// IngestOptions configure IngestTranscript. The zero value is usable.
type IngestOptions struct {
	// Rules are the pattern rules; nil means transcript.DefaultRules(). To add a
	// user's rules file, pass transcript.DefaultRules().Merge(loaded).
	Rules *transcript.Rules
	// Extractor configures the extractor (snippet sizes, redaction, ...); the zero
	// value means its defaults.
	Extractor transcript.ExtractorOptions
	// MaxLineSize is the longest line read; 0 means transcript.DefaultMaxLineSize.
	MaxLineSize int
	// Finished says the file is complete: a last line without a newline is read if
	// it is valid JSON. By default such a line is left for a later ingest, because
	// the agent may still be writing it.
	Finished bool
	// BatchFacts is how many facts one write transaction holds at most; default
	// DefaultIngestBatchFacts (2,000), at most core.MaxOps.
	BatchFacts int
	// BatchBytes is how many bytes of input one write transaction covers at most;
	// default DefaultIngestBatchBytes (8 MiB).
	BatchBytes int64
	// Progress, if set, is called after each committed batch with the file's
	// committed offset. It is called from the goroutine that writes, one call at a
	// time, and should return quickly.
	Progress func(IngestProgress)
}

// IngestProgress reports how far an ingest has committed.
type IngestProgress struct {
	File   string
	Offset int64 // bytes of the file committed (read and stored), from its start
	Stored int   // facts stored so far by this ingest
}

// MalformedLine is a line an ingest skipped.
type MalformedLine struct {
	Line   int    `json:"line"`   // 1-based
	Offset int64  `json:"offset"` // byte offset of the line's start
	Reason string `json:"reason"`
}

// IngestSummary reports what one IngestTranscript call did.
type IngestSummary struct {
	File string `json:"file"`
	// Resumed is set when the stored checkpoint matched the file's start, so only
	// what followed it was read.
	Resumed bool `json:"resumed"`
	// Rewritten is set when the file no longer starts with what was ingested
	// before (it was rewritten or truncated): it was read again from the start.
	Rewritten bool  `json:"rewritten"`
	Lines     int   `json:"lines"` // lines read by this call
	Bytes     int64 `json:"bytes"` // bytes read by this call
	Messages  int   `json:"messages"`
	Facts     int   `json:"facts"`      // facts extracted
	Stored    int   `json:"stored"`     // facts stored
	Duplicate int   `json:"duplicates"` // facts not stored because they were already there
	// Invalid counts extracted facts the write path would refuse (an object of
	// nothing but punctuation, say); they are skipped.
	Invalid   int             `json:"invalid"`
	Malformed int             `json:"malformed"` // lines skipped as malformed
	Bad       []MalformedLine `json:"malformed_lines,omitempty"`
	// Incomplete is set when the file ends in a line without a newline that was
	// left for a later ingest (see IngestOptions.Finished).
	Incomplete bool `json:"incomplete"`
	Sessions   int  `json:"sessions"` // sessions written by this call
	// Offset and Line are the checkpoint after this call: the file's bytes and
	// lines ingested so far.
	Offset int64 `json:"offset"`
	Line   int   `json:"line"`
}

// IngestTranscript reads an agent session log (JSONL) from f and stores its facts
// for user through the one write path, in batches: each batch's facts, the file's
// checkpoint and the sessions it touched commit in one transaction, so a crash
// loses and repeats no work. name identifies the file across calls (the CLI gives
// its absolute path).
//
// Ingest is idempotent and resumable: a file whose start matches the stored
// checkpoint is read from there on, so calling again on an unchanged file reads
// nothing and one that grew stores only the new lines' facts; a file that was
// rewritten is read again from the start (the write path skips the facts already
// stored). A malformed line is counted, listed and skipped; it never aborts the
// file. A last line without a newline is left for later unless o.Finished.
//
// Two ingests of the same file for the same user at once: one of them fails with
// ECONFLICT at its first commit after the other's. On an error the summary reports
// what was committed before it.
func (s *Service) IngestTranscript(ctx context.Context, user factbase.UserID, f io.ReadSeeker, name string, o IngestOptions) (IngestSummary, error) {
	sum := IngestSummary{File: name}
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return sum, err
	}
	if err := validateTranscriptName(name); err != nil {
		return sum, err
	}
	if o.BatchFacts <= 0 {
		o.BatchFacts = DefaultIngestBatchFacts
	}
	o.BatchFacts = min(o.BatchFacts, core.MaxOps)
	if o.BatchBytes <= 0 {
		o.BatchBytes = DefaultIngestBatchBytes
	}
	var (
		stored factbase.TranscriptCheckpoint
		had    bool
	)
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) (err error) {
		stored, had, err = tx.TranscriptCheckpoint(ctx, name)
		return err
	})
	if err != nil {
		return sum, err
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return sum, fmt.Errorf("transcript %s: %w", name, err)
	}

	in := &ingest{e: s, ctx: ctx, user: user, name: name, o: o, sum: &sum,
		x:        transcript.NewExtractor(o.Rules, o.Extractor),
		sessions: transcript.NewSessions(),
		dirty:    map[string]bool{},
		links:    map[factbase.TranscriptLink]bool{}}
	ropts := transcript.Options{MaxLineSize: o.MaxLineSize, AcceptUnterminated: o.Finished}
	if had && size > stored.Offset {
		// The extractor links actions to tasks along the parentUuid chain, and the
		// sessions tracker counts every line: both learn the consumed prefix again.
		ropts.Replay = func(m transcript.Message) {
			in.x.Observe(m)
			in.sessions.Add(m)
			if m.SessionID != "" {
				in.lastSession = m.SessionID
			}
		}
	}
	cp := transcript.Checkpoint{Offset: stored.Offset, Line: stored.Line, Sum: stored.Sum}
	r, resumed, err := transcript.Resume(f, name, cp, ropts)
	if err != nil {
		return sum, err
	}
	sum.Resumed = had && resumed
	sum.Rewritten = had && !resumed
	if !resumed {
		cp = transcript.Checkpoint{}
	}
	in.start, in.startLine = cp.Offset, cp.Line
	in.expect = expected{ok: had, cp: stored}
	sum.Offset, sum.Line = cp.Offset, cp.Line
	// run fills sum through in.sum; call it before sum is read for the return.
	err = in.run(r)
	s.core.SheetAfter(ctx, user, sum.Stored+sum.Duplicate > 0)
	return sum, err
}

func validateTranscriptName(name string) error {
	switch {
	case name == "":
		return factbase.Errorf(factbase.EINVALID, "transcript file name is empty")
	case len(name) > MaxTranscriptName:
		return factbase.Errorf(factbase.EINVALID, "transcript file name is %d bytes; the limit is %d", len(name), MaxTranscriptName)
	case !utf8.ValidString(name):
		return factbase.Errorf(factbase.EINVALID, "transcript file name is not valid UTF-8")
	}
	return nil
}

// expected is the checkpoint a batch expects to find stored: what the ingest read
// at its start, then what it last wrote.
type expected struct {
	ok bool
	cp factbase.TranscriptCheckpoint
}

func (x expected) matches(cp factbase.TranscriptCheckpoint, ok bool) bool {
	if ok != x.ok {
		return false
	}
	return !ok || cp.Offset == x.cp.Offset && cp.Line == x.cp.Line && bytes.Equal(cp.Sum, x.cp.Sum)
}

// ingest is one IngestTranscript call: a reader that extracts facts into batches and
// prepares them (core.PrepareWrite: validated, normalised, embedded), and a writer
// goroutine that commits them, so that parsing, embedding and SQLite overlap.
type ingest struct {
	e    *Service
	ctx  context.Context
	user factbase.UserID
	name string
	o    IngestOptions
	sum  *IngestSummary

	x           *transcript.Extractor
	sessions    *transcript.Sessions
	lastSession string
	start       int64 // the offset reading started at
	startLine   int

	// The batch being built.
	ops   []factbase.Op
	links map[factbase.TranscriptLink]bool
	dirty map[string]bool // sessions touched since the last batch
	from  int64           // the offset the batch's input starts at

	// Writer state, touched only by the writer goroutine (and read after it ends).
	expect      expected
	clearedOnce bool
	stored      int
}

// batch is one write transaction's worth of work: its facts' writes, at most
// core.MaxOps ops each (the last carries the links, sessions and checkpoint).
type batch struct {
	writes   []*core.PreparedWrite
	links    []factbase.TranscriptLink
	sessions []factbase.TranscriptSession
	cp       transcript.Checkpoint
}

func (in *ingest) run(r *transcript.Reader) error {
	ctx, cancel := context.WithCancel(in.ctx)
	defer cancel()
	batches := make(chan batch, 1)
	var (
		wg   sync.WaitGroup
		werr error
		wsum = IngestSummary{Offset: in.start, Line: in.startLine} // the writer's counts
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for b := range batches {
			if werr != nil {
				continue // drain
			}
			if err := in.write(ctx, b, &wsum); err != nil {
				werr = err
				cancel()
			}
		}
	}()
	rerr := in.read(ctx, r, batches)
	close(batches)
	wg.Wait()
	in.sum.Stored, in.sum.Duplicate, in.sum.Sessions = wsum.Stored, wsum.Duplicate, wsum.Sessions
	in.sum.Offset, in.sum.Line = wsum.Offset, wsum.Line
	if werr != nil {
		return werr
	}
	if rerr != nil && in.ctx.Err() != nil {
		return factbase.Errorf(factbase.EUNAVAILABLE, "ingest of %s stopped: %v", in.name, in.ctx.Err())
	}
	return rerr
}

// read extracts facts from r and hands full batches to the writer.
func (in *ingest) read(ctx context.Context, r *transcript.Reader, batches chan<- batch) error {
	s := in.sum
	in.from = in.start
	defer func() { // what was read, also when reading stops early
		s.Lines = r.Line() - in.startLine
		s.Bytes = r.Offset() - in.start
	}()
	send := func(final bool) error {
		cp := r.Checkpoint()
		if final && len(in.ops) == 0 && len(in.dirty) == 0 && !in.sum.Rewritten && cp.Offset == in.start {
			return nil // nothing new: write nothing
		}
		b := batch{cp: cp, links: make([]factbase.TranscriptLink, 0, len(in.links))}
		// The facts are prepared here, beside the writer committing the batch before.
		for ops := in.ops; ; {
			n := min(len(ops), core.MaxOps)
			p, err := in.e.core.PrepareWrite(ctx, ops[:n])
			if err != nil {
				return err
			}
			b.writes = append(b.writes, p)
			if ops = ops[n:]; len(ops) == 0 {
				break
			}
		}
		for l := range in.links {
			b.links = append(b.links, l)
		}
		for id := range in.dirty {
			if ss, ok := in.sessions.Get(id); ok {
				b.sessions = append(b.sessions, toTranscriptSession(ss, in.name))
			}
		}
		sort.Slice(b.sessions, func(i, j int) bool { return b.sessions[i].ID < b.sessions[j].ID })
		in.ops = make([]factbase.Op, 0, len(in.ops))
		clear(in.links)
		clear(in.dirty)
		in.from = cp.Offset
		select {
		case batches <- b:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for n := 0; ; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var bad *transcript.Malformed
		if errors.As(err, &bad) {
			if bad.Incomplete {
				s.Incomplete = true
				continue
			}
			s.Malformed++
			if len(s.Bad) < MaxReportedMalformed {
				s.Bad = append(s.Bad, MalformedLine{Line: bad.Line, Offset: bad.Offset, Reason: bad.Reason})
			}
			continue
		}
		if err != nil {
			return err
		}
		s.Messages++
		in.sessions.Add(m)
		if m.SessionID != "" {
			in.lastSession = m.SessionID
		}
		if in.lastSession != "" {
			in.dirty[in.lastSession] = true
		}
		for _, f := range in.x.Extract(m) {
			s.Facts++
			op, err := in.e.core.Prepare(transcriptOp(f))
			if err != nil {
				s.Invalid++
				continue
			}
			in.ops = append(in.ops, op)
			if f.SessionID != "" {
				in.links[factbase.TranscriptLink{Subject: f.Subject, Session: f.SessionID}] = true
			}
		}
		if len(in.ops) >= in.o.BatchFacts || m.End-in.from >= in.o.BatchBytes {
			if err := send(false); err != nil {
				return err
			}
		}
	}
	return send(true)
}

// transcriptOp maps an extracted fact to a write: a member of the set
// (subject, predicate), so that the same object is never stored twice for a subject.
func transcriptOp(f transcript.Fact) factbase.Op {
	return factbase.Op{Kind: factbase.OpSet, Fact: factbase.Fact{
		Subject:     f.Subject,
		Key:         f.Predicate,
		Value:       f.Object,
		Cardinality: factbase.Many,
		Confidence:  f.Confidence,
		Category:    factbase.Technical,
		Type:        TranscriptFactType,
		Source:      f.Source(),
		Extractor:   f.Rule,
		ValidFrom:   f.Timestamp, // the write path uses now for a zero or future time
	}}
}

func toTranscriptSession(s transcript.Session, file string) factbase.TranscriptSession {
	return factbase.TranscriptSession{ID: s.ID, File: file, CWD: s.CWD, GitBranch: s.GitBranch,
		Version: s.Version, Summary: s.Summary, First: s.First, Last: s.Last,
		Users: s.Users, Assistants: s.Assistants, Other: s.Other}
}

// write commits one batch: its facts through the write path, and in the same
// transaction the links, the sessions and the checkpoint. A batch is full at
// BatchFacts (at most core.MaxOps) facts, checked after each message, so the last
// message's facts can carry it past core.MaxOps: those first core.MaxOps facts then
// commit on their own, without the checkpoint (should the rest fail, reading again
// stores nothing twice). Between the transactions, other writers take their turn.
func (in *ingest) write(ctx context.Context, b batch, ws *IngestSummary) error {
	for len(b.writes) > 1 {
		res, err := in.e.core.ApplyPrepared(ctx, in.user, b.writes[0], func(w *core.Writer) error {
			w.DeferSheet() // once, at the end of the ingest
			return in.checkExpected(ctx, w.Tx())
		})
		if err != nil {
			return err
		}
		ws.Stored += res.Stored
		ws.Duplicate += len(res.Duplicates)
		b.writes = b.writes[1:]
	}
	cp := factbase.TranscriptCheckpoint{File: in.name, Offset: b.cp.Offset, Line: b.cp.Line, Sum: b.cp.Sum}
	res, err := in.e.core.ApplyPrepared(ctx, in.user, b.writes[0], func(w *core.Writer) error {
		w.DeferSheet() // once, at the end of the ingest
		if err := in.checkExpected(ctx, w.Tx()); err != nil {
			return err
		}
		if in.sum.Rewritten && !in.clearedOnce {
			if _, err := w.Tx().DeleteTranscriptSessions(ctx, in.name); err != nil {
				return err
			}
		}
		if err := w.Tx().LinkTranscriptSubjects(ctx, b.links); err != nil {
			return err
		}
		for _, s := range b.sessions {
			if err := w.Tx().PutTranscriptSession(ctx, s); err != nil {
				return err
			}
		}
		return w.Tx().PutTranscriptCheckpoint(ctx, cp)
	})
	if err != nil {
		return err
	}
	in.clearedOnce = true
	in.expect = expected{ok: true, cp: cp}
	ws.Stored += res.Stored
	ws.Duplicate += len(res.Duplicates)
	ws.Sessions += len(b.sessions)
	ws.Offset, ws.Line = cp.Offset, cp.Line
	if in.o.Progress != nil {
		in.o.Progress(IngestProgress{File: in.name, Offset: cp.Offset, Stored: ws.Stored})
	}
	return nil
}

// checkExpected refuses to write when the stored checkpoint is not the one this
// ingest last saw: another run ingested the file meanwhile.
func (in *ingest) checkExpected(ctx context.Context, tx factbase.Tx) error {
	got, ok, err := tx.TranscriptCheckpoint(ctx, in.name)
	if err != nil {
		return err
	}
	if !in.expect.matches(got, ok) {
		return factbase.Errorf(factbase.ECONFLICT, "transcript %s was ingested by another run at the same time; run the ingest again", in.name)
	}
	return nil
}

// checkTranscriptQuery validates q and fills its default limit.
func checkTranscriptQuery(user factbase.UserID, q *factbase.TranscriptQuery) error {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return err
	}
	if q.Predicate != "" {
		if err := factbase.ValidateKey(q.Predicate); err != nil {
			return err
		}
	}
	if q.MinConfidence < 0 || q.MinConfidence > 1 || q.MinConfidence != q.MinConfidence {
		return factbase.Errorf(factbase.EINVALID, "minimum confidence %v is outside 0..1", q.MinConfidence)
	}
	if q.Limit == 0 {
		q.Limit = DefaultTranscriptLimit
	}
	if q.Limit < 0 || q.Limit > MaxTranscriptLimit {
		return factbase.Errorf(factbase.EINVALID, "limit %d is outside 1..%d", q.Limit, MaxTranscriptLimit)
	}
	if q.Offset < 0 {
		return factbase.Errorf(factbase.EINVALID, "offset %d is negative", q.Offset)
	}
	return nil
}

// TranscriptFacts returns the user's current facts from transcripts that q selects
// (by predicate, subject, session, object substring, minimum confidence), oldest
// first, and whether more follow the page. Limit 0 means DefaultTranscriptLimit;
// above MaxTranscriptLimit is EINVALID.
func (s *Service) TranscriptFacts(ctx context.Context, user factbase.UserID, q factbase.TranscriptQuery) ([]factbase.Fact, bool, error) {
	if err := checkTranscriptQuery(user, &q); err != nil {
		return nil, false, err
	}
	var (
		facts []factbase.Fact
		more  bool
	)
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		limit := q.Limit
		q.Limit++
		fs, err := tx.TranscriptFacts(ctx, q)
		facts, more = core.TrimPage(fs, limit)
		return err
	})
	return facts, more, err
}

// TranscriptObjects returns the distinct objects of the facts q selects, each with
// its number of facts and the sessions they came from, most facts first: for
// example every host the user's agents connected to (predicate connects_to_host).
// Limit and Offset page through the objects; more is true when objects follow the
// page. Each object lists at most factbase.MaxObjectSessions sessions.
func (s *Service) TranscriptObjects(ctx context.Context, user factbase.UserID, q factbase.TranscriptQuery) ([]factbase.TranscriptObject, bool, error) {
	if err := checkTranscriptQuery(user, &q); err != nil {
		return nil, false, err
	}
	var (
		objs []factbase.TranscriptObject
		more bool
	)
	err := s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		limit := q.Limit
		q.Limit++
		os, err := tx.TranscriptObjects(ctx, q)
		objs, more = core.TrimPage(os, limit)
		return err
	})
	return objs, more, err
}

// TranscriptSessions returns a page of the stored sessions with id id (one row per
// file that mentions it), or of every session for id "", and whether more follow the
// page. A zero limit means core.DefaultPageSize; a limit above core.MaxPageSize or a
// negative offset is EINVALID.
func (s *Service) TranscriptSessions(ctx context.Context, user factbase.UserID, id string, offset, limit int) ([]factbase.TranscriptSession, bool, error) {
	if _, err := factbase.ParseUserID(string(user)); err != nil {
		return nil, false, err
	}
	limit, err := core.PageLimit(offset, limit)
	if err != nil {
		return nil, false, err
	}
	var (
		ss   []factbase.TranscriptSession
		more bool
	)
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		rows, err := tx.TranscriptSessions(ctx, id, offset, limit+1)
		ss, more = core.TrimPage(rows, limit)
		return err
	})
	return ss, more, err
}

// TranscriptCheckpoint returns how far the user's ingest of file got; ok is false if
// it was never ingested.
func (s *Service) TranscriptCheckpoint(ctx context.Context, user factbase.UserID, file string) (cp factbase.TranscriptCheckpoint, ok bool, err error) {
	err = s.core.View(ctx, user, func(tx factbase.ReadTx) error {
		cp, ok, err = tx.TranscriptCheckpoint(ctx, file)
		return err
	})
	return cp, ok, err
}
