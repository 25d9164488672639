package text

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// words renders tokens as "w" or "w/kind" for kinds other than Word, with "+p" for
// a possessive and "^" for a capital.
func words(toks []Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.Cap {
			b.WriteByte('^')
		}
		b.WriteString(t.W)
		if t.Poss {
			b.WriteString("+p")
		}
		if t.Kind != Word {
			b.WriteString("/" + t.Kind.String())
		}
	}
	return b.String()
}

func TestTokenize(t *testing.T) {
	router := Options{WordSymbols: "@_&+%$€£", Marks: true, Joiners: ".'’-/‐", Quotes: true, SkipFlags: true, PluralPossessive: true}
	dates := Options{NonASCII: true, Joiners: "'-:/.", DigitDots: true}
	episodeWords := Options{WordSymbols: "_", NonSpacingMarks: true, Joiners: "-", JoinerRuns: true}
	tests := []struct {
		name string
		msg  string
		o    Options
		want string
	}{
		{"plain", "My sister Ada", Standard, "^my sister ^ada"},
		{"contraction", "She isn't here", Standard, "^she is not here"},
		{"typographic contraction", "I’m Tom", Standard, "^i am ^tom"},
		{"suffix contraction", "Anna'll come", Standard, "^anna will come"},
		{"possessive", "Leo's dog and my parents' house", Standard, "^leo+p dog and my parents+p house"},
		{"number", "I am 42.", Standard, "^i am 42/number ./punct"},
		{"decimal", "it costs 3.50 now", Standard, "it costs 3.50 now"},
		{"dot between words", "end.Next", Standard, "end ./punct ^next"},
		{"email", "mail jamal.k@fastmail.com now", Standard, "mail jamal.k@fastmail.com/email now"},
		{"url", "see https://go.dev/doc. ok", Standard, "see https://go.dev/doc/url ./punct ok"},
		{"www", "(www.example.com)", Standard, "(/punct www.example.com/url )/punct"},
		{"quoted", `my song is "Is This Love" ok`, Standard, "my song is is this love/quoted ok"},
		{"newline", "a\nb", Standard, "a \n/newline b"},
		{"symbol", "emoji 🙂", Standard, "emoji 🙂/symbol"},
		{"hyphen", "Jay-Z", Standard, "^jay-z"},
		{"zero options", "don't stop", Options{}, "don '/punct t stop"},
		{"router joiners", "node.js and ac/dc", router, "node.js and ac/dc"},
		{"router flags", "add milk --json", router, "add milk"},
		{"router symbols", "$5 at bob@x.com", router, "$5 at bob@x.com"},
		{"dates", "at 15:30 on 3/4, 15.30 or end.x", dates, "at 15:30 on 3/4 ,/punct 15.30 or end ./punct x"},
		{"dates non-ascii", "3–5 June", dates, "3–5 ^june"},
		{"joiner runs", "a--b x-_y z- -w c\u0301-\u0301d e\u0903", episodeWords, "a--b x-_y z -/punct -/punct w c\u0301-\u0301d e \u0903/punct"},
		{"invalid utf-8", "a\xffb c", Standard, "a \xff/punct b c"},
		{"invalid utf-8 as word", "a\xffb c", dates, "a\ufffdb c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := words(Tokenize(tc.msg, tc.o)); got != tc.want {
				t.Errorf("Tokenize(%q) = %q, want %q", tc.msg, got, tc.want)
			}
		})
	}
}

func TestSpansKeepSpelling(t *testing.T) {
	msg := "My SISTER’s name is Zoë-Anne."
	p := New(msg)
	var got []string
	for _, tk := range p.Tokens() {
		got = append(got, msg[tk.Start:tk.End])
	}
	if g, want := strings.Join(got, "|"), "My|SISTER’s|name|is|Zoë-Anne|."; g != want {
		t.Errorf("spans of %q = %q, want %q", msg, g, want)
	}
}

// clauseText renders a parse's clauses as "kind:text" joined by " | ".
func clauseText(p *Parse) string {
	var out []string
	for _, c := range p.Clauses() {
		k := c.Kind.String()
		if c.Cont {
			k += "+"
		}
		out = append(out, k+":"+p.Cut(c.Span))
	}
	return strings.Join(out, " | ")
}

