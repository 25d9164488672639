// Package question plans the answer to a question about the user: which kind of
// read answers it (a ranked list's count, membership, a member's rank or least
// favorite; a person's facts; a group's, or its oldest or youngest; a yes/no question;
// an earlier value; a time window; or the assembled recall), and what it names. It is
// deterministic and pure: Plan reads the words only, and memory/chat's Ask runs the
// plan against the store. Questions about favorites that the router already reads
// (ordinal, whole list, top N) and about the user's basics stay the router's; a list
// said as a bare noun phrase ("Top 3 cuisines?") is placed here and read as the
// router would.
package question

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"
)

// Kind is the kind of read that answers a question.
type Kind string

// The kinds of plan.
const (
	ListCount  Kind = "list_count"  // "How many favorite podcasts do I have?"
	ListMember Kind = "list_member" // "Is Dune one of my favorite books?"; without a topic: "Do I like Dune?"
	ListLeast  Kind = "list_least"  // "What's my least favorite food?"
	ListTop    Kind = "list_top"    // "Top 3 cuisines?", "My favorite movies?": a list said without a verb
	Who        Kind = "who"         // "Who is my husband?", "Who are my kids?"
	Group      Kind = "group"       // "Do we have any pets?", "Who in my family ...?"
	YesNo      Kind = "yes_no"      // "Do I have any allergies?", "Is Ben allergic to nuts?"
	History    Kind = "history"     // "Where did I live before Oslo?", "What was my email in 2024?"
	Facts      Kind = "facts"       // "Where does my brother work?", "How old is Max?": recall, read by subject and intent
	WhoHas     Kind = "who_has"     // "Who works at Spotify?", "Who lives in Quito?": the people whose fact holds Value
)

// Plan is what a question asks for.
type Plan struct {
	Kind Kind `json:"kind"`
	// Topic is a favorites topic as said ("books"), for the list kinds.
	Topic string `json:"topic,omitempty"`
	// Value is the thing asked about: the member of "Is Dune one of ...", the
	// "nuts" of "allergic to nuts", the "Oslo" of "before Oslo".
	Value string `json:"value,omitempty"`
	// Rank is the N of "in my top N" (ListMember) and of "top N" (ListTop; 0: the
	// whole list).
	Rank int `json:"rank,omitempty"`
	// Position asks where a member ranks ("Where is Bach on my list of favorite
	// composers?"), not whether it is one (ListMember).
	Position bool `json:"position,omitempty"`
	// Relation is the relation the question names ("husband", "kids"), for Who.
	Relation string `json:"relation,omitempty"`
	// Group is the group asked about: "family", "children", "pets", "colleagues",
	// "friends", "anyone".
	Group string `json:"group,omitempty"`
	// Self is set when the question is about the user ("Do I have ...", "my email").
	Self bool `json:"self,omitempty"`
	// Year is the year of "in 2024" (History); Before is set for "before ..." and
	// "used to ...".
	Year   int  `json:"year,omitempty"`
	Before bool `json:"before,omitempty"`
	// Many is set when the question asks for all answers ("Who are my kids?", "What
	// is Lea allergic to?") rather than one.
	Many bool `json:"many,omitempty"`
	// Count asks how many ("How many kids do we have?").
	Count bool `json:"count,omitempty"`
	// When asks since when a value holds ("When did I move to Oslo?"); Ever whether
	// it ever held ("Did I ever live in Rome?"); Always whether it always held
	// ("Have I always lived in Oslo?"); All for every value it had ("Which cities have
	// I lived in?"). History only.
	When   bool `json:"when,omitempty"`
	Ever   bool `json:"ever,omitempty"`
	Always bool `json:"always,omitempty"`
	All    bool `json:"all,omitempty"`
	// Most asks for the member of a group who has the most of something: "oldest",
	// "youngest" ("Which of our pets is the oldest?", "Who is my youngest child?").
	Most string `json:"most,omitempty"`
	// Until asks how long until what Value names ("How many days until my job
	// interview?"): the answer is its date, counted from the question's day.
	Until bool `json:"until,omitempty"`
	// About asks for everything known about someone ("Tell me about Luis").
	About bool `json:"about,omitempty"`
	// Last asks for the bottom of a favorites list when no least favorite is stored
	// ("Which tea is last on my list of favorites?").
	Last bool `json:"last,omitempty"`
}

