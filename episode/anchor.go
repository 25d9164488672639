package episode

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// The patterns are anchored and never scan the whole content. Each rule first finds
// cheap triggers where a match can start (a keyword at a word start, the start of a
// number followed by '%' or a unit, ...) and runs its pattern only there, on at most
// maxMatch bytes. Go's regexp engine is linear but slow when a pattern that starts
// with a number or an alternation is searched across a long text; anchoring keeps
// Extract well under a millisecond for a 2 KB episode.

// maxMatch is the longest text, in bytes, a pattern may match (plus up to snapLimit
// bytes to reach white space).
const (
	maxMatch  = 160
	snapLimit = 64
)

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// anchored compiles expr to match only at the start of its input.
func anchored(expr string) *regexp.Regexp { return regexp.MustCompile(`^(?:` + expr + `)`) }

// matchAt runs the anchored re at each of the sorted positions ps of the lower-cased
// content, skipping positions inside an earlier match (as FindAll would), and returns
// the submatch indexes as content offsets.
func (x *extractor) matchAt(re *regexp.Regexp, ps []int) [][]int {
	var out [][]int
	last, prev := 0, -1
	for _, p := range ps {
		if p < last || p == prev {
			continue
		}
		prev = p
		end := min(len(x.low), p+maxMatch)
		for k := 0; end < len(x.low) && k < snapLimit && !isSpaceByte(x.low[end]); k++ {
			end++
		}
		for end < len(x.low) && !utf8.RuneStart(x.low[end]) {
			end++
		}
		m := re.FindStringSubmatchIndex(x.low[p:end])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += p
			}
		}
		last = m[1]
		out = append(out, m)
	}
	return out
}

// wordStarts returns the sorted positions where one of words begins a word of s (the
// rune before is not a letter, digit or underscore).
func wordStarts(s string, words ...string) []int {
	var ps []int
	for _, w := range words {
		for i := 0; ; {
			k := strings.Index(s[i:], w)
			if k < 0 {
				break
			}
			if !gluedBefore(s, i+k, "") {
				ps = append(ps, i+k)
			}
			i += k + len(w)
		}
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// digitRuns returns the starts of the runs of ASCII digits in s that are not glued,
// by a word rune or one of marks, to what comes before.
func digitRuns(s, marks string) []int {
	var ps []int
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) && (i == 0 || !isDigit(s[i-1])) && !gluedBefore(s, i, marks) {
			ps = append(ps, i)
		}
	}
	return ps
}

// numberEnd returns the offset just past the number starting at p: digits, commas and
// dots.
func numberEnd(s string, p int) int {
	for p < len(s) && (isDigit(s[p]) || s[p] == ',' || s[p] == '.') {
		p++
	}
	return p
}

// afterNumber is numberEnd and one optional space.
func afterNumber(s string, p int) int {
	p = numberEnd(s, p)
	if p < len(s) && s[p] == ' ' {
		p++
	}
	return p
}

// filter keeps the positions p for which keep(p) is true.
func filter(ps []int, keep func(p int) bool) []int {
	out := ps[:0:0]
	for _, p := range ps {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}