func TestSegment(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		want string
	}{
		{"sentences", "I live in Rome. Dr. Smith is 40! Ok", "main:I live in Rome. | main:Dr. Smith is 40! | main:Ok"},
		{"initial", "J. R. Smith called.", "main:J. R. Smith called."},
		{"terminator run", "Really?! Yes", "main:Really?! | main:Yes"},
		{"line break", "milk\neggs", "main:milk\n | main:eggs"},
		{"coordination", "Ada lives in Rome and her husband works at Acme", "main:Ada lives in Rome | coordinate:and her husband works at Acme"},
		{"no coordination", "I met Ada and her husband", "main:I met Ada and her husband"},
		{"pronoun coordination", "I moved but she stayed", "main:I moved | coordinate:but she stayed"},
		{"appositive", "Ada, my eldest, lives in Rome", "main:Ada, | appositive:my eldest | main+:, lives in Rome"},
		{"no appositive in a list", "I like Rome, the sea, and pasta", "main:I like Rome, the sea, and pasta"},
		{"relative", "My sister, who lives in Rome, is a nurse", "main:My sister, | relative:who lives in Rome | main+:, is a nurse"},
		{"relative to end", "I have a brother who plays chess", "main:I have a brother | relative:who plays chess"},
		{"reported", "Ada told me that she moved to Paris", "main:Ada told me that | reported:she moved to Paris"},
		{"reported bare", "Tom said he is 40", "main:Tom said | reported:he is 40"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := clauseText(New(tc.msg)); got != tc.want {
				t.Errorf("clauses of %q = %q, want %q", tc.msg, got, tc.want)
			}
		})
	}
}

func TestSentences(t *testing.T) {
	noTitles := SentenceRules{Ends: "!?", Runs: ".!?", RunsCrossLines: true, KeepDot: func(int) bool { return false }}
	var toks []Token
	// keepEnds ends at a dot or colon only before a space or the end, and at no title.
	keepEnds := SentenceRules{Ends: "!?:", KeepDot: func(int) bool { return false }, KeepEnd: func(i int) bool {
		return (toks[i].W == "." || toks[i].W == ":") && i+1 < len(toks) && toks[i+1].Start == toks[i].End
	}}
	tests := []struct {
		name, msg, want string
		rules           SentenceRules
	}{
		{"standard", "Dr. Ada is 40; Ok… x.\n!", "Dr. Ada is 40; | Ok… | x. | \n!", StandardSentences},
		{"a quoted end in a run", `Yes. "." no`, `Yes. "." | no`, StandardSentences},
		{"rules", "Dr. Ada is 40; Ok… x.\n!", "Dr. | Ada is 40; Ok… x.\n!", noTitles},
		{"run across lines", "Hi.\n\n?! Bye", "Hi.\n\n?! | Bye", noTitles},
		{"no run across words", "Hi.\nBye", "Hi. | \n | Bye", noTitles},
		{"kept ends", "Dr. Lee: v2.3. ok?! a:b x.y z", "Dr. | Lee: | v2.3. | ok? | ! | a:b x.y z", keepEnds},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks = Tokenize(tc.msg, Standard)
			var got []string
			for _, s := range Sentences(toks, tc.rules) {
				got = append(got, tc.msg[toks[s.From].Start:toks[s.To-1].End])
			}
			if g := strings.Join(got, " | "); g != tc.want {
				t.Errorf("Sentences(%q) = %q, want %q", tc.msg, g, tc.want)
			}
		})
	}
}

func TestLists(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		want string
	}{
		{"names", "My kids are Rita, Sam and Leo.", "Rita|Sam|Leo"},
		{"oxford", "I like red wine, white bread, and cheese", "red wine|white bread|cheese"},
		{"or", "tea, coffee or milk", "tea|coffee|milk"},
		{"two items", "Ada and Leo", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(tc.msg)
			var got []string
			for _, l := range p.Lists() {
				for _, it := range l.Items {
					got = append(got, p.Cut(it))
				}
			}
			if g := strings.Join(got, "|"); g != tc.want {
				t.Errorf("lists of %q = %q, want %q", tc.msg, g, tc.want)
			}
		})
	}
}

func TestView(t *testing.T) {
	p := New("at 15:30")
	o := Options{Joiners: ":"}
	a, b := p.View(o), p.View(o)
	if len(a) != 2 || &a[0] != &b[0] {
		t.Errorf("View(%+v) = %v then %v, want two tokens made once", o, a, b)
	}
	if got := p.View(Standard); &got[0] != &p.Tokens()[0] {
		t.Errorf("View(Standard) is not Tokens")
	}
}

