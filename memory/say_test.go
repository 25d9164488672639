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

// TestSayAskCorpus runs every case of testdata/sayask.jsonl against a real store.
func TestSayAskCorpus(t *testing.T) {
	f, err := os.Open("testdata/sayask.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := newEngine(t)
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
			if _, err := e.Say(ctx, u, m); err != nil {
				t.Fatalf("line %d: Say(%q): %v", line, m, err)
			}
		}
		got, err := e.Ask(ctx, u, c.Ask)
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
	}
	for _, tc := range cases {
		res, err := e.Say(ctx, u, tc.msg)
		if err != nil {
			t.Fatalf("Say(%q): %v", tc.msg, err)
		}
		if res.Reply != tc.reply {
			t.Errorf("Say(%q).Reply = %q, want %q", tc.msg, res.Reply, tc.reply)
		}
	}
	res, err := e.Say(ctx, u, "Anna's favorite color is blue")
	if err != nil || res.Route != "none" || len(res.Ops) != 0 || res.Result.Stored != 0 {
		t.Errorf("a statement about someone else: %+v, %v; want route none and nothing written", res, err)
	}
}

func TestSayAskErrors(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	if _, err := e.Say(ctx, "not-a-uuid", "My favorite color is blue"); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Say with a bad user: %v, want invalid", err)
	}
	if _, err := e.Ask(ctx, storetest.NewUser(), strings.Repeat("a", 1<<20)); factbase.ErrorCode(err) != factbase.EINVALID {
		t.Errorf("Ask with a 1 MB question: %v, want invalid", err)
	}
}

// TestSayRegeneratesSheet: a message that changes the user's facts leaves a saved
// fact sheet that holds them; one that changes nothing leaves the sheet as it was.
func TestSayRegeneratesSheet(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	u := storetest.NewUser()
	if _, err := e.Say(ctx, u, "My favorite teas are oolong and sencha"); err != nil {
		t.Fatal(err)
	}
	sh, err := e.SavedSheet(ctx, u)
	if err != nil {
		t.Fatalf("no sheet saved after a message that stored facts: %v", err)
	}
	if sh.Count != 2 {
		t.Errorf("sheet after the first message has %d entries, want 2", sh.Count)
	}
	if _, err := e.Say(ctx, u, "Hello there"); err != nil {
		t.Fatal(err)
	}
	again, err := e.SavedSheet(ctx, u)
	if err != nil || again.ID != sh.ID {
		t.Errorf("a message that changed nothing replaced the sheet: %v, %v", again.ID, err)
	}
	if _, err := e.Say(ctx, u, "My email is ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if third, err := e.SavedSheet(ctx, u); err != nil || third.Count != 3 {
		t.Errorf("sheet after a third fact: %d entries, %v; want 3", third.Count, err)
	}
}
