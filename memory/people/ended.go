package people

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/normalize"
	"github.com/factbase/factbase/personal"
	"github.com/factbase/factbase/text"
)

// endedKeysOff are keys an ending never retracts without naming them: identity and
// contact facts, and lists, which the router edits ("remove X from my favorite Y").
func endedKeysOff(key string) bool {
	return strings.HasPrefix(key, factbase.FavoritesPrefix) || strings.HasPrefix(key, factbase.LeastFavoritePrefix) ||
		strings.HasPrefix(key, "contact.") || key == factbase.KeyRelation || key == factbase.KeyBirthday ||
		key == factbase.KeyName
}

// endedOps plans the retractions of the endings the user states in message ("I'm
// not vegetarian anymore", "I sold the Focus", "the dentist appointment got
// cancelled"): each retracts the user's current facts that hold its value, of its
// keys (any key but identity, contact and list keys when it names none), unless this
// message sets that key of one value anew. An ending that matches nothing stored changes nothing.
// It returns each fact to retract with its reply line.
func endedFacts(ctx context.Context, tx factbase.ReadTx, tp *text.Parse, info MessageInfo, sets []factbase.Op) ([]Ended, error) {
	if info.Speaker != "" && info.Speaker != personal.SpeakerUser {
		return nil, nil
	}
	ends := personal.EndingsText(tp)
	if len(ends) == 0 {
		return nil, nil
	}
	// The facts an ending may end: those of its keys, or the user's newest.
	var facts []factbase.Fact
	read := map[string]bool{}
	for _, en := range ends {
		keys := en.Keys
		if len(keys) == 0 {
			keys = []string{""}
		}
		for _, k := range keys {
			if read[k] {
				continue
			}
			read[k] = true
			fs, err := tx.Facts(ctx, factbase.FactFilter{Subject: factbase.SubjectUser, Key: k, NewestFirst: true, Limit: 1000})
			if err != nil {
				return nil, err
			}
			facts = append(facts, fs...)
		}
	}
	// A key of one value set anew supersedes the old value; a key of many does not:
	// "I sold the Focus and bought a Kia EV6" adds the Kia and ends the Focus.
	setKeys := map[string]bool{}
	for _, op := range sets {
		if op.Kind == factbase.OpSet && op.Fact.Cardinality != factbase.Many &&
			(op.Fact.Subject == "" || op.Fact.Subject == factbase.SubjectUser) {
			setKeys[op.Fact.Key] = true
		}
	}
	var (
		out  []Ended
		done = map[string]bool{}
	)
	for _, en := range ends {
		for _, f := range facts {
			switch {
			case done[f.ID] || setKeys[f.Key] || !f.Current:
				continue
			case len(en.Keys) > 0 && !slices.Contains(en.Keys, f.Key):
				continue
			case len(en.Keys) == 0 && endedKeysOff(f.Key):
				continue
			case !containsRun(normalize.Words(f.Value), en.Words) && !plannedMatch(f, en.Words):
				continue
			}
			done[f.ID] = true
			reply := fmt.Sprintf("Noted: %s is no longer your %s.", f.Value, personalKeyNoun(f.Key))
			if f.Key == factbase.KeyPlan || f.Key == factbase.KeySchedule || f.Key == factbase.KeyTravel {
				reply = fmt.Sprintf("Noted: %s is cancelled.", f.Value)
			}
			out = append(out, Ended{ID: f.ID, Key: f.Key, Reply: reply})
		}
	}
	return out, nil
}

// containsRun reports whether words holds run as consecutive words.
func containsRun(words, run []string) bool {
	if len(run) == 0 {
		return false
	}
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// eventWords name a kind of plan, not which one: "the Rome trip" is the plan that
// names Rome.
var eventWords = map[string]bool{"trip": true, "flight": true, "holiday": true, "vacation": true,
	"plans": true, "plan": true, "visit": true, "journey": true}

// plannedMatch reports whether a plan, trip or schedule holds every word of an
// ending but the kind of plan: "The Rome trip is off" ends "going to Rome on
// Friday". At least one word must name it.
func plannedMatch(f factbase.Fact, words []string) bool {
	if f.Key != factbase.KeyPlan && f.Key != factbase.KeyTravel && f.Key != factbase.KeySchedule {
		return false
	}
	have := normalize.Words(f.Value)
	n := 0
	for _, w := range words {
		if eventWords[w] {
			continue
		}
		if !slices.Contains(have, w) {
			return false
		}
		n++
	}
	return n > 0
}