// checkParse checks the invariants of a parse of msg.
func checkParse(t *testing.T, msg string, p *Parse) {
	t.Helper()
	check := func(name string, toks []Token) {
		last := 0
		for i, tk := range toks {
			if tk.Start < last || tk.End < tk.Start || tk.End > len(msg) {
				t.Fatalf("%s token %d of %q: span [%d,%d) after %d", name, i, msg, tk.Start, tk.End, last)
			}
			if tk.Start == tk.End {
				t.Fatalf("%s token %d of %q: empty span at %d", name, i, msg, tk.Start)
			}
			last = tk.Start
		}
	}
	check("standard", p.Tokens())
	check("dates", p.View(Options{NonASCII: true, Joiners: "'-:/.", DigitDots: true}))
	check("router", p.View(Options{WordSymbols: "@_&+%$€£", Marks: true, Joiners: ".'’-/‐", Quotes: true, SkipFlags: true, PluralPossessive: true}))
	prev := 0
	for _, s := range p.Sentences() {
		if s.From != prev || s.To <= s.From || s.To > len(p.Tokens()) {
			t.Fatalf("sentences of %q: %v after %d", msg, s, prev)
		}
		prev = s.To
	}
	if prev != len(p.Tokens()) {
		t.Fatalf("sentences of %q end at %d of %d tokens", msg, prev, len(p.Tokens()))
	}
	prev = 0
	for _, c := range p.Clauses() {
		if c.From != prev || c.To <= c.From || c.To > len(p.Tokens()) || c.Head >= len(p.Tokens()) {
			t.Fatalf("clauses of %q: %+v after %d", msg, c, prev)
		}
		prev = c.To
	}
	if prev != len(p.Tokens()) {
		t.Fatalf("clauses of %q end at %d of %d tokens", msg, prev, len(p.Tokens()))
	}
	for _, l := range p.Lists() {
		for _, it := range l.Items {
			if it.From < 0 || it.To <= it.From || it.To > len(p.Tokens()) {
				t.Fatalf("list item of %q: %v", msg, it)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "My sister Ada, my eldest, isn't 40 and her husband works at Acme.",
		"Ada told me that she moved to Paris on 3/4 at 15:30",
		"mail jamal.k@fastmail.com or see https://go.dev/doc.", `"Is This Love" --json`,
		"Rita, Sam and Leo\n'parents' \xff\xfe", "“quoted” ‘single’ don’t", "Dr. J. R. Smith?!",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		p := New(msg)
		checkParse(t, msg, p)
		checkViews(t, msg)
		var all []Token
		for tk := range All(msg, Standard) {
			all = append(all, tk)
		}
		if got, want := words(all), words(p.Tokens()); got != want {
			t.Fatalf("All(%q) = %q, Tokenize: %q", msg, got, want)
		}
		if utf8.ValidString(msg) {
			for _, tk := range p.Tokens() {
				if !utf8.ValidString(msg[tk.Start:tk.End]) {
					t.Fatalf("token of %q cuts a rune: [%d,%d)", msg, tk.Start, tk.End)
				}
			}
		}
	})
}

func TestAll(t *testing.T) {
	msg := "Ada isn't 40, she's 41 — “really”\nok"
	var got []Token
	for tk := range All(msg, Standard) {
		got = append(got, tk)
	}
	if g, want := words(got), words(Tokenize(msg, Standard)); g != want {
		t.Errorf("All(%q) = %q, want Tokenize's %q", msg, g, want)
	}
	n := 0
	for range All(msg, Standard) {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("All(%q) went on after break: %d tokens", msg, n)
	}
}

func FuzzWords(f *testing.F) {
	f.Add("Quito, Ecuador! v2.3 café\xffdon't 🙂 x")
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if got := Words(s); strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Errorf("Words(%q) = %q, want %q", s, got, want)
		}
	})
}

func FuzzFields(f *testing.F) {
	f.Add("the all-time (jazz\u00a0albums)\x85x\xff \"sci-fi\"\n--x 'a'b")
	f.Fuzz(func(t *testing.T, s string) {
		var got []string
		for tok := range All(s, Options{Fields: true}) {
			if tok.Kind == Word || tok.Kind == Number {
				got = append(got, s[tok.Start:tok.End])
			}
		}
		if want := strings.Fields(s); !slices.Equal(got, want) {
			t.Errorf("fields of %q = %q, want %q", s, got, want)
		}
	})
}
