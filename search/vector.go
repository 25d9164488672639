package search

import "container/heap"

// Dot returns the dot product of a and b over their common length: the cosine
// similarity when both are L2-normalised, as every embedder's vectors are. The stores
// rank vectors in Go with it.
func Dot(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a) && i+4 <= len(b); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a) && i < len(b); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// TopK returns the indexes of the k highest scores, best first, ties broken by the
// lower index; NaN scores are skipped. It keeps a heap of k, so it costs
// O(n log k) for n scores.
func TopK(scores []float32, k int) []int {
	if k <= 0 {
		return []int{}
	}
	h := &minHeap{s: scores}
	for i, v := range scores {
		if v != v {
			continue
		}
		if len(h.idx) < k {
			heap.Push(h, i)
		} else if h.less(h.idx[0], i) {
			h.idx[0] = i
			heap.Fix(h, 0)
		}
	}
	out := make([]int, len(h.idx))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(int)
	}
	return out
}

// minHeap keeps the k best indexes with the worst on top.
type minHeap struct {
	s   []float32
	idx []int
}

// less reports whether index a ranks below index b.
func (h *minHeap) less(a, b int) bool {
	if h.s[a] != h.s[b] {
		return h.s[a] < h.s[b]
	}
	return a > b
}

func (h *minHeap) Len() int           { return len(h.idx) }
func (h *minHeap) Less(i, j int) bool { return h.less(h.idx[i], h.idx[j]) }
func (h *minHeap) Swap(i, j int)      { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *minHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *minHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}
