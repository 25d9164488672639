package sheet

import (
	"cmp"
	"hash/maphash"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// Entry is one fact on the sheet.
type Entry struct {
	FactID   string
	Category factbase.Category
	// Text is the candidate's text, or "key: value" when its text was blank.
	Text          string
	Score         float64
	LastReference time.Time // the most recent reference (the recorded time if none)
	Explain       Explain
}

// The reasons of a Dedup record.
const (
	ReasonLowerScore     = "same normalised text, lower score"
	ReasonOlderReference = "same normalised text, equal score, older last reference"
	ReasonGreaterID      = "same normalised text, equal score and last reference, greater id"
)

// Dedup records a candidate dropped because another one had the same normalised text
// and ranked better.
type Dedup struct {
	Dropped string // fact id of the dropped candidate
	Kept    string // fact id of the candidate kept in its place
	Reason  string // ReasonLowerScore, ReasonOlderReference or ReasonGreaterID
}

// Skipped counts the candidates that were not eligible.
type Skipped struct {
	NotCurrent      int // Current was false
	Private         int // Sensitivity "high" under Config.Privacy
	UnknownCategory int // category not one of factbase.Categories
}

// Sheet is an assembled fact sheet.
type Sheet struct {
	// Entries are ordered by category (core, technical, project, transient), then rank.
	Entries []Entry
	Dedup   []Dedup // the drops that bear on the sheet (see the package doc), sorted by Kept, then Dropped
	Count   int     // len(Entries)
	// Counts holds the number of entries of every category (zero included).
	Counts  map[factbase.Category]int
	Skipped Skipped
}

// item is an eligible candidate during assembly.
type item struct {
	idx   int  // index into the candidates
	cat   int8 // index into factbase.Categories
	score float64
	last  time.Time
}

// Assemble builds the sheet from cands at now, as described in the package
// documentation: eligibility, deduplication, then steps (a) minimum, (b) within cap and
// (c) fill. It returns an EINVALID error if cfg does not validate. Fact ids should be
// unique; the result does not depend on the order of cands.
func Assemble(cands []Candidate, now time.Time, cfg Config) (Sheet, error) {
	return assemble(oneBlock(cands), len(cands), now, cfg)
}

// AssembleBlocks is Assemble of the candidates of blocks, in order, without copying
// them into one slice (100,000 candidates are 20 MB). Every block but the last must
// hold as many candidates as the first, and the last no more; AssembleBlocks returns
// an EINVALID error if one does not.
func AssembleBlocks(blocks [][]Candidate, now time.Time, cfg Config) (Sheet, error) {
	n := 0
	for i, b := range blocks {
		if i < len(blocks)-1 && len(b) != len(blocks[0]) || len(b) > len(blocks[0]) {
			return Sheet{}, factbase.Errorf(factbase.EINVALID,
				"sheet: block %d holds %d candidates and block 0 %d; only the last may hold fewer", i, len(b), len(blocks[0]))
		}
		n += len(b)
	}
	size := 1
	if len(blocks) > 0 {
		size = max(len(blocks[0]), 1)
	}
	return assemble(candSet{blocks: blocks, size: size}, n, now, cfg)
}

// candSet holds the candidates of an assembly in blocks of size (the last may be
// shorter); candidate i is at(i).
type candSet struct {
	blocks [][]Candidate
	size   int
}

func (s candSet) at(i int) *Candidate { return &s.blocks[i/s.size][i%s.size] }

// oneBlock is the candSet of cands.
func oneBlock(cands []Candidate) candSet {
	return candSet{blocks: [][]Candidate{cands}, size: max(len(cands), 1)}
}

// assemble is Assemble of the n candidates of cands.
func assemble(cands candSet, n int, now time.Time, cfg Config) (Sheet, error) {
	if err := cfg.Validate(); err != nil {
		return Sheet{}, err
	}
	var weights [4]float64
	for i, cat := range factbase.Categories {
		weights[i] = cfg.Weights[cat]
	}
	sh := Sheet{Counts: make(map[factbase.Category]int, len(factbase.Categories))}
	for _, cat := range factbase.Categories {
		sh.Counts[cat] = 0
	}

	// Score every eligible candidate once, without building explanations.
	counts := make([]int, len(cfg.Buckets))
	cuts := newCutoffs(now, cfg.Buckets)
	items := make([]item, 0, n)
	for i := range n {
		c := cands.at(i)
		ci := catIndex(c.Category)
		switch {
		case !c.Current:
			sh.Skipped.NotCurrent++
			continue
		case cfg.Privacy && c.Sensitivity == factbase.High:
			sh.Skipped.Private++
			continue
		case ci < 0:
			sh.Skipped.UnknownCategory++
			continue
		}
		score, _, last := reckon(c, cuts, cfg.Buckets, weights[ci], counts)
		items = append(items, item{idx: i, cat: int8(ci), score: score, last: last})
	}

	items, drops := dedup(cands, items)

	// Only the best Size facts of a category can ever be taken (the sheet holds at most
	// Size), so keep a bounded heap per category instead of sorting everything.
	var tops [4][]item
	for _, it := range items {
		tops[it.cat] = pushTop(cands, tops[it.cat], it, cfg.Size)
	}
	for c := range tops {
		slices.SortFunc(tops[c], func(a, b item) int { return rankCmp(cands, a, b) })
	}

	// taken[c] facts of category c are on the sheet: always a prefix of tops[c], because
	// every step takes a category's facts best first. how[c][k] is the step of the k-th.
	var taken [4]int
	var how [4][]string
	total := 0
	take := func(c int, why string) {
		taken[c]++
		how[c] = append(how[c], why)
		total++
	}
	for c, cat := range factbase.Categories {
		for taken[c] < cfg.Min[cat] && taken[c] < len(tops[c]) {
			take(c, IncludedMinimum)
		}
	}
	// Steps (b) and (c) are a merge of the categories' ranked lists: repeatedly take the
	// best head among the categories still allowed.
	for _, capped := range []bool{true, false} {
		why := IncludedFill
		if capped {
			why = IncludedWithinCap
		}
		for total < cfg.Size {
			best := -1
			for c, cat := range factbase.Categories {
				if taken[c] >= len(tops[c]) || capped && taken[c] >= cfg.Max[cat] {
					continue
				}
				if best < 0 || rankCmp(cands, tops[c][taken[c]], tops[best][taken[best]]) < 0 {
					best = c
				}
			}
			if best < 0 {
				break
			}
			take(best, why)
		}
	}

	sh.Dedup = logged(cands, drops, tops, taken, cfg.Size)
	sh.Entries = make([]Entry, 0, total)
	for c, cat := range factbase.Categories {
		for k, it := range tops[c][:taken[c]] {
			cand := cands.at(it.idx)
			score, ex := Score(*cand, now, cfg)
			ex.Included = how[c][k]
			sh.Entries = append(sh.Entries, Entry{
				FactID:        cand.FactID,
				Category:      cat,
				Text:          displayText(cand),
				Score:         score,
				LastReference: it.last,
				Explain:       ex,
			})
		}
		sh.Counts[cat] = taken[c]
	}
	sh.Count = len(sh.Entries)
	return sh, nil
}

// rankCmp orders items best first: score descending, last reference descending, fact id
// ascending, then candidate index (only reached when ids repeat).
func rankCmp(cands candSet, a, b item) int {
	if a.score != b.score {
		if a.score > b.score {
			return -1
		}
		return 1
	}
	if d := b.last.Compare(a.last); d != 0 {
		return d
	}
	if d := strings.Compare(cands.at(a.idx).FactID, cands.at(b.idx).FactID); d != 0 {
		return d
	}
	return cmp.Compare(a.idx, b.idx)
}

// pushTop adds it to h, a heap of at most k items with the worst-ranked at the root,
// and returns the heap.
func pushTop(cands candSet, h []item, it item, k int) []item {
	if len(h) < k {
		h = append(h, it)
		// Sift up: a worse item moves toward the root.
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if rankCmp(cands, h[i], h[p]) <= 0 {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
		return h
	}
	if rankCmp(cands, it, h[0]) >= 0 {
		return h // no better than the worst kept
	}
	h[0] = it
	for i := 0; ; {
		l, worst := 2*i+1, i
		if l < len(h) && rankCmp(cands, h[l], h[worst]) > 0 {
			worst = l
		}
		if r := l + 1; r < len(h) && rankCmp(cands, h[r], h[worst]) > 0 {
			worst = r
		}
		if worst == i {
			return h
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// drop is a candidate dropped as a duplicate: the item, the item kept in its place and
// the reason.
type drop struct {
	it, kept item
	reason   string
}

// dedup keeps the best-ranked item of each group of equal normalised text and returns
// the kept items (in their original order, compacted in place in items) and the
// dropped ones.
//
// Groups are found by a hash of the normalised text, computed into one reused buffer,
// so that 100,000 texts cost no allocation each: the (hash, item) pairs are sorted,
// which puts every group's members next to each other and costs less than a hash map
// of 100,000 entries. Only items sharing a hash have their texts compared, in full, so
// a collision never merges two groups.
func dedup(cands candSet, items []item) ([]item, []drop) {
	seed := maphash.MakeSeed()
	return dedupHash(cands, items, func(b []byte) uint64 { return maphash.Bytes(seed, b) })
}

// dedupHash is dedup with the hash function given (tests make every hash collide).
func dedupHash(cands candSet, items []item, hash func([]byte) uint64) ([]item, []drop) {
	type hashed struct {
		h uint64
		i int // position in items
	}
	hs := make([]hashed, 0, len(items))
	var buf []byte
	for i, it := range items {
		buf = appendNormal(buf[:0], displayText(cands.at(it.idx)))
		if len(buf) > 0 { // an empty normalised text is never a duplicate
			hs = append(hs, hashed{hash(buf), i})
		}
	}
	slices.SortFunc(hs, func(a, b hashed) int { return cmp.Compare(a.h, b.h) })

	var (
		drops   []drop
		dropped []bool // per item, once something is dropped
		norms   map[string][]int
	)
	for lo := 0; lo < len(hs); {
		hi := lo + 1
		for hi < len(hs) && hs[hi].h == hs[lo].h {
			hi++
		}
		if hi-lo == 1 {
			lo = hi
			continue
		}
		// Items sharing a hash: group them by their normalised text itself.
		clear(norms)
		if norms == nil {
			norms = map[string][]int{}
		}
		for _, x := range hs[lo:hi] {
			key := string(appendNormal(buf[:0], displayText(cands.at(items[x.i].idx))))
			norms[key] = append(norms[key], x.i)
		}
		lo = hi
		for _, members := range norms {
			if len(members) < 2 {
				continue
			}
			best := members[0]
			for _, m := range members[1:] {
				if rankCmp(cands, items[m], items[best]) < 0 {
					best = m
				}
			}
			if dropped == nil {
				dropped = make([]bool, len(items))
			}
			w := items[best]
			for _, m := range members {
				if m == best {
					continue
				}
				it := items[m]
				dropped[m] = true
				reason := ReasonLowerScore
				switch {
				case it.score != w.score:
				case !it.last.Equal(w.last):
					reason = ReasonOlderReference
				default:
					reason = ReasonGreaterID
				}
				drops = append(drops, drop{it: it, kept: w, reason: reason})
			}
		}
	}
	if len(drops) == 0 {
		return items, nil
	}
	kept := items[:0]
	for i, it := range items {
		if !dropped[i] {
			kept = append(kept, it)
		}
	}
	return kept, drops
}

// logged returns the Dedup records of the drops that bear on the sheet (see the
// package documentation): those whose kept item is on it (the first taken[c] of each
// tops[c]), and those that ranked among the size best of their category, duplicates
// included. The records are sorted by kept id, then dropped id.
func logged(cands candSet, drops []drop, tops [4][]item, taken [4]int, size int) []Dedup {
	if len(drops) == 0 {
		return nil
	}
	on := map[int]bool{}
	for c := range tops {
		for _, it := range tops[c][:taken[c]] {
			on[it.idx] = true
		}
	}
	// cut[c] is the size-th best item of category c among its kept and dropped items:
	// tops[c] holds the best size kept ones, so it and the dropped ones are enough.
	var (
		pool [4][]item
		cut  [4]*item
	)
	for _, d := range drops {
		pool[d.it.cat] = append(pool[d.it.cat], d.it)
	}
	for c := range pool {
		if len(pool[c]) == 0 {
			continue
		}
		all := append(slices.Clone(tops[c]), pool[c]...)
		if len(all) > size {
			slices.SortFunc(all, func(a, b item) int { return rankCmp(cands, a, b) })
			cut[c] = &all[size-1]
		}
	}
	var log []Dedup
	for _, d := range drops {
		if on[d.kept.idx] || cut[d.it.cat] == nil || rankCmp(cands, d.it, *cut[d.it.cat]) <= 0 {
			log = append(log, Dedup{Dropped: cands.at(d.it.idx).FactID, Kept: cands.at(d.kept.idx).FactID, Reason: d.reason})
		}
	}
	slices.SortFunc(log, func(a, b Dedup) int {
		return cmp.Or(strings.Compare(a.Kept, b.Kept), strings.Compare(a.Dropped, b.Dropped))
	})
	return capPerKept(log)
}

// MaxDedupPerKept is the most Dedup records a sheet keeps for one kept fact.
const MaxDedupPerKept = 10

// capPerKept keeps the first MaxDedupPerKept records of each kept fact of log, which
// is sorted by kept id: a text repeated by thousands of facts logs ten of them, so
// that the log stays within MaxDedupPerKept records per fact that bears on the sheet.
func capPerKept(log []Dedup) []Dedup {
	out, n := log[:0], 0
	for i, d := range log {
		if i == 0 || d.Kept != log[i-1].Kept {
			n = 0
		}
		if n++; n <= MaxDedupPerKept {
			out = append(out, d)
		}
	}
	return out
}

// displayText is the text shown for c: its Text, or "key: value" when Text is blank
// (just the key or the value when the other is empty).
func displayText(c *Candidate) string {
	if strings.TrimSpace(c.Text) != "" {
		return c.Text
	}
	switch {
	case c.Key == "":
		return c.Value
	case c.Value == "":
		return c.Key
	}
	return c.Key + ": " + c.Value
}

// normalize lowercases s, collapses runs of white space to one space and trims it. It
// returns s itself, without allocating, when s is already normal.
func normalize(s string) string {
	normal, space := true, true // space: the previous byte was a space (or start)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ' ' && space {
			normal = false
			break
		}
		space = c == ' '
	}
	if normal && !space {
		return s
	}
	return string(appendNormal(make([]byte, 0, len(s)), s))
}

// appendNormal appends normalize(s) to dst and returns the extended slice. Printable
// ASCII takes a fast path; anything else is decoded rune by rune (an invalid byte
// becomes U+FFFD, as ranging over a string makes it).
func appendNormal(dst []byte, s string) []byte {
	start := len(dst)
	pending := false // a space is due before the next character
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == ' ' || '\t' <= c && c <= '\r':
				pending = len(dst) > start
				continue
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			if pending {
				dst = append(dst, ' ')
				pending = false
			}
			dst = append(dst, c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if unicode.IsSpace(r) {
			pending = len(dst) > start
			continue
		}
		if pending {
			dst = append(dst, ' ')
			pending = false
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}
