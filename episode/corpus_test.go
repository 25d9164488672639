package episode

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// corpusEpisode is one line of testdata/episodes.jsonl: an engineering episode written
// by hand, the facts a correct extraction stores from it (key=value, all of them) and
// facts that must not be stored (key=value, or a bare key for any value).
type corpusEpisode struct {
	Tags    []string `json:"tags"`
	Content string   `json:"content"`
	Want    []string `json:"want"`
	Not     []string `json:"not"`
}

func readCorpus(t *testing.T) []corpusEpisode {
	t.Helper()
	f, err := os.Open("testdata/episodes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEpisode
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var e corpusEpisode
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("testdata/episodes.jsonl:%d: %v", n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpus reports precision and recall of the extraction over the corpus of
// engineering episodes, holds precision at 0.95 or more and forbids the facts an
// episode lists as never to be stored (a failed deploy's version, a generic key). A stored fact is right
// when its key=value is one the episode lists; a listed fact is found when stored.
func TestCorpus(t *testing.T) {
	corpus := readCorpus(t)
	if len(corpus) < 100 {
		t.Fatalf("corpus has %d episodes, want at least 100", len(corpus))
	}
	var stored, right, wanted, found, forbidden int
	for i, e := range corpus {
		got := pairs(ExtractTagged(e.Content, e.Tags))
		stored += len(got)
		wanted += len(e.Want)
		for _, g := range got {
			if slices.Contains(e.Want, g) {
				right++
			} else {
				t.Logf("episode %d: stored %s, not listed: %q", i+1, g, e.Content)
			}
			key, _, _ := strings.Cut(g, "=")
			if slices.Contains(e.Not, g) || slices.Contains(e.Not, key) {
				forbidden++
				t.Logf("episode %d: stored forbidden %s", i+1, g)
			}
		}
		for _, w := range e.Want {
			if slices.Contains(got, w) {
				found++
			} else {
				t.Logf("episode %d: missed %s", i+1, w)
			}
		}
	}
	precision := float64(right) / float64(max(stored, 1))
	recall := float64(found) / float64(max(wanted, 1))
	t.Logf("corpus: %d episodes, %d facts listed, %d stored; precision %.3f (%d/%d), recall %.3f (%d/%d); forbidden facts stored: %d",
		len(corpus), wanted, stored, precision, right, stored, recall, found, wanted, forbidden)
	if precision < 0.95 {
		t.Errorf("precision %.3f, want at least 0.95", precision)
	}
	if forbidden > 0 {
		t.Errorf("%d facts stored that an episode says must not be", forbidden)
	}
}
