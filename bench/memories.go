package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The search benchmark's data: short free-text memories of one user, drawn from
// word lists whose words repeat across memories as in a real memory, and questions
// that know the memory they were made from. A share of the memories carries a rare
// token (an identifier, an invented word or an unusual name), and a share of the
// questions asks by it: the words a general-purpose embedder does not know and full
// text matches exactly. Memory i and question j depend only on (seed, i) and
// (seed, j), so any N is reproducible without storing the data.

var (
	memPeople = strings.Fields(`Martin Sarah Dana Eli Priya Tom Anna Lukas Mei Omar Grace Ivan Nora Raj Lea Hugo
		Ines Sam Kofi Yara Ben Clara David Emma Felix Hana Jonas Julia Karim Laura Leo Maya Nadia Oscar Paula Rosa
		Simon Sofia Theo Vera Adam Bruno Chloe Diego Elena Farah Georg Helen Isaac Jana Kenji Lina Marco Nina Olga
		Pedro Quinn Rita Sven Tara Umar Vicky Walter Xenia Yusuf Zoe Arjun Bianca Carlos Dmitri Esther Finn Gita
		Hassan Irene Jakob Kira`)
	memVerbs = [][2]string{{"booked", "book"}, {"fixed", "fix"}, {"lent", "lend"}, {"bought", "buy"},
		{"planned", "plan"}, {"cancelled", "cancel"}, {"moved", "move"}, {"found", "find"}, {"lost", "lose"},
		{"painted", "paint"}, {"returned", "return"}, {"ordered", "order"}, {"borrowed", "borrow"},
		{"repaired", "repair"}, {"sold", "sell"}, {"shipped", "ship"}, {"reviewed", "review"}, {"signed", "sign"},
		{"packed", "pack"}, {"cleaned", "clean"}, {"tested", "test"}, {"photographed", "photograph"},
		{"insured", "insure"}, {"measured", "measure"}}
	memAdjs = strings.Fields(`spicy quiet old new italian vegan cheap fast small green early late weekly local
		red blue heavy light wooden broken shiny vintage electric spare rented borrowed large tiny noisy fragile
		antique digital frozen handmade leather silver golden striped`)
	// memNouns pairs each noun with a word of like meaning, which some questions use
	// in its place: a match for an embedder, not for full text.
	memNouns = [][2]string{{"bicycle", "bike"}, {"car", "automobile"}, {"sofa", "couch"}, {"laptop", "notebook"},
		{"camera", "lens"}, {"guitar", "instrument"}, {"violin", "fiddle"}, {"piano", "keyboard"},
		{"tent", "camping"}, {"boat", "kayak"}, {"jacket", "coat"}, {"boots", "shoes"}, {"watch", "clock"},
		{"ring", "jewelry"}, {"lamp", "light"}, {"table", "desk"}, {"chair", "seat"}, {"carpet", "rug"},
		{"painting", "artwork"}, {"vase", "pottery"}, {"printer", "scanner"}, {"phone", "mobile"},
		{"tablet", "ipad"}, {"router", "modem"}, {"drill", "tools"}, {"ladder", "stepladder"},
		{"fridge", "refrigerator"}, {"oven", "stove"}, {"kettle", "teapot"}, {"blender", "mixer"},
		{"suitcase", "luggage"}, {"backpack", "bag"}, {"passport", "visa"}, {"tickets", "reservation"},
		{"flight", "plane"}, {"hotel", "accommodation"}, {"dinner", "meal"}, {"cake", "dessert"},
		{"wine", "champagne"}, {"coffee", "espresso"}, {"tea", "chai"}, {"garden", "yard"},
		{"roses", "flowers"}, {"tomatoes", "vegetables"}, {"puppy", "dog"}, {"kitten", "cat"},
		{"horse", "pony"}, {"aquarium", "fish"}, {"novel", "book"}, {"poems", "poetry"},
		{"podcast", "radio"}, {"concert", "gig"}, {"museum", "gallery"}, {"lecture", "talk"},
		{"wedding", "marriage"}, {"birthday", "anniversary"}, {"dentist", "doctor"}, {"medicine", "pills"},
		{"insurance", "policy"}, {"mortgage", "loan"}, {"budget", "spending"}, {"invoice", "bill"},
		{"contract", "agreement"}, {"report", "document"}, {"slides", "presentation"}, {"server", "computer"},
		{"website", "homepage"}, {"database", "storage"}, {"spreadsheet", "excel"}, {"password", "login"}}
	memPlaces = strings.Fields(`Lisbon Berlin Kyoto Austin Oslo Lagos Lima Porto Seoul Denver Madrid Vienna Prague
		Dublin Boston Chicago Toronto Sydney Nairobi Cairo Mumbai Delhi Bangkok Manila Jakarta Santiago Bogota
		Havana Quebec Geneva Zurich Munich Hamburg Milan Naples Athens Istanbul Warsaw Krakow Budapest Helsinki
		Stockholm Copenhagen Amsterdam Brussels Paris Lyon Marseille Edinburgh Glasgow`)
	memTimes = []string{"on Monday", "on Tuesday", "on Wednesday", "on Thursday", "on Friday", "on Saturday",
		"on Sunday", "last week", "yesterday", "this morning", "in March", "in April", "in June", "in September",
		"in November", "before the holidays", "after work", "at the weekend"}
	memIDPrefixes = strings.Fields("INC PR ORD TKT INV SKU BUG REQ CASE JIRA")
	// Syllables of invented words and unusual names: pronounceable, and almost never a
	// word of any vocabulary.
	memOnsets = strings.Fields("b br d dr f g gl k kr l m n p pr qu r s st t th v vr z zh")
	memVowels = strings.Fields("a e i o u ae ou y")
	memCodas  = []string{"", "", "n", "r", "l", "x", "m", "th", "sk", "nd"}
)

