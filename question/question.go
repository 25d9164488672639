// Package question plans the answer to a question about the user: which kind of
// read answers it (a ranked list's count, membership or least favorite; a person's
// facts; a group's; a yes/no question; an earlier value; a time window; or the
// assembled recall), and what it names. It is deterministic and pure: Plan reads the
// words only, and memory/chat's Ask runs the plan against the store. Questions about
// favorites that the router already reads (ordinal, whole list, top N) and about the
// user's basics stay the router's.
package question

import (
	"regexp"
	"strconv"
	"strings"
)

// Kind is the kind of read that answers a question.
type Kind string

// The kinds of plan.
const (
	ListCount  Kind = "list_count"  // "How many favorite podcasts do I have?"
	ListMember Kind = "list_member" // "Is Dune one of my favorite books?"
	ListLeast  Kind = "list_least"  // "What's my least favorite food?"
	Who        Kind = "who"         // "Who is my husband?", "Who are my kids?"
	Group      Kind = "group"       // "Do we have any pets?", "Who in my family ...?"
	YesNo      Kind = "yes_no"      // "Do I have any allergies?", "Is Ben allergic to nuts?"
	History    Kind = "history"     // "Where did I live before Oslo?", "What was my email in 2024?"
	Facts      Kind = "facts"       // "Where does my brother work?", "How old is Max?": recall, read by subject and intent
)

// Plan is what a question asks for.
type Plan struct {
	Kind Kind `json:"kind"`
	// Topic is a favorites topic as said ("books"), for the list kinds.
	Topic string `json:"topic,omitempty"`
	// Value is the thing asked about: the member of "Is Dune one of ...", the
	// "nuts" of "allergic to nuts", the "Oslo" of "before Oslo".
	Value string `json:"value,omitempty"`
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
}

var (
	reMember  = regexp.MustCompile(`^(?:is|are) (.+?) (?:still )?(?:one of|among|in|on|part of) my (?:top \d+ |all-time )?(?:favorite|favourite)s? (.+?)(?: list| ranking)?$`)
	reMember2 = regexp.MustCompile(`^(?:do i have|have i got|did i put) (.+?) (?:in|on|among) my (?:favorite|favourite)s? (.+?)(?: list)?$`)
	reMember3 = regexp.MustCompile(`^(?:is|are) (.+?) (?:still )?(?:on|in) my (?:list of )?(?:favorite|favourite)s? (.+?)(?: list)?$`)
	reCount   = regexp.MustCompile(`^how many (?:favorite|favourite)s? (.+?) (?:do i have|have i got|have i (?:saved|listed|named|told you)|are (?:there|on my list|in my list)|did i (?:list|name|save|tell you))$`)
	reCount2  = regexp.MustCompile(`^how (?:many things|many items|long) (?:are|is) (?:on|in)? ?my (?:favorite|favourite)s? (.+?)(?: list)?$`)
	reCount3  = regexp.MustCompile(`^how many (.+?) are (?:on|in) my (?:favorite|favourite)s? (?:list|ranking)$`)
	reLeast   = regexp.MustCompile(`^(?:what is|what's|whats|which is|which one is|what are|tell me) my least (?:favorite|favourite) (.+)$`)
	reWho     = regexp.MustCompile(`^who (?:is|are|'s) my (.+)$`)
	reGroup   = regexp.MustCompile(`\b(?:anyone|anybody|someone|somebody|who) (?:in|of) (?:my|our) (family|kids|children|friends|colleagues|coworkers|co-workers|team|household)\b`)
	rePets    = regexp.MustCompile(`^(?:do|does) (?:we|i|my family|our family) (?:have|own) (?:any |a )?(pets?|dogs?|cats?|animals?)$`)
	reAnyOf   = regexp.MustCompile(`^(?:are|is|do|does) (?:any|either|both|all) of (?:my|our) (kids|children|friends|colleagues|coworkers|parents|siblings|family) (.+)$`)
	reYear    = regexp.MustCompile(`\bin ((?:19|20)\d\d)\b`)
	reBefore  = regexp.MustCompile(`\bbefore (.+)$`)
	reUsedTo  = regexp.MustCompile(`\b(?:used to|use to|previously|formerly|last|previous|old|earlier|originally)\b`)
	reYesNo   = regexp.MustCompile(`^(?:do|does|did|is|are|am|was|were|has|have|can|could|should) `)
)

