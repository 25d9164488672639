package understanding

// Stored is one fact as the engine holds it, rendered for comparison.
type Stored struct {
	About  Who
	Key    string
	Value  string
	Rank   int    // ranked list members only
	Anchor string // the time anchor's date, YYYY-MM-DD; "" when none
	SaidBy Who
}

// Matches reports whether s is (one of the spellings of) w.
func (w Want) Matches(s Stored) bool {
	if w.Key != "*" && w.Key != s.Key {
		return false
	}
	if !w.About.Matches(s.About) {
		return false
	}
	if w.Rank > 0 && w.Rank != s.Rank {
		return false
	}
	for _, v := range w.Values {
		if v == "*" || sameValue(v, s.Value) || w.Key == "relation" && sameRelation(v, s.Value) {
			return true
		}
	}
	return false
}

// Matching pairs expected facts with stored ones.
type Matching struct {
	// Pairs maps the index of each matched expected fact to its stored fact's index.
	Pairs map[int]int
	// Missing are the indexes of expected facts nothing matched (false negatives).
	Missing []int
	// Extra are the indexes of stored facts no expected fact matched (false
	// positives).
	Extra []int
	// Forbidden are the indexes of stored facts some forbidden fact matches.
	Forbidden []int
}

// Match pairs want with stored, each fact at most once, the expected facts in order
// taking the first stored fact that matches, and marks the stored facts that not
// forbids.
func Match(stored []Stored, want, not []Want) Matching {
	m := Matching{Pairs: map[int]int{}}
	used := make([]bool, len(stored))
	for wi, w := range want {
		found := false
		for si, s := range stored {
			if !used[si] && w.Matches(s) {
				used[si], found = true, true
				m.Pairs[wi] = si
				break
			}
		}
		if !found {
			m.Missing = append(m.Missing, wi)
		}
	}
	for si, s := range stored {
		if !used[si] {
			m.Extra = append(m.Extra, si)
		}
		for _, n := range not {
			if n.Matches(s) {
				m.Forbidden = append(m.Forbidden, si)
				break
			}
		}
	}
	return m
}