var (
	reMember  = regexp.MustCompile(`^(?:is|are|was|were) (.+?) (?:still )?(?:one of|among|in|on|part of) my (?:top \d+ |all-time )?favorites? (.+?)(?: list| ranking)?(?: in ((?:19|20)\d\d))?$`)
	reMember2 = regexp.MustCompile(`^(?:do i have|have i got|did i put) (.+?) (?:in|on|among) my favorites? (.+?)(?: list)?$`)
	reMember3 = regexp.MustCompile(`^(?:is|are) (.+?) (?:still )?(?:on|in) my (?:list of )?favorites? (.+?)(?: list)?$`)
	reCount   = regexp.MustCompile(`^how many favorites? (.+?) (?:do i have|have i got|have i (?:saved|listed|named|told you)|are (?:there|on my list|in my list)|did i (?:list|name|save|tell you))$`)
	reCount2  = regexp.MustCompile(`^how (?:many things|many items|long) (?:are|is) (?:on|in)? ?my favorites? (.+?)(?: list)?$`)
	reCount3  = regexp.MustCompile(`^how many (.+?) are (?:on|in|among) my (?:list of )?favorites?(?: list| ranking)?$`)
	reLeast   = regexp.MustCompile(`^(?:what is|what's|whats|which is|which one is|what are|tell me) my least favorite (.+)$`)
	reLast    = regexp.MustCompile(`^(?:which|what) (.+?) is (?:last|at the bottom) (?:on|of) my (?:list of )?favorites?(?: list)?$`)
	reLast2   = regexp.MustCompile(`^(?:which|what) of my favorites? (.+?) do i (?:like|love|enjoy) (?:the )?least$`)
	reLast3   = regexp.MustCompile(`^(?:what is|what's|whats|which is) (?:last|at the bottom) (?:on|of) my favorites? (.+?)(?: list)?$`)
	reListAt  = regexp.MustCompile(`^(?:what|which) (?:was|were) my favorites? (.+?) in ((?:19|20)\d\d)$`)
	reWho     = regexp.MustCompile(`^who(?: is| are|'s|'re) my (.+)$`)
	reWhoName = regexp.MustCompile(`^who(?: is|'s| was) ([a-z][a-z'-]+(?: [a-z][a-z'-]+)?)$`)
	reTopN    = regexp.MustCompile(`^(?:is|are) (.+?) (?:in|among|one of) my top (\d+|` + numberWordsRE + `) (?:favorites? )?(.+?)(?: list)?$`)
	reHaveAny = regexp.MustCompile(`^(?:do|does|have) (?:i|we|my family|our family) (?:have|own|got|have got) (?:any |a |an )?([a-z-]+)$`)
	reName    = regexp.MustCompile(`^(?:what is|what's|whats|what are) (?:my|our) ([a-z' -]+?)(?:'s|s') names?$`)
	reCalled  = regexp.MustCompile(`^(?:what is|what's|whats|what are|how is|how are) (?:my|our) ([a-z -]+?) (?:called|named)$`)
	reNameOf  = regexp.MustCompile(`^(?:what is|what's|whats) the name of (?:my|our) ([a-z -]+)$`)
	reWhoHas  = regexp.MustCompile(`^who (?:works|lives|worked|lived|is working|is living) (?:at|in|for) (.+)$`)
	// "Who is flying to Munich with me?", "Who's coming to the party with us?": the
	// people whose plan holds what follows the verb.
	reWhoWith = regexp.MustCompile(`^who(?: is| are| will be|'s) \w+ing (?:to |at |for |on |in )?(?:the )?(.+?) with (?:me|us)$`)
	reGroupIn = regexp.MustCompile(`\b(?:anyone|anybody|someone|somebody|who|which|any|one|none|either|both|all) (?:in|of|at) (?:my|our) (family|kids|children|friends|colleagues|coworkers|co-workers|team|household|relatives|parents|siblings|pets|dogs|cats|sons|daughters)\b`)
	reGroupAt = regexp.MustCompile(`\b(?:anyone|anybody|someone|somebody) at work\b`)
	reKnown   = regexp.MustCompile(`\b(?:anyone|anybody|someone|somebody|who) (?:i|we) know\b`)
	reMyGroup = regexp.MustCompile(`\b(?:my|our) (kids|children|friends|colleagues|coworkers|co-workers|pets|dogs|cats|relatives|parents|siblings|sons|daughters)\b`)
	reHowMany = regexp.MustCompile(`^how many (kids|children|sons|daughters|pets|dogs|cats|siblings|brothers|sisters|friends|colleagues|grandchildren) (?:do|does|have) `)
	reWhatPet = regexp.MustCompile(`^(?:what|which) (pets|animals|dogs|cats) do (?:i|we) have$`)
	rePets    = regexp.MustCompile(`^(?:do|does) (?:we|i|my family|our family) (?:have|own) (?:any |a )?(pets?|dogs?|cats?|animals?|kids|children)$`)
	reYear    = regexp.MustCompile(`\bin (?:(?:january|february|march|april|may|june|july|august|september|october|november|december) )?((?:19|20)\d\d)\b`)
	reBefore  = regexp.MustCompile(`\bbefore (.+)$`)
	reBefore0 = regexp.MustCompile(`\b(?:before|in the past)$`)
	reUsedTo  = regexp.MustCompile(`\b(?:used to|use to|previously|formerly|last|previous|old|earlier|originally)\b`)
	reSince   = regexp.MustCompile(`^(?:when did (?:i|we|you) (?:move to|start (?:at|working at|working for)|join|become|became|get|put|switch to|change to|begin) |since when (?:have|did) (?:i|we) (?:worked|work|lived|live|been) (?:at|in|for|with) |how long have (?:i|we) (?:worked|lived|been) (?:at|in|for|with) )(.+)$`)
	reAbout   = regexp.MustCompile(`^(?:about|what do you know about|what else do you know about|anything about|what can you tell me about|what have i told you about) (.+)$`)
	reAdded   = regexp.MustCompile(`^when did (?:i|we) (?:add|put) (.+?) (?:to|on|in) my favorites? (.+?)(?: list)?$`)
	reEver    = regexp.MustCompile(`^(?:did|have) (?:i|we) (?:ever |once )?(?:use to |used to )?(?:live|lived|work|worked|study|studied) (?:in|at|for) (.+)$`)
	reAlways  = regexp.MustCompile(`^have (?:i|we) always (?:lived|worked|been) (?:in|at|for|with) (.+)$`)
	reAllOf   = regexp.MustCompile(`^(?:which|what) (cities|places|towns|countries|companies|employers|jobs|emails|addresses) (?:have|did) (?:i|we) (?:lived in|live in|worked at|worked for|work at|work for|had|have)(?: so far| before)?$`)
	reYesNo   = regexp.MustCompile(`^(?:do|does|did|is|are|am|was|were|has|have|can|could|should) `)
)

