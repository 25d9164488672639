package memory_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/llm"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/storetest"
)

type sayAskCase struct {
	Say  []string `json:"say"`
	Ask  string   `json:"ask"`
	Want []string `json:"want"`
}

// TestSayAskCorpus runs every case of testdata/sayask.jsonl against a real store,
// with the rules alone and with the offline embedder's topic similarity on (as the
// binary runs by default), which must not merge different topics.
func TestSayAskCorpus(t *testing.T) {
	t.Run("rules", func(t *testing.T) { runSayAsk(t, newEngine(t, memory.Options{})) })
	t.Run("glove", func(t *testing.T) { runSayAsk(t, newEngine(t, memory.Options{Embedder: glove(t)})) })
}

func runSayAsk(t *testing.T, e *memory.Engine) {
	f, err := os.Open("testdata/sayask.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := t.Context()
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
		vals := mapStrings(got.Items, func(it chat.AskItem) string { return it.Value })
		if strings.Join(vals, "|") != strings.Join(c.Want, "|") {
			t.Errorf("line %d: say %q, ask %q = %q (reply %q), want %q", line, c.Say, c.Ask, vals, got.Reply, c.Want)
			continue
		}
		pass++
	}
	t.Logf("say/ask corpus: %d of %d round trips exact", pass, n)
}

func TestSayReplies(t *testing.T) {
	e := newEngine(t, memory.Options{})
	ctx := t.Context()
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
		{"My least favorite vegetable is okra", "Noted: your least favorite vegetable is okra."},
		{"swap ETH and DOGE", "Which of your favorites lists is ETH and DOGE in?"},
		// A fact about someone else is not announced as the user's own.
		{"My colleague Martin works at Acme.", "Noted for Martin (colleague): works at Acme."},
		// Unnamed people are the user's, or someone else's, as the user would say it.
		{"My daughter goes to swim class on Mondays.", "Noted for your daughter: schedule swim class on Mondays."},
		{"My cousin Ana lives in Quito and her husband is a chef.", "Noted for Ana (cousin): lives in Quito. Noted for Ana's husband: works as chef."},
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
	e := newEngine(t, memory.Options{})
	ctx := t.Context()
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
	e := newEngine(t, memory.Options{})
	ctx := t.Context()
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
	ctx := t.Context()
	u := storetest.NewUser()
	// A fixed embedder over made-up topics (no alias knows them): "zorblax" and
	// "quuxle" point almost the same way (cosine 0.99); "tool" does not.
	e := newEngine(t, memory.Options{Embedder: fixedEmbedder{"zorblax": {1, 0}, "quuxle": {0.99, 0.14}, "tool": {0, 1}}})
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
	plain := memory.New(e.Store(), memory.Options{})
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

// TestAskPlanner: a question no rule understood goes to the model's planner, whose
// plan is checked against the user's keys before anything is read.
func TestAskPlanner(t *testing.T) {
	cases := []struct {
		name     string
		question string
		status   int    // the model server's answer status (0: 200)
		plan     string // the model's answer
		reply    string // a part of the reply
		planned  bool
		code     string // the error code, if Ask fails
		calls    int64
	}{
		{name: "rank", question: "Which film do I like second best, would you say?", plan: `{"kind":"rank","key":"favorites.movie","rank":2}`,
			reply: "Your #2 favorite movie is Heat.", planned: true, calls: 1},
		{name: "list", question: "Tell me the films I adore.", plan: `{"kind":"list","key":"favorites.movie","rank":0}`,
			reply: "#1 Alien, #2 Heat", planned: true, calls: 1},
		{name: "fact", question: "What pays my bills?", plan: `{"kind":"fact","key":"work.employer","rank":0}`,
			reply: "Your employer: Acme.", planned: true, calls: 1},
		{name: "a key the user does not have", question: "Where do I live, do you know?", plan: `{"kind":"fact","key":"home.city","rank":0}`,
			reply: "I don't know your home city yet.", planned: true, calls: 1},
		{name: "kind and key disagree", question: "What pays my bills?", plan: `{"kind":"fact","key":"favorites.movie","rank":0}`,
			reply: "could not tell", planned: true, calls: 1},
		{name: "not about the user", question: "How tall is the Eiffel tower?", plan: `{"kind":"none","key":"","rank":0}`,
			reply: "I don't know", calls: 1},
		{name: "invalid plan", question: "What pays my bills?", plan: `{"kind":"delete","key":"work.employer","rank":0}`,
			code: factbase.EINVALID, calls: 1},
		{name: "model down", question: "What pays my bills?", status: 503,
			code: factbase.EUNAVAILABLE, calls: 1},
		{name: "the rules understood", question: "What are my favorite movies?", plan: `{"kind":"none","key":"","rank":0}`,
			reply: "#1 Alien, #2 Heat", calls: 0},
		{name: "the rules read the facts", question: "Where do I earn my living these days?", plan: `{"kind":"none","key":"","rank":0}`,
			reply: "Acme", calls: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ms := newModelServer(t, func(string, int) reply { return reply{status: tc.status, content: tc.plan} })
			e := newEngine(t, memory.Options{Planner: ms.client(t, llm.Options{Model: "planner", Retries: -1})})
			mustApply(t, e, alice, set("favorites.movie", "Alien"), set("favorites.movie", "Heat"), set("work.employer", "Acme"))
			res, err := e.Chat.Ask(t.Context(), alice, tc.question)
			if tc.code != "" {
				if factbase.ErrorCode(err) != tc.code {
					t.Fatalf("Ask error %v, want %s", err, tc.code)
				}
			} else if err != nil {
				t.Fatalf("Ask: %v", err)
			} else {
				if !strings.Contains(res.Reply, tc.reply) {
					t.Errorf("reply %q, want it to contain %q", res.Reply, tc.reply)
				}
				if (res.Planned == "planner") != tc.planned {
					t.Errorf("planned = %q, want planned %v", res.Planned, tc.planned)
				}
			}
			if got := ms.total.Load(); got != tc.calls {
				t.Errorf("%d model calls, want %d", got, tc.calls)
			}
		})
	}
	// Without a planner no model is called and a question nothing answers says so.
	res, err := newEngine(t, memory.Options{}).Chat.Ask(t.Context(), alice, "What pays my bills?")
	if err != nil || res.Planned != "" || !strings.Contains(res.Reply, "I don't know") || len(res.Items) != 0 {
		t.Errorf("without a planner: %+v, %v", res, err)
	}
}
