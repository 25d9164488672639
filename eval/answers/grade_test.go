package answers

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/factbase/factbase/memory/chat"
)

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"St. Mary’s", []string{"st", "mary's"}},
		{"  Hey   JUDE! ", []string{"hey", "jude"}},
		{"maya@fjord.no", []string{"maya", "fjord", "no"}},
		{"v2.3.1", []string{"v2", "3", "1"}},
		{"'quoted'", []string{"quoted"}},
		{"", nil},
	}
	for _, tc := range tests {
		if got := words(tc.in); !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := seq("The Wire and a dog"), []string{"wire", "and", "dog"}; !slices.Equal(got, want) {
		t.Errorf("seq = %q, want %q", got, want)
	}
}

func TestContains(t *testing.T) {
	tests := []struct {
		in, part string
		want     bool
	}{
		{"a haircut on Friday at 10am", "haircut", true},
		{"a haircut on Friday at 10am", "Friday at 10am", true},
		{"a haircut on Friday at 10am", "haircut at 10am", false},
		{"2.3.1", "2.3.0", false},
		{"2.3.1", "3.1", true},
		{"Sonny", "son", false},
		{"x", "", false},
		{"", "x", false},
	}
	for _, tc := range tests {
		if got := contains(seq(tc.in), seq(tc.part)); got != tc.want {
			t.Errorf("contains(%q, %q) = %v, want %v", tc.in, tc.part, got, tc.want)
		}
	}
}

func testGround() Ground {
	var g Ground
	g.Add("Ben", "husband", "a haircut on Friday at 10am", "tree nuts", "8")
	g.AddDate(time.Date(2026, 6, 12, 0, 0, 0, 0, time.UTC))
	g.AddPassage("The ORBIT deployment failed because the database migration timed out.")
	g.AddID("f1", "f2")
	return g
}

