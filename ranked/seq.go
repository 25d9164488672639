package ranked

import "slices"

// Entry is one member of a replayed list: its value as the event that added it spelled
// it, the value's normalised form, and the fact the member's latest event named.
type Entry struct {
	Value, Norm, FactID string
}

// seqBlock is the size a block of a seq splits at. Each operation walks the blocks
// (n/seqBlock) and then one block (≤ seqBlock), so a list of 100,000 members costs a
// few hundred steps per event instead of a scan of the whole list.
const seqBlock = 512

// seq is a list that finds a member's index by its normalised value, inserts at an
// index and deletes a member in O(√n) steps: its entries are kept in blocks, and a map
// names the block that holds each value. Replay uses it, so that rebuilding a long list
// from its events is not quadratic.
type seq struct {
	blocks []*block
	where  map[string]*block
	n      int
}

type block struct{ items []Entry }

func newSeq() *seq { return &seq{where: map[string]*block{}} }

// index returns the index of the member with norm, or -1.
func (s *seq) index(norm string) int {
	b, ok := s.where[norm]
	if !ok {
		return -1
	}
	at := 0
	for _, x := range s.blocks {
		if x == b {
			break
		}
		at += len(x.items)
	}
	for i, e := range b.items {
		if e.Norm == norm {
			return at + i
		}
	}
	panic("ranked: seq index is inconsistent")
}

// insert puts e at index i (0 ≤ i ≤ n); e.Norm must not be in s.
func (s *seq) insert(i int, e Entry) {
	if len(s.blocks) == 0 {
		s.blocks = append(s.blocks, &block{})
	}
	bi := 0
	for ; bi < len(s.blocks)-1 && i > len(s.blocks[bi].items); bi++ {
		i -= len(s.blocks[bi].items)
	}
	b := s.blocks[bi]
	b.items = slices.Insert(b.items, i, e)
	s.where[e.Norm] = b
	s.n++
	if len(b.items) >= 2*seqBlock {
		nb := &block{items: slices.Clone(b.items[seqBlock:])}
		b.items = slices.Clip(b.items[:seqBlock])
		for _, m := range nb.items {
			s.where[m.Norm] = nb
		}
		s.blocks = slices.Insert(s.blocks, bi+1, nb)
	}
}

// remove deletes the member with norm and returns it; ok is false if there is none.
func (s *seq) remove(norm string) (e Entry, ok bool) {
	b, ok := s.where[norm]
	if !ok {
		return Entry{}, false
	}
	i := slices.IndexFunc(b.items, func(m Entry) bool { return m.Norm == norm })
	e = b.items[i]
	b.items = slices.Delete(b.items, i, i+1)
	delete(s.where, norm)
	s.n--
	if len(b.items) == 0 {
		s.blocks = slices.DeleteFunc(s.blocks, func(x *block) bool { return x == b })
	}
	return e, true
}

// page returns the entries at indexes [offset, offset+limit).
func (s *seq) page(offset, limit int) []Entry {
	var out []Entry
	for _, b := range s.blocks {
		if limit <= 0 {
			break
		}
		if offset >= len(b.items) {
			offset -= len(b.items)
			continue
		}
		take := b.items[offset:min(len(b.items), offset+limit)]
		out = append(out, take...)
		limit -= len(take)
		offset = 0
	}
	return out
}
