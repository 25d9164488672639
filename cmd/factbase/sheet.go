package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory/core"
	"github.com/factbase/factbase/sheet"
)

const sheetUsage = `Usage: factbase sheet [flags]

Generate and save the user's fact sheet (the scored top 100 of their current facts:
category weight × decay points of each fact's references) and print it. With --latest,
print the most recently saved sheet instead of generating one.

  --explain   show how each score was computed and which duplicates were dropped
  --prompt    print the sheet as a prompt block (--max-tokens / --max-chars bound it)
  --json      print JSON (the sheet, or with --prompt the prompt block and its counts)

`

// runSheet implements "factbase sheet".
func (m *Main) runSheet(ctx context.Context, args []string) error {
	var (
		c                   common
		explain, prompt     bool
		latest, private     bool
		retention           time.Duration
		maxTokens, maxChars int
	)
	fs := m.flags("sheet", &c, true)
	fs.BoolVar(&explain, "explain", false, "show each entry's score explanation and the dedup log")
	fs.BoolVar(&prompt, "prompt", false, "print the sheet as a prompt block")
	fs.BoolVar(&latest, "latest", false, "print the latest saved sheet; do not generate one")
	fs.BoolVar(&private, "private", false, "privacy mode: leave facts of sensitivity high off the sheet")
	fs.DurationVar(&retention, "retention", core.DefaultSheetRetention, "delete the user's saved sheets older than this")
	fs.IntVar(&maxTokens, "max-tokens", 0, "with --prompt: the most estimated tokens (characters / 4); 0: no limit")
	fs.IntVar(&maxChars, "max-chars", 0, "with --prompt: the most characters; 0: no limit")
	setUsage(fs, sheetUsage)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("sheet takes no arguments, got %q", strings.Join(fs.Args(), " "))
	}
	switch {
	case maxTokens < 0 || maxChars < 0:
		return usagef("--max-tokens and --max-chars cannot be negative")
	case (maxTokens > 0 || maxChars > 0) && !prompt:
		return usagef("--max-tokens and --max-chars go with --prompt")
	case latest && (private || retention != core.DefaultSheetRetention):
		return usagef("--private and --retention apply when generating, not with --latest")
	case retention <= 0:
		return usagef("--retention must be positive, got %v", retention)
	}
	user, e, closeFn, err := m.openUser(ctx, &c)
	if err != nil {
		return err
	}
	defer closeFn()
	var sh factbase.FactSheet
	if latest {
		sh, err = e.SavedSheet(ctx, user)
	} else {
		sh, err = e.GenerateSheet(ctx, user, core.SheetOptions{Privacy: private, Retention: retention})
	}
	if err != nil {
		return err
	}
	if prompt {
		text, dropped := sheet.Render(core.FromFactSheet(sh), sheet.RenderOptions{MaxTokens: maxTokens, MaxChars: maxChars})
		return m.print(&c, core.SheetPrompt{SheetID: sh.ID, CreatedAt: sh.CreatedAt, Text: text,
			Dropped: dropped, Tokens: sheet.EstimateTokens(text)}, func() error {
			fmt.Fprint(m.Stdout, text)
			return nil
		})
	}
	return m.print(&c, sh, func() error { return m.printSheet(sh, explain) })
}

// printSheet writes a sheet for people: one line per entry under its category, and
// with explain, each score's derivation and the dedup log.
func (m *Main) printSheet(sh factbase.FactSheet, explain bool) error {
	w := m.Stdout
	fmt.Fprintf(w, "Fact sheet %s: %d entries, created %s\n", sh.ID, sh.Count, sh.CreatedAt.Format(time.RFC3339))
	var cat factbase.Category
	for i, en := range sh.Entries {
		if i == 0 || en.Category != cat {
			cat = en.Category
			fmt.Fprintf(w, "\n%s\n", cat)
		}
		fmt.Fprintf(w, "  %8.1f  %s\n", en.Score, en.Text)
		if !explain {
			continue
		}
		x := en.Explain
		var parts []string
		for _, b := range x.Buckets {
			parts = append(parts, fmt.Sprintf("%s %d×%g=%g", b.Label, b.Count, b.Points, b.Subtotal))
		}
		refs := fmt.Sprintf("%d references", x.References)
		if x.Implicit {
			refs = "no reference: counted once at its recorded time"
		}
		fmt.Fprintf(w, "            = weight %g × %g (%s: %s); included: %s; last reference %s; fact %s\n",
			x.Weight, x.ReferenceScore, refs, strings.Join(parts, ", "), x.Included,
			en.LastReference.Format(time.RFC3339), en.FactID)
	}
	if explain && len(sh.Dedup) > 0 {
		fmt.Fprintf(w, "\nDropped as duplicates\n")
		for _, d := range sh.Dedup {
			fmt.Fprintf(w, "  %s (kept %s): %s\n", d.Dropped, d.Kept, d.Reason)
		}
	}
	return nil
}