func TestGroundHolds(t *testing.T) {
	g := testGround()
	tests := []struct {
		it   Item
		want bool
	}{
		{Item{Value: "Ben"}, true},
		{Item{Value: "ben (husband)"}, true},                               // holds a stored value
		{Item{Value: "haircut"}, true},                                     // held by a stored value
		{Item{Value: "8 years old"}, true},                                 // holds "8"
		{Item{Value: "June 12"}, true},                                     // an anchor's date
		{Item{Value: "Friday, 12 June 2026"}, true},                        // holds "12 June"
		{Item{Value: "database migration timed out"}, true},                // in a passage
		{Item{Value: "the ORBIT deployment failed because of DNS"}, false}, // a passage does not hold it
		{Item{Value: "Sarah"}, false},
		{Item{Value: "Ben", ID: "f1"}, true},
		{Item{Value: "Ben", ID: "nope"}, false}, // cites a fact that is not stored
		{Item{Value: "  "}, false},
	}
	for _, tc := range tests {
		if got := g.Holds(tc.it); got != tc.want {
			t.Errorf("Holds(%+v) = %v, want %v", tc.it, got, tc.want)
		}
	}
	for _, tc := range []struct {
		v    string
		want bool
	}{{"haircut", true}, {"tree nuts", true}, {"migration timed out", true}, {"haircut and Ben", false}, {"nuts allergy", false}} {
		if got := g.Stores(tc.v); got != tc.want {
			t.Errorf("Stores(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestYesNo(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		a       Answer
		yes, ok bool
	}{
		{Answer{Reply: "Yes, Dune is #2 of your favorite books."}, true, true},
		{Answer{Reply: "no. Blur was removed."}, false, true},
		{Answer{Reply: "Nope"}, false, true},
		{Answer{Reply: "Your favorite book is Foundation."}, false, false},
		{Answer{Reply: ""}, false, false},
		{Answer{Reply: "Your favorite book is Foundation.", Yes: &yes}, true, true},
		{Answer{Reply: "Yes", Yes: &no}, false, true},
	}
	for _, tc := range tests {
		if yes, ok := tc.a.YesNo(); yes != tc.yes || ok != tc.ok {
			t.Errorf("YesNo(%q) = %v, %v, want %v, %v", tc.a.Reply, yes, ok, tc.yes, tc.ok)
		}
	}
}

func TestAbstains(t *testing.T) {
	tests := []struct {
		a    Answer
		want bool
	}{
		{Answer{Reply: "I don't know your favorite movie yet."}, true},
		{Answer{Reply: "I don’t know."}, true},
		{Answer{Reply: "You have 3 favorite songs; there is no #4 yet."}, true},
		{Answer{Reply: "No allergies are stored for you: none stored."}, true},
		{Answer{Reply: "I can only answer questions about your own facts and favorites."}, false},
		{Answer{Reply: "Your husband is Ben."}, false},
		{Answer{Reply: "I don't know.", Items: []Item{{Value: "Ben"}}}, false}, // items are an answer
	}
	for _, tc := range tests {
		if got := tc.a.Abstains(); got != tc.want {
			t.Errorf("Abstains(%q) = %v, want %v", tc.a.Reply, got, tc.want)
		}
	}
}

func TestMentionsRank(t *testing.T) {
	tests := []struct {
		reply string
		n     int
		want  bool
	}{
		{"Dune is #2 of your favorite books.", 2, true},
		{"Dune is your second favorite book.", 2, true},
		{"Dune is your 2nd favorite.", 2, true},
		{"Dune is number 2.", 2, true},
		{"Dune is #12.", 1, false}, // "#1" only as the start of another number
		{"Dune is #12, Emma #1.", 1, true},
		{"Dune is one of your favorites.", 2, false},
		{"Alien is at the top.", 1, true},
		{"Fargo is 11th.", 11, true},
		{"Fargo is 13th.", 13, true},
		{"Fargo is 22nd.", 22, true},
	}
	for _, tc := range tests {
		if got := mentionsRank(tc.reply, tc.n); got != tc.want {
			t.Errorf("mentionsRank(%q, %d) = %v, want %v", tc.reply, tc.n, got, tc.want)
		}
	}
}

func TestGives(t *testing.T) {
	three := 3
	tests := []struct {
		a    Answer
		n    int
		want bool
	}{
		{Answer{Reply: "You have 3 favorite podcasts."}, 3, true},
		{Answer{Reply: "You have three favorite podcasts."}, 3, true},
		{Answer{Reply: "You have 13 favorite podcasts."}, 3, false},
		{Answer{Reply: "Your favorite podcasts: #1 Radiolab, #2 Serial."}, 3, false},
		{Answer{Reply: "Here.", Items: []Item{{Value: "3"}}}, 3, true},
		{Answer{Reply: "You have 4.", Count: &three}, 3, true},
		{Answer{Reply: "You have 3.", Count: &three}, 4, false},
	}
	for _, tc := range tests {
		if got := gives(tc.a, tc.n); got != tc.want {
			t.Errorf("gives(%+v, %d) = %v, want %v", tc.a, tc.n, got, tc.want)
		}
	}
}

func TestFromAsk(t *testing.T) {
	one := FromAsk(chat.AskResult{Reply: "Your favorite book is Dune.", Items: []chat.AskItem{{Rank: 1, Value: "Dune", ID: "f1"}}})
	if len(one.Items) != 1 || one.Items[0] != (Item{Value: "Dune", Rank: 1, ID: "f1"}) || one.Reply != "Your favorite book is Dune." {
		t.Errorf("FromAsk(one answer) = %+v", one)
	}
	two := FromAsk(chat.AskResult{Reply: "a b", Items: []chat.AskItem{{Value: "x"}}, Answers: []chat.Answer{
		{Items: []chat.AskItem{{Value: "x"}}}, {Items: []chat.AskItem{{Value: "y", Rank: 2}}}}})
	if got := len(two.Items); got != 2 || two.Items[1].Value != "y" || two.Items[1].Rank != 2 {
		t.Errorf("FromAsk(two answers) = %+v, want the items of both", two)
	}
	if none := FromAsk(chat.AskResult{Reply: "I don't know."}); none.Items == nil || len(none.Items) != 0 {
		t.Errorf("FromAsk(no items) = %+v, want an empty list", none)
	}
}

func exp(values string, rank int) Expected {
	return Expected{Values: strings.Split(values, "|"), Rank: rank}
}

func TestGrade(t *testing.T) {
	g := testGround()
	yes, no, three := true, false, 3
	tests := []struct {
		name string
		q    Question
		a    Answer
		want Verdict
	}{
		{"item found", Question{Items: []Expected{exp("Ben", 0)}},
			Answer{Items: []Item{{Value: "Ben", ID: "f1"}}, Reply: "Your husband is Ben."},
			Verdict{Correct: true}},
		{"alternative found", Question{Items: []Expected{exp("Zoe|tree nuts", 0)}},
			Answer{Items: []Item{{Value: "tree nuts"}}},
			Verdict{Correct: true}},
		{"item missing", Question{Items: []Expected{exp("Ben", 0)}},
			Answer{Items: []Item{{Value: "husband"}}},
			Verdict{Missing: []string{"Ben"}}},
		{"reply when no items", Question{Items: []Expected{exp("Ben", 0)}},
			Answer{Reply: "Your husband is Ben."},
			Verdict{Correct: true}},
		{"reply not read when items", Question{Items: []Expected{exp("Ben", 0)}},
			Answer{Items: []Item{{Value: "husband"}}, Reply: "Your husband is Ben."},
			Verdict{Missing: []string{"Ben"}}},
		{"rank right", Question{Items: []Expected{exp("haircut", 2)}},
			Answer{Items: []Item{{Value: "haircut", Rank: 2}}},
			Verdict{Correct: true}},
		{"rank wrong", Question{Items: []Expected{exp("haircut", 2)}},
			Answer{Items: []Item{{Value: "haircut", Rank: 1}}},
			Verdict{Missing: []string{"haircut #2"}}},
		{"rank in reply", Question{Items: []Expected{exp("haircut", 2)}},
			Answer{Reply: "Yes, haircut is #2."},
			Verdict{Correct: true}},
		{"forbidden item", Question{Items: []Expected{exp("haircut", 0)}, Not: []Expected{exp("Ben", 0)}},
			Answer{Items: []Item{{Value: "haircut"}, {Value: "Ben"}}},
			Verdict{Forbidden: []string{"Ben"}}},
		{"forbidden only in items", Question{Items: []Expected{exp("haircut", 0)}, Not: []Expected{exp("Ben", 0)}},
			Answer{Reply: "Ben has a haircut."},
			Verdict{Correct: true}},
		{"yes right", Question{Yes: &yes, Items: []Expected{exp("tree nuts", 0)}},
			Answer{Items: []Item{{Value: "tree nuts"}}, Reply: "Yes: Zoe is allergic to tree nuts."},
			Verdict{Correct: true}},
		{"no yes", Question{Yes: &yes},
			Answer{Items: []Item{{Value: "Ben"}}, Reply: "Your favorite is Ben."},
			Verdict{Wrong: []string{"no yes or no (want yes)"}}},
		{"wrong no", Question{Yes: &no},
			Answer{Reply: "Yes."},
			Verdict{Wrong: []string{"said yes, want no"}}},
		{"count right", Question{Count: &three},
			Answer{Reply: "You have 3 favorite podcasts."},
			Verdict{Correct: true}},
		{"count as an item is not invented", Question{Count: &three},
			Answer{Items: []Item{{Value: "3"}}, Reply: "3"},
			Verdict{Correct: true}},
		{"count wrong", Question{Count: &three},
			Answer{Reply: "You have 2."},
			Verdict{Wrong: []string{"no count 3"}}},
		{"invented item", Question{Items: []Expected{exp("Ben", 0)}},
			Answer{Items: []Item{{Value: "Ben"}, {Value: "Sarah"}}},
			Verdict{Invented: []string{"Sarah"}}},
		{"number not stored is invented", Question{Items: []Expected{exp("Ben", 0)}},
			Answer{Items: []Item{{Value: "Ben"}, {Value: "3"}}},
			Verdict{Invented: []string{"3"}}},
		{"answerable, abstained", Question{Items: []Expected{exp("Ben", 0)}},
			Answer{Reply: "I don't know who your husband is."},
			Verdict{Abstained: true, Missing: []string{"Ben"}}},
		{"abstain right", Question{Abstain: true},
			Answer{Items: []Item{}, Reply: "I don't know your blood type."},
			Verdict{Correct: true, Abstained: true}},
		{"abstain with a canned refusal", Question{Abstain: true},
			Answer{Reply: "I can only answer questions about your own facts and favorites."},
			Verdict{Wrong: []string{"did not say it does not know"}}},
		{"abstain with stored items", Question{Abstain: true},
			Answer{Items: []Item{{Value: "Ben"}}, Reply: "I don't know; Ben is your husband."},
			Verdict{Invented: []string{"Ben"}, Wrong: []string{"did not say it does not know"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Grade(tc.q, tc.a, g)
			if got.Correct != tc.want.Correct || got.Abstained != tc.want.Abstained ||
				!slices.Equal(got.Invented, tc.want.Invented) || !slices.Equal(got.Missing, tc.want.Missing) ||
				!slices.Equal(got.Forbidden, tc.want.Forbidden) || !slices.Equal(got.Wrong, tc.want.Wrong) {
				t.Errorf("Grade = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestScore checks the counts on hand-made results.
func TestScore(t *testing.T) {
	yes := true
	results := []Result{
		{Question: Question{Kind: KindPeople, Text: "a", Items: []Expected{exp("Ben", 0)}}, Verdict: Verdict{Correct: true}},
		{Question: Question{Kind: KindPeople, Text: "b", Items: []Expected{exp("Ben", 0)}},
			Verdict: Verdict{Abstained: true, Missing: []string{"Ben"}}, Gaps: []string{"Ben"}},
		{Question: Question{Kind: KindFavorites, Text: "c", Yes: &yes}, Answer: Answer{Reply: "Yes."}, Verdict: Verdict{Correct: true}},
		{Question: Question{Kind: KindFavorites, Text: "d", Yes: &yes}, Answer: Answer{Reply: "Your favorite is X."},
			Verdict: Verdict{Invented: []string{"X"}}, Error: "boom"},
		{Question: Question{Kind: KindUnanswerable, Text: "e", Abstain: true}, Verdict: Verdict{Correct: true, Abstained: true}},
		{Question: Question{Kind: KindUnanswerable, Text: "f", Abstain: true}, Verdict: Verdict{Invented: []string{"Ben"}}},
	}
	r := Score("t", results)
	if r.Questions != 6 || r.Total != (KindScore{Kind: "total", Count: 6, Correct: 3, Accuracy: 0.5}) {
		t.Errorf("questions %d, total %+v, want 6 and 3 of 6", r.Questions, r.Total)
	}
	if got := len(r.Kinds); got != len(Kinds) {
		t.Fatalf("%d kinds, want every kind (%d)", got, len(Kinds))
	}
	kinds := map[string]KindScore{}
	for _, k := range r.Kinds {
		kinds[k.Kind] = k
	}
	if k := kinds[KindPeople]; k.Count != 2 || k.Correct != 1 || k.Accuracy != 0.5 {
		t.Errorf("people = %+v", k)
	}
	if k := kinds[KindEpisodes]; k.Count != 0 || k.Accuracy != 0 {
		t.Errorf("episodes = %+v", k)
	}
	if r.Abstain != (Check{Right: 1, Checked: 2, Accuracy: 0.5}) || r.YesNo != (Check{Right: 1, Checked: 2, Accuracy: 0.5}) {
		t.Errorf("abstain %+v, yes/no %+v", r.Abstain, r.YesNo)
	}
	if r.Invented != 2 || r.OverAbstained != 1 || len(r.SetupGaps) != 1 || len(r.Errors) != 1 {
		t.Errorf("invented %d, over-abstained %d, gaps %d, errors %d, want 2, 1, 1, 1", r.Invented, r.OverAbstained,
			len(r.SetupGaps), len(r.Errors))
	}
	if got := len(r.Failures); got != 3 || r.Failures[0].Question != "b" || r.Failures[1].Error != "boom" {
		t.Errorf("failures = %+v", r.Failures)
	}
	if tab := r.Table(1); !strings.Contains(tab, "people") || !strings.Contains(tab, "abstention: 1 of 2") {
		t.Errorf("Table =\n%s", tab)
	}
}
