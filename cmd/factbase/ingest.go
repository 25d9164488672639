package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/ingest"
	"github.com/factbase/factbase/transcript"
)

const ingestUsage = `Usage:
  factbase ingest transcript [flags] FILE|DIR...

Reads agent session logs (JSONL, one message per line, such as Claude Code's
~/.claude/projects/*/*.jsonl) and stores their facts. Directories are walked for
*.jsonl files. Ingest is idempotent and resumable: a file ingested before is read
from where the last ingest stopped, so only appended lines are read; a file that
was rewritten is read again from the start. Malformed lines are reported and
skipped. --rules adds rules to the built-in ones or overrides them (see the
transcript package documentation for the format).

Flags:
`

// ingestTotals is the summary of one ingest command.
type ingestTotals struct {
	Files      []ingest.IngestSummary `json:"files"`
	Failed     []ingestFailure        `json:"failed,omitempty"`
	Lines      int                    `json:"lines"`
	Bytes      int64                  `json:"bytes"`
	Facts      int                    `json:"facts"`
	Stored     int                    `json:"stored"`
	Duplicates int                    `json:"duplicates"`
	Invalid    int                    `json:"invalid"`
	Malformed  int                    `json:"malformed"`
}

type ingestFailure struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

func (t *ingestTotals) add(s ingest.IngestSummary) {
	t.Files = append(t.Files, s)
	t.Lines += s.Lines
	t.Bytes += s.Bytes
	t.Facts += s.Facts
	t.Stored += s.Stored
	t.Duplicates += s.Duplicate
	t.Invalid += s.Invalid
	t.Malformed += s.Malformed
}

// runIngest implements "factbase ingest transcript".
func (m *Main) runIngest(ctx context.Context, args []string) error {
	if done, err := m.familyHelp(args, ingestUsage, "ingest needs a kind of input: transcript"); done {
		return err
	}
	if args[0] != "transcript" {
		return usagef("unknown ingest kind %q (transcript)", args[0])
	}
	var (
		c                  common
		rulesPath          string
		finished, redact   bool
		progress, noReport bool
	)
	fset := m.flags("ingest transcript", &c, true)
	fset.StringVar(&rulesPath, "rules", "", "a rules file (JSON) adding to or overriding the built-in rules")
	fset.BoolVar(&finished, "finished", false, "the files are complete: read a last line that has no newline")
	fset.BoolVar(&redact, "redact", false, "mask passwords and tokens in stored commands")
	fset.BoolVar(&progress, "progress", false, "draw the progress bar even when stderr is not a terminal")
	fset.BoolVar(&noReport, "no-progress", false, "never draw the progress bar")
	setUsage(fset, ingestUsage)
	if err := parse(fset, args[1:]); err != nil {
		return err
	}
	if fset.NArg() == 0 {
		return usagef("ingest transcript needs at least one FILE or DIR")
	}
	user, err := c.userID()
	if err != nil {
		return err
	}
	opts := ingest.IngestOptions{Finished: finished, Extractor: transcript.ExtractorOptions{Redact: redact}}
	if rulesPath != "" {
		if opts.Rules, err = loadRules(rulesPath); err != nil {
			return err
		}
	}
	files, err := transcriptFiles(fset.Args())
	if err != nil {
		return err
	}
	var total int64
	for _, f := range files {
		total += f.size
	}
	e, closeFn, err := m.openEngine(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()

	var bar *progressBar
	if !noReport && (progress || isTerminal(m.Stderr)) {
		bar = &progressBar{w: m.Stderr, total: total, start: time.Now()}
	}
	var (
		t    ingestTotals
		base int64 // bytes of the files before the current one
	)
	for _, f := range files {
		if bar != nil {
			opts.Progress = func(p ingest.IngestProgress) { bar.update(base + p.Offset) }
		}
		s, err := m.ingestOne(ctx, e, user, f.path, opts)
		base += f.size
		if bar != nil {
			bar.update(base)
		}
		if err != nil {
			if ctx.Err() != nil {
				bar.finish()
				return err
			}
			t.Failed = append(t.Failed, ingestFailure{File: f.path, Error: factbase.ErrorMessage(err)})
			if factbase.ErrorCode(err) == factbase.EINTERNAL {
				t.Failed[len(t.Failed)-1].Error = err.Error()
			}
			continue
		}
		t.add(s)
	}
	bar.finish()
	if err := m.print(&c, t, func() error { return m.printIngest(t) }); err != nil {
		return err
	}
	if len(t.Failed) > 0 {
		return fmt.Errorf("%d of %d files could not be ingested", len(t.Failed), len(files))
	}
	return nil
}

func (m *Main) ingestOne(ctx context.Context, e *memory.Engine, user factbase.UserID, path string, o ingest.IngestOptions) (ingest.IngestSummary, error) {
	f, err := os.Open(path)
	if err != nil {
		return ingest.IngestSummary{File: path}, factbase.Errorf(factbase.EINVALID, "cannot read %s: %v", path, err)
	}
	defer f.Close()
	return e.Ingest.IngestTranscript(ctx, user, f, path, o)
}

// loadRules reads a rules file and merges it over the built-in rules.
func loadRules(path string) (*transcript.Rules, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, factbase.Errorf(factbase.EINVALID, "cannot read rules file: %v", err)
	}
	defer f.Close()
	mine, err := transcript.LoadRules(f, path)
	if err != nil {
		return nil, err
	}
	return transcript.DefaultRules().Merge(mine), nil
}

