package sheet

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/factbase/factbase"
)

// goldenSheet has entries in three of the four categories, one with a newline and one
// with a tab and a control character in its text.
func goldenSheet() Sheet {
	e := func(id string, cat factbase.Category, text string, score float64) Entry {
		return Entry{FactID: id, Category: cat, Text: text, Score: score, LastReference: now}
	}
	return Sheet{Entries: []Entry{
		e("c1", factbase.Core, "User's name is Ana", 100),
		e("c2", factbase.Core, "Lives in\nLisbon ", 80),
		e("p1", factbase.Project, "Building factbase\tin\x00Go", 40),
		e("t1", factbase.Transient, "Has a dentist appointment on Friday", 20),
		e("t2", factbase.Transient, "Is tired", 10),
	}}
}

// golden is goldenSheet rendered without limits: 159 characters (13 + 8 + 21 + 18 + 11
// + 26 + 13 + 38 + 11), 40 estimated tokens.
const golden = `# Fact sheet
## core
- User's name is Ana
- Lives in Lisbon
## project
- Building factbase in Go
## transient
- Has a dentist appointment on Friday
- Is tired
`

func TestRender(t *testing.T) {
	if n := utf8.RuneCountInString(golden); n != 159 {
		t.Fatalf("golden has %d characters, the comments below assume 159", n)
	}
	withoutT2 := strings.Replace(golden, "- Is tired\n", "", 1)                                                    // 148
	withoutTransient := strings.Replace(withoutT2, "## transient\n- Has a dentist appointment on Friday\n", "", 1) // 97
	tests := []struct {
		name    string
		opts    RenderOptions
		want    string
		dropped int
	}{
		{name: "no limits", want: golden},
		{name: "negative limits mean none", opts: RenderOptions{MaxChars: -1, MaxTokens: -1}, want: golden},
		{name: "chars exactly fit", opts: RenderOptions{MaxChars: 159}, want: golden},
		{name: "one char short drops the lowest score", opts: RenderOptions{MaxChars: 158}, want: withoutT2, dropped: 1},
		{name: "an emptied category loses its heading", opts: RenderOptions{MaxChars: 130}, want: withoutTransient, dropped: 2},
		{name: "tokens exactly fit", opts: RenderOptions{MaxTokens: 40}, want: golden},
		{name: "one token short", opts: RenderOptions{MaxTokens: 39}, want: withoutT2, dropped: 1},
		{name: "both limits, the tighter wins", opts: RenderOptions{MaxChars: 1000, MaxTokens: 30}, want: withoutTransient, dropped: 2},
		{name: "keeps the best entry alone", opts: RenderOptions{MaxChars: 42}, want: "# Fact sheet\n## core\n- User's name is Ana\n", dropped: 4},
		{name: "nothing fits", opts: RenderOptions{MaxChars: 41}, want: "", dropped: 5},
		{name: "one token", opts: RenderOptions{MaxTokens: 1}, want: "", dropped: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, dropped := Render(goldenSheet(), tc.opts)
			if got != tc.want {
				t.Errorf("Render(%+v) =\n%s\nwant\n%s", tc.opts, got, tc.want)
			}
			if dropped != tc.dropped {
				t.Errorf("Render(%+v) dropped %d, want %d", tc.opts, dropped, tc.dropped)
			}
		})
	}
}

func TestRenderEmpty(t *testing.T) {
	for _, o := range []RenderOptions{{}, {MaxChars: 5}} {
		if got, dropped := Render(Sheet{}, o); got != "" || dropped != 0 {
			t.Errorf("Render(empty, %+v) = %q, %d, want \"\", 0", o, got, dropped)
		}
	}
}

func TestRenderDropOrder(t *testing.T) {
	// Equal scores: the entry with the oldest last reference goes first, then the
	// greatest id; the grouping order of what is left never changes.
	s := Sheet{Entries: []Entry{
		{FactID: "a", Category: factbase.Core, Text: "a", Score: 5, LastReference: now},
		{FactID: "b", Category: factbase.Core, Text: "b", Score: 5, LastReference: now.Add(-time.Hour)},
		{FactID: "c", Category: factbase.Technical, Text: "c", Score: 5, LastReference: now},
		{FactID: "d", Category: factbase.Transient, Text: "d", Score: 9, LastReference: now.Add(-day)},
	}}
	// Full: 13 + 8 + 4 + 4 + 13 + 4 + 13 + 4 = 63 characters.
	tests := []struct {
		max     int
		want    string
		dropped int
	}{
		{max: 63, want: "# Fact sheet\n## core\n- a\n- b\n## technical\n- c\n## transient\n- d\n"},
		{max: 62, want: "# Fact sheet\n## core\n- a\n## technical\n- c\n## transient\n- d\n", dropped: 1},
		{max: 58, want: "# Fact sheet\n## core\n- a\n## transient\n- d\n", dropped: 2},
		{max: 41, want: "# Fact sheet\n## transient\n- d\n", dropped: 3},
	}
	for _, tc := range tests {
		got, dropped := Render(s, RenderOptions{MaxChars: tc.max})
		if got != tc.want || dropped != tc.dropped {
			t.Errorf("Render(MaxChars %d) = %q, %d, want %q, %d", tc.max, got, dropped, tc.want, tc.dropped)
		}
	}
}