// The reads of a list said without "favorite ... is": a member's rank, a count, a bare
// noun phrase.
var (
	// "Where does Paddington 2 rank among my favorite movies?", "Where is Bach on my
	// list of favorite composers?", "What number is Heat on my movie list?"
	rePosition = regexp.MustCompile(`^(?:where(?:'s| does| do| did| is| are) (.+?)(?: rank| come| fall| sit| land| stand| place| go)?|(?:what|which) (?:rank|number|position|place|spot) (?:is|are|does|do) (.+?)(?: have| hold)?|how (?:high|far up|far down|low) (?:is|are|does) (.+?)(?: rank| come)?) (?:in|on|among|within) my (?:list of |ranking of )?(?:favorites? (.+?)(?: list| ranking)?|([a-z][a-z ]*?) (?:list|ranking|favorites))$`)
	reCount4   = regexp.MustCompile(`^how many (.+?) (?:do i have|have i got|have i (?:saved|listed|named)|are there|did i (?:list|name|save)) (?:in|on|among) my (?:list of )?favorites?(?: list| ranking)?$`)
	reTerseTop = regexp.MustCompile(`^(?:my |what about my )?top (\d+|` + numberWordsRE + `) (?:favorites? )?([a-z][a-z' -]*)$`)
	reTerseFav = regexp.MustCompile(`^(?:my |what about my )?favorites? ([a-z][a-z' -]*)$`)
	// "Which fruit is last on my list?", "Which season do I like least?", "How many
	// beers are on my list?": a list said without "favorite".
	reLastOn  = regexp.MustCompile(`^(?:which|what) (.+?) is (?:last|at the bottom) (?:on|of|in) my (?:list|ranking)$`)
	reLeastOf = regexp.MustCompile(`^(?:which|what) ([a-z][a-z ]*?) do i (?:like|love|enjoy) (?:the )?least$`)
	reCountOn = regexp.MustCompile(`^how many (.+?) (?:are|do i have) (?:on|in) my (?:list|ranking)$`)
	// "What was my favorite band before?", "What was my previous favorite tea?",
	// "Who used to be my favorite author?": the list's #1 before the one now.
	reFavBefore  = regexp.MustCompile(`^(?:what|which|who) (?:was|were) my favorites? (.+?) before(?: (.+))?$`)
	reFavBefore2 = regexp.MustCompile(`^(?:what|which|who) (?:was|were) my (?:previous|old|former|earlier|last) favorites? (.+)$`)
	reFavBefore3 = regexp.MustCompile(`^(?:what|which|who) used to be my favorites? (.+)$`)
	// "Which of our pets is the oldest?", "Who's the youngest of my kids?", "Who is my
	// oldest child?": the member of a group with the most years, or the fewest.
	reMost  = regexp.MustCompile(`^(?:who|which)(?: one)?(?: of (?:my|our) ([a-z]+))?(?: is|'s) (?:the )?(oldest|eldest|youngest|older|younger)(?: (?:one )?(?:of )?(?:my|our) ([a-z]+))?$`)
	reMost2 = regexp.MustCompile(`^(?:who|which) is (?:my|our) (oldest|eldest|youngest) ([a-z]+)$`)
	// "How many days until my job interview?", "How long until Ivy's birthday?"
	reUntil = regexp.MustCompile(`^how (?:many (?:more )?(?:days|weeks|sleeps)|long|much longer|much time) (?:is it |are there |do i have |have i got |left )?(?:until|till|til|before|to go until) (.+)$`)
	// "Do I like Haskell?": a member of any list (ListMember without a topic), else
	// what the user likes.
	reLike = regexp.MustCompile(`^do i (?:really |still )?(?:like|love|enjoy) (.+)$`)
)