// Rare token kinds: what a memory carries that a general-purpose embedder does not
// know.
const (
	RareNone     = ""
	RareID       = "identifier" // "INC-483920", "SKU qx7731"
	RareInvented = "invented"   // "the zorblatt"
	RareName     = "name"       // "Velmora Quenth"
)

// Memory is one generated memory.
type Memory struct {
	Text string
	// Rare is the kind of rare token the memory carries, RareNone for none; Token is
	// the token as written.
	Rare, Token                                             string
	person, verb, verbBase, adj, noun, synonym, place, time string
}

// Question is one generated question and the memory it was made from.
type Question struct {
	Text   string
	Source int    // the index of the memory that answers it
	Rare   string // the kind of rare token the question asks by; RareNone for a question by common words
	// Synonym is set when the question names the memory's object by a word of like
	// meaning rather than its own.
	Synonym bool
}

// rareShare is the share of memories with a rare token.
const rareShare = 0.3

// GenMemory returns memory i of the n memories of the data set seeded by seed (n
// sizes the pool of rare tokens).
func GenMemory(seed uint64, n, i int) Memory {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	v, noun := memVerbs[r.IntN(len(memVerbs))], memNouns[r.IntN(len(memNouns))]
	m := Memory{person: pick(memPeople), verb: v[0], verbBase: v[1], adj: pick(memAdjs), noun: noun[0], synonym: noun[1],
		place: pick(memPlaces), time: pick(memTimes)}
	if r.Float64() < rareShare {
		// A rare token is one of a pool that holds one token for every rareRepeat
		// memories with one, so that a token is in about rareRepeat memories, as a
		// ticket, a pet's name or a person seen a few times is.
		pool := max(1, int(float64(n)*rareShare/rareRepeat))
		m.Rare, m.Token = rareToken(seed, r.IntN(pool))
	}
	switch m.Rare {
	case RareID:
		m.Text = fmt.Sprintf("%s: %s %s the %s %s in %s %s.", m.Token, m.person, m.verb, m.adj, m.noun, m.place, m.time)
	case RareInvented:
		m.Text = fmt.Sprintf("%s %s the %s %s, the %s one, in %s %s.", m.person, m.verb, m.adj, m.Token, m.noun, m.place, m.time)
	case RareName:
		m.Text = fmt.Sprintf("My friend %s %s the %s %s in %s %s.", m.Token, m.verb, m.adj, m.noun, m.place, m.time)
	default:
		switch r.IntN(3) {
		case 0:
			m.Text = fmt.Sprintf("%s %s the %s %s in %s %s.", m.person, m.verb, m.adj, m.noun, m.place, m.time)
		case 1:
			m.Text = fmt.Sprintf("%s, %s %s the %s %s while in %s.", capitalise(m.time), m.person, m.verb, m.adj, m.noun, m.place)
		default:
			m.Text = fmt.Sprintf("%s %s a %s %s at %s %s; it went fine.", m.person, m.verb, m.adj, m.noun, m.place, m.time)
		}
	}
	return m
}

