package answers

import (
	"context"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/chat"
	"github.com/factbase/factbase/memory/people"
)

// Answer is what is scored of the engine's answer: its items and its reply, and what
// the answer says outright when it says it (a yes or no, a count). Everything the
// harness knows of the engine's answer shape is in Ask and FromAsk.
type Answer struct {
	Items []Item `json:"items"`
	Reply string `json:"reply"`
	// Yes is the answer's yes (true) or no (false) when it gives one as a field; nil:
	// read from the reply's first word.
	Yes *bool `json:"yes,omitempty"`
	// Count is the number the answer gives as a field; nil: read from the reply.
	Count *int `json:"count,omitempty"`
}

// Item is one answer item.
type Item struct {
	Value string `json:"value"`
	Rank  int    `json:"rank,omitempty"`
	// ID is the stored fact (or episode, or entity) the item came from; "": none
	// given. A given id that is not stored makes the item invented.
	ID string `json:"id,omitempty"`
}

// Ask asks question of e for user at now, through the engine's ask entry point, and
// returns the answer as scored. now is given as the message's time in ctx (the
// engine's store clock says the same when Run drives it).
func Ask(ctx context.Context, e *memory.Engine, user factbase.UserID, question string, now time.Time) (Answer, error) {
	ctx = people.WithMessage(ctx, people.MessageInfo{Time: now, Speaker: "user"})
	r, err := e.Chat.Ask(ctx, user, question)
	if err != nil {
		return Answer{}, err
	}
	return FromAsk(r), nil
}

// FromAsk is the one adapter from the engine's answer (chat.AskResult) to what is
// scored: the items of every query's answer, in order, and the reply.
func FromAsk(r chat.AskResult) Answer {
	a := Answer{Reply: r.Reply, Items: []Item{}}
	answers := r.Answers
	if len(answers) == 0 {
		answers = []chat.Answer{{Items: r.Items}}
	}
	for _, an := range answers {
		for _, it := range an.Items {
			a.Items = append(a.Items, Item{Value: it.Value, Rank: it.Rank, ID: it.ID})
		}
	}
	return a
}

// YesNo is the answer's yes or no: its field, else the reply's first word ("Yes",
// "No", ...); ok is false when it gives neither.
func (a Answer) YesNo() (yes, ok bool) {
	if a.Yes != nil {
		return *a.Yes, true
	}
	w := words(a.Reply)
	if len(w) == 0 {
		return false, false
	}
	switch w[0] {
	case "yes", "yeah", "yep", "correct", "right":
		return true, true
	case "no", "nope":
		return false, true
	}
	return false, false
}

// dontKnow are the phrases of a reply that says it does not know. Matched on the
// reply's words.
var dontKnow = []string{
	"don't know", "do not know", "dont know", "not know", "no idea", "not sure", "i'm not aware",
	"none stored", "nothing stored", "not stored", "no stored", "haven't stored", "have not stored",
	"nothing about", "no record", "haven't told me", "have not told me", "never told me",
	"don't have", "do not have any record", "i have nothing", "nothing on", "can't find", "cannot find",
	"couldn't find", "could not find", "no information", "don't remember", "do not remember",
	"there is no", "there's no", "no such",
}

// Abstains reports whether a says it does not know: no items, and a reply with one of
// the phrases of dontKnow.
func (a Answer) Abstains() bool {
	if len(a.Items) > 0 {
		return false
	}
	r := " " + strings.Join(words(strings.ReplaceAll(a.Reply, "’", "'")), " ") + " "
	for _, p := range dontKnow {
		if strings.Contains(r, " "+strings.Join(words(p), " ")+" ") {
			return true
		}
	}
	return false
}
