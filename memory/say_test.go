package memory_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/embed"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/sqlite"
	"github.com/factbase/factbase/storetest"
)

func newEngine(t *testing.T) *memory.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return memory.New(s, memory.Options{})
}

type sayAskCase struct {
	Say  []string `json:"say"`
	Ask  string   `json:"ask"`
	Want []string `json:"want"`
}

// TestSayAskCorpus runs every case of testdata/sayask.jsonl against a real store,
// with the rules alone and with the offline embedder's topic similarity on (as the
// binary runs by default), which must not merge different topics.
func TestSayAskCorpus(t *testing.T) {
	t.Run("rules", func(t *testing.T) { runSayAsk(t, newEngine(t)) })
	t.Run("glove", func(t *testing.T) {
		g, err := embed.NewGloVe()
		if err != nil {
			t.Fatal(err)
		}
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		runSayAsk(t, memory.New(s, memory.Options{Embedder: g}))
	})
}

func runSayAsk(t *testing.T, e *memory.Engine) {
	f, err := os.Open("testdata/sayask.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	sc := bufio.NewScanner(f)
	n, pass := 0, 0
	for line := 1; sc.Scan(); line++ {
		var c sayAskCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		if c.Ask == "" {
			continue
		}
		n++
		u := storetest.NewUser()
		for _, m := range c.Say {
			if _, err := e.Chat.Say(ctx, u, m); err != nil {
				t.Fatalf("line %d: Say(%q): %v", line, m, err)
			}
		}
		got, err := e.Chat.Ask(ctx, u, c.Ask)
		if err != nil {
			t.Fatalf("line %d: Ask(%q): %v", line, c.Ask, err)
		}
		var vals []string
		for _, it := range got.Items {
			vals = append(vals, it.Value)
		}
		if strings.Join(vals, "|") != strings.Join(c.Want, "|") {
			t.Errorf("line %d: say %q, ask %q = %q (reply %q), want %q", line, c.Say, c.Ask, vals, got.Reply, c.Want)
			continue
		}
		pass++
	}
	t.Logf("say/ask corpus: %d of %d round trips exact", pass, n)
}

func TestSayReplies(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	u := storetest.NewUser()
	cases := []struct{ msg, reply string }{
		{"My favorite cryptocurrencies are BTC, ETH and XMR", "Added BTC, ETH and XMR to your favorite cryptocurrencies (#1-#3)."},
		{"Add BTC to my favorite crypto", "BTC is already in your favorite cryptocurrencies at #1."},
		{"Move XMR to #1 in my favorite cryptos", "Moved XMR from #3 to #1 in your favorite cryptocurrencies."},
		{"My favorite color is", "What is your favorite color?"},
		{"Remove DOGE from my favorite cryptocurrencies", "DOGE isn't in your favorite cryptocurrencies."},
		{"My email is a@example.com", "Noted: your email is a@example.com."},
		{"My email is a@example.com", "I already have your email as a@example.com."},
		{"Anna's favorite color is blue", "Nothing to remember in that message."},
		// A fact about someone else is not announced as the user's own.
		{"My colleague Martin works at Acme.", "Noted for Martin (colleague): works at Acme."},
	}
	for _, tc := range cases {
		res, err := e.Chat.Say(ctx, u, tc.msg)
		if err != nil {
			t.Fatalf("Say(%q): %v", tc.msg, err)
		}
		if res.Reply != tc.reply {
			t.Errorf("Say(%q).Reply = %q, want %q", tc.msg, res.Reply, tc.reply)
		}
	}
	res, err := e.Chat.Say(ctx, u, "Anna's favorite color is blue")
	if err != nil || res.Route != "none" || len(res.Ops) != 0 || res.Result.Stored != 0 {
		t.Errorf("a statement about someone else: %+v, %v; want route none and nothing written", res, err)
	}
}

func TestSayAskErrors(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	if _, err := e.Chat.Say(ctx, "not-a-uuid", "My favorite color is blue"); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Say with a bad user: %v, want invalid", err)
	}
	if _, err := e.Chat.Ask(ctx, storetest.NewUser(), strings.Repeat("a", 1<<20)); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Ask with a 1 MB question: %v, want invalid", err)
	}
}

// TestSayRegeneratesSheet: a message that changes the user's facts leaves a saved
// fact sheet that holds them; one that changes nothing leaves the sheet as it was.
func TestSayRegeneratesSheet(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	u := storetest.NewUser()
	if _, err := e.Chat.Say(ctx, u, "My favorite teas are oolong and sencha"); err != nil {
		t.Fatal(err)
	}
	sh, err := e.SavedSheet(ctx, u)
	if err != nil {
		t.Fatalf("no sheet saved after a message that stored facts: %v", err)
	}
	if sh.Count != 2 {
		t.Errorf("sheet after the first message has %d entries, want 2", sh.Count)
	}
	if _, err := e.Chat.Say(ctx, u, "Hello there"); err != nil {
		t.Fatal(err)
	}
	again, err := e.SavedSheet(ctx, u)
	if err != nil || again.ID != sh.ID {
		t.Errorf("a message that changed nothing replaced the sheet: %v, %v", again.ID, err)
	}
	if _, err := e.Chat.Say(ctx, u, "My email is ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if third, err := e.SavedSheet(ctx, u); err != nil || third.Count != 3 {
		t.Errorf("sheet after a third fact: %d entries, %v; want 3", third.Count, err)
	}
}

// TestTopicSimilarity: with an embedder configured, a topic phrase close enough to
// one of the user's existing lists (by the embedder's similarity, >= 0.92) lands in
// that list; without one, it stays its own list.
func TestTopicSimilarity(t *testing.T) {
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "f.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	u := storetest.NewUser()
	// A fixed embedder over made-up topics (no alias knows them): "zorblax" and
	// "quuxle" point almost the same way (cosine 0.99); "tool" does not.
	emb := fixedEmbedder{"zorblax": {1, 0}, "quuxle": {0.99, 0.14}, "tool": {0, 1}}
	e := memory.New(s, memory.Options{Embedder: emb})
	if _, err := e.Chat.Say(ctx, u, "My favorite zorblaxes are tea and coffee"); err != nil {
		t.Fatal(err)
	}
	res, err := e.Chat.Say(ctx, u, "My favorite quuxle is water")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Topics) != 1 || res.Topics[0].Key != "favorites.zorblax" || res.Topics[0].Method != "embedding" {
		t.Fatalf("topics %+v, want favorites.zorblax by embedding", res.Topics)
	}
	plain := memory.New(s, memory.Options{})
	res, err = plain.Chat.Say(ctx, storetest.NewUser(), "My favorite tool is a hammer")
	if err != nil || len(res.Topics) != 1 || res.Topics[0].Method != "fallback" {
		t.Fatalf("without an embedder: %+v, %v; want the fallback", res.Topics, err)
	}
}

// fixedEmbedder maps whole texts to fixed vectors (unknown texts to zero).
type fixedEmbedder map[string][]float32

func (f fixedEmbedder) Model() string { return "fixed-test" }
func (f fixedEmbedder) Dim() int      { return 2 }
func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if v, ok := f[t]; ok {
			out[i] = v
		} else {
			out[i] = []float32{0, 0}
		}
	}
	return out, nil
}