// relationNouns are relations a yes/no question may ask about: "Do I have a brother?".
var relationNouns = map[string]bool{"brother": true, "sister": true, "son": true, "daughter": true, "kid": true,
	"child": true, "wife": true, "husband": true, "partner": true, "boyfriend": true, "girlfriend": true, "dog": true,
	"cat": true, "pet": true, "grandchild": true, "niece": true, "nephew": true, "cousin": true, "roommate": true}

// groupWords maps a word naming people or pets to the group it names.
var groupWords = map[string]string{
	"family": "family", "household": "family", "relatives": "family", "kids": "children", "children": "children",
	"sons": "children", "daughters": "children", "grandchildren": "children",
	"friends": "friends", "colleagues": "colleagues", "coworkers": "colleagues", "co-workers": "colleagues",
	"team": "colleagues", "parents": "parents", "siblings": "siblings", "brothers": "siblings", "sisters": "siblings",
	"pets": "pets", "animals": "pets", "dogs": "dogs", "cats": "cats", "pet": "pets", "dog": "dogs", "cat": "cats",
}

// Of reads a question. ok is false when it is not one this package places; the
// caller then tries the router's reads and the recall.
func Of(q string) (p Plan, ok bool) {
	// A bare noun phrase ("Top 3 cuisines?") is a question only with its mark.
	p, ok = of(clean(q), strings.HasSuffix(strings.TrimSpace(q), "?"))
	p.Value = original(q, p.Value)
	p.Topic = strings.TrimSuffix(p.Topic, " list")
	return p, ok
}

// original returns v as the question spells it ("Dune", not "dune"); v itself when
// the question does not hold it.
func original(q, v string) string {
	if v == "" {
		return ""
	}
	q = strings.NewReplacer("’", "'", "‘", "'").Replace(q)
	if i := strings.Index(strings.ToLower(q), v); i >= 0 && len(strings.ToLower(q)) == len(q) {
		return q[i : i+len(v)]
	}
	return v
}