func TestRenderOtherCategories(t *testing.T) {
	s := Sheet{Entries: []Entry{
		{FactID: "x", Category: "zeta", Text: "x"},
		{FactID: "t", Category: factbase.Transient, Text: "t"},
		{FactID: "y", Category: "", Text: "y"},
		{FactID: "z", Category: "zeta", Text: "z"},
		{FactID: "c", Category: factbase.Core, Text: "c"},
	}}
	want := "# Fact sheet\n## core\n- c\n## transient\n- t\n## zeta\n- x\n- z\n## uncategorised\n- y\n"
	if got, _ := Render(s, RenderOptions{}); got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}

func TestRenderAssembled(t *testing.T) {
	// Render of an assembled sheet keeps Assemble's order.
	cands := []Candidate{
		{FactID: "1", Category: factbase.Transient, Current: true, Text: "Is in Paris this week", References: []time.Time{now}},
		{FactID: "2", Category: factbase.Core, Current: true, Text: "Name is Ana", References: []time.Time{now.Add(-40 * day)}},
		{FactID: "3", Category: factbase.Technical, Current: true, Key: "editor", Value: "vim", RecordedAt: now},
		{FactID: "4", Category: factbase.Core, Current: true, Text: "Is vegetarian", References: []time.Time{now}},
	}
	s, err := Assemble(cands, now, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := "# Fact sheet\n## core\n- Is vegetarian\n- Name is Ana\n## technical\n- editor: vim\n## transient\n- Is in Paris this week\n"
	if got, _ := Render(s, RenderOptions{}); got != want {
		t.Errorf("Render(Assemble) = %q, want %q", got, want)
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{s: "", want: 0},
		{s: "a", want: 1},
		{s: "abcd", want: 1},
		{s: "abcde", want: 2},
		{s: "héllo wörld", want: 3}, // 11 code points, not 13 bytes
	}
	for _, tc := range tests {
		if got := EstimateTokens(tc.s); got != tc.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func FuzzRender(f *testing.F) {
	f.Add("User's name is Ana", "Lives in\nLisbon", "x\x00y", 3.0, 50, 0)
	f.Add("", " ", "\u2028", 0.0, 0, 7)
	f.Fuzz(func(t *testing.T, a, b, c string, score float64, maxChars, maxTokens int) {
		s := Sheet{Entries: []Entry{
			{FactID: "a", Category: factbase.Core, Text: a, Score: score},
			{FactID: "b", Category: factbase.Transient, Text: b, Score: 1},
			{FactID: "c", Category: factbase.Core, Text: c, Score: 2},
		}}
		o := RenderOptions{MaxChars: maxChars, MaxTokens: maxTokens}
		got, dropped := Render(s, o)
		if dropped < 0 || dropped > 3 {
			t.Fatalf("dropped %d of 3", dropped)
		}
		n := utf8.RuneCountInString(got)
		if maxChars > 0 && n > maxChars || maxTokens > 0 && EstimateTokens(got) > maxTokens {
			t.Fatalf("Render(%+v) is %d characters, %d tokens: over budget", o, n, EstimateTokens(got))
		}
		if (got == "") != (dropped == 3) {
			t.Fatalf("Render = %q with %d dropped", got, dropped)
		}
		if got == "" {
			return
		}
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if !strings.HasSuffix(got, "\n") || lines[0] != "# Fact sheet" {
			t.Fatalf("Render = %q: bad frame", got)
		}
		entries := 0
		for _, l := range lines[1:] {
			switch {
			case strings.HasPrefix(l, "- "):
				entries++
			case l == "## core" || l == "## transient":
			default:
				t.Fatalf("Render = %q: unexpected line %q", got, l)
			}
		}
		if entries != 3-dropped {
			t.Fatalf("Render = %q: %d entry lines, %d dropped of 3", got, entries, dropped)
		}
		// The unlimited rendering fits a budget of its own length.
		full, _ := Render(s, RenderOptions{})
		if _, again := Render(s, RenderOptions{MaxChars: utf8.RuneCountInString(full)}); again != 0 {
			t.Fatalf("Render within its own length %d dropped %d", utf8.RuneCountInString(full), again)
		}
	})
}