// rareRepeat is about how many memories hold each rare token.
const rareRepeat = 2.5

// rareToken returns rare token j of the data set seeded by seed, and its kind.
func rareToken(seed uint64, j int) (kind, token string) {
	r := rand.New(rand.NewPCG(seed^0x5bd1e995, uint64(j)))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	switch j % 3 {
	case 0:
		if r.IntN(2) == 0 {
			return RareID, fmt.Sprintf("%s-%06d", pick(memIDPrefixes), 100000+r.IntN(900000))
		}
		return RareID, fmt.Sprintf("%s%c%d", strings.ToLower(pick(memIDPrefixes)[:2]), 'a'+rune(r.IntN(26)), 1000+r.IntN(9000))
	case 1:
		return RareInvented, invented(r, 2+r.IntN(2))
	}
	return RareName, capitalise(invented(r, 2+r.IntN(2)))
}

// invented returns a made-up word of syllables syllables.
func invented(r *rand.Rand, syllables int) string {
	var b strings.Builder
	for range syllables {
		b.WriteString(memOnsets[r.IntN(len(memOnsets))])
		b.WriteString(memVowels[r.IntN(len(memVowels))])
	}
	b.WriteString(memCodas[1+r.IntN(len(memCodas)-1)])
	return b.String()
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// rareQuestionShare is the share of questions asked by a memory's rare token.
const rareQuestionShare = 0.4

// GenQuestion returns question j over the first n memories of the data set seeded by
// seed: with probability rareQuestionShare a question by the rare token of a memory
// that has one, else one by the memory's common words (a third of those naming its
// object by a word of like meaning).
func GenQuestion(seed uint64, n, j int) Question {
	r := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(j)))
	rare := r.Float64() < rareQuestionShare
	i := r.IntN(n)
	m := GenMemory(seed, n, i)
	if rare {
		// The next memory from i on with a rare token (one in rareShare has one).
		for k := 0; k < n && m.Rare == RareNone; k++ {
			i = (i + 1) % n
			m = GenMemory(seed, n, i)
		}
		if m.Rare == RareNone {
			rare = false
		}
	}
	q := Question{Source: i}
	if rare {
		q.Rare = m.Rare
		// Each names the rare token with one or two of the memory's common words, as
		// people ask: the common words match many memories, the token one.
		k := r.IntN(3)
		switch m.Rare {
		case RareID:
			q.Text = [...]string{
				fmt.Sprintf("What did %s %s for %s?", m.person, m.verbBase, m.Token),
				fmt.Sprintf("Which %s was %s about?", m.noun, m.Token),
				fmt.Sprintf("What happened with %s in %s?", m.Token, m.place)}[k]
		case RareInvented:
			q.Text = [...]string{
				fmt.Sprintf("Where did %s %s the %s?", m.person, m.verbBase, m.Token),
				fmt.Sprintf("What did I write down about the %s %s?", m.adj, m.Token),
				fmt.Sprintf("Who has the %s from %s?", m.Token, m.place)}[k]
		case RareName:
			q.Text = [...]string{
				fmt.Sprintf("What did %s %s in %s?", m.Token, m.verbBase, m.place),
				fmt.Sprintf("What about my friend %s and the %s?", m.Token, m.noun),
				fmt.Sprintf("When did %s %s the %s %s?", m.Token, m.verbBase, m.adj, m.noun)}[k]
		}
		return q
	}
	obj := m.noun
	if r.IntN(3) == 0 {
		obj, q.Synonym = m.synonym, true
	}
	who := m.person
	if m.Rare == RareName {
		who = m.Token
	}
	switch r.IntN(3) {
	case 0:
		q.Text = fmt.Sprintf("Did %s %s the %s in %s?", who, m.verbBase, obj, m.place)
	case 1:
		q.Text = fmt.Sprintf("What about the %s %s %s in %s?", m.adj, obj, m.verb, m.place)
	default:
		q.Text = fmt.Sprintf("When did %s %s the %s %s?", who, m.verbBase, m.adj, obj)
	}
	return q
}