func of(s string, asked bool) (p Plan, ok bool) {
	if s == "" {
		return Plan{}, false
	}
	if m := reListAt.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[2])
		return Plan{Kind: History, Topic: m[1], Year: y, Self: true, Many: true}, true
	}
	if m := reFavBefore.FindStringSubmatch(s); m != nil {
		return Plan{Kind: History, Topic: m[1], Before: true, Value: m[2], Self: true}, true
	}
	for _, re := range []*regexp.Regexp{reFavBefore2, reFavBefore3} {
		if m := re.FindStringSubmatch(s); m != nil {
			return Plan{Kind: History, Topic: m[1], Before: true, Self: true}, true
		}
	}
	if m := reMember.FindStringSubmatch(s); m != nil {
		if m[3] != "" {
			y, _ := strconv.Atoi(m[3])
			return Plan{Kind: History, Value: m[1], Topic: m[2], Year: y, Self: true, Ever: true}, true
		}
		return Plan{Kind: ListMember, Value: m[1], Topic: m[2], Self: true}, true
	}
	if m := reTopN.FindStringSubmatch(s); m != nil {
		return Plan{Kind: ListMember, Value: m[1], Topic: m[3], Rank: number(m[2]), Self: true}, true
	}
	if m := rePosition.FindStringSubmatch(s); m != nil {
		return Plan{Kind: ListMember, Value: firstOf(m[1:4]), Topic: firstOf(m[4:]), Self: true, Position: true}, true
	}
	if m := reLike.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) <= 4 {
		return Plan{Kind: ListMember, Value: m[1], Self: true}, true
	}
	if m := reTerseTop.FindStringSubmatch(s); m != nil && asked && len(strings.Fields(m[2])) <= 4 {
		return Plan{Kind: ListTop, Topic: m[2], Rank: number(m[1]), Self: true}, true
	}
	if m := reTerseFav.FindStringSubmatch(s); m != nil && asked && len(strings.Fields(m[1])) <= 4 {
		return Plan{Kind: ListTop, Topic: m[1], Self: true}, true
	}
	for _, re := range []*regexp.Regexp{reMember2, reMember3} {
		if m := re.FindStringSubmatch(s); m != nil {
			return Plan{Kind: ListMember, Value: m[1], Topic: m[2], Self: true}, true
		}
	}
	for _, re := range []*regexp.Regexp{reCount, reCount2, reCount3, reCount4, reCountOn} {
		if m := re.FindStringSubmatch(s); m != nil {
			return Plan{Kind: ListCount, Topic: m[1], Self: true}, true
		}
	}
	if m := reLeast.FindStringSubmatch(s); m != nil {
		return Plan{Kind: ListLeast, Topic: m[1], Self: true, Last: true}, true
	}
	for _, re := range []*regexp.Regexp{reLast, reLast2, reLast3, reLastOn, reLeastOf} {
		if m := re.FindStringSubmatch(s); m != nil {
			return Plan{Kind: ListLeast, Topic: m[1], Self: true, Last: true}, true
		}
	}
	if m := reAdded.FindStringSubmatch(s); m != nil {
		return Plan{Kind: History, When: true, Value: m[1], Topic: m[2], Self: true}, true
	}
	if m := reSince.FindStringSubmatch(s); m != nil {
		return Plan{Kind: History, When: true, Value: valueAfterVerb(m[1]), Self: true}, true
	}
	if m := reAlways.FindStringSubmatch(s); m != nil {
		return Plan{Kind: History, Always: true, Value: m[1], Self: true}, true
	}
	if m := reEver.FindStringSubmatch(s); m != nil {
		return Plan{Kind: History, Ever: true, Value: m[1], Self: true}, true
	}
	if m := reAllOf.FindStringSubmatch(s); m != nil {
		return Plan{Kind: History, All: true, Self: true, Many: true}, true
	}
	if m := reUntil.FindStringSubmatch(s); m != nil {
		return Plan{Kind: Facts, Until: true, Value: m[1], Self: selfAsked(m[1])}, true
	}
	if m := reMost.FindStringSubmatch(s); m != nil {
		return mostPlan(cmp.Or(m[1], m[3]), m[2]), true
	}
	if m := reMost2.FindStringSubmatch(s); m != nil {
		return mostPlan(m[2], m[1]), true
	}
	if m := reHowMany.FindStringSubmatch(s); m != nil {
		return Plan{Kind: Group, Group: groupWords[m[1]], Relation: singular(m[1]), Count: true, Many: true}, true
	}
	if m := reWhatPet.FindStringSubmatch(s); m != nil {
		return Plan{Kind: Group, Group: groupWords[m[1]], Many: true}, true
	}
	if m := rePets.FindStringSubmatch(s); m != nil {
		return Plan{Kind: Group, Group: groupWords[plural(m[1])], Many: true}, true
	}
	if m := reHaveAny.FindStringSubmatch(s); m != nil {
		if g, ok := groupWords[m[1]]; ok {
			return Plan{Kind: Group, Group: g, Many: true}, true
		}
		if relationNouns[singular(m[1])] {
			return Plan{Kind: Group, Group: "anyone", Relation: singular(m[1]), Many: true}, true
		}
	}
	for _, re := range []*regexp.Regexp{reName, reCalled, reNameOf} {
		if m := re.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) <= 3 {
			if g, ok := groupWords[m[1]]; ok && strings.HasSuffix(m[1], "s") {
				return Plan{Kind: Group, Group: g, Many: true}, true
			}
			return Plan{Kind: Who, Relation: singular(m[1]), Many: strings.HasSuffix(m[1], "s")}, true
		}
	}
	if m := reAbout.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) <= 3 {
		return Plan{Kind: Facts, About: true, Value: "", Self: m[1] == "me" || m[1] == "myself", Many: true}, true
	}
	if m := reWhoHas.FindStringSubmatch(s); m != nil {
		return Plan{Kind: WhoHas, Value: m[1], Many: true}, true
	}
	if m := reWhoWith.FindStringSubmatch(s); m != nil {
		return Plan{Kind: WhoHas, Value: m[1], Many: true}, true
	}
	if m := reWho.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) <= 3 && !strings.Contains(m[1], "'s ") {
		rel := m[1]
		if g, ok := groupWords[rel]; ok && g != "family" && g != "siblings" && g != "dogs" && g != "cats" && rel != "sons" && rel != "daughters" {
			return Plan{Kind: Group, Group: g, Many: true}, true
		}
		return Plan{Kind: Who, Relation: singular(rel), Many: strings.HasPrefix(s, "who are")}, true
	}
	if m := reWhoName.FindStringSubmatch(s); m != nil && !strings.HasPrefix(m[1], "my ") && !strings.HasPrefix(m[1], "the ") && !strings.Contains(m[1], "'") {
		return Plan{Kind: Who, Value: m[1]}, true
	}
	if m := reYear.FindStringSubmatch(s); m != nil && pastTense(s) {
		y, _ := strconv.Atoi(m[1])
		return Plan{Kind: History, Year: y, Self: selfAsked(s)}, true
	}
	if m := reBefore.FindStringSubmatch(s); m != nil && pastTense(s) {
		return Plan{Kind: History, Before: true, Value: valueAfterVerb(m[1]), Self: selfAsked(s)}, true
	}
	if (reUsedTo.MatchString(s) || reBefore0.MatchString(s)) && pastTense(s) {
		return Plan{Kind: History, Before: true, Self: selfAsked(s)}, true
	}
	group := ""
	if m := reGroupIn.FindStringSubmatch(s); m != nil {
		group = groupWords[m[1]]
	} else if reGroupAt.MatchString(s) {
		group = "colleagues"
	} else if reKnown.MatchString(s) {
		group = "anyone"
	} else if m := reMyGroup.FindStringSubmatch(s); m != nil {
		group = groupWords[m[1]]
	}
	if group != "" {
		return Plan{Kind: Group, Group: group, Many: true, Value: groupValue(s)}, true
	}
	if reYesNo.MatchString(s) || strings.HasPrefix(s, "any ") {
		return Plan{Kind: YesNo, Self: selfAsked(s), Many: true, Value: yesNoValue(s)}, true
	}
	return Plan{Kind: Facts, Self: selfAsked(s), Many: manyAsked(s)}, true
}