// groups maps a group word to the group it names.
var groups = map[string]string{
	"family": "family", "household": "family", "kids": "children", "children": "children",
	"friends": "friends", "colleagues": "colleagues", "coworkers": "colleagues", "co-workers": "colleagues",
	"team": "colleagues", "parents": "parents", "siblings": "siblings",
}

// Of reads a question. ok is false when it is not one this package places; the
// caller then tries the router's reads and the recall.
func Of(q string) (p Plan, ok bool) {
	p, ok = of(clean(q))
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

func of(s string) (p Plan, ok bool) {
	if s == "" {
		return Plan{}, false
	}
	if m := reMember.FindStringSubmatch(s); m != nil {
		return Plan{Kind: ListMember, Value: m[1], Topic: m[2], Self: true}, true
	}
	if m := reMember2.FindStringSubmatch(s); m != nil {
		return Plan{Kind: ListMember, Value: m[1], Topic: m[2], Self: true}, true
	}
	if m := reMember3.FindStringSubmatch(s); m != nil {
		return Plan{Kind: ListMember, Value: m[1], Topic: m[2], Self: true}, true
	}
	for _, re := range []*regexp.Regexp{reCount, reCount2, reCount3} {
		if m := re.FindStringSubmatch(s); m != nil {
			return Plan{Kind: ListCount, Topic: m[1], Self: true}, true
		}
	}
	if m := reLeast.FindStringSubmatch(s); m != nil {
		return Plan{Kind: ListLeast, Topic: m[1], Self: true}, true
	}
	if m := rePets.FindStringSubmatch(s); m != nil {
		return Plan{Kind: Group, Group: "pets", Many: true}, true
	}
	if m := reGroup.FindStringSubmatch(s); m != nil {
		v := tail(s, m[0])
		if y := yesNoValue(" " + v); y != "" {
			v = y
		}
		return Plan{Kind: Group, Group: groups[m[1]], Many: true, Value: v}, true
	}
	if m := reAnyOf.FindStringSubmatch(s); m != nil {
		return Plan{Kind: Group, Group: groups[m[1]], Many: true, Value: m[2]}, true
	}
	if m := reWho.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) <= 3 {
		rel := m[1]
		many := strings.HasPrefix(s, "who are")
		if g, ok := groups[rel]; ok && (g == "children" || g == "friends" || g == "colleagues" || g == "parents" || g == "siblings") {
			return Plan{Kind: Group, Group: g, Many: true}, true
		}
		if rel == "pets" || rel == "pet" {
			return Plan{Kind: Group, Group: "pets", Many: true}, true
		}
		return Plan{Kind: Who, Relation: singular(rel), Many: many}, true
	}
	if m := reYear.FindStringSubmatch(s); m != nil && pastTense(s) {
		y, _ := strconv.Atoi(m[1])
		return Plan{Kind: History, Year: y, Self: selfAsked(s)}, true
	}
	if m := reBefore.FindStringSubmatch(s); m != nil && pastTense(s) {
		return Plan{Kind: History, Before: true, Value: m[1], Self: selfAsked(s)}, true
	}
	if reUsedTo.MatchString(s) && pastTense(s) {
		return Plan{Kind: History, Before: true, Self: selfAsked(s)}, true
	}
	if reYesNo.MatchString(s) {
		return Plan{Kind: YesNo, Self: selfAsked(s), Many: true, Value: yesNoValue(s)}, true
	}
	return Plan{Kind: Facts, Self: selfAsked(s), Many: manyAsked(s)}, true
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
			return v
		}
	}
	return ""
}