type transcriptFile struct {
	path string // absolute: the name the checkpoint is kept under
	size int64
}

// transcriptFiles expands the arguments: a file is taken as it is, a directory is
// walked for *.jsonl files. Paths are made absolute so that a checkpoint holds
// whatever directory the command runs from.
func transcriptFiles(args []string) ([]transcriptFile, error) {
	var out []transcriptFile
	seen := map[string]bool{}
	addFile := func(p string, size int64) {
		if !seen[p] {
			seen[p] = true
			out = append(out, transcriptFile{p, size})
		}
	}
	for _, a := range args {
		abs, err := filepath.Abs(a)
		if err != nil {
			return nil, factbase.Errorf(factbase.EINVALID, "%s: %v", a, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, factbase.Errorf(factbase.EINVALID, "cannot read %s: %v", a, err)
		}
		if !st.IsDir() {
			addFile(abs, st.Size())
			continue
		}
		var found []transcriptFile
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".jsonl") || !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			found = append(found, transcriptFile{p, info.Size()})
			return nil
		})
		if err != nil {
			return nil, factbase.Errorf(factbase.EINVALID, "cannot walk %s: %v", a, err)
		}
		sort.Slice(found, func(i, j int) bool { return found[i].path < found[j].path })
		for _, f := range found {
			addFile(f.path, f.size)
		}
	}
	return out, nil
}

func (m *Main) printIngest(t ingestTotals) error {
	for _, s := range t.Files {
		for _, b := range s.Bad {
			fmt.Fprintf(m.Stderr, "factbase: %s:%d: %s (skipped)\n", s.File, b.Line, b.Reason)
		}
		if n := s.Malformed - len(s.Bad); n > 0 {
			fmt.Fprintf(m.Stderr, "factbase: %s: %d more malformed lines (skipped)\n", s.File, n)
		}
		if s.Rewritten {
			fmt.Fprintf(m.Stderr, "factbase: %s changed since it was last ingested; read again from the start\n", s.File)
		}
		if s.Incomplete {
			fmt.Fprintf(m.Stderr, "factbase: %s: the last line has no newline yet; left for the next ingest (--finished reads it)\n", s.File)
		}
	}
	for _, f := range t.Failed {
		fmt.Fprintf(m.Stderr, "factbase: %s: %s\n", f.File, f.Error)
	}
	fmt.Fprintf(m.Stdout, "Ingested %s (%s, %s): %s stored, %s skipped, %s.\n",
		plural(len(t.Files), "file"), formatBytes(t.Bytes), plural(t.Lines, "line"), plural(t.Stored, "fact"),
		plural(t.Duplicates, "duplicate"), plural(t.Malformed, "malformed line"))
	if t.Invalid > 0 {
		fmt.Fprintf(m.Stdout, "%s could not be stored (an empty or punctuation-only object) and were skipped.\n", plural(t.Invalid, "extracted fact"))
	}
	return nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func formatBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return plural(int(n), "byte")
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressBar draws "[=====>    ]  45%  90.1/200.0 MB  52.3 MB/s" on one line,
// at most ten times a second. A nil *progressBar draws nothing.
type progressBar struct {
	w     io.Writer
	total int64
	start time.Time
	last  time.Time
	drawn bool
}

func (p *progressBar) update(done int64) {
	if p == nil {
		return
	}
	now := time.Now()
	if p.drawn && now.Sub(p.last) < 100*time.Millisecond && done < p.total {
		return
	}
	p.last, p.drawn = now, true
	fmt.Fprint(p.w, "\r"+renderBar(done, p.total, now.Sub(p.start), 30))
}

// finish clears the bar's line.
func (p *progressBar) finish() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\033[K")
}

// renderBar renders the bar of done out of total bytes after elapsed, width
// characters between the brackets.
func renderBar(done, total int64, elapsed time.Duration, width int) string {
	frac := 1.0
	if total > 0 {
		frac = min(1, max(0, float64(done)/float64(total)))
	}
	fill := int(frac * float64(width))
	bar := strings.Repeat("=", fill)
	if fill < width {
		bar += ">" + strings.Repeat(" ", width-fill-1)
	}
	rate := ""
	if s := elapsed.Seconds(); s > 0 {
		rate = fmt.Sprintf("  %.1f MB/s", float64(done)/1e6/s)
	}
	return fmt.Sprintf("[%s] %3.0f%%  %.1f/%.1f MB%s", bar, frac*100, float64(done)/1e6, float64(total)/1e6, rate)
}