// mostPlan is the plan of a superlative over a group named by noun ("pets", "kids",
// "child", "" for everyone): most is "oldest" or "youngest" ("eldest" and, of two,
// "older" are oldest).
func mostPlan(noun, most string) Plan {
	switch most {
	case "eldest", "older":
		most = "oldest"
	case "younger":
		most = "youngest"
	}
	p := Plan{Kind: Group, Group: "anyone", Most: most}
	if g, ok := groupWords[noun]; ok {
		p.Group = g // "kids", "pets"
	} else if noun != "" {
		p.Relation = singular(noun) // "son", "child", "dog"
	}
	return p
}

// valueAfterVerb takes a leading clause off a value: "i became a senior data
// scientist" -> "senior data scientist", "i moved to oslo" -> "oslo".
func valueAfterVerb(v string) string {
	for _, p := range []string{"i became ", "i become ", "i moved to ", "i started at ", "i started working at ", "i joined ",
		"i lived in ", "i worked at ", "i worked for ", "we moved to ", "i got "} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			v = rest
			break
		}
	}
	for _, a := range []string{"a ", "an ", "the "} {
		v = strings.TrimPrefix(v, a)
	}
	return v
}

// groupValue is what a group question asks its members about: "allergic to nuts" ->
// "nuts", "is 12" -> "12", "speaks german" -> "german"; "" when it asks about a kind
// of fact ("have allergies").
func groupValue(s string) string {
	if v := yesNoValue(s); v != "" {
		return v
	}
	for _, d := range []string{"vegan", "vegetarian", "pescatarian", "gluten-free", "lactose intolerant"} {
		if strings.HasSuffix(s, " "+d) {
			return d
		}
	}
	for _, p := range []string{" speaks ", " speak ", " is ", " are ", " plays ", " play ", " drives ", " drive ", " owns ", " own "} {
		if i := strings.LastIndex(s, p); i >= 0 {
			v := strings.TrimSpace(s[i+len(p):])
			if v != "" && !strings.ContainsAny(v, " ") && v != "vegan" && v != "vegetarian" || isNumber(v) {
				return v
			}
			if v == "vegan" || v == "vegetarian" {
				return v
			}
		}
	}
	return ""
}

