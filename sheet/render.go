package sheet

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// RenderOptions bounds the rendered block. A value <= 0 means no limit.
type RenderOptions struct {
	MaxChars  int // most Unicode code points, newlines included
	MaxTokens int // most estimated tokens (EstimateTokens)
}

// renderHeader is the first line of a rendered sheet.
const renderHeader = "# Fact sheet\n"

// EstimateTokens estimates the tokens of s as ceil(code points / 4).
func EstimateTokens(s string) int { return tokensOf(utf8.RuneCountInString(s)) }

func tokensOf(chars int) int { return (chars + 3) / 4 }

// Render writes s as a prompt block in the format described in the package
// documentation, dropping the lowest-ranked entries until the block fits o. It returns
// the text and the number of entries dropped.
func Render(s Sheet, o RenderOptions) (text string, dropped int) {
	if len(s.Entries) == 0 {
		return "", 0
	}
	// Group the entries: known categories in sheet order, then others by first sight.
	var order []factbase.Category
	order = append(order, factbase.Categories...)
	for _, e := range s.Entries {
		if catIndex(e.Category) < 0 && !slices.Contains(order, e.Category) {
			order = append(order, e.Category)
		}
	}
	type line struct {
		entry int // index into s.Entries
		group int // index into order
		text  string
		chars int // code points, newline included
	}
	groups := make([][]int, len(order)) // per group: indexes into lines
	lines := make([]line, len(s.Entries))
	for i, e := range s.Entries {
		g := slices.Index(order, e.Category)
		t := "- " + oneLine(e.Text) + "\n"
		lines[i] = line{entry: i, group: g, text: t, chars: utf8.RuneCountInString(t)}
		groups[g] = append(groups[g], i)
	}
	heading := func(g int) string { return "## " + categoryName(order[g]) + "\n" }

	left := make([]int, len(order)) // entries left per group
	total := utf8.RuneCountInString(renderHeader)
	for g, ls := range groups {
		left[g] = len(ls)
		if len(ls) > 0 {
			total += utf8.RuneCountInString(heading(g))
		}
	}
	for _, l := range lines {
		total += l.chars
	}
	fits := func(chars int) bool {
		return (o.MaxChars <= 0 || chars <= o.MaxChars) && (o.MaxTokens <= 0 || tokensOf(chars) <= o.MaxTokens)
	}

	gone := make([]bool, len(lines))
	if !fits(total) {
		// Drop worst first: lowest score, oldest last reference, greatest id.
		worst := make([]int, len(lines))
		for i := range worst {
			worst[i] = i
		}
		slices.SortStableFunc(worst, func(a, b int) int {
			ea, eb := &s.Entries[a], &s.Entries[b]
			return cmp.Or(cmp.Compare(ea.Score, eb.Score), ea.LastReference.Compare(eb.LastReference), strings.Compare(eb.FactID, ea.FactID))
		})
		for _, i := range worst {
			l := lines[i]
			gone[i] = true
			dropped++
			total -= l.chars
			if left[l.group]--; left[l.group] == 0 {
				total -= utf8.RuneCountInString(heading(l.group))
			}
			if dropped == len(lines) {
				return "", dropped
			}
			if fits(total) {
				break
			}
		}
	}

	var b strings.Builder
	b.WriteString(renderHeader)
	for g, ls := range groups {
		if left[g] == 0 {
			continue
		}
		b.WriteString(heading(g))
		for _, i := range ls {
			if !gone[i] {
				b.WriteString(lines[i].text)
			}
		}
	}
	return b.String(), dropped
}

// oneLine turns control characters into spaces, collapses white space and trims, so the
// text fits on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)), " ")
}

// categoryName is the heading of a category; an empty one shows as "uncategorised".
func categoryName(c factbase.Category) string {
	if c == "" {
		return "uncategorised"
	}
	return oneLine(string(c))
}