// firstOf returns the first non-empty group.
func firstOf(groups []string) string {
	for _, g := range groups {
		if g != "" {
			return g
		}
	}
	return ""
}

// numberWordsRE matches the number words "one" to "twenty".
const numberWordsRE = `one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty`

// number reads a whole number in digits or words ("3", "three"); 0 when it is none.
func number(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	for i, w := range strings.Split(numberWordsRE, "|") {
		if w == s {
			return i + 1
		}
	}
	return 0
}

func isNumber(v string) bool {
	_, err := strconv.Atoi(v)
	return err == nil
}

func plural(w string) string {
	if strings.HasSuffix(w, "s") || w == "children" {
		return w
	}
	return w + "s"
}

// clean lower-cases a question, folds curly apostrophes and drops its end
// punctuation and leading courtesies.
func clean(q string) string {
	s := strings.ToLower(strings.TrimSpace(q))
	s = strings.NewReplacer("’", "'", "‘", "'", "favourite", "favorite").Replace(s)
	s = strings.TrimRight(s, "?!. ")
	for _, p := range []string{"hey, ", "hey ", "so, ", "so ", "quick question: ", "quick question, ", "remind me, ", "remind me: ",
		"can you tell me ", "could you tell me ", "do you know ", "do you remember ", "tell me ", "please, ", "please "} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.Join(strings.Fields(s), " ")
	return s
}

// tail returns what follows part in s, trimmed.
func tail(s, part string) string {
	i := strings.Index(s, part)
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(s[i+len(part):])
}

// singular turns a plural relation into its singular: "sisters" -> "sister".
func singular(w string) string {
	switch w {
	case "children", "kids":
		return "child"
	case "wives":
		return "wife"
	}
	if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3 {
		return strings.TrimSuffix(w, "s")
	}
	return w
}

// selfAsked reports whether the question is about the user.
func selfAsked(s string) bool {
	for _, w := range strings.Fields(s) {
		switch w {
		case "i", "me", "my", "mine", "i'm", "i've", "am":
			return true
		}
	}
	return false
}

// manyAsked reports whether the question asks for all answers of a kind.
func manyAsked(s string) bool {
	return strings.HasPrefix(s, "what are") || strings.HasPrefix(s, "which ") || strings.Contains(s, " allergic to") ||
		strings.HasPrefix(s, "what languages") || strings.HasPrefix(s, "what does") && strings.HasSuffix(s, " like")
}

// pastTense reports whether the question asks about the past.
func pastTense(s string) bool {
	for _, w := range strings.Fields(s) {
		switch w {
		case "was", "were", "did", "used", "had", "lived", "worked", "previously", "before", "formerly":
			return true
		}
	}
	return false
}

// yesNoValue is the thing a yes/no question asks about: "allergic to nuts" -> "nuts",
// "have a dog" -> "dog"; "" when it asks about a kind of fact ("any allergies").
func yesNoValue(s string) string {
	for _, p := range []string{" allergic to ", " afraid of ", " scared of ", " live in ", " lives in ", " work at ", " works at ", " work for ", " works for "} {
		if i := strings.Index(s, p); i >= 0 {
			v := strings.TrimSpace(s[i+len(p):])
			v = strings.TrimPrefix(v, "any ")
			if v == "anything" || v == "something" || v == "anyone" {
				return ""
			}
			return v
		}
	}
	return ""
}
